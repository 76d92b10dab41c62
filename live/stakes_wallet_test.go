package live_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// cappedPurse is a third kind of wallet, written outside package live as a deployment would
// write one: the players' money stays in the platform's books (read fresh from the store,
// no cache), but no wager may stake more than a cap, whatever the balance. It holds stakes
// in memory until their batch commits (Committed) or is given up (Void), and its moves are
// the books' own postings (live.Postings).
type cappedPurse struct {
	store live.Store
	cap   baccarat.Money
	mu    sync.Mutex
	held  map[string]baccarat.Money
	posts int // batches committed with a hold spent
}

var _ live.Stakes = (*cappedPurse)(nil)

func (w *cappedPurse) Submit(ctx context.Context, t live.StakeTable, cmd table.Command) (*live.Result, error) {
	return t.Ask(ctx, cmd)
}

func (w *cappedPurse) Hold(ctx context.Context, _ live.StakeTable, wallet string, p *table.Place) (baccarat.Money, bool, error) {
	bal, err := w.store.Balance(ctx, wallet)
	if err != nil {
		return 0, false, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	avail := min(bal-w.held[wallet], w.cap)
	if p.Stake <= 0 || p.Stake > avail {
		return avail, false, nil // the table refuses the wager: insufficient funds
	}
	w.held[wallet] += p.Stake
	return avail, true, nil
}

func (w *cappedPurse) Void(wallet string, stake baccarat.Money) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.held[wallet] -= stake
}

func (w *cappedPurse) CheckWithdraw(live.StakeTable, *table.Withdraw) error { return nil }

func (w *cappedPurse) Settle(t live.StakeTable, _ table.Command, evs []table.Event, m *live.Moves, _ time.Time) {
	m.Transactions = append(m.Transactions, live.Postings(t.ID(), t.Currency(), evs)...)
}

func (w *cappedPurse) Committed(_ live.StakeTable, _ *live.Moves, held []live.Held, balances map[string]baccarat.Money) map[string]baccarat.Money {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, h := range held {
		w.held[h.Wallet] -= h.Stake
	}
	if len(held) > 0 {
		w.posts++
	}
	return balances
}

func (w *cappedPurse) Balance(ctx context.Context, t live.StakeTable, player string) (baccarat.Money, error) {
	return w.store.Balance(ctx, ledger.Wallet(player, t.Currency()))
}

func (w *cappedPurse) Answers() bool { return true }

// TestAThirdKindOfWalletPlugsInByName: a wallet written outside the package is one entry in
// Options.Wallets, and a table whose spec names it takes and pays its wagers through it:
// its cap refuses a wager the balance would allow, a winning wager is paid, the books
// balance, and a spec naming a wallet nobody plugged in is refused with the names there are.
func TestAThirdKindOfWalletPlugsInByName(t *testing.T) {
	db := openDB(t, "")
	purse := &cappedPurse{store: db, cap: 5000, held: map[string]baccarat.Money{}}
	h := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "test", Shuffle: seededShuffle(1),
		Wallets: map[string]live.Stakes{"capped": purse}})
	ctx := context.Background()
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)

	err := h.Create(ctx, live.Spec{ID: "t0", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer, Wallet: "nowhere"})
	if baccarat.ErrorCode(err) != baccarat.CodeBadRequest || !strings.Contains(err.Error(), "internal, seamless, capped") {
		t.Fatalf("a table naming a wallet nobody plugged in: %v, want bad_request naming internal, seamless, capped", err)
	}
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer, Wallet: "capped"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Credit(ctx, "credit-ann-1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	wallet := ledger.Wallet("ann", live.PlayMoney)
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	if _, err := h.Submit(ctx, "t1", &table.Place{Player: "ann", Bet: "player", Stake: 6000}); baccarat.ErrorCode(err) != baccarat.CodeInsufficientFunds {
		t.Fatalf("a wager over the purse's cap of 5,000: %v, want insufficient_funds", err)
	}
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "player", Stake: 4000, RequestID: "r1"})
	if bal, _ := db.Balance(ctx, wallet); bal != 96_000 {
		t.Fatalf("after a stake of 4,000 the books hold %d, want 96,000", bal)
	}
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "9h", "Kd", "Qc", "2s") // Player 9 against Banker 2: Player wins 1:1
	if bal, _ := db.Balance(ctx, wallet); bal != 104_000 {
		t.Fatalf("after Player won 1:1 on 4,000 the books hold %d, want 104,000", bal)
	}
	purse.mu.Lock()
	held, posts := purse.held[wallet], purse.posts
	purse.mu.Unlock()
	if held != 0 || posts != 1 {
		t.Fatalf("the purse holds %d and saw %d commits spend a hold: want 0 and 1", held, posts)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatalf("ledger check: %v", err)
	}
}
