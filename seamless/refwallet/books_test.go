package refwallet

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/seamless"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

// wallet is a reference wallet on 127.0.0.1 with a temporary database, a client of the
// game server's side and an admin.
type wallet struct {
	t      *testing.T
	store  *Store
	srv    *Server
	url    string
	client *seamless.Client
	admin  *Admin
}

func newWallet(t *testing.T, f Faults) *wallet {
	t.Helper()
	store, err := Open(context.Background(), filepath.Join(t.TempDir(), "wallet.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(store, Options{Secret: secret, Faults: f, Source: NewSource(7)})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { _ = store.Close() })
	t.Cleanup(hs.Close)
	t.Cleanup(srv.Close) // first: wake held calls so the server can close
	return &wallet{t: t, store: store, srv: srv, url: hs.URL,
		client: &seamless.Client{BaseURL: hs.URL, Secret: secret},
		admin:  &Admin{BaseURL: hs.URL, Secret: secret}}
}

func (w *wallet) player(id string, balance baccarat.Money) {
	w.t.Helper()
	if err := w.admin.SetPlayer(context.Background(), Player{Player: id, Currency: "EUR", Balance: balance}); err != nil {
		w.t.Fatal(err)
	}
}

func (w *wallet) report() *Report {
	w.t.Helper()
	rep, err := w.admin.Report(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return rep
}

// balanced checks the books and fails the test on the first fault.
func (w *wallet) balanced() *Report {
	w.t.Helper()
	rep := w.report()
	if err := checkBooks(rep); err != nil {
		w.t.Fatal(err)
	}
	return rep
}

// checkBooks is the report checked by arithmetic of its own, apart from the wallet's code:
// no tx id twice; what each tx moved follows from its kind and answer; every debit closed
// at most once, and a debit closed before it was applied never applied; and for every
// player, opening + Σ moved = balance ≥ 0.
func checkBooks(rep *Report) error {
	seen := map[string]TxReport{}
	closers := map[string]string{}
	for _, x := range rep.Txs {
		if _, dup := seen[x.Tx]; dup {
			return fmt.Errorf("tx %s recorded twice", x.Tx)
		}
		seen[x.Tx] = x
		if x.Closes != "" {
			if c, dup := closers[x.Closes]; dup {
				return fmt.Errorf("debit %s closed by %s and by %s", x.Closes, c, x.Tx)
			}
			closers[x.Closes] = x.Tx
		}
	}
	moved := map[[2]string]baccarat.Money{}
	for _, x := range rep.Txs {
		if err := checkMove(x, seen); err != nil {
			return err
		}
		moved[[2]string{x.Player, x.Currency}] += x.Moved
	}
	for _, x := range rep.Txs {
		if c, ok := closers[x.Tx]; ok && x.Kind == "debit" && x.Moved != 0 && seen[c].Seq < x.Seq {
			return fmt.Errorf("debit %s applied after %s had closed it", x.Tx, c)
		}
	}
	for _, p := range rep.Players {
		if got := p.Opening + moved[[2]string{p.Player, p.Currency}]; got != p.Balance || p.Balance < 0 {
			return fmt.Errorf("%s %s: opening %d + moved %d = %d, but the balance is %d", p.Player, p.Currency,
				p.Opening, moved[[2]string{p.Player, p.Currency}], got, p.Balance)
		}
	}
	return nil
}

// checkMove: a refusal moves nothing; an accepted debit takes its amount, a credit gives
// its amount, a rollback gives its amount back when its debit had taken it.
func checkMove(x TxReport, seen map[string]TxReport) error {
	want := baccarat.Money(0)
	switch {
	case x.Status != 200:
	case x.Kind == "debit":
		want = -x.Amount
	case x.Kind == "credit":
		want = x.Amount
	case x.Kind == "rollback" && seen[x.DebitTx].Moved != 0 && seen[x.DebitTx].Seq < x.Seq:
		want = x.Amount
	}
	if x.Moved != want {
		return fmt.Errorf("%s %s (status %d) moved %d, want %d", x.Kind, x.Tx, x.Status, x.Moved, want)
	}
	if (x.Status == 200) != (x.Error == "") {
		return fmt.Errorf("%s %s: status %d with error %q", x.Kind, x.Tx, x.Status, x.Error)
	}
	return nil
}

// TestOperatorBooksCatchPlantedFaults: the check above catches books that do not add up,
// planted straight into the database; and the database itself refuses a second closer
// of a debit and a negative balance.
func TestOperatorBooksCatchPlantedFaults(t *testing.T) {
	for _, c := range []struct{ name, sql string }{
		{"a balance changed behind the books", `UPDATE players SET balance = balance + 1`},
		{"a debit that moved twice its amount", `UPDATE txs SET moved = 2 * moved WHERE tx = 'd-1'`},
		{"a refusal that moved money", `UPDATE txs SET moved = -1 WHERE tx = 'd-2'`},
		{"a rollback that gave back a refused debit", `UPDATE txs SET moved = 700 WHERE tx = 'r-2'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWallet(t, Faults{})
			w.player("ann", 1000)
			ctx := context.Background()
			if _, err := w.client.Debit(ctx, debit("d-1", "ann", 300)); err != nil {
				t.Fatal(err)
			}
			if _, err := w.client.Debit(ctx, debit("d-2", "ann", 700+1)); err == nil {
				t.Fatal("a debit over the balance was taken")
			}
			if _, err := w.client.Rollback(ctx, rollback("r-2", debit("d-2", "ann", 701))); err != nil {
				t.Fatal(err)
			}
			w.balanced()
			if _, err := w.store.db.Exec(c.sql); err != nil {
				t.Fatal(err)
			}
			if err := checkBooks(w.report()); err == nil {
				t.Fatal("the check passed books with a planted fault")
			}
		})
	}
	w := newWallet(t, Faults{})
	w.player("bob", 10)
	if _, err := w.store.db.Exec(`UPDATE players SET balance = -1`); err == nil {
		t.Error("the database took a negative balance")
	}
	if _, err := w.client.Debit(context.Background(), debit("d-1", "bob", 5)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.client.Credit(context.Background(), credit("c-1", debit("d-1", "bob", 5), 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.store.db.Exec(`INSERT INTO txs (tx, kind, request, player, currency, amount, table_id, round, wager,
		closes, moved, status, error, answer, at) VALUES ('c-2', 'credit', '', 'bob', 'EUR', 5, 't', 1, 1, 'd-1', 5, 200, '', '', '')`); err == nil {
		t.Error("the database took a second credit closing the same debit")
	}
}

func debit(tx, player string, amount baccarat.Money) seamless.DebitRequest {
	return seamless.DebitRequest{Tx: tx, Player: player, Currency: "EUR", Amount: amount, Table: "tiger", Round: 1, Wager: 1}
}

func credit(tx string, d seamless.DebitRequest, amount baccarat.Money) seamless.CreditRequest {
	return seamless.CreditRequest{Tx: tx, Player: d.Player, Currency: d.Currency, Amount: amount, Table: d.Table,
		Round: d.Round, Wager: d.Wager, DebitTx: d.Tx}
}

func rollback(tx string, d seamless.DebitRequest) seamless.RollbackRequest {
	return seamless.RollbackRequest{Tx: tx, Player: d.Player, Currency: d.Currency, Amount: d.Amount, Table: d.Table,
		Round: d.Round, Wager: d.Wager, DebitTx: d.Tx}
}
