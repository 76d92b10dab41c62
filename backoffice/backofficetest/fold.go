package backofficetest

// The fold's part of the suite: games played through a table into a store, and the back
// office's figures folded from their journal checked against the books.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

// play plays rounds over two UTC days at a EUR table: a limit changed by the pit, a void,
// a withdrawal-free game of banker, player, tie and pair bets. It returns the game.
func play(t *testing.T, s Full, id string) *Game {
	g := NewGame(t, id, "mbs-tiger", "EUR", At)
	g.Step = 4 * time.Minute // 10 records a round: the rounds cross midnight
	g.Fund(s, 10_000_000, "ann", "bob")
	g.Flush(s)
	for i := range 12 {
		ws := []Wager{{"ann", "banker", 1000 + baccarat.Money(i)}, {"bob", "player", 500}, {"bob", "tie", 100}, {"ann", "tiger", 50}}
		if i == 5 {
			g.Must(setLimit("tie", 100, 20_000))
		}
		if i == 7 { // the pit voids this round after the wagers
			g.Must(openCmd())
			for _, w := range ws {
				g.Must(place(w))
			}
			g.Must(voidCmd())
			continue
		}
		g.Round(ws...)
	}
	g.Flush(s)
	return g
}

func testFoldMatchesBooks(t *testing.T, s Full) {
	ctx := t.Context()
	g := play(t, s, "tiger-eur")
	if _, err := backoffice.CatchUp(ctx, s); err != nil {
		t.Fatal(err)
	}
	if lag, err := s.Lagging(ctx, 10); err != nil || len(lag) != 0 {
		t.Fatalf("after a catch-up, journals behind: %+v %v", lag, err)
	}
	if err := BooksAgree(ctx, s, g.ID, "EUR", []string{"ann", "bob"}, 2*10_000_000); err != nil {
		t.Error(err)
	}
	sum, err := s.Report(ctx, backoffice.Query{From: "2026-01-01", To: "2026-12-31"})
	if err != nil || len(sum.Rows) != 1 {
		t.Fatalf("report: %+v %v", sum, err)
	}
	got := sum.Rows[0]
	if got.Rounds != 11 || got.Voids != 1 || got.Wagers != 48 {
		t.Errorf("figures %+v: want 11 rounds, 1 void, 48 wagers", got.Figures)
	}
	// By day: two days, summing to the whole; by bet: the same settled and returned.
	byDay, err := s.Report(ctx, backoffice.Query{From: "2026-03-01", To: "2026-03-02", ByDay: true, ByTable: true, ByGame: true})
	if err != nil || len(byDay.Rows) != 2 || byDay.Rows[0].Day != "2026-03-01" || byDay.Rows[1].Table != g.ID || byDay.Rows[1].Game != "mbs-tiger" {
		t.Fatalf("by day: %+v %v", byDay.Rows, err)
	}
	var total backoffice.Figures
	for _, r := range byDay.Rows {
		total.Add(r.Figures)
	}
	if total != got.Figures {
		t.Errorf("the days add up to %+v, the whole is %+v", total, got.Figures)
	}
	var settled, returned, staked baccarat.Money
	for _, b := range byDay.Bets {
		settled, returned, staked = settled+b.Settled, returned+b.Returned, staked+b.Staked
		if b.Variant == "" || b.Currency != "EUR" {
			t.Errorf("bet row %+v: want a variant and the currency", b)
		}
	}
	if settled != got.Settled || returned != got.Returned || staked != got.Staked {
		t.Errorf("the bets add up to settled %d returned %d staked %d; the days to %+v", settled, returned, staked, got.Figures)
	}
	// The pit's limit change and void are in the audit trail once, even after another pass.
	if _, err := backoffice.CatchUp(ctx, s); err != nil {
		t.Fatal(err)
	}
	log, err := s.AuditLog(ctx, backoffice.Filter{Target: g.ID})
	if err != nil || len(log) != 2 || log[0].Action != backoffice.ActTableVoid || log[1].Action != backoffice.ActTableLimit ||
		log[0].Actor != "pit-7" || log[0].Reason != "dealer_error" || log[0].Source != backoffice.SourceJournal || log[1].Reason != "VIP night" {
		t.Fatalf("journal entries %+v (%v): want the pit's void and limit change", log, err)
	}
	// Whole months are read from the monthly rows, the days around them from the daily ones:
	// the bets add up the same either way.
	for _, span := range [][2]string{{"2026-01-01", "2026-12-31"}, {"2026-03-02", "2026-12-31"}, {"2026-02-15", "2026-03-01"}, {"2026-03-01", "2026-04-30"}} {
		months, err1 := s.Report(ctx, backoffice.Query{From: span[0], To: span[1], ByTable: true})
		days, err2 := s.Report(ctx, backoffice.Query{From: span[0], To: span[1], ByTable: true, ByDay: true})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if a, b := betTotals(months.Bets), betTotals(days.Bets); len(a) == 0 || !maps.Equal(a, b) {
			t.Errorf("%v: bets by month %v, by day %v", span, a, b)
		}
	}
	if out, _ := s.Report(ctx, backoffice.Query{From: "2026-03-01", To: "2026-03-01", Currency: "JPY"}); len(out.Rows) != 0 {
		t.Errorf("a currency filter kept %+v", out.Rows)
	}
	wantCode(t, func() error {
		_, err := s.Report(ctx, backoffice.Query{From: "2026-03-02", To: "2026-03-01"})
		return err
	}(), baccarat.CodeBadRequest)
}

func testFoldOnce(t *testing.T, s Full) {
	ctx := t.Context()
	play(t, s, "t1")
	lags, err := s.Lagging(ctx, 10)
	if err != nil || len(lags) != 1 {
		t.Fatalf("lagging %+v %v", lags, err)
	}
	recs, err := s.LoadRange(ctx, "t1", 1, lags[0].Head)
	if err != nil {
		t.Fatal(err)
	}
	f, err := backoffice.FoldRecords(lags[0].Mark, recs)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyFold(ctx, f); err != nil {
		t.Fatal(err)
	}
	before, _ := s.Report(ctx, backoffice.Query{From: "2026-01-01", To: "2026-12-31"})
	wantCode(t, s.ApplyFold(ctx, f), baccarat.CodeConflict)
	after, _ := s.Report(ctx, backoffice.Query{From: "2026-01-01", To: "2026-12-31"})
	if len(before.Rows) != 1 || len(after.Rows) != 1 || before.Rows[0] != after.Rows[0] {
		t.Fatalf("a stale fold changed the figures: %+v → %+v", before.Rows, after.Rows)
	}
	if lags, _ := s.Lagging(ctx, 10); len(lags) != 0 {
		t.Fatalf("still behind: %+v", lags)
	}
}

func testFoldBatches(t *testing.T, s Full) {
	ctx := t.Context()
	g := play(t, s, "small")
	recs, err := s.LoadRange(ctx, g.ID, 1, g.Head().Seq)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := backoffice.FoldRecords(backoffice.Mark{Table: g.ID}, recs)
	if err != nil {
		t.Fatal(err)
	}
	var want backoffice.Figures
	for _, d := range whole.Days {
		want.Add(d.Figures)
	}
	lags, _ := s.Lagging(ctx, 10)
	if n, err := backoffice.FoldJournal(ctx, s, lags[0], 7); err != nil || n != len(recs) {
		t.Fatalf("folded %d of %d records: %v", n, len(recs), err)
	}
	sum, err := s.Report(ctx, backoffice.Query{From: "2026-01-01", To: "2026-12-31"})
	if err != nil || len(sum.Rows) != 1 || sum.Rows[0].Figures != want {
		t.Fatalf("in batches of 7: %+v (%v), in one: %+v", sum.Rows, err, want)
	}
}

// BooksAgree checks a report of one table's play against the books it posted, apart from the
// folds that made the report: the house's takings are what its account gained beyond what it
// funded the players with, the players are down by as much (less what is still in play), and
// the stakes placed are those settled, refunded and still in play. It reads the report for
// the 2020s, in currency cur.
func BooksAgree(ctx context.Context, s Full, table, cur string, players []string, funded baccarat.Money) error {
	sum, err := s.Report(ctx, backoffice.Query{From: "2020-01-01", To: "2029-12-31", Table: table, Currency: cur})
	if err != nil {
		return err
	}
	if len(sum.Rows) != 1 {
		return fmt.Errorf("the report of %s has %d rows", table, len(sum.Rows))
	}
	got := sum.Rows[0]
	house, _ := s.Balance(ctx, ledger.House(ledger.Currency(cur)))
	inplay, _ := s.Balance(ctx, ledger.InPlay(table, ledger.Currency(cur)))
	var wallets baccarat.Money
	for _, p := range players {
		b, _ := s.Balance(ctx, ledger.Wallet(p, ledger.Currency(cur)))
		wallets += b
	}
	switch {
	case got.Takings() != house+funded:
		return fmt.Errorf("takings %d, but the house holds %d beyond the %d it funded", got.Takings(), house+funded, funded)
	case funded-wallets-inplay != got.Takings():
		return fmt.Errorf("the players are %d down, the report's takings %d", funded-wallets-inplay, got.Takings())
	case got.Staked != got.Settled+got.Refunded+inplay:
		return fmt.Errorf("staked %d is not settled %d + refunded %d + in play %d", got.Staked, got.Settled, got.Refunded, inplay)
	}
	return nil
}

// Play is the suite's day of play at a EUR Tiger table (play), for a store's own tests: the
// players ann and bob were funded 10,000,000 each.
func Play(t *testing.T, s Full, id string) *Game { return play(t, s, id) }

// betSums are a bet's figures added up: its wagers and their money.
type betSums struct {
	wagers                    int64
	staked, settled, returned baccarat.Money
}

// betTotals adds bet rows up by bet.
func betTotals(rows []backoffice.BetRow) map[string]betSums {
	out := map[string]betSums{}
	for _, b := range rows {
		x := out[b.Table+"/"+b.Bet]
		out[b.Table+"/"+b.Bet] = betSums{x.wagers + b.Wagers, x.staked + b.Staked, x.settled + b.Settled, x.returned + b.Returned}
	}
	return out
}

// r5 is the seq of the record that placed wager 5.
func r5(recs []journal.Record) uint64 {
	for _, rec := range recs {
		var e struct {
			Type  string
			Wager *struct{ ID uint64 }
		}
		_ = json.Unmarshal(rec.Data, &e)
		if e.Type == "wager_placed" && e.Wager != nil && e.Wager.ID == 5 {
			return rec.Seq
		}
	}
	return 0
}
