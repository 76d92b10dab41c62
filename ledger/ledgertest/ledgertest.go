// Package ledgertest is the conformance suite every ledger.Store runs on itself, in the
// manner of testing/fstest: the money rules are stated once, here, and SQLite and
// PostgreSQL must both pass them.
package ledgertest

import (
	"fmt"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// At is the time the suite stamps on its transactions (stores must not need a clock).
var At = time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)

// Run runs the suite. open must return a new, empty store for each call; it is called once
// per subtest, and subtests run in parallel, so stores must be isolated from each other.
func Run(t *testing.T, open func(t *testing.T) ledger.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s ledger.Store)
	}{
		{"opening an account is idempotent and starts at zero", testOpen},
		{"malformed or unknown accounts are refused", testBadAccounts},
		{"a wager and its settlement move money and the books balance", testRound},
		{"the house may go negative", testHouseNegative},
		{"the same key and postings apply once", testIdempotent},
		{"the same key with other postings is a conflict and changes nothing", testKeyConflict},
		{"the same key posted concurrently applies exactly once", testConcurrentKey},
		{"one key raced over disjoint accounts applies once, the rest conflict", testConcurrentKeyDisjoint},
		{"concurrent wagers never overdraw a wallet", testConcurrentOverdraft},
		{"an overdraft is refused, changes nothing and keeps its key unused", testOverdraft},
		{"malformed transactions are refused with codes and change nothing", testBadTransactions},
		{"chips are kept apart from money", testChips},
		{"statements list entries with running balances in pages", testStatement},
		{"statements read newest first are the same entries in pages", testStatementBefore},
		{"accounts are listed by prefix in id order", testAccounts},
		{"a random walk keeps the books equal to a model", testRandomWalk},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

// Tx builds a transaction stamped At.
func Tx(key string, ps ...ledger.Posting) ledger.Transaction {
	return ledger.Transaction{Key: key, Postings: ps, At: At}
}

// Move is a transaction of amount from one account to another.
func Move(key, from, to string, amount baccarat.Money) ledger.Transaction {
	return Tx(key, ledger.Posting{Account: from, Amount: -amount}, ledger.Posting{Account: to, Amount: amount})
}

// Open opens accounts or fails the test.
func Open(t testing.TB, s ledger.Store, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if err := s.OpenAccount(t.Context(), id); err != nil {
			t.Fatalf("OpenAccount(%s): %v", id, err)
		}
	}
}

// Post posts tx, which must be applied.
func Post(t testing.TB, s ledger.Store, tx ledger.Transaction) {
	t.Helper()
	applied, err := s.Post(t.Context(), tx)
	if err != nil || !applied {
		t.Fatalf("Post(%s) = %v, %v; want applied", tx.Key, applied, err)
	}
}

// Fund opens the player's wallet and the currency's house account and deposits amount.
func Fund(t testing.TB, s ledger.Store, player string, c ledger.Currency, amount baccarat.Money) string {
	t.Helper()
	w := ledger.Wallet(player, c)
	Open(t, s, w, ledger.House(c))
	Post(t, s, Move(fmt.Sprintf("deposit/%s/%s/%d", player, c, amount), ledger.House(c), w, amount))
	return w
}

// WantBalances fails unless every account holds the given balance.
func WantBalances(t testing.TB, s ledger.Store, want map[string]baccarat.Money) {
	t.Helper()
	for id, w := range want {
		got, err := s.Balance(t.Context(), id)
		if err != nil || got != w {
			t.Errorf("Balance(%s) = %d, %v; want %d", id, got, err, w)
		}
	}
}

// WantCode fails unless err carries code.
func WantCode(t testing.TB, err error, code baccarat.Code) {
	t.Helper()
	if got := baccarat.ErrorCode(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
}

// WantSound fails unless the store's Check passes.
func WantSound(t testing.TB, s ledger.Store) {
	t.Helper()
	if err := s.Check(t.Context()); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

func testOpen(t *testing.T, s ledger.Store) {
	w := ledger.Wallet("alice", "EUR")
	Open(t, s, w, w)
	WantBalances(t, s, map[string]baccarat.Money{w: 0})
	accts, err := s.Accounts(t.Context(), "")
	if err != nil || len(accts) != 1 || accts[0] != (ledger.AccountBalance{ID: w}) {
		t.Fatalf("Accounts = %v, %v; want just %s", accts, err, w)
	}
	WantSound(t, s)
}

func testBadAccounts(t *testing.T, s ledger.Store) {
	for _, id := range []string{"", "wallet/alice", "wallet/alice/eur", "bank/EUR", "wallet/a b/EUR"} {
		WantCode(t, s.OpenAccount(t.Context(), id), baccarat.CodeBadRequest)
	}
	_, err := s.Balance(t.Context(), ledger.Wallet("nobody", "EUR"))
	WantCode(t, err, baccarat.CodeNotFound)
	_, err = s.Statement(t.Context(), ledger.Wallet("nobody", "EUR"), ledger.Page{})
	WantCode(t, err, baccarat.CodeNotFound)
	_, err = s.Statement(t.Context(), "nonsense", ledger.Page{})
	WantCode(t, err, baccarat.CodeBadRequest)
	if accts, err := s.Accounts(t.Context(), ""); err != nil || len(accts) != 0 {
		t.Fatalf("refused accounts were opened: %v %v", accts, err)
	}
}

func testRound(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 1000)
	h, p := ledger.House("EUR"), ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	Post(t, s, Move("t1/r1/wager/1", w, p, 400))
	WantBalances(t, s, map[string]baccarat.Money{w: 600, p: 400, h: -1000})
	// Player wins 1:1: the stake comes back from in-play and the win from the house.
	Post(t, s, Tx("t1/r1/settle/1",
		ledger.Posting{Account: p, Amount: -400},
		ledger.Posting{Account: h, Amount: -400},
		ledger.Posting{Account: w, Amount: 800}))
	WantBalances(t, s, map[string]baccarat.Money{w: 1400, p: 0, h: -1400})
	WantSound(t, s)
}

func testHouseNegative(t *testing.T, s ledger.Store) {
	h, w := ledger.House("USD"), ledger.Wallet("bob", "USD")
	Open(t, s, h, w)
	Post(t, s, Move("payout", h, w, 5_000_000))
	WantBalances(t, s, map[string]baccarat.Money{h: -5_000_000, w: 5_000_000})
	WantSound(t, s)
}

func testIdempotent(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 1000)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	tx := Move("wager/req-1", w, p, 100)
	Post(t, s, tx)
	retry := tx
	retry.Postings = []ledger.Posting{tx.Postings[1], tx.Postings[0]} // same postings, other order
	retry.At, retry.Memo = At.Add(time.Minute), "client retry"
	for range 3 {
		applied, err := s.Post(t.Context(), retry)
		if err != nil || applied {
			t.Fatalf("repeat Post = %v, %v; want already applied", applied, err)
		}
	}
	WantBalances(t, s, map[string]baccarat.Money{w: 900, p: 100})
	WantSound(t, s)
}

func testKeyConflict(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 1000)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	Post(t, s, Move("wager/req-1", w, p, 100))
	for _, other := range []ledger.Transaction{Move("wager/req-1", w, p, 200), Move("wager/req-1", p, w, 100)} {
		applied, err := s.Post(t.Context(), other)
		WantCode(t, err, baccarat.CodeConflict)
		if applied {
			t.Fatal("a conflicting post reported applied")
		}
	}
	WantBalances(t, s, map[string]baccarat.Money{w: 900, p: 100})
	WantSound(t, s)
}

func testOverdraft(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 300)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	before, err := s.Statement(t.Context(), w, ledger.Page{})
	if err != nil {
		t.Fatal(err)
	}
	tx := Move("wager/big", w, p, 301)
	applied, err := s.Post(t.Context(), tx)
	WantCode(t, err, baccarat.CodeInsufficientFunds)
	if applied {
		t.Fatal("an overdraft reported applied")
	}
	WantBalances(t, s, map[string]baccarat.Money{w: 300, p: 0})
	after, err := s.Statement(t.Context(), w, ledger.Page{})
	if err != nil || len(after) != len(before) {
		t.Fatalf("statement changed: %d entries before, %d after (%v)", len(before), len(after), err)
	}
	WantSound(t, s)
	// The refused key was not used up: once funded, the same transaction goes through.
	Post(t, s, Move("top-up", ledger.House("EUR"), w, 1))
	Post(t, s, tx)
	WantBalances(t, s, map[string]baccarat.Money{w: 0, p: 301})
}

func testBadTransactions(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 1000)
	h, p := ledger.House("EUR"), ledger.InPlay("t1", "EUR")
	Open(t, s, p, ledger.House("USD"), ledger.Wallet("alice", ledger.Chips("t42")))
	P := func(a string, n baccarat.Money) ledger.Posting { return ledger.Posting{Account: a, Amount: n} }
	cases := []struct {
		name string
		tx   ledger.Transaction
		code baccarat.Code
	}{
		{"a key is required", Tx("", P(w, -1), P(p, 1)), baccarat.CodeBadRequest},
		{"at least two postings", Tx("k", P(w, -1)), baccarat.CodeBadRequest},
		{"no zero amounts", Tx("k", P(w, 0), P(p, 0)), baccarat.CodeBadRequest},
		{"postings sum to zero", Tx("k", P(w, -2), P(p, 1)), baccarat.CodeBadRequest},
		{"one currency per transaction", Tx("k", P(w, -1), P(ledger.House("USD"), 1)), baccarat.CodeBadRequest},
		{"chips never pay for money", Tx("k", P(ledger.Wallet("alice", ledger.Chips("t42")), 1), P(h, -1)), baccarat.CodeBadRequest},
		{"accounts are well-formed", Tx("k", P(w, -1), P("inplay/t1", 1)), baccarat.CodeBadRequest},
		{"an account appears once", Tx("k", P(w, -1), P(w, 1)), baccarat.CodeBadRequest},
		{"a time is required", ledger.Transaction{Key: "k", Postings: []ledger.Posting{P(w, -1), P(p, 1)}}, baccarat.CodeBadRequest},
		{"accounts must be open", Tx("k", P(w, -1), P(ledger.InPlay("t9", "EUR"), 1)), baccarat.CodeNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			applied, err := s.Post(t.Context(), c.tx)
			WantCode(t, err, c.code)
			if applied {
				t.Fatal("a refused transaction reported applied")
			}
		})
	}
	WantBalances(t, s, map[string]baccarat.Money{w: 1000, p: 0, h: -1000})
	if _, err := s.Balance(t.Context(), ledger.InPlay("t9", "EUR")); baccarat.ErrorCode(err) != baccarat.CodeNotFound {
		t.Fatalf("a refused transaction opened an account: %v", err)
	}
	WantSound(t, s)
}

func testChips(t *testing.T, s ledger.Store) {
	chips := ledger.Chips("t42")
	money := Fund(t, s, "alice", "EUR", 500)
	stack := Fund(t, s, "alice", chips, 10_000)
	Open(t, s, ledger.InPlay("t1", chips))
	Post(t, s, Move("t42/r1/w1", stack, ledger.InPlay("t1", chips), 2500))
	_, err := s.Post(t.Context(), Move("cash-out", stack, money, 100))
	WantCode(t, err, baccarat.CodeBadRequest)
	_, err = s.Post(t.Context(), Move("buy-chips", money, ledger.House(chips), 100))
	WantCode(t, err, baccarat.CodeBadRequest)
	WantBalances(t, s, map[string]baccarat.Money{money: 500, stack: 7500, ledger.InPlay("t1", chips): 2500, ledger.House(chips): -10_000})
	WantSound(t, s)
}
