package live_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/seamless/refwallet"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

var walletSecret = []byte("a shared secret of 32 bytes here")

// operator is a reference operator wallet served in-process.
type operator struct {
	srv    *refwallet.Server
	admin  *refwallet.Admin
	client *seamless.Client
	store  *refwallet.Store
}

func newOperator(t *testing.T, players map[string]baccarat.Money, cur string) *operator {
	t.Helper()
	ctx := context.Background()
	store, err := refwallet.Open(ctx, filepath.Join(t.TempDir(), "wallet.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := refwallet.New(store, refwallet.Options{Secret: walletSecret, Source: refwallet.NewSource(7)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		store.Close()
	})
	for p, b := range players {
		if err := store.SetPlayer(ctx, refwallet.Player{Player: p, Currency: cur, Balance: b}); err != nil {
			t.Fatal(err)
		}
	}
	return &operator{srv: srv, store: store, admin: &refwallet.Admin{BaseURL: hs.URL, Secret: walletSecret},
		client: &seamless.Client{BaseURL: hs.URL, Secret: walletSecret, Timeout: time.Second, RequireSignedAnswers: true}}
}

func (o *operator) balance(t *testing.T, player, cur string) baccarat.Money {
	t.Helper()
	b, err := o.store.Balance(context.Background(), seamless.BalanceRequest{Player: player, Currency: cur})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fastOutbox delivers at once and retries quickly.
var fastOutbox = live.Outbox{Every: 20 * time.Millisecond, MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
	StaleDebit: 500 * time.Millisecond}

// walletStore is a store that keeps wallet calls: SQLite or PostgreSQL.
type walletStore interface {
	live.Store
	journal.WalletCalls
}

// stores runs a test on SQLite and, when BACCARAT_TEST_POSTGRES is set, on PostgreSQL.
func stores(t *testing.T, fn func(t *testing.T, db walletStore)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, openDB(t, "")) })
	t.Run("postgres", func(t *testing.T) { fn(t, pgSchema(t, 1)[0]) })
}

func newSeamlessHost(t *testing.T, db walletStore, op *operator) *live.Host {
	t.Helper()
	h := live.New(live.Options{Store: db, Owner: "test", Shuffle: seededShuffle(1), Operator: op.client, Outbox: fastOutbox})
	if err := h.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// settledOutbox waits until no wallet call is pending.
func settledOutbox(t *testing.T, db walletStore) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		open, err := db.Calls(context.Background(), journal.CallFilter{Open: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(open) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d wallet calls still pending: %+v", len(open), open[0])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func wantCode(t *testing.T, err error, code baccarat.Code) {
	t.Helper()
	if baccarat.ErrorCode(err) != code {
		t.Fatalf("got %v; want %s", err, code)
	}
}

func verifyClean(t *testing.T, db live.Store) verify.Report {
	t.Helper()
	rep, err := verify.Database(context.Background(), db, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || len(rep.Undelivered) > 0 {
		t.Fatalf("verify: problems %q, undelivered %q", rep.Problems, rep.Undelivered)
	}
	return rep
}

func TestSeamlessWagerIsDebitedBeforeTheTableAndCreditedAfterIt(t *testing.T) {
	stores(t, testSeamlessWager)
}

func testSeamlessWager(t *testing.T, db walletStore) {
	ctx := context.Background()
	op := newOperator(t, map[string]baccarat.Money{"ann": 100_000, "bob": 5_000}, "EUR")
	h := newSeamlessHost(t, db, op)
	if err := h.Create(ctx, live.Spec{ID: "eur", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "eur", &table.NewShoe{})
	submit(t, h, "eur", &table.Open{})
	res := submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 1001, RequestID: "a1"})
	if !res.HasBalance || res.Balance != 100_000-1001 || op.balance(t, "ann", "EUR") != 100_000-1001 {
		t.Fatalf("after the wager: answered %d, operator %d", res.Balance, op.balance(t, "ann", "EUR"))
	}
	again := submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 1001, RequestID: "a1"})
	if again.Wager.ID != res.Wager.ID || op.balance(t, "ann", "EUR") != 100_000-1001 {
		t.Fatal("a retried request debited twice")
	}
	_, err := h.Submit(ctx, "eur", &table.Place{Player: "bob", Bet: "player", Stake: 6_000, RequestID: "b1"})
	wantCode(t, err, baccarat.CodeInsufficientFunds)
	submit(t, h, "eur", &table.Place{Player: "bob", Bet: "player", Stake: 2_000, RequestID: "b2"})
	submit(t, h, "eur", &table.Close{})
	cards(t, h, "eur", "2h", "3d", "3c", "3s", "9d") // Banker wins on a two-card 6: 1:2, rounded down
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 100_000+500 {
		t.Fatalf("ann at the operator: %d, want %d", got, 100_000+500)
	}
	if got := op.balance(t, "bob", "EUR"); got != 3_000 {
		t.Fatalf("bob at the operator: %d, want 3000", got)
	}
	if b, err := h.Balance(ctx, "ann", "EUR"); err != nil || b != 100_500 {
		t.Fatalf("Host.Balance: %d %v", b, err)
	}
	// The platform kept no money of its own: no wallet, no in-play.
	if b, err := db.Balance(ctx, ledger.InPlay("eur", "EUR")); err != nil || b != 0 {
		t.Fatalf("in-play: %d %v", b, err)
	}
	rep := verifyClean(t, db)
	if rep.WalletCalls != 5 { // ann's debit and credit, bob's refused debit, his debit and his credit of 0
		t.Fatalf("verify checked %d wallet calls", rep.WalletCalls)
	}
	rec, err := verify.Reconcile(ctx, db, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if tot := rec.Totals["EUR"]; tot == nil || tot.Debited != 3001 || tot.Credited != 1501 || tot.Net != -1500 || len(rec.Open) != 0 {
		t.Fatalf("reconciliation: %+v, open %d", rec.Totals["EUR"], len(rec.Open))
	}
	checkOperatorBooks(t, op, db)
}

// checkOperatorBooks: every player's balance at the operator is their opening balance less
// the debits and plus the credits and rollbacks our books say happened; no tx was applied
// twice; every call we recorded as answered was applied.
func checkOperatorBooks(t *testing.T, op *operator, db walletStore) {
	t.Helper()
	ctx := context.Background()
	if err := op.srv.Idle(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := op.admin.Report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	calls, err := db.Calls(ctx, journal.CallFilter{Limit: journal.MaxCalls})
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]journal.WalletCall{}
	debits := map[string]journal.WalletCall{}
	for _, c := range calls {
		ours[c.Tx] = c
		if c.Kind == journal.CallDebit {
			debits[c.Tx] = c
		}
	}
	want := map[string]baccarat.Money{}
	for _, p := range rep.Players {
		want[p.Player+"/"+p.Currency] = p.Opening
	}
	for _, c := range calls {
		k := c.Player + "/" + c.Currency
		switch {
		case c.Kind == journal.CallDebit && c.State == journal.CallPlaced:
			want[k] -= c.Amount
		case c.Kind == journal.CallCredit && c.State == journal.CallDone:
			want[k] += c.Amount
		case c.Kind == journal.CallRollback && c.State == journal.CallDone && debits[c.DebitTx].State == journal.CallPlaced:
			want[k] += c.Amount
		}
	}
	for _, p := range rep.Players {
		if got := want[p.Player+"/"+p.Currency]; got != p.Balance {
			t.Errorf("%s %s: the operator holds %d, our books say %d", p.Player, p.Currency, p.Balance, got)
		}
	}
	seen := map[string]bool{}
	applied := map[string]bool{}
	for _, x := range rep.Txs {
		if seen[x.Tx] {
			t.Errorf("tx %s was recorded twice by the operator", x.Tx)
		}
		seen[x.Tx] = true
		applied[x.Tx] = x.Error == "" && x.Moved != 0
		if _, ok := ours[x.Tx]; !ok {
			t.Errorf("the operator has tx %s that our books do not", x.Tx)
		}
	}
	for _, c := range calls {
		switch {
		case c.Kind == journal.CallDebit && c.State == journal.CallPlaced && !applied[c.Tx]:
			t.Errorf("debit %s placed a wager, but the operator did not apply it", c.Tx)
		case c.Kind == journal.CallCredit && c.State == journal.CallDone && c.Amount > 0 && !applied[c.Tx]:
			t.Errorf("credit %s is done, but the operator did not apply it", c.Tx)
		case c.Closes() && c.State != journal.CallDone:
			t.Errorf("%s %s is %s", c.Kind, c.Tx, c.State)
		}
	}
}

func TestSeamlessDebitWithoutAnswerIsGivenBack(t *testing.T) {
	stores(t, testSeamlessGiveBack)
}

func testSeamlessGiveBack(t *testing.T, db walletStore) {
	ctx := context.Background()
	op := newOperator(t, map[string]baccarat.Money{"ann": 10_000}, "EUR")
	h := newSeamlessHost(t, db, op)
	if err := h.Create(ctx, live.Spec{ID: "eur", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "eur", &table.NewShoe{})
	submit(t, h, "eur", &table.Open{})
	// The operator takes the debit and the answer is lost: the wager is refused, and the
	// debit given back (its rollback retried until answered).
	_ = op.srv.SetFaults(refwallet.Faults{LoseP: 1})
	_, err := h.Submit(ctx, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 1000, RequestID: "r1"})
	wantCode(t, err, baccarat.CodeWalletUnavailable)
	time.Sleep(50 * time.Millisecond) // a few rollbacks lost too
	_ = op.srv.SetFaults(refwallet.Faults{})
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 10_000 {
		t.Fatalf("after the give-back: %d", got)
	}
	// The request's next try is a new debit, and places the wager.
	res := submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 1000, RequestID: "r1"})
	if res.Wager == nil || op.balance(t, "ann", "EUR") != 9_000 {
		t.Fatalf("the retry: %+v, operator %d", res, op.balance(t, "ann", "EUR"))
	}
	// A wager the table refuses after its debit is given back.
	_, err = h.Submit(ctx, "eur", &table.Place{Player: "ann", Bet: "player", Stake: 5, RequestID: "r2"}) // on banker a chip of 5 would raise her wager
	wantCode(t, err, baccarat.CodeBelowMinimum)
	settledOutbox(t, db)
	// A withdrawal's rollback is delivered before the answer.
	w := submit(t, h, "eur", &table.Withdraw{Player: "ann", Wager: res.Wager.ID})
	if !w.HasBalance || w.Balance != 10_000 {
		t.Fatalf("withdrawn: balance %d (%v)", w.Balance, w.HasBalance)
	}
	// A void gives every stake back.
	submit(t, h, "eur", &table.Place{Player: "ann", Bet: "player", Stake: 700, RequestID: "r3"})
	submit(t, h, "eur", &table.Close{})
	submit(t, h, "eur", &table.Void{Header: table.Header{Role: table.RolePit, Reason: "dealer_error"}})
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 10_000 {
		t.Fatalf("after the void: %d", got)
	}
	verifyClean(t, db)
	checkOperatorBooks(t, op, db)
}

func TestSeamlessDebitLeftPendingIsGivenBack(t *testing.T) {
	ctx := context.Background()
	op := newOperator(t, map[string]baccarat.Money{"ann": 10_000}, "EUR")
	db := openDB(t, "")
	// A server died after sending a debit: it is in our books, pending, and the operator
	// applied it.
	d := journal.WalletCall{Tx: live.DebitTx("ann", "r1"), Player: "ann", Currency: "EUR", Amount: 400, Table: "eur",
		Round: 1, RequestID: "r1", Digest: "0000000000000000000000000000000000000000000000000000000000000000", Created: time.Now()}
	d, _, err := db.BeginDebit(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := op.client.Debit(ctx, seamless.DebitRequest{Tx: d.Tx, Player: "ann", Currency: "EUR", Amount: 400, Table: "eur",
		Round: 1, Wager: d.Wager}); err != nil {
		t.Fatal(err)
	}
	newSeamlessHost(t, db, op) // the next server gives it back once it is stale
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 10_000 {
		t.Fatalf("after the give-back: %d", got)
	}
	if c, _ := db.Call(ctx, d.Tx); c.State != journal.CallCancelled {
		t.Fatalf("the debit is %s", c.State)
	}
	checkOperatorBooks(t, op, db)
}
