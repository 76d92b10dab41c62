package live_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestThePitPausesReopensAndClosesAnAutomaticTable: at a hosted automatic table the pause
// lets the round under way end, then the table stays still, however long, and is not
// judged stuck; reopened, it opens its next round at once (the fake clock does not move);
// closed, it takes no command, and the closing is in its journal for the next host.
func TestThePitPausesReopensAndClosesAnAutomaticTable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "pause.db")
	db := openDB(t, path)
	clock := live.NewFakeClock(epoch)
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "a", Shuffle: seededShuffle(5)})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Create(ctx, live.Spec{ID: "auto", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"}, Schedule: quick}); err != nil {
		t.Fatal(err)
	}
	pit := table.Header{Role: table.RolePit, Actor: "pit-1", Reason: "staff break"}
	submit := func(c table.Command) {
		t.Helper()
		if _, err := h.Submit(ctx, "auto", c); err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
	}
	advanceUntil := func(ok func(table.State) bool) table.State {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			if snap, err := h.Snapshot("auto", ""); err == nil && ok(snap.State) {
				return snap.State
			}
			if time.Now().After(deadline) {
				t.Fatal("the table never got there")
			}
			clock.Advance(time.Millisecond)
			time.Sleep(200 * time.Microsecond)
		}
	}
	advanceUntil(func(st table.State) bool { return st.BetOpen })
	submit(&table.Pause{Header: pit})
	st := advanceUntil(func(st table.State) bool { return st.Phase == table.PhaseSettled || st.Phase == table.PhaseVoid })
	if !st.Paused || st.Round != 1 {
		t.Fatalf("the round under way did not end as usual: round %d %s, paused %v", st.Round, st.Phase, st.Paused)
	}
	clock.Advance(time.Hour)
	time.Sleep(20 * time.Millisecond)
	if snap, _ := h.Snapshot("auto", ""); snap.State.Seq != st.Seq {
		t.Fatalf("a paused table moved: event %d, was %d", snap.State.Seq, st.Seq)
	}
	if p := h.Progress(); len(p) != 1 || !p[0].Stopped || p[0].StuckAfter != 0 {
		t.Fatalf("a paused table's progress: %+v", p)
	}
	submit(&table.Reopen{Header: pit})
	waitFor(t, h, func(st table.State) bool { return st.BetOpen && st.Round == 2 && !st.Paused })
	submit(&table.Pause{Header: pit})
	advanceUntil(func(st table.State) bool { return st.Phase == table.PhaseSettled || st.Phase == table.PhaseVoid })
	submit(&table.CloseTable{Header: pit})
	if _, err := h.Submit(ctx, "auto", &table.Reopen{Header: pit}); baccarat.ErrorCode(err) != baccarat.CodeBadState {
		t.Fatalf("a closed table took a command: %v", err)
	}
	h.Close()
	h2 := live.New(live.Options{Store: db, Clock: clock, Owner: "b", Shuffle: seededShuffle(5)})
	if err := h2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if st := waitFor(t, h2, func(table.State) bool { return true }); !st.Closed || st.Shoe.Active {
		t.Fatalf("the next host's table: closed %v, shoe active %v", st.Closed, st.Shoe.Active)
	}
}
