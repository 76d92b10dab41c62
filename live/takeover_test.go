package live_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/postgres"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// pgSchema opens n pools on one fresh PostgreSQL schema: n servers sharing a database.
func pgSchema(t *testing.T, n int) []*postgres.DB { return pgSchemaB(t, n) }

func pgSchemaB(t testing.TB, n int) []*postgres.DB {
	t.Helper()
	dsn := os.Getenv("BACCARAT_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("BACCARAT_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("live_%016x", rand.Uint64())
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, dsn); err == nil {
			_, _ = c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			c.Close(ctx)
		}
	})
	var dbs []*postgres.DB
	for i := 0; i < n; i++ {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			t.Fatal(err)
		}
		cfg.RuntimeParams["search_path"] = schema
		db, err := postgres.OpenConfig(ctx, cfg, 4)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	return dbs
}

// TestTakeoverOnPostgres: two hosts share a database; the one running a table dies in the
// middle of a round; when its lease lapses the other takes the table over, resumes the round
// from the journal (interrupted, with a withdrawal window) and settles it.
func TestTakeoverOnPostgres(t *testing.T) {
	dbs := pgSchema(t, 2)
	ctx := context.Background()
	clockA, clockB := live.NewFakeClock(epoch), live.NewFakeClock(epoch)
	a := live.New(live.Options{Store: dbs[0], Clock: clockA, Owner: "server-a", LeaseTTL: 2 * time.Second})
	if err := a.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	if err := a.Credit(ctx, "c-ann", "ann", live.PlayMoney, 10_000); err != nil {
		t.Fatal(err)
	}
	b := live.New(live.Options{Store: dbs[1], Clock: clockB, Owner: "server-b", LeaseTTL: 2 * time.Second})
	if err := b.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Snapshot("t1", ""); err == nil {
		t.Fatal("server b runs a table server a holds")
	}
	submit(t, a, "t1", &table.NewShoe{})
	submit(t, a, "t1", &table.Open{})
	submit(t, a, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1000})
	submit(t, a, "t1", &table.Close{})
	cards(t, a, "t1", "2h", "3d", "3c")
	a.Abandon() // server a dies mid-deal; its lease is not released

	var snap *live.Snapshot
	for i := 0; i < 50 && snap == nil; i++ {
		clockB.Advance(time.Second) // the lease lapses; b's adoption loop takes the table
		time.Sleep(20 * time.Millisecond)
		snap, _ = b.Snapshot("t1", "")
	}
	if snap == nil {
		t.Fatal("server b never took the table over")
	}
	if !snap.State.Interrupted || len(snap.State.Cards) != 3 {
		t.Fatalf("the round must resume interrupted with its three cards: %+v", snap.State)
	}
	submit(t, b, "t1", &table.Resume{})
	cards(t, b, "t1", "3s", "9d") // Banker wins on a two-card 6: 1:2
	if got := balance(t, b, "ann"); got != 10_500 {
		t.Fatalf("after takeover: balance %d, want 10500", got)
	}
	rep, err := verify.Database(ctx, dbs[1], time.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

func TestLiveOnPostgres(t *testing.T) {
	dbs := pgSchema(t, 1)
	ctx := context.Background()
	h := newHost(t, dbs[0], live.NewFakeClock(epoch))
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "rws-no-commission"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	_ = h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000)
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1005})
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "3d", "3c", "3s", "9d")
	if got := balance(t, h, "ann"); got != 100_502 {
		t.Fatalf("RWS 4.1.1 on PostgreSQL: balance %d, want 100502", got)
	}
}
