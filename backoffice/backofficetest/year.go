package backofficetest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/table"
)

// Year describes a generated year of business for benchmarks: Tables tables, each playing
// RoundsADay rounds every day from From for Days days, every round with the same wagers
// (a Tiger table's usual mix), in Currencies taken in turn.
type Year struct {
	Tables     int
	Days       int
	RoundsADay int64
	From       time.Time
	Currencies []string
}

// yearBets are a round's wagers: bet, stake (minor units) and what the settlements return
// per round on average (stake included), fixed so that the figures are exact to check.
var yearBets = []struct {
	bet             string
	stake, returned baccarat.Money
}{{"banker", 10_000, 9_880}, {"player", 8_000, 7_900}, {"tie", 1_000, 860}, {"tiger", 500, 420}, {"small_tiger", 300, 240},
	{"big_tiger", 300, 250}, {"tiger_pair", 400, 330}, {"tiger_tie", 200, 170}}

// Rounds is how many rounds the year holds.
func (y Year) Rounds() int64 { return int64(y.Tables) * int64(y.Days) * y.RoundsADay }

// Takings is the house's takings over the whole year in each currency.
func (y Year) Takings() map[string]baccarat.Money {
	out := map[string]baccarat.Money{}
	var perRound baccarat.Money
	for _, b := range yearBets {
		perRound += b.stake - b.returned
	}
	for i := range y.Tables {
		out[y.Currencies[i%len(y.Currencies)]] += perRound * baccarat.Money(y.RoundsADay) * baccarat.Money(y.Days)
	}
	return out
}

// Generate writes the year's summaries through the store's own folds, one fold a table
// (its days and bets, as the aggregator writes them), and the tables' infos.
func (y Year) Generate(ctx context.Context, s backoffice.Store) error {
	variant := backoffice.Variant(table.Config{Game: "mbs-tiger", Decks: 8})
	for i := range y.Tables {
		id := fmt.Sprintf("tiger-%03d", i+1)
		cur := y.Currencies[i%len(y.Currencies)]
		cfg, _ := json.Marshal(table.Config{Game: "mbs-tiger", Decks: 8})
		f := backoffice.Fold{Table: id, From: 1, To: uint64(y.Days), State: backoffice.State{Kind: backoffice.KindTable, Game: "mbs-tiger", Currency: cur, Variant: variant},
			Info: &backoffice.TableInfo{Table: id, Name: id, Game: "mbs-tiger", Mode: "auto", Currency: cur, Config: cfg, Created: y.From}}
		for d := range y.Days {
			day := backoffice.Day(y.From.AddDate(0, 0, d))
			row := backoffice.DayRow{Day: day, Table: id, Game: "mbs-tiger", Currency: cur}
			row.Rounds = y.RoundsADay
			for _, b := range yearBets {
				n := y.RoundsADay
				staked, returned := b.stake*baccarat.Money(n), b.returned*baccarat.Money(n)
				row.Wagers += n
				row.Staked += staked
				row.Settled += staked
				row.Returned += returned
				f.Bets = append(f.Bets, backoffice.BetRow{Day: day, Table: id, Game: "mbs-tiger", Currency: cur, Variant: variant, Bet: b.bet,
					Wagers: n, Staked: staked, Settled: staked, Returned: returned})
			}
			f.Days = append(f.Days, row)
		}
		if err := s.ApplyFold(ctx, f); err != nil {
			return err
		}
	}
	return nil
}
