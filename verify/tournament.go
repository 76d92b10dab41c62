package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// verifyTournament audits a tournament's journal: its hash chain, its replay, every ended
// session's chip account (chips at the start + rebought = chips at the end + the house's
// net, two records kept apart), the prizes against the pool, and the books: the pool holds
// what has been collected and not yet paid back or out (nothing once the tournament is over;
// nothing ever on the operator's wallet, whose calls are checked against the journal instead:
// tournament_calls.go), and between sessions every chip is back in the chip house, which is
// then at zero.
func verifyTournament(ctx context.Context, store live.Store, stream string, now time.Time, rep *Report) error {
	recs, err := store.Load(ctx, stream, 1)
	if err != nil {
		return err
	}
	rep.Tournaments++
	rep.Records += len(recs)
	bad := func(format string, args ...any) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("tournament %s: ", stream)+fmt.Sprintf(format, args...))
	}
	if err := journal.Verify(recs); err != nil {
		bad("hash chain: %v", err)
		return nil
	}
	spec, events, err := live.DecodeTournament(stream, recs)
	if err != nil {
		bad("%v", err)
		return nil
	}
	t, err := tournament.Replay(spec.Config, events)
	if err != nil {
		bad("replay: %v", err)
		return nil
	}
	for _, s := range t.Sessions() {
		if a := s.Accounting(); s.Ended && !a.Balanced {
			bad("round %d table %d session %d: %d chips + %d rebought ≠ %d at the end + %d the house's net",
				s.Round, s.Table, s.Session, a.ChipsStart, a.RebuyChips, a.ChipsEnd, a.HouseNet)
		}
	}
	if t.Phase() == tournament.PhaseFinished {
		var paid baccarat.Money
		for _, r := range t.Results() {
			paid += r.Prize
		}
		if paid != t.Pool().Total {
			bad("the prizes add up to %d, the pool is %d", paid, t.Pool().Total)
		}
	}
	if err := checkGoingOn(ctx, store, stream, t, now, rep, bad); err != nil {
		return err
	}
	if spec.Wallet == live.WalletSeamless {
		a, err := rep.walletAudit(ctx, store)
		if err != nil {
			bad("%v", err)
		} else {
			for _, p := range auditTournamentCalls(stream, spec, events, a).Problems {
				bad("wallet: %s", p)
			}
		}
	}
	return verifyTournamentBooks(ctx, store, t, spec.Wallet == live.WalletSeamless, bad)
}

// stallGrace is how long a tournament may leave its schedule's step or a hand its table ended
// undone before it counts as stalled: its host does either within a second or two.
const stallGrace = 2 * time.Minute

// checkGoingOn reports a running tournament that has stopped going on while a server hosts
// it: its schedule's next step is overdue, or a table of a live session has ended hands the
// tournament has not counted (a report it cannot make). With no server hosting it, it is
// only paused.
func checkGoingOn(ctx context.Context, store live.Store, stream string, t *tournament.Tournament, now time.Time, rep *Report, bad func(string, ...any)) error {
	if ph := t.Phase(); ph == tournament.PhaseFinished || ph == tournament.PhaseCancelled {
		return nil
	}
	var why string
	if cmd, _ := tournament.Next(t, now.Add(-stallGrace)); cmd != nil {
		why = fmt.Sprintf("its schedule's %s is overdue", cmd.Type)
	}
	for _, tv := range t.State().Tables {
		if !tv.Live || why != "" {
			continue
		}
		id := tabletop.TableID(t.Config().ID, t.Round(), tv.Table, tv.Session)
		linked, ends, err := readSessionTable(ctx, store, id, t.Config().ID, t.Round(), tv)
		if err != nil {
			return err
		}
		switch {
		case !linked && now.Sub(tv.Since) > stallGrace:
			why = fmt.Sprintf("the table of its live session %d at table %d (%s) was never created by it", tv.Session, tv.Table, id)
		case len(ends) > tv.Reports && now.Sub(ends[tv.Reports]) > stallGrace:
			why = fmt.Sprintf("its table %s has ended %d hands and it has counted %d, the first it has not since %s",
				id, len(ends), tv.Reports, ends[tv.Reports].Format(time.RFC3339))
		}
	}
	if why == "" {
		return nil
	}
	lease, err := store.Lease(ctx, stream)
	if err != nil {
		return err
	}
	if lease.Held(now) {
		bad("stalled: server %s hosts it, but %s; an admin may cancel it (every entrant refunded)", lease.Owner, why)
	} else {
		rep.Paused = append(rep.Paused, fmt.Sprintf("tournament %s: %s; no server hosts it (it goes on when one starts)", stream, why))
	}
	return nil
}

// readSessionTable reads a live session's table: whether its own record links it to the
// session (it exists and its tournament created it), and when its rounds ended (settled or
// voided), in order.
func readSessionTable(ctx context.Context, store live.Store, id, tournamentID string, round int, tv tournament.TableView) (bool, []time.Time, error) {
	recs, err := store.Load(ctx, id, 1)
	if err != nil || len(recs) == 0 {
		return false, nil, err
	}
	var spec live.Spec
	if json.Unmarshal(recs[0].Data, &spec) != nil || !spec.Tournament.Links(tournamentID, round, tv.Table, tv.Session) {
		return false, nil, nil
	}
	var out []time.Time
	for _, rec := range recs[1:] {
		if rec.Type == table.EvRoundSettled.String() || rec.Type == table.EvRoundVoided.String() {
			out = append(out, rec.At)
		}
	}
	return true, out, nil
}

func verifyTournamentBooks(ctx context.Context, store live.Store, t *tournament.Tournament, seamless bool, bad func(string, ...any)) error {
	cfg := t.Config()
	balance := func(acct string) (baccarat.Money, error) {
		b, err := store.Balance(ctx, acct)
		if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
			return 0, nil
		}
		return b, err
	}
	want := t.Pool().Collected
	if t.Phase() == tournament.PhaseFinished || t.Phase() == tournament.PhaseCancelled || seamless {
		want = 0
	}
	pool := live.Pool(cfg.ID, ledger.Currency(cfg.Currency))
	if got, err := balance(pool); err != nil {
		return err
	} else if got != want {
		bad("the pool holds %d, the journal says %d", got, want)
	}
	for _, e := range t.State().Entrants {
		if !e.Bot {
			continue
		}
		if got, err := balance(ledger.Wallet(e.Player, ledger.Currency(cfg.Currency))); err != nil {
			return err
		} else if got != 0 {
			bad("house bot %s holds %d of money: a bot's fees and prizes are the house's", e.Player, got)
		}
	}
	for _, tv := range t.State().Tables {
		if tv.Live {
			return nil // chips are at a table: its own audit follows them
		}
	}
	accts := []string{ledger.House(t.Chips())}
	for _, p := range t.Entrants() {
		accts = append(accts, ledger.Wallet(p, t.Chips()))
	}
	for _, a := range accts {
		if got, err := balance(a); err != nil {
			return err
		} else if got != 0 {
			bad("between sessions %s holds %d chips: every chip should be back in the chip house, at zero", a, got)
		}
	}
	return nil
}
