package live_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// TestAFullDiskIsUnavailableNotAMissingTable: with the disk full, a wager is refused as
// unavailable (503: try again), nothing of it is written, and the table is still there for
// its players (its snapshot answers); once there is room again the same wager is placed.
func TestAFullDiskIsUnavailableNotAMissingTable(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	if err := h.Create(ctx, live.Spec{ID: "t1", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}}); err != nil {
		t.Fatal(err)
	}
	if err := h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	dealer := table.Header{Actor: "d", Role: table.RoleDealer}
	for _, c := range []table.Command{&table.NewShoe{Header: dealer}, &table.Open{Header: dealer}} {
		if _, err := h.Submit(ctx, "t1", c); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := db.Head(ctx, "t1")
	if err := db.LimitGrowth(ctx, 0); err != nil {
		t.Fatal(err)
	}
	wager := func(id string) error {
		_, err := h.Submit(ctx, "t1", &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann",
			Bet: "banker", Stake: 1000, RequestID: id})
		return err
	}
	refused := 0
	for i := range 20 { // enough wagers to need a new page
		err := wager("full-" + string(rune('a'+i)))
		if err == nil {
			continue
		}
		if c := baccarat.ErrorCode(err); c != baccarat.CodeUnavailable {
			t.Fatalf("a wager on a full disk: %v, want unavailable", err)
		}
		refused++
		break
	}
	if refused == 0 {
		t.Fatal("twenty wagers fitted in the pages left: fill the disk sooner")
	}
	if _, err := h.Snapshot("t1", ""); err != nil {
		t.Fatalf("the table went missing while its disk was full: %v", err)
	}
	mid, _ := db.Head(ctx, "t1")
	if err := db.LimitGrowth(ctx, -1); err != nil {
		t.Fatal(err)
	}
	if err := wager("after"); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	after, _ := db.Head(ctx, "t1")
	if after.Seq != mid.Seq+1 || mid.Seq < before.Seq {
		t.Fatalf("heads %d, %d, %d", before.Seq, mid.Seq, after.Seq)
	}
	if rep, err := verify.Database(ctx, db, epoch); err != nil || !rep.OK() {
		t.Fatalf("verify: %v %+v", err, rep.Problems)
	}
}

// flakyRenewals is a real store whose lease renewals and acquisitions fail (the database out
// of reach) while armed.
type flakyRenewals struct {
	live.Store
	armed atomic.Bool
}

func (s *flakyRenewals) Renew(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) error {
	if s.armed.Load() {
		return baccarat.Errorf(baccarat.CodeUnavailable, "injected: the database cannot be reached")
	}
	return s.Store.Renew(ctx, table, owner, ttl, now)
}

func (s *flakyRenewals) Acquire(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) (bool, error) {
	if s.armed.Load() {
		return false, baccarat.Errorf(baccarat.CodeUnavailable, "injected: the database cannot be reached")
	}
	return s.Store.Acquire(ctx, table, owner, ttl, now)
}

// TestALeaseRenewalThatFailsIsRetriedWhileTheLeaseRuns: a renewal the store cannot take is
// not a lost lease: the table stays while its lease surely runs, and goes on when the store
// answers again; a renewal failing until the lease might have run out stops the table,
// which then writes nothing.
func TestALeaseRenewalThatFailsIsRetriedWhileTheLeaseRuns(t *testing.T) {
	ctx := context.Background()
	clock := live.NewFakeClock(epoch)
	store := &flakyRenewals{Store: openDB(t, "")}
	h := live.New(live.Options{Store: store, Clock: clock, Owner: "test", LeaseTTL: 15 * time.Second, Shuffle: seededShuffle(1)})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	if err := h.Create(ctx, live.Spec{ID: "t1", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}}); err != nil {
		t.Fatal(err)
	}
	step := func(d time.Duration) {
		// 5 ms of real time for each quarter second: the renewals (and their retries) keep
		// pace with the clock on a loaded machine, so the lease ends only where the test says.
		for end := clock.Now().Add(d); clock.Now().Before(end); {
			clock.Advance(250 * time.Millisecond)
			time.Sleep(5 * time.Millisecond)
		}
	}
	store.armed.Store(true)
	step(8 * time.Second) // renewals fail; the lease still runs
	if _, err := h.Snapshot("t1", ""); err != nil {
		t.Fatalf("the table stopped while its lease still ran: %v", err)
	}
	store.armed.Store(false)
	step(20 * time.Second) // renewals go through again, past the first lease's end
	if _, err := h.Snapshot("t1", ""); err != nil {
		t.Fatalf("the table stopped although its renewals went through again: %v", err)
	}
	store.armed.Store(true)
	step(16 * time.Second)
	if _, err := h.Snapshot("t1", ""); err == nil {
		t.Fatal("the table ran on past a lease it could not renew")
	}
	head, _ := store.Head(ctx, "t1")
	_, err := h.Submit(ctx, "t1", &table.NewShoe{Header: table.Header{Actor: "d", Role: table.RoleDealer}})
	if after, _ := store.Head(ctx, "t1"); err == nil || after != head {
		t.Fatalf("a stopped table took a command: %v, head %d → %d", err, head.Seq, after.Seq)
	}
	store.armed.Store(false)
	step(10 * time.Second) // the store is back: the host takes its table up again
	if _, err := h.Snapshot("t1", ""); err != nil {
		t.Fatalf("the table was not taken up again: %v", err)
	}
}
