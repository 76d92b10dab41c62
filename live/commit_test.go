package live_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// gatedStore is a real store whose first commit of a wager, once armed, waits for the test
// to let it through or fail it: a commit held in flight while more wagers arrive.
type gatedStore struct {
	live.Store
	armed   atomic.Bool
	entered chan struct{}
	gate    chan error
}

func newGatedStore(s live.Store) *gatedStore {
	return &gatedStore{Store: s, entered: make(chan struct{}, 1), gate: make(chan error, 1)}
}

func (s *gatedStore) Commit(ctx context.Context, b journal.Batch) error {
	for _, r := range b.Records {
		if r.Type == table.EvWagerPlaced.String() && s.armed.CompareAndSwap(true, false) {
			s.entered <- struct{}{}
			if err := <-s.gate; err != nil {
				return err
			}
			break
		}
	}
	return s.Store.Commit(ctx, b)
}

// gatedTable opens a dealer table with betting open, eight funded players and a gated store.
func gatedTable(t *testing.T) (*live.Host, *gatedStore) {
	ctx := context.Background()
	store := newGatedStore(openDB(t, ""))
	h := newHost(t, store, live.NewFakeClock(epoch))
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if err := h.Credit(ctx, fmt.Sprintf("c%d", i), fmt.Sprintf("p%d", i), live.PlayMoney, 10_000); err != nil {
			t.Fatal(err)
		}
	}
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	return h, store
}

// placeAsync places p's wager in the background; its answer arrives on the channel.
func placeAsync(h *live.Host, player, rid string, stake baccarat.Money, answers chan<- error) {
	go func() {
		_, err := h.Submit(context.Background(), "t1", &table.Place{Player: player, Bet: "banker", Stake: stake, RequestID: rid})
		answers <- err
	}()
}

// A wager is acknowledged only once durable: wagers that arrive while a batch commits wait
// for it and are committed after it, and a snapshot asked meanwhile waits too, then shows
// them all.
func TestWagersArrivingDuringACommitAreAnsweredOnlyWhenDurable(t *testing.T) {
	h, store := gatedTable(t)
	answers := make(chan error, 8)
	store.armed.Store(true)
	placeAsync(h, "p0", "r0", 100, answers)
	<-store.entered // p0's wager is being committed, and stays so
	for i := 1; i < 8; i++ {
		placeAsync(h, fmt.Sprintf("p%d", i), fmt.Sprintf("r%d", i), 100, answers)
	}
	snap := make(chan *live.Snapshot, 1)
	time.Sleep(200 * time.Millisecond) // the wagers reach the table and wait behind p0's (a loaded machine is slow)
	go func() {
		s, _ := h.Snapshot("t1", "")
		snap <- s
	}()
	select {
	case err := <-answers:
		t.Fatalf("a wager was answered (%v) before its commit or the one before it was durable", err)
	case <-snap:
		t.Fatal("a snapshot was answered while wagers were still being committed")
	case <-time.After(100 * time.Millisecond):
	}
	store.gate <- nil
	for range 8 {
		if err := <-answers; err != nil {
			t.Fatal(err)
		}
	}
	if s := <-snap; s == nil || len(s.State.Wagers) != 8 {
		t.Fatalf("the snapshot after the commits: %+v", s)
	}
	checkCommitBooks(t, h, store, 8, 100)
}

// A wager whose commit fails is refused with the store's error and changes nothing; the
// wagers that waited behind it are placed, each once.
func TestAWagerWhoseCommitFailsIsRefusedAndTheOthersGoOn(t *testing.T) {
	h, store := gatedTable(t)
	first := make(chan error, 1)
	answers := make(chan error, 7)
	store.armed.Store(true)
	placeAsync(h, "p0", "r0", 200, first)
	<-store.entered
	for i := 1; i < 8; i++ {
		placeAsync(h, fmt.Sprintf("p%d", i), fmt.Sprintf("r%d", i), 200, answers)
	}
	time.Sleep(50 * time.Millisecond)
	store.gate <- baccarat.Errorf(baccarat.CodeInternal, "injected: the disk is gone for a moment")
	if err := <-first; err == nil {
		t.Fatal("the wager whose commit failed was acknowledged")
	}
	for range 7 {
		if err := <-answers; err != nil {
			t.Fatal(err)
		}
	}
	// p0 retries with the same request id: placed now, once.
	if _, err := h.Submit(context.Background(), "t1", &table.Place{Player: "p0", Bet: "banker", Stake: 200, RequestID: "r0"}); err != nil {
		t.Fatal(err)
	}
	checkCommitBooks(t, h, store, 8, 200)
}

// checkCommitBooks: n wagers of stake each in the journal, each once, each player's balance
// down by exactly one stake, and verify clean.
func checkCommitBooks(t *testing.T, h *live.Host, store *gatedStore, n int, stake baccarat.Money) {
	t.Helper()
	ctx := context.Background()
	recs, err := store.Load(ctx, "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	placed := map[string]int{}
	for _, r := range recs {
		var e table.Event
		if err := json.Unmarshal(r.Data, &e); err == nil && e.Type == table.EvWagerPlaced {
			placed[e.Wager.RequestID]++
		}
	}
	for i := range n {
		if c := placed[fmt.Sprintf("r%d", i)]; c != 1 {
			t.Errorf("wager r%d is in the journal %d times", i, c)
		}
	}
	for i := range n {
		bal, err := h.Balance(ctx, fmt.Sprintf("p%d", i), live.PlayMoney)
		if err != nil || bal != 10_000-stake {
			t.Errorf("p%d's balance: %d %v, want %d", i, bal, err, 10_000-stake)
		}
	}
	rep, err := verify.Database(ctx, store, epoch.Add(time.Hour))
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}
