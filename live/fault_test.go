package live_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// refusingStore is a real store that refuses, while armed, every commit that would settle
// a round: what a full disk, a constraint or a ledger limit does to one round.
type refusingStore struct {
	live.Store
	armed   atomic.Bool
	refused atomic.Int64
}

func (s *refusingStore) Commit(ctx context.Context, b journal.Batch) error {
	if s.armed.Load() {
		for _, r := range b.Records {
			if r.Type == table.EvRoundSettled.String() {
				s.refused.Add(1)
				return baccarat.Errorf(baccarat.CodeBadRequest, "injected: the store refuses this round")
			}
		}
	}
	return s.Store.Commit(ctx, b)
}

// syncBuffer is a log sink tests read while the host writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestStoreRefusesARoundItIsVoidedAndTheTableGoesOn: a round the store will not commit is
// logged at ERROR and voided for a technical failure (SPEC §4), every stake returned; the
// table is not wedged in dealing and plays its next round normally.
func TestStoreRefusesARoundItIsVoidedAndTheTableGoesOn(t *testing.T) {
	ctx := context.Background()
	store := &refusingStore{Store: openDB(t, "")}
	var logs syncBuffer
	h := live.New(live.Options{Store: store, Clock: live.NewFakeClock(epoch), Owner: "test",
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	if err := h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1000})
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "3d", "3c", "3s")
	store.armed.Store(true)
	k := baccarat.MustParseCard("9d")
	if _, err := h.Submit(ctx, "t1", &table.Card{Card: &k}); err == nil {
		t.Fatal("the card that settles the round was acknowledged though the store refused it")
	}
	store.armed.Store(false)
	snap, err := h.Snapshot("t1", "")
	if err != nil {
		t.Fatal(err)
	}
	if snap.State.Phase != table.PhaseVoid {
		t.Fatalf("after a refused settlement the round is %s, want void", snap.State.Phase)
	}
	if got := balance(t, h, "ann"); got != 100_000 {
		t.Fatalf("the void returns the stake: balance %d, want 100000", got)
	}
	if store.refused.Load() == 0 {
		t.Fatal("the store was never asked to settle")
	}
	if !strings.Contains(logs.String(), `"level":"ERROR"`) || !strings.Contains(logs.String(), "voiding the round") {
		t.Fatalf("nothing logged at ERROR:\n%s", logs.String())
	}
	recs, _ := store.Load(ctx, "t1", 1)
	var voided table.Event
	for _, r := range recs {
		if r.Type == table.EvRoundVoided.String() {
			_ = json.Unmarshal(r.Data, &voided)
		}
	}
	if voided.Reason != "technical_failure" || voided.Role != table.RoleSystem {
		t.Fatalf("void recorded as %q by %s", voided.Reason, voided.Role)
	}
	// The table goes on: the next round settles.
	submit(t, h, "t1", &table.Open{})
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1000})
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "4h", "5d", "4c", "5s") // Player 4 4 = 8, a natural; Banker 5 5 = 0
	if got := balance(t, h, "ann"); got != 99_000 {
		t.Fatalf("the next round settles: balance %d, want 99000", got)
	}
	if err := store.Check(ctx); err != nil {
		t.Fatal(err)
	}
	house, _ := store.Balance(ctx, ledger.House(live.PlayMoney))
	if house != -100_000+1000 {
		t.Fatalf("house %d", house)
	}
}
