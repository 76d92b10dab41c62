package sqlite_test

import (
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/backoffice/backofficetest"
)

// BenchmarkReportYear: a report over a whole year of rounds, read from the summaries the
// aggregator keeps (a row a table and day, a row a bet of each), never from the journals:
// 50 tables dealing a round a minute all year (26,280,000 rounds, 210 million wagers) in three
// currencies. The generated database is made once; each case reads the year grouped as the
// back office's report page asks. Run with:
//
//	go test -run '^$' -bench ReportYear -benchtime 20x ./sqlite/
func BenchmarkReportYear(b *testing.B) {
	db := open(b)
	y := backofficetest.Year{Tables: 50, Days: 365, RoundsADay: 1440, From: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		Currencies: []string{"EUR", "JPY", "XXX"}}
	start := time.Now()
	if err := y.Generate(b.Context(), db); err != nil {
		b.Fatal(err)
	}
	b.Logf("generated a year of %d rounds at %d tables in %s", y.Rounds(), y.Tables, time.Since(start).Round(time.Millisecond))
	want := y.Takings()
	year := backoffice.Query{From: "2025-01-01", To: "2025-12-31"}
	for _, c := range []struct {
		name string
		q    backoffice.Query
	}{
		{"by currency", year},
		{"by table", backoffice.Query{From: year.From, To: year.To, ByTable: true}},
		{"by game", backoffice.Query{From: year.From, To: year.To, ByGame: true}},
		{"by day", backoffice.Query{From: year.From, To: year.To, ByDay: true, Currency: "EUR"}},
		{"by day and table", backoffice.Query{From: year.From, To: year.To, ByDay: true, ByTable: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var sum backoffice.Summary
			for b.Loop() {
				var err error
				if sum, err = db.Report(b.Context(), c.q); err != nil {
					b.Fatal(err)
				}
			}
			got := map[string]baccarat.Money{}
			for _, r := range sum.Rows {
				got[r.Currency] += r.Takings()
			}
			for cur, w := range want {
				if c.q.Currency != "" && cur != c.q.Currency {
					continue
				}
				if got[cur] != w {
					b.Fatalf("%s takings %d, want %d", cur, got[cur], w)
				}
			}
			b.ReportMetric(float64(len(sum.Rows)), "rows")
			b.ReportMetric(float64(len(sum.Bets)), "bet-rows")
		})
	}
}

// BenchmarkFoldRounds: how fast the aggregator folds journals into the summaries (what a
// server catches up with after a restart, or when it first meets an old database): real
// Tiger rounds of four wagers each, journalled and booked as the host does. Run with:
//
//	go test -run '^$' -bench FoldRounds ./sqlite/
func BenchmarkFoldRounds(b *testing.B) {
	db := open(b)
	g := backofficetest.NewGame(b, "fold", "mbs-tiger", "EUR", backofficetest.At)
	g.Fund(db, 1_000_000_000_000_000, "ann", "bob")
	g.Flush(db)
	for range b.N {
		g.Round(backofficetest.Wager{Player: "ann", Bet: "banker", Stake: 1000}, backofficetest.Wager{Player: "bob", Bet: "player", Stake: 500},
			backofficetest.Wager{Player: "bob", Bet: "tie", Stake: 100}, backofficetest.Wager{Player: "ann", Bet: "tiger", Stake: 50})
		if len(g.Batch.Records) > 4000 {
			g.Flush(db)
		}
	}
	g.Flush(db)
	b.ResetTimer()
	n, err := backoffice.CatchUp(b.Context(), db)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}
