package live_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestRequestIDOutlivesTheRound: a request id places one wager for at least a day, not one
// round: in a later round, after a restart, and at another table, the same id with the
// same request returns the wager placed the first time; with another request it is
// refused (idempotency_conflict) and nothing moves.
func TestRequestIDOutlivesTheRound(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "live.db")
	db := openDB(t, path)
	h := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "a"})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"t1", "t2"} {
		if err := h.Create(ctx, live.Spec{ID: id, Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
			t.Fatal(err)
		}
		submit(t, h, id, &table.NewShoe{})
		submit(t, h, id, &table.Open{})
	}
	_ = h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000)
	place := &table.Place{Player: "ann", Bet: "player", Stake: 500, RequestID: "once"}
	first := submit(t, h, "t1", place).Wager
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "4h", "5d", "4c", "5s") // Player natural 8 wins
	submit(t, h, "t1", &table.Open{})
	again := submit(t, h, "t1", place).Wager
	if again == nil || again.ID != first.ID || again.Round != 1 || again.Stake != 500 {
		t.Fatalf("SPEC §4 the same request id in a later round: %+v, want wager %d of round 1", again, first.ID)
	}
	if got := balance(t, h, "ann"); got != 100_500 {
		t.Fatalf("balance %d: a second wager was placed", got)
	}
	other := *place
	other.Stake = 700
	if _, err := h.Submit(ctx, "t1", &other); baccarat.ErrorCode(err) != baccarat.CodeIdempotencyConflict {
		t.Fatalf("the same id with another stake: %v, want idempotency_conflict", err)
	}
	if _, err := h.Submit(ctx, "t2", place); baccarat.ErrorCode(err) != baccarat.CodeIdempotencyConflict {
		t.Fatalf("the same id at another table: %v, want idempotency_conflict", err)
	}
	h.Close()
	h2 := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "b"})
	if err := h2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	if res := submit(t, h2, "t1", place); res.Wager == nil || res.Wager.ID != first.ID || len(res.Events) != 0 {
		t.Fatalf("after a restart the same request id: %+v", res)
	}
	if got := balance(t, h2, "ann"); got != 100_500 {
		t.Fatalf("balance %d after the retries", got)
	}
}
