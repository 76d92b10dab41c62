package live_test

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestChipsRaiseOneWagerAndTheBooksMoveEachChip: at an internal table each chip moves its
// own stake from the wallet into play, a chip taken back moves it back, the spot's one wager
// settles on its total, the ledger balances and verify is clean.
func TestChipsRaiseOneWagerAndTheBooksMoveEachChip(t *testing.T) {
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	ctx := context.Background()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	if err := h.Credit(ctx, "credit-ann-1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	first := submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1000, RequestID: "r1"})
	raised := submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 500, RequestID: "r2"})
	if raised.Wager == nil || raised.Wager.ID != first.Wager.ID || raised.Wager.Stake != 1500 {
		t.Fatalf("a chip on the spot raises its wager, answered at its new total: %+v", raised.Wager)
	}
	if again := submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 500, RequestID: "r2"}); again.Wager == nil || again.Wager.Stake != 1500 {
		t.Fatalf("the same request id raises once: %+v", again.Wager)
	}
	if got := balance(t, h, "ann"); got != 98_500 {
		t.Fatalf("after two chips: balance %d, want 98500", got)
	}
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 300, RequestID: "r3"})
	lowered := submit(t, h, "t1", &table.Withdraw{Player: "ann", Wager: first.Wager.ID, Stake: 300})
	if lowered.Wager == nil || lowered.Wager.Stake != 1500 {
		t.Fatalf("a chip taken back: %+v", lowered.Wager)
	}
	if got := balance(t, h, "ann"); got != 98_500 {
		t.Fatalf("after a chip taken back: balance %d, want 98500", got)
	}
	inplay, _ := db.Balance(ctx, ledger.InPlay("t1", live.PlayMoney))
	if inplay != 1500 {
		t.Fatalf("in play %d, want 1500", inplay)
	}
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "3d", "3c", "3s", "9d") // Banker wins on a two-card 6: pays 1:2
	if got := balance(t, h, "ann"); got != 100_750 {
		t.Fatalf("the wager settles on its total of 1500 at 1:2: balance %d, want 100750", got)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatalf("ledger check: %v", err)
	}
	inplay, _ = db.Balance(ctx, ledger.InPlay("t1", live.PlayMoney))
	if inplay != 0 {
		t.Fatalf("in play %d after the settlement", inplay)
	}
	verifyClean(t, db)
}

// TestSeamlessChipsAreDebitedEachAndClosedWithTheirWager: at a seamless table each chip is
// a debit of its own; a chip taken back is that debit rolled back; the settlement credits
// the wager's return and closes its chips' debits; the operator's books and ours agree and
// verify is clean.
func TestSeamlessChipsAreDebitedEachAndClosedWithTheirWager(t *testing.T) {
	stores(t, testSeamlessChips)
}

func testSeamlessChips(t *testing.T, db walletStore) {
	ctx := context.Background()
	op := newOperator(t, map[string]baccarat.Money{"ann": 100_000}, "EUR")
	h := newSeamlessHost(t, db, op)
	if err := h.Create(ctx, live.Spec{ID: "eur", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "eur", &table.NewShoe{})
	submit(t, h, "eur", &table.Open{})
	first := submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 1000, RequestID: "a1"})
	res := submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 400, RequestID: "a2"})
	if res.Wager == nil || res.Wager.ID != first.Wager.ID || res.Wager.Stake != 1400 || op.balance(t, "ann", "EUR") != 100_000-1400 {
		t.Fatalf("a chip is debited on its own: wager %+v, operator %d", res.Wager, op.balance(t, "ann", "EUR"))
	}
	submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 200, RequestID: "a3"})
	_, err := h.Submit(ctx, "eur", &table.Withdraw{Player: "ann", Wager: first.Wager.ID, Stake: 100})
	wantCode(t, err, baccarat.CodeNotWithdrawable) // not a chip as it was placed
	submit(t, h, "eur", &table.Withdraw{Player: "ann", Wager: first.Wager.ID, Stake: 200})
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 100_000-1400 {
		t.Fatalf("the chip taken back was rolled back: operator %d, want %d", got, 100_000-1400)
	}
	submit(t, h, "eur", &table.Close{})
	cards(t, h, "eur", "2h", "3d", "3c", "3s", "9d") // Banker wins on a two-card 6: 1:2
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 100_000+700 {
		t.Fatalf("ann at the operator: %d, want %d", got, 100_000+700)
	}
	verifyClean(t, db)
	checkOperatorBooks(t, op, db)
}
