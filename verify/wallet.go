package verify

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// What Database checks of a seamless deployment: our side of every call to the operator's
// wallet against the tables' journals, written apart from the code that makes the calls
// (live/walletbooks.go): every wager placed has one placed debit of its stake, for its player;
// every wager settled has one credit of exactly its return (a void or a withdrawal: one
// rollback of its stake); a wager still in play has neither; no debit paid for a wager no
// journal holds; a debit given back has its rollback. A credit or rollback the operator
// refused for good and no admin has resolved is a problem (money owed: resend it or settle
// it by hand); one an admin resolved is listed (resolved) with who, when and why, and is
// checked: a resent call is carried on by exactly one call of the same kind, debit, player
// and amount, and a call settled by hand gave its reason. Calls not yet answered are listed
// (undelivered), as are debits still pending.

// walletAudit is the wallet calls, indexed once for all tables.
type walletAudit struct {
	debits  map[string]*journal.WalletCall // by table and table wager
	closers map[string]*journal.WalletCall // by debit tx
	seen    map[string]bool                // debits a journal's wager accounts for
	all     []journal.WalletCall
}

func wagerKey(table string, wager uint64) string {
	return table + "\x00" + strconv.FormatUint(wager, 10)
}

func (rep *Report) walletAudit(ctx context.Context, store live.Store) (*walletAudit, error) {
	if rep.wallet != nil {
		return rep.wallet, nil
	}
	calls, ok := store.(journal.WalletCalls)
	if !ok {
		return nil, fmt.Errorf("a seamless table, but the store keeps no wallet calls")
	}
	all, err := allCalls(ctx, calls, journal.CallFilter{})
	if err != nil {
		return nil, err
	}
	rep.wallet = indexCalls(all)
	return rep.wallet, nil
}

// indexCalls indexes the calls: the placed debits by table (or tournament) and item, the
// credits and rollbacks by the debit they close.
func indexCalls(all []journal.WalletCall) *walletAudit {
	a := &walletAudit{debits: map[string]*journal.WalletCall{}, closers: map[string]*journal.WalletCall{}, seen: map[string]bool{}, all: all}
	for i := range all {
		c := &all[i]
		switch {
		case c.Kind == journal.CallDebit && c.State == journal.CallPlaced:
			a.debits[wagerKey(c.Table, c.TableWager)] = c
		case c.Closes() && c.State != journal.CallResent: // a resent call's successor closes its debit
			a.closers[c.DebitTx] = c
		}
	}
	return a
}

// verifySeamless checks a seamless table's wagers against the wallet calls.
func verifySeamless(ctx context.Context, store live.Store, spec live.Spec, events []table.Event, rep *Report, bad func(string, ...any)) error {
	a, err := rep.walletAudit(ctx, store)
	if err != nil {
		bad("%v", err)
		return nil
	}
	debit := func(w uint64) *journal.WalletCall {
		d := a.debits[wagerKey(spec.ID, w)]
		if d != nil {
			a.seen[d.Tx] = true
		}
		return d
	}
	closes := func(w uint64, kind journal.CallKind, amount baccarat.Money, why string) {
		d := debit(w)
		if d == nil {
			return // reported where the wager was placed
		}
		c := a.closers[d.Tx]
		switch {
		case c == nil:
			bad("wager %d %s: no %s of its debit %s is recorded", w, why, kind, d.Tx)
		case c.Kind != kind || c.Amount != amount:
			bad("wager %d %s: its debit %s is closed by a %s of %d, want a %s of %d", w, why, d.Tx, c.Kind, c.Amount, kind, amount)
		}
	}
	inPlay := map[uint64]bool{}
	chips := map[uint64][]table.Chip{} // the chips raised onto each wager, as the table keeps them
	closeChips := func(w uint64, kind journal.CallKind, why string) {
		for _, c := range chips[w] {
			amount := c.Stake
			if kind == journal.CallCredit {
				amount = 0 // the wager's own credit pays its total's return
			}
			delete(inPlay, live.ChipWager(c.Seq))
			closes(live.ChipWager(c.Seq), kind, amount, why)
		}
		delete(chips, w)
	}
	for i := range events {
		e := &events[i]
		switch e.Type {
		case table.EvWagerRaised:
			w, cw := e.Wager, live.ChipWager(e.Seq)
			inPlay[cw] = true
			chips[w.ID] = append(chips[w.ID], table.Chip{Seq: e.Seq, Stake: e.Amount()})
			switch d := debit(cw); {
			case d == nil:
				bad("wager %d of %s was raised by %d (event %d) without a placed debit", w.ID, w.Player, e.Amount(), e.Seq)
			case d.Amount != e.Amount() || d.Player != w.Player || d.Currency != string(spec.Currency):
				bad("wager %d of %s was raised by %d %s, its debit %s takes %d %s from %s", w.ID, w.Player, e.Amount(), spec.Currency,
					d.Tx, d.Amount, d.Currency, d.Player)
			}
		case table.EvWagerLowered:
			cs := chips[e.Wager.ID]
			if n := len(cs); n > 0 && cs[n-1].Stake == e.Amount() {
				delete(inPlay, live.ChipWager(cs[n-1].Seq))
				closes(live.ChipWager(cs[n-1].Seq), journal.CallRollback, e.Amount(), "taken back")
				chips[e.Wager.ID] = cs[:n-1]
			} else {
				bad("wager %d was lowered by %d, which is no chip of it to roll back", e.Wager.ID, e.Amount())
			}
		case table.EvWagerPlaced:
			w := e.Wager
			inPlay[w.ID] = true
			d := debit(w.ID)
			switch {
			case d == nil:
				bad("wager %d of %s (%d) has no placed debit", w.ID, w.Player, w.Stake)
			case d.Amount != w.Stake || d.Player != w.Player || d.Currency != string(spec.Currency):
				bad("wager %d of %s stakes %d %s, its debit %s takes %d %s from %s", w.ID, w.Player, w.Stake, spec.Currency,
					d.Tx, d.Amount, d.Currency, d.Player)
			}
		case table.EvWagerWithdrawn:
			for _, w := range e.Withdrawn() {
				delete(inPlay, w.ID)
				stake := w.Stake
				for _, c := range chips[w.ID] {
					stake -= c.Stake // the wager's own debit took its first stake
				}
				closes(w.ID, journal.CallRollback, stake, "withdrawn")
				closeChips(w.ID, journal.CallRollback, "withdrawn")
			}
		case table.EvRoundSettled, table.EvSessionSettled, table.EvRoundVoided:
			for _, s := range e.Settlements {
				if s.Rides {
					continue
				}
				delete(inPlay, s.Wager)
				if e.Type == table.EvRoundVoided || s.Outcome == games.Void {
					stake := s.Stake
					for _, c := range chips[s.Wager] {
						stake -= c.Stake
					}
					closes(s.Wager, journal.CallRollback, stake, "voided")
					closeChips(s.Wager, journal.CallRollback, "voided")
				} else {
					closes(s.Wager, journal.CallCredit, s.Returned, "settled")
					closeChips(s.Wager, journal.CallCredit, "settled")
				}
			}
		}
	}
	for w := range inPlay {
		if d := debit(w); d != nil && a.closers[d.Tx] != nil {
			bad("wager %d is in play, but its debit %s is closed already", w, d.Tx)
		}
	}
	return nil
}

// verifyCalls checks what no table's journal speaks for, once every table was read.
// A database of a schema before wallet calls (read as it is, not migrated) has none.
func verifyCalls(ctx context.Context, store live.Store, rep *Report) error {
	if _, ok := store.(journal.WalletCalls); !ok {
		return nil
	}
	needed := rep.wallet != nil
	a, err := rep.walletAudit(ctx, store)
	if err != nil && !needed {
		return nil
	}
	if err != nil {
		return err
	}
	rep.WalletCalls = len(a.all)
	for i := range a.all {
		c := &a.all[i]
		switch {
		case c.Kind == journal.CallDebit && c.State == journal.CallPlaced && !a.seen[c.Tx] && isTournamentStream(c.Table):
			rep.Problems = append(rep.Problems, fmt.Sprintf("wallet: debit %s paid for event %d of %s, which is no entry or rebuy of its journal", c.Tx, c.TableWager, c.Table))
		case c.Kind == journal.CallDebit && c.State == journal.CallPlaced && !a.seen[c.Tx]:
			rep.Problems = append(rep.Problems, fmt.Sprintf("wallet: debit %s placed wager %d at table %s, which no journal holds", c.Tx, c.TableWager, c.Table))
		case c.Kind == journal.CallDebit && c.State == journal.CallCancelled && a.closers[c.Tx] == nil:
			rep.Problems = append(rep.Problems, fmt.Sprintf("wallet: debit %s was given back but has no rollback", c.Tx))
		case c.Refused():
			rep.Problems = append(rep.Problems, fmt.Sprintf("wallet: the operator refused %s %s of %d %s to %s (%s): resend it or settle it by hand "+
				"(baccarat reconcile --resend %s, or --settle %s --reason …)", c.Kind, c.Tx, c.Amount, c.Currency, c.Player, c.Error, c.Tx, c.Tx))
		case c.State == journal.CallResent || c.State == journal.CallSettled:
			rep.Problems = append(rep.Problems, a.checkResolved(c)...)
			rep.Resolved = append(rep.Resolved, describeResolved(c))
		case c.State == journal.CallPending:
			rep.Undelivered = append(rep.Undelivered, fmt.Sprintf("%s %s of %d %s for %s at table %s, pending since %s (%d attempts%s)",
				c.Kind, c.Tx, c.Amount, c.Currency, c.Player, c.Table, c.Created.Format(time.RFC3339), c.Attempts, lastError(c.Error)))
		}
	}
	return nil
}

func lastError(s string) string {
	if s == "" {
		return ""
	}
	return "; last: " + s
}

// checkResolved checks a call an admin resolved: its audit is whole, and a resent call has
// one successor that carries it on unchanged.
func (a *walletAudit) checkResolved(c *journal.WalletCall) []string {
	r := c.Resolution
	switch {
	case r == nil || r.By == "" || r.At.IsZero():
		return []string{fmt.Sprintf("wallet: %s %s is %s, with no record of who did it and when", c.Kind, c.Tx, c.State)}
	case c.State == journal.CallSettled && r.Reason == "":
		return []string{fmt.Sprintf("wallet: %s %s was settled by hand by %s without a reason", c.Kind, c.Tx, r.By)}
	case c.State == journal.CallSettled:
		return nil
	}
	var next *journal.WalletCall
	for i := range a.all {
		if a.all[i].Replaces == c.Tx {
			if next != nil {
				return []string{fmt.Sprintf("wallet: %s %s was resent twice: as %s and %s", c.Kind, c.Tx, next.Tx, a.all[i].Tx)}
			}
			next = &a.all[i]
		}
	}
	switch {
	case next == nil || next.Tx != r.ResentAs:
		return []string{fmt.Sprintf("wallet: %s %s was resent as %s, which is not recorded as carrying it on", c.Kind, c.Tx, r.ResentAs)}
	case next.Kind != c.Kind || next.DebitTx != c.DebitTx || next.Player != c.Player || next.Amount != c.Amount || next.Currency != c.Currency:
		return []string{fmt.Sprintf("wallet: %s %s was resent as %s, a %s of %d %s to %s closing %s: not the same call",
			c.Kind, c.Tx, next.Tx, next.Kind, next.Amount, next.Currency, next.Player, next.DebitTx)}
	}
	return nil
}

// describeResolved is a resolved call as verify lists it.
func describeResolved(c *journal.WalletCall) string {
	what := "settled by hand"
	if c.State == journal.CallResent {
		what = "resent"
	}
	s := fmt.Sprintf("%s %s of %d %s to %s at table %s, refused (%s), %s", c.Kind, c.Tx, c.Amount, c.Currency, c.Player, c.Table, c.Error, what)
	r := c.Resolution
	if r == nil {
		return s
	}
	if r.ResentAs != "" {
		s += " as " + r.ResentAs
	}
	s += " by " + r.By + " at " + r.At.Format(time.RFC3339)
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	return s
}
