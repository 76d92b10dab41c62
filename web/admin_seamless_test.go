package web_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// cageWallet is an operator's wallet that takes every call: the players' money is here,
// not in our books.
type cageWallet struct {
	mu  sync.Mutex
	bal map[string]baccarat.Money
	tx  map[string]bool
}

func (c *cageWallet) apply(tx, player string, amount baccarat.Money) (seamless.Answer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.tx[tx] {
		c.tx[tx] = true
		c.bal[player] += amount
	}
	return seamless.Answer{Balance: c.bal[player]}, nil
}
func (c *cageWallet) Balance(_ context.Context, q seamless.BalanceRequest) (seamless.Answer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return seamless.Answer{Balance: c.bal[q.Player]}, nil
}
func (c *cageWallet) Debit(_ context.Context, q seamless.DebitRequest) (seamless.Answer, error) {
	return c.apply(q.Tx, q.Player, -q.Amount)
}
func (c *cageWallet) Credit(_ context.Context, q seamless.CreditRequest) (seamless.Answer, error) {
	return c.apply(q.Tx, q.Player, q.Amount)
}
func (c *cageWallet) Rollback(_ context.Context, q seamless.RollbackRequest) (seamless.Answer, error) {
	return c.apply(q.Tx, q.Player, q.Amount)
}

// TestBackOfficeReportsASeamlessTable: at a table whose stakes the operator's wallet keeps,
// the report's takings are what the players lost at the operator's wallet, and the round's
// recall lists its wagers and settlements, as at an internal table: both read the journal.
func TestBackOfficeReportsASeamlessTable(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "seamless.db"))
	if err != nil {
		t.Fatal(err)
	}
	op := &cageWallet{bal: map[string]baccarat.Money{"ann": 100_000, "bob": 100_000}, tx: map[string]bool{}}
	host := live.New(live.Options{Store: db, Owner: "test", Operator: op, Outbox: live.Outbox{Every: 20 * time.Millisecond, MinBackoff: 10 * time.Millisecond}})
	if err := host.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := host.Create(ctx, live.Spec{ID: "eur", Mode: live.ModeDealer, Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}}); err != nil {
		t.Fatal(err)
	}
	tokens := access.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	f := &fixture{t: t, host: host, db: db, tokens: map[string]string{}, issuer: tokens}
	for _, a := range []access.Account{{ID: "ann", Role: web.RolePlayer, Currency: "EUR"}, {ID: "bob", Role: web.RolePlayer, Currency: "EUR"},
		{ID: "dealer", Role: web.RoleDealer, Tables: []string{"eur"}}, {ID: "admin", Role: web.RoleAdmin}} {
		f.account(a)
	}
	f.srv = web.New(web.Options{Host: host, Books: db, Accounts: db, Tokens: tokens})
	if err := f.srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = f.srv.Shutdown(ctx)
		host.Close()
		db.Close()
	})
	if w := host.Tables(ctx)[0].Spec.Wallet; w != live.WalletSeamless {
		t.Fatalf("the EUR table's wallet is %q", w)
	}
	f.dealer("eur", map[string]any{"cmd": "new_shoe"})
	f.playRound("eur", 1000, 500, "2h", "3d", "3c", "3s", "9d") // ann's Banker wins on a 6 (1:2), bob's Player loses
	f.playRound("eur", 700, 300, "9h", "2c", "Kd", "Qs")        // a Player natural 9: ann loses, bob wins 1:1
	// The operator is paid (the credits are delivered in the background).
	want := baccarat.Money(200_000 - (1000 + 500) - (700 + 300) + 1500 + 600)
	deadline := time.Now().Add(10 * time.Second)
	for {
		op.mu.Lock()
		got := op.bal["ann"] + op.bal["bob"]
		op.mu.Unlock()
		if got == want {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the operator holds %d for the players, want %d", got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := backoffice.CatchUp(ctx, db); err != nil {
		t.Fatal(err)
	}
	var rep web.ReportView
	today := backoffice.Day(time.Now())
	if code := f.do("admin", "GET", "/api/admin/reports?from="+today+"&to="+today+"&currency=EUR", nil, &rep); code != 200 || len(rep.Totals) != 1 {
		t.Fatalf("report: %d %+v", code, rep)
	}
	if tot := rep.Totals[0]; tot.Takings != 200_000-want || tot.Rounds != 2 || tot.Wagers != 4 || tot.Staked != 2500 {
		t.Fatalf("the report of the seamless table: %+v; the players lost %d at the operator", tot, 200_000-want)
	}
	var rc web.RoundRecall
	if code := f.do("admin", "GET", "/api/admin/rounds?table=eur&round=2", nil, &rc); code != 200 || len(rc.Wagers) != 2 || len(rc.Settlements) != 2 ||
		len(rc.Postings) != 0 || len(rc.Calls) != 4 || rc.Calls[0].Kind != "debit" {
		t.Fatalf("the recall of a seamless round: %d %+v", code, rc)
	}
}
