package live

import (
	"time"

	"github.com/tablehouse/baccarat"

	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
)

// walletBatch is what a batch of commands writes for the operator's wallet at a seamless
// table: the debits its wagers placed, and the credits and rollbacks its settlements owe.
type walletBatch struct {
	placed []journal.PlacedDebit
	calls  []journal.WalletCall
}

// walletCalls adds what a command's events owe the operator's wallet to the batch, at a
// seamless table where the platform keeps no money (operatorStakes.Settle): the debits its
// wagers placed, and the credits and rollbacks that close them.
func (r *runner) walletCalls(cmd table.Command, evs []table.Event, wb *walletBatch, now time.Time) {
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
				if ap, ok := r.h.approved.get(approvalKey(r.spec.ID, placer(p), p.RequestID)); ok {
					b := ap.balance
					wb.placed = append(wb.placed, journal.PlacedDebit{Tx: ap.tx, TableWager: tw, Balance: &b, At: now})
				}
			}
		case table.EvWagerLowered:
			// A chip taken back gives its debit back (checkTakeBack let only a whole chip go).
			if c, ok := r.t.Undone(); ok {
				wb.calls = append(wb.calls, r.closer(journal.CallRollback, ChipWager(c.Seq), 0, now))
			}
		case table.EvWagerWithdrawn:
			for _, w := range e.Withdrawn() {
				wb.calls = append(wb.calls, r.closer(journal.CallRollback, w.ID, 0, now))
				wb.calls = r.closeChips(wb.calls, journal.CallRollback, w.ID, now)
			}
		case table.EvRoundSettled, table.EvSessionSettled, table.EvRoundVoided:
			for _, s := range e.Settlements {
				if s.Rides {
					continue // still on the layout (RWS 3.9): settled in a later round
				}
				if e.Type == table.EvRoundVoided || s.Outcome == games.Void {
					wb.calls = append(wb.calls, r.closer(journal.CallRollback, s.Wager, 0, now))
					wb.calls = r.closeChips(wb.calls, journal.CallRollback, s.Wager, now)
				} else {
					// Every settled wager closes its debit: its return, 0 for a lost wager; its
					// chips' debits are closed with nothing more (the return is the total's).
					wb.calls = append(wb.calls, r.closer(journal.CallCredit, s.Wager, s.Returned, now))
					wb.calls = r.closeChips(wb.calls, journal.CallCredit, s.Wager, now)
				}
			}
		}
	}
}

// closeChips closes the debits of the chips raised onto a wager, as its own debit is closed:
// each rolled back (withdrawn, voided) or credited nothing (settled).
func (r *runner) closeChips(calls []journal.WalletCall, kind journal.CallKind, wager uint64, now time.Time) []journal.WalletCall {
	for _, c := range r.t.Chips(wager) {
		calls = append(calls, r.closer(kind, ChipWager(c.Seq), 0, now))
	}
	return calls
}

// closer is the credit or rollback that settles one of the table's wagers; the store
// takes the player, currency, round and the operator's wager number from its debit.
func (r *runner) closer(kind journal.CallKind, wager uint64, amount baccarat.Money, now time.Time) journal.WalletCall {
	return journal.WalletCall{Tx: CloseTx(kind, r.spec.ID, wager), Kind: kind, Amount: amount, Table: r.spec.ID,
		TableWager: wager, Created: now}
}

// committed follows a commit: the runner's round for debits on their way, and the
// deliverer woken for what the batch owes.
func (r *runner) committedWallet(wb *walletBatch) {
	r.money.note(r.t)
	if len(wb.calls) > 0 {
		r.h.kickDelivery()
	}
}

// checkTakeBack lets a chip be taken back at a seamless table only whole, the wager's last
// chip still standing (or the whole wager, a withdrawal): the operator's wallet gave each
// chip a debit of its own, and what goes back is that debit's rollback, which returns its
// amount exactly. A wager's first stake is its first debit, which its settlement closes.
func (r *runner) checkTakeBack(c *table.Withdraw) error {
	for _, w := range r.t.Wagers() {
		if w.ID != c.Wager || c.Stake >= w.Stake {
			continue
		}
		if cs := r.t.Chips(w.ID); len(cs) > 0 && cs[len(cs)-1].Stake == c.Stake {
			return nil
		}
		return baccarat.Errorf(baccarat.CodeNotWithdrawable,
			"at this table a chip is taken back as it was placed: the last chip on wager %d, or the whole wager", w.ID)
	}
	return nil
}
