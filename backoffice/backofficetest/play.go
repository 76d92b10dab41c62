package backofficetest

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Game is a table played by the suite as the live host plays one: the table's own events,
// sealed into its journal, with the postings live.Postings derives from them, committed
// together, so that a report can be checked against the books.
type Game struct {
	t        testing.TB
	ID       string
	Currency ledger.Currency
	tab      *table.Table
	head     journal.Head
	At       time.Time // the next command's time
	Step     time.Duration
	Batch    journal.Batch
	src      baccarat.Source
}

// NewGame starts a table of game in cur whose journal begins at at: its spec record and a
// shoe, in Batch (commit it with Flush).
func NewGame(t testing.TB, id, game string, cur ledger.Currency, at time.Time) *Game {
	t.Helper()
	cfg := table.Config{Game: game, Currency: string(cur), DefaultLimit: table.Limit{Min: 1, Max: 1 << 40}, Mode: table.ModeDealer}
	tab, err := table.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := &Game{t: t, ID: id, Currency: cur, tab: tab, At: at, Step: time.Second, src: baccarat.SeededSource(7)}
	spec, _ := json.Marshal(live.Spec{ID: id, Name: "Table " + id, Config: tab.Config(), Mode: table.ModeDealer, Currency: cur})
	g.record(journal.Record{Type: "table_created", Data: spec, At: at})
	return g
}

func (g *Game) record(r journal.Record) {
	r.Table = g.ID
	r = journal.Seal(g.head, r)
	g.head = r.Head()
	g.Batch.Records = append(g.Batch.Records, r)
}

// Do applies a command at the game's clock, journals its events and books their money.
func (g *Game) Do(c table.Command) ([]table.Event, error) {
	g.At = g.At.Add(g.Step)
	c.Head().At = g.At
	evs, err := g.tab.Apply(c)
	if err != nil {
		return nil, err
	}
	out := make([]table.Event, len(evs))
	for i := range evs {
		out[i] = evs[i].Clone()
		data, err := json.Marshal(&out[i])
		if err != nil {
			g.t.Fatal(err)
		}
		g.record(journal.Record{Type: out[i].Type.String(), Data: data, At: g.At})
	}
	g.Batch.Transactions = append(g.Batch.Transactions, live.Postings(g.ID, g.Currency, out)...)
	return out, nil
}

// Must is Do that fails the test on a refusal.
func (g *Game) Must(c table.Command) []table.Event {
	g.t.Helper()
	evs, err := g.Do(c)
	if err != nil {
		g.t.Fatalf("%s at %s: %v", c.Kind(), g.ID, err)
	}
	return evs
}

// Round plays one round: a new shoe first if none is in play, then open, the wagers
// (player → bet → stake), close, and deal to the result.
func (g *Game) Round(wagers ...Wager) {
	g.t.Helper()
	if !g.tab.ShoeActive() {
		s := baccarat.NewShoe(g.tab.Config().Decks)
		s.Shuffle(g.src)
		g.Must(&table.NewShoe{Order: s.Order(), Salt: hex.EncodeToString([]byte("salt"))})
	}
	g.Must(&table.Open{})
	for _, w := range wagers {
		g.Must(&table.Place{Player: w.Player, Bet: w.Bet, Stake: w.Stake, Available: 1 << 50})
	}
	g.Must(&table.Close{})
	for ph := g.tab.Phase(); ph == table.PhaseClosed || ph == table.PhaseDealing; ph = g.tab.Phase() {
		g.Must(&table.Deal{})
	}
}

// Wager is one wager of a round.
type Wager struct {
	Player, Bet string
	Stake       baccarat.Money
}

// Store is what the suite's games commit to.
type Store interface {
	journal.Committer
	ledger.Store
}

// Fund opens the house, the table's in-play account and each player's wallet, and credits
// the wallets from the house.
func (g *Game) Fund(s Store, amount baccarat.Money, players ...string) {
	g.t.Helper()
	ctx := g.t.Context()
	for _, a := range []string{ledger.House(g.Currency), ledger.InPlay(g.ID, g.Currency)} {
		if err := s.OpenAccount(ctx, a); err != nil {
			g.t.Fatal(err)
		}
	}
	for _, p := range players {
		w := ledger.Wallet(p, g.Currency)
		if err := s.OpenAccount(ctx, w); err != nil {
			g.t.Fatal(err)
		}
		if _, err := s.Post(ctx, ledger.Transaction{Key: fmt.Sprintf("fund/%s/%s", g.ID, p), At: g.At, Memo: "credit",
			Postings: []ledger.Posting{{Account: ledger.House(g.Currency), Amount: -amount}, {Account: w, Amount: amount}}}); err != nil {
			g.t.Fatal(err)
		}
	}
}

// Flush commits what the game has journalled and booked since the last flush.
func (g *Game) Flush(s Store) {
	g.t.Helper()
	if err := s.Commit(g.t.Context(), g.Batch); err != nil {
		g.t.Fatal(err)
	}
	g.Batch = journal.Batch{}
}

// Table is the table under play.
func (g *Game) Table() *table.Table { return g.tab }

// Head is the journal's head.
func (g *Game) Head() journal.Head { return g.head }
