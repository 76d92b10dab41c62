package live

import (
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// Plays turns a table's events into what responsible gaming counts, beside the money the
// same events move (Postings): every wager placed, and every wager that leaves play with
// what went back to its player (settled, voided, withdrawn; a push that rides stays in
// play). A house bot is nobody's player and is not counted.
func Plays(tableID string, cur ledger.Currency, events []table.Event, out []responsible.Play) []responsible.Play {
	for i := range events {
		e := &events[i]
		switch e.Type {
		case table.EvWagerPlaced:
			w := e.Wager
			if w == nil || tournament.IsBot(w.Player) {
				continue
			}
			out = append(out, responsible.Play{Player: w.Player, Currency: string(cur), Table: tableID, Round: e.Round, Wager: w.ID,
				Stake: w.Stake, At: e.At})
		case table.EvWagerWithdrawn:
			for _, w := range e.Withdrawn() {
				if tournament.IsBot(w.Player) {
					continue
				}
				out = append(out, responsible.Play{Player: w.Player, Currency: string(cur), Table: tableID, Round: w.Round, Wager: w.ID,
					Settles: true, Stake: w.Stake, Returned: w.Stake, At: e.At})
			}
		case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
			for _, s := range e.Settlements {
				if s.Rides || tournament.IsBot(s.Player) {
					continue
				}
				out = append(out, responsible.Play{Player: s.Player, Currency: string(cur), Table: tableID, Round: e.Round, Wager: s.Wager,
					Settles: true, Stake: s.Stake, Returned: s.Returned, At: e.At})
			}
		}
	}
	return out
}
