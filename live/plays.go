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
//
// A chip that raised a wager is counted as it is staked, checked against the limits for
// what it adds, under a key of its own (ChipWager: the tallies key each open stake by wager,
// and the wager's is open already); the wager's settlement settles its total and closes its
// chips with nothing more to count. A chip taken back whole (table.Undone) leaves play with
// its stake returned. chips is the table the events are from, asked for each wager's chips
// (nil: the events raise nothing).
func Plays(tableID string, cur ledger.Currency, events []table.Event, out []responsible.Play, chips ChipBook) []responsible.Play {
	closeChips := func(e *table.Event, player string, round, wager uint64) {
		if chips == nil {
			return
		}
		for _, c := range chips.Chips(wager) {
			out = append(out, responsible.Play{Player: player, Currency: string(cur), Table: tableID, Round: round,
				Wager: ChipWager(c.Seq), Settles: true, At: e.At})
		}
	}
	for i := range events {
		e := &events[i]
		switch e.Type {
		case table.EvWagerRaised:
			if tournament.IsBot(e.Wager.Player) {
				continue
			}
			out = append(out, responsible.Play{Player: e.Wager.Player, Currency: string(cur), Table: tableID, Round: e.Wager.Round,
				Wager: ChipWager(e.Seq), Stake: e.Amount(), At: e.At})
		case table.EvWagerLowered:
			if chips == nil || tournament.IsBot(e.Wager.Player) {
				continue
			}
			if c, ok := chips.Undone(); ok {
				out = append(out, responsible.Play{Player: e.Wager.Player, Currency: string(cur), Table: tableID, Round: e.Wager.Round,
					Wager: ChipWager(c.Seq), Settles: true, Stake: c.Stake, Returned: c.Stake, At: e.At})
			}
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
				closeChips(e, w.Player, w.Round, w.ID)
			}
		case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
			for _, s := range e.Settlements {
				if s.Rides || tournament.IsBot(s.Player) {
					continue
				}
				out = append(out, responsible.Play{Player: s.Player, Currency: string(cur), Table: tableID, Round: e.Round, Wager: s.Wager,
					Settles: true, Stake: s.Stake, Returned: s.Returned, At: e.At})
				closeChips(e, s.Player, e.Round, s.Wager)
			}
		}
	}
	return out
}

// ChipBook is what the books ask a table of the chips raised onto its wagers (table.Chips).
type ChipBook interface {
	Chips(wager uint64) []table.Chip
	Undone() (table.Chip, bool)
}

// ChipWager is the number a chip is booked under where money is keyed by wager: the
// operator's wallet debit that took it (its table_wager) and responsible gaming's open
// stake. It is the seq of the wager_raised event that added it, with bit 62 set, so that it
// is never a wager's own id at the table.
func ChipWager(seq uint64) uint64 { return 1<<62 | seq }
