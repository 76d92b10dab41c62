package verify

import (
	"cmp"
	"context"
	"fmt"
	"sort"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
)

// What Database and Reconcile check of a tournament on the operator's wallet: our side of its
// calls against its journal, written apart from the code that makes them
// (live/tournament_wallet.go). Every registration and every rebuy of a player has exactly one
// placed debit of its price, for that player, the one its event names, placed for that
// event; a bot's has none. An unregistration closes the player's debits with rollbacks of
// their amounts, a cancellation every debit; a finished tournament has closed every debit
// exactly once, with a credit: the player's prize on their entry's, 0 on the rest; so the
// credits sum to the prizes the players won. A debit the journal has not yet decided is
// not closed.

// TournamentCalls is a seamless tournament's money at the operator as its journal tells it
// and as our side of the wallet calls does, and every way the two disagree.
type TournamentCalls struct {
	Tournament string           `json:"tournament"`
	Currency   string           `json:"currency"`
	Phase      tournament.Phase `json:"phase"`
	// By the journal: what players paid (entry fees and rebuys; the bots' are the house's
	// and left out), what they were refunded (unregistered, cancelled), the prizes they won.
	Paid     baccarat.Money `json:"paid"`
	Refunded baccarat.Money `json:"refunded"`
	Prizes   baccarat.Money `json:"prizes"`
	// By the calls: the debits placed for it, and the rollbacks and credits written to close
	// them (delivered or not: Reconciliation.Open lists what is not).
	Debited    baccarat.Money `json:"debited"`
	RolledBack baccarat.Money `json:"rolled_back"`
	Credited   baccarat.Money `json:"credited"`
	Problems   []string       `json:"problems"`
}

// paidBy is a debit the journal says paid for an entry or a rebuy.
type paidBy struct {
	d     *journal.WalletCall
	seq   uint64
	entry bool
}

// auditTournamentCalls checks a seamless tournament's journal (stream, spec, events)
// against the wallet calls; the debits it accounts for are marked seen.
func auditTournamentCalls(stream string, spec live.TournamentSpec, events []tournament.Event, a *walletAudit) TournamentCalls {
	cfg := spec.Config
	tc := TournamentCalls{Tournament: cfg.ID, Currency: cfg.Currency, Phase: tournament.PhaseScheduled, Problems: []string{}}
	bad := func(format string, args ...any) { tc.Problems = append(tc.Problems, fmt.Sprintf(format, args...)) }
	bots := map[string]bool{}
	for _, b := range spec.Bots {
		bots[b.ID] = true
	}
	open := map[string][]paidBy{}
	closes := func(p string, pb paidBy, kind journal.CallKind, amount baccarat.Money, why string) {
		c := a.closers[pb.d.Tx]
		switch {
		case c == nil:
			bad("%s's debit %s (event %d) is not closed: %s owes a %s of %d", p, pb.d.Tx, pb.seq, why, kind, amount)
			return
		case c.Kind != kind || c.Amount != amount:
			bad("%s's debit %s (event %d) is closed by a %s of %d; %s owes a %s of %d", p, pb.d.Tx, pb.seq, c.Kind, c.Amount, why, kind, amount)
		}
		if c.Kind == journal.CallCredit {
			tc.Credited += c.Amount
		} else {
			tc.RolledBack += c.Amount
		}
	}
	closeAll := func(kind journal.CallKind, prizes map[string]baccarat.Money, why string) {
		for _, p := range sortedKeys(open) {
			for _, pb := range open[p] {
				amount := pb.d.Amount
				if kind == journal.CallCredit {
					amount = 0
					if pb.entry {
						amount = prizes[p]
					}
				}
				closes(p, pb, kind, amount, why)
			}
		}
		clear(open)
	}
	for i := range events {
		e := &events[i]
		switch e.Type {
		case tournament.EvRegistered, tournament.EvRebought:
			if pb, ok := tc.paid(stream, e, bots, a, bad); ok {
				open[e.Player] = append(open[e.Player], pb)
			}
		case tournament.EvUnregistered:
			tc.Refunded += e.Amount
			for _, pb := range open[e.Player] {
				closes(e.Player, pb, journal.CallRollback, pb.d.Amount, "the unregistration")
			}
			delete(open, e.Player)
		case tournament.EvCancelled:
			for _, p := range e.Payments {
				if !bots[p.Player] {
					tc.Refunded += p.Amount
				}
			}
			closeAll(journal.CallRollback, nil, "the cancellation")
		case tournament.EvFinished:
			prizes := tc.prizes(e, bots, open, bad)
			closeAll(journal.CallCredit, prizes, "the finish")
			if tc.Credited != tc.Prizes {
				bad("the credits add up to %d, the players' prizes to %d", tc.Credited, tc.Prizes)
			}
		}
		tc.Phase = phaseAfter(tc.Phase, e.Type)
	}
	for _, p := range sortedKeys(open) { // the journal has not decided these yet
		for _, pb := range open[p] {
			if c := a.closers[pb.d.Tx]; c != nil {
				bad("%s's debit %s (event %d) is closed by a %s of %d, which the journal has not decided", p, pb.d.Tx, pb.seq, c.Kind, c.Amount)
			}
		}
	}
	return tc
}

// paid checks the debit of a registration or a rebuy, and returns it for the debits open.
func (tc *TournamentCalls) paid(stream string, e *tournament.Event, bots map[string]bool, a *walletAudit, bad func(string, ...any)) (paidBy, bool) {
	d := a.debits[wagerKey(stream, e.Seq)]
	if d != nil {
		a.seen[d.Tx] = true
	}
	what := "entry"
	if e.Type == tournament.EvRebought {
		what = fmt.Sprintf("rebuy %d", e.Count)
	}
	switch {
	case bots[e.Player]:
		if d != nil || e.Debit != "" {
			bad("bot %s's %s (event %d) was debited at the operator: the house pays a bot's", e.Player, what, e.Seq)
		}
		return paidBy{}, false
	case e.Amount == 0 && d == nil && e.Debit == "":
		return paidBy{}, false // free: nothing to take
	}
	tc.Paid += e.Amount
	switch {
	case d == nil:
		bad("%s's %s (event %d, %d %s) has no placed debit", e.Player, what, e.Seq, e.Amount, tc.Currency)
		return paidBy{}, false
	case d.Tx != e.Debit || d.Player != e.Player || d.Amount != e.Amount || d.Currency != tc.Currency:
		bad("%s's %s (event %d) names debit %q of %d %s; the debit placed for it is %s of %d %s from %s",
			e.Player, what, e.Seq, e.Debit, e.Amount, tc.Currency, d.Tx, d.Amount, d.Currency, d.Player)
	}
	tc.Debited += d.Amount
	return paidBy{d: d, seq: e.Seq, entry: e.Type == tournament.EvRegistered}, true
}

// prizes are the finished event's prizes to players (a bot's is paid to nobody); each one
// closes the winner's entry debit, which they must have.
func (tc *TournamentCalls) prizes(e *tournament.Event, bots map[string]bool, open map[string][]paidBy, bad func(string, ...any)) map[string]baccarat.Money {
	prizes := map[string]baccarat.Money{}
	for _, p := range e.Payments {
		if bots[p.Player] || p.Amount == 0 {
			continue
		}
		prizes[p.Player] += p.Amount
		tc.Prizes += p.Amount
		if ds := open[p.Player]; len(ds) == 0 || !ds[0].entry {
			bad("%s's prize of %d closes no debit of their entry: the operator was never asked to pay it", p.Player, p.Amount)
		}
	}
	return prizes
}

func phaseAfter(ph tournament.Phase, t tournament.EventType) tournament.Phase {
	switch t {
	case tournament.EvRegistrationOpened:
		return tournament.PhaseRegistering
	case tournament.EvRegistrationClosed:
		return tournament.PhaseClosed
	case tournament.EvStarted:
		return tournament.PhaseRunning
	case tournament.EvCancelled:
		return tournament.PhaseCancelled
	case tournament.EvFinished:
		return tournament.PhaseFinished
	}
	return ph
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// journalLoader is the part of a store Reconcile reads tournaments' journals with.
type journalLoader interface {
	Load(ctx context.Context, table string, from uint64) ([]journal.Record, error)
}

// reconcileTournaments checks, whole, each seamless tournament that has calls in the
// period, against all the calls (all).
func reconcileTournaments(ctx context.Context, store journalLoader, period, all []journal.WalletCall) ([]TournamentCalls, error) {
	streams := map[string]bool{}
	for i := range period {
		if isTournamentStream(period[i].Table) {
			streams[period[i].Table] = true
		}
	}
	out := []TournamentCalls{}
	if len(streams) == 0 {
		return out, nil
	}
	a := indexCalls(all)
	for _, stream := range sortedKeys(streams) {
		recs, err := store.Load(ctx, stream, 1)
		if err != nil {
			return nil, err
		}
		spec, events, err := live.DecodeTournament(stream, recs)
		if err != nil {
			out = append(out, TournamentCalls{Tournament: stream, Problems: []string{err.Error()}})
			continue
		}
		tc := auditTournamentCalls(stream, spec, events, a)
		for i := range all {
			if c := &all[i]; c.Table == stream && c.Kind == journal.CallDebit && c.State == journal.CallPlaced && !a.seen[c.Tx] {
				tc.Problems = append(tc.Problems, fmt.Sprintf("debit %s paid for event %d, which is no entry or rebuy of the journal", c.Tx, c.TableWager))
			}
		}
		if spec.Wallet != live.WalletSeamless { // a journal from before tournaments had a wallet is internal
			tc.Problems = append(tc.Problems, "the tournament's wallet is "+cmp.Or(spec.Wallet, live.WalletInternal)+", yet it has calls at the operator")
		}
		out = append(out, tc)
	}
	return out, nil
}
