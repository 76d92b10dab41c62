package live

import (
	"context"
	"fmt"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/tournament"
)

// verifyTournament audits a tournament's journal: its hash chain, its replay, every ended
// session's chip account (chips at the start + rebought = chips at the end + the house's
// net, two records kept apart), the prizes against the pool, and the books: the pool holds
// what has been collected and not yet paid back or out (nothing once the tournament is over;
// nothing ever on the operator's wallet, whose calls are checked against the journal instead:
// tournament_audit.go), and between sessions every chip is back in the chip house, which is
// then at zero.
func verifyTournament(ctx context.Context, store Store, stream string, rep *VerifyReport) error {
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
	spec, events, err := decodeTournament(stream, recs)
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
	if spec.Wallet == WalletSeamless {
		a, err := rep.walletAudit(ctx, store)
		if err != nil {
			bad("%v", err)
		} else {
			for _, p := range auditTournamentCalls(stream, spec, events, a).Problems {
				bad("wallet: %s", p)
			}
		}
	}
	return verifyTournamentBooks(ctx, store, t, spec.Wallet == WalletSeamless, bad)
}

func verifyTournamentBooks(ctx context.Context, store Store, t *tournament.Tournament, seamless bool, bad func(string, ...any)) error {
	cfg := t.Config()
	balance := func(acct string) (int64, error) {
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
	pool := Pool(cfg.ID, ledger.Currency(cfg.Currency))
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
