package live

import (
	"time"

	"github.com/tablehouse/baccarat"

	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
)

// walletCalls adds what a command's events owe the operator's wallet to the batch's moves,
// at a seamless table where the platform keeps no money (operatorStakes.Settle): the debits
// its wagers placed, and the credits and rollbacks that close them.
func (s operatorStakes) walletCalls(t StakeTable, cmd table.Command, evs []table.Event, m *Moves, now time.Time) {
	id, tb := t.ID(), t.State()
	for i := range evs {
		e := &evs[i]
		switch e.Type {
		case table.EvWagerPlaced, table.EvWagerRaised:
			// A chip raising a wager was debited on its own: its debit is placed under the
			// chip's number (ChipWager), and closed with the wager's first debit.
			tw := e.Wager.ID
			if e.Type == table.EvWagerRaised {
				tw = ChipWager(e.Seq)
			}
			if p, ok := cmd.(*table.Place); ok {
				if ap, ok := s.h.approved.get(approvalKey(id, placer(p), p.RequestID)); ok {
					b := ap.balance
					m.Placed = append(m.Placed, journal.PlacedDebit{Tx: ap.tx, TableWager: tw, Balance: &b, At: now})
				}
			}
		case table.EvWagerLowered:
			// A chip taken back gives its debit back (checkTakeBack let only a whole chip go).
			if c, ok := tb.Undone(); ok {
				m.Calls = append(m.Calls, closer(id, journal.CallRollback, ChipWager(c.Seq), 0, now))
			}
		case table.EvWagerWithdrawn:
			for _, w := range e.Withdrawn() {
				m.Calls = append(m.Calls, closer(id, journal.CallRollback, w.ID, 0, now))
				m.Calls = closeChips(tb, id, m.Calls, journal.CallRollback, w.ID, now)
			}
		case table.EvRoundSettled, table.EvSessionSettled, table.EvRoundVoided:
			for _, st := range e.Settlements {
				if st.Rides {
					continue // still on the layout (RWS 3.9): settled in a later round
				}
				if e.Type == table.EvRoundVoided || st.Outcome == games.Void {
					m.Calls = append(m.Calls, closer(id, journal.CallRollback, st.Wager, 0, now))
					m.Calls = closeChips(tb, id, m.Calls, journal.CallRollback, st.Wager, now)
				} else {
					// Every settled wager closes its debit: its return, 0 for a lost wager; its
					// chips' debits are closed with nothing more (the return is the total's).
					m.Calls = append(m.Calls, closer(id, journal.CallCredit, st.Wager, st.Returned, now))
					m.Calls = closeChips(tb, id, m.Calls, journal.CallCredit, st.Wager, now)
				}
			}
		}
	}
}

// closeChips closes the debits of the chips raised onto a wager, as its own debit is closed:
// each rolled back (withdrawn, voided) or credited nothing (settled).
func closeChips(tb *table.Table, tableID string, calls []journal.WalletCall, kind journal.CallKind, wager uint64, now time.Time) []journal.WalletCall {
	for _, c := range tb.Chips(wager) {
		calls = append(calls, closer(tableID, kind, ChipWager(c.Seq), 0, now))
	}
	return calls
}

// closer is the credit or rollback that settles one of the table's wagers; the store
// takes the player, currency, round and the operator's wager number from its debit.
func closer(tableID string, kind journal.CallKind, wager uint64, amount baccarat.Money, now time.Time) journal.WalletCall {
	return journal.WalletCall{Tx: CloseTx(kind, tableID, wager), Kind: kind, Amount: amount, Table: tableID,
		TableWager: wager, Created: now}
}

// checkTakeBack lets a chip be taken back at a seamless table only whole, the wager's last
// chip still standing (or the whole wager, a withdrawal): the operator's wallet gave each
// chip a debit of its own, and what goes back is that debit's rollback, which returns its
// amount exactly. A wager's first stake is its first debit, which its settlement closes.
func checkTakeBack(tb *table.Table, c *table.Withdraw) error {
	for _, w := range tb.Wagers() {
		if w.ID != c.Wager || c.Stake >= w.Stake {
			continue
		}
		if cs := tb.Chips(w.ID); len(cs) > 0 && cs[len(cs)-1].Stake == c.Stake {
			return nil
		}
		return baccarat.Errorf(baccarat.CodeNotWithdrawable,
			"at this table a chip is taken back as it was placed: the last chip on wager %d, or the whole wager", w.ID)
	}
	return nil
}
