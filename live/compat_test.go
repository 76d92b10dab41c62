package live_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/verify"
)

// TestJournalOfTheFirstReleaseLoads: testdata/fixtures/journal-v1.db was written by the
// platform's first release (six automatic tables and a dealer table played for a few
// minutes, stopped with rounds under way). Today's code must migrate it, verify it, and
// recover and go on playing every table from it.
func TestJournalOfTheFirstReleaseLoads(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	copyFile(t, "testdata/fixtures/journal-v1.db", path)
	db := openDB(t, path)
	rep, err := verify.Database(ctx, db, time.Now())
	if err != nil || !rep.OK() || rep.Tables != 7 || rep.Rounds < 150 {
		t.Fatalf("verify of the first release's journal: %+v, %v", rep, err)
	}
	clock := live.NewFakeClock(time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC))
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "compat", Shuffle: seededShuffle(9)})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	tables := h.Tables(ctx)
	if len(tables) != 7 {
		t.Fatalf("recovered %d tables, want 7", len(tables))
	}
	for _, ti := range tables {
		if ti.Spec.Config.Mode != ti.Spec.Mode {
			t.Errorf("table %s: its mode %q was not carried into its config", ti.Spec.ID, ti.Spec.Mode)
		}
	}
	// The automatic tables go on: a few rounds on the clock, then the books still balance.
	for i := 0; i < 120; i++ {
		clock.Advance(time.Second)
		time.Sleep(2 * time.Millisecond)
	}
	snap, err := h.Snapshot("mbs-tiger", "")
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Round <= 27 {
		t.Fatalf("mbs-tiger did not play on after recovery: round %d", snap.State.Round)
	}
	h.Close()
	rep, err = verify.Database(ctx, db, time.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify after playing on: %+v, %v", rep, err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
