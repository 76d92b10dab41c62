package verify

import (
	"context"
	"sort"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// Reconciliation is what our books say passed between the platform and the operator's
// wallet in a period, for the operator to lay beside their own: every call written in it,
// totals per currency, and everything not yet settled whenever it was written.
type Reconciliation struct {
	From   time.Time                 `json:"from"`
	To     time.Time                 `json:"to"`
	Totals map[string]*CallTotals    `json:"totals"` // by currency
	Calls  []journal.WalletCall      `json:"calls"`
	Open   []journal.WalletCall      `json:"undelivered"` // credits and rollbacks not yet answered, debits not yet placed or given back
	Failed []journal.WalletCall      `json:"failed"`      // credits and rollbacks the operator refused for good: each waits for an admin to resend or settle it
	Counts map[journal.CallState]int `json:"counts"`      // the period's calls by state
	// Resolved: the refused calls an admin resent or settled by hand in the period (by the
	// time of the action, whenever the call was written), each with who, when and why.
	Resolved []journal.WalletCall `json:"resolved"`
	// Tournaments: each seamless tournament with calls in the period, whole (every call it
	// has, whenever written), checked against its journal (tournament_calls.go).
	Tournaments []TournamentCalls `json:"tournaments"`
}

// CallTotals sums a currency's calls of a period as they stand. Net is what the players
// gained from their play by our books: Credited + RolledBack + SettledByHand − Debited, of
// debits that paid for wagers (a debit given back before its wager and its rollback cancel
// out, whether or not the operator ever applied the debit). A call resent counts nothing:
// the call that carries it on counts as it stands.
type CallTotals struct {
	Debited       baccarat.Money `json:"debited"`         // debits of wagers placed
	Credited      baccarat.Money `json:"credited"`        // credits answered
	RolledBack    baccarat.Money `json:"rolled_back"`     // rollbacks of placed wagers answered (voids, withdrawals)
	GivenBack     baccarat.Money `json:"given_back"`      // debits given back before their wager was placed
	Outstanding   baccarat.Money `json:"outstanding"`     // credits and rollbacks not yet answered
	Refused       baccarat.Money `json:"refused"`         // credits and rollbacks refused for good, not yet resolved: owed, waiting for an admin
	SettledByHand baccarat.Money `json:"settled_by_hand"` // credits, and rollbacks of placed wagers, the operator paid some other way
	Net           baccarat.Money `json:"net_to_players"`  // Credited + RolledBack + SettledByHand − Debited
}

// MaxReconcile is the most calls one reconciliation lists.
const MaxReconcile = 1_000_000

// Reconcile reads the calls written in [from, to) and every open or failed call; with a
// store that also keeps the journals, it checks each tournament the period's calls are for
// against its journal. store is any store: one that keeps no wallet calls is refused
// (internal), so a caller needs no more than the database it has.
func Reconcile(ctx context.Context, store any, from, to time.Time) (*Reconciliation, error) {
	calls, ok := store.(journal.WalletCalls)
	if !ok {
		return nil, baccarat.Errorf(baccarat.CodeInternal, "this store keeps no wallet calls")
	}
	if !to.IsZero() && !from.Before(to) {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "from %s is not before to %s", from.Format(time.RFC3339), to.Format(time.RFC3339))
	}
	rep := &Reconciliation{From: from, To: to, Totals: map[string]*CallTotals{}, Calls: []journal.WalletCall{},
		Open: []journal.WalletCall{}, Failed: []journal.WalletCall{}, Counts: map[journal.CallState]int{},
		Resolved: []journal.WalletCall{}}
	period, err := allCalls(ctx, calls, journal.CallFilter{From: from, To: to})
	if err != nil {
		return nil, err
	}
	rep.Calls = period
	all, err := allCalls(ctx, calls, journal.CallFilter{})
	if err != nil {
		return nil, err
	}
	debits := map[string]*journal.WalletCall{}
	for i := range all {
		c := &all[i]
		if c.Kind == journal.CallDebit {
			debits[c.Tx] = c
		}
		switch {
		case c.State == journal.CallPending:
			rep.Open = append(rep.Open, *c)
		case c.Refused():
			rep.Failed = append(rep.Failed, *c)
		case c.Resolution != nil && inPeriod(c.Resolution.At, from, to):
			rep.Resolved = append(rep.Resolved, *c)
		}
	}
	for i := range period {
		rep.add(&period[i], debits)
	}
	rep.Tournaments = []TournamentCalls{}
	if j, ok := store.(journalLoader); ok {
		if rep.Tournaments, err = reconcileTournaments(ctx, j, period, all); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func (rep *Reconciliation) add(c *journal.WalletCall, debits map[string]*journal.WalletCall) {
	rep.Counts[c.State]++
	t := rep.Totals[c.Currency]
	if t == nil {
		t = &CallTotals{}
		rep.Totals[c.Currency] = t
	}
	placedDebit := func() bool { d := debits[c.DebitTx]; return d != nil && d.State == journal.CallPlaced }
	switch {
	case c.Kind == journal.CallDebit && c.State == journal.CallPlaced:
		t.Debited += c.Amount
	case c.Kind == journal.CallDebit && c.State == journal.CallCancelled:
		t.GivenBack += c.Amount
	case c.Closes() && c.State == journal.CallPending:
		t.Outstanding += c.Amount
	case c.Kind == journal.CallCredit && c.State == journal.CallDone:
		t.Credited += c.Amount
	case c.Kind == journal.CallRollback && c.State == journal.CallDone && placedDebit():
		t.RolledBack += c.Amount
	case c.Refused():
		t.Refused += c.Amount
	case c.State == journal.CallSettled && (c.Kind == journal.CallCredit || placedDebit()):
		t.SettledByHand += c.Amount
	}
	t.Net = t.Credited + t.RolledBack + t.SettledByHand - t.Debited
}

func inPeriod(at, from, to time.Time) bool {
	return !at.Before(from) && (to.IsZero() || at.Before(to))
}

// allCalls pages through every call f selects.
func allCalls(ctx context.Context, calls journal.WalletCalls, f journal.CallFilter) ([]journal.WalletCall, error) {
	out := []journal.WalletCall{}
	for {
		page, err := calls.Calls(ctx, f)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < journal.MaxCalls || len(out) >= MaxReconcile {
			sort.SliceStable(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
			return out, nil
		}
		f.After = page[len(page)-1].Seq
	}
}
