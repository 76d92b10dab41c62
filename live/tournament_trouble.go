package live

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// A tournament that cannot go on. Its host keeps trying what failed (a table to create or
// adopt, a hand to report, the schedule's next step) and meanwhile shows the trouble on the
// tournament's view (TournamentView.Problems, each from its first failure until what failed
// goes through) and logs it at ERROR; `baccarat verify` reports a tournament whose
// tables have ended hands it has not counted, or whose schedule is overdue. An admin who
// judges that it cannot go on cancels it (CancelTournament): play stops at its tables,
// every entrant gets back all they paid, every chip goes back to the chip house.

// TournamentProblem is one thing that keeps a tournament from going on, since when.
type TournamentProblem struct {
	What  string    `json:"what"`
	Since time.Time `json:"since"`
}

// trouble records that something the tournament must do failed (key names what: "schedule",
// "table <id>", "report <id>"); the first failure's time stays until it clears.
func (tr *tourney) trouble(key, format string, args ...any) {
	what := fmt.Sprintf(format, args...)
	old := tr.problems[key]
	if old != nil && old.What == what {
		return
	}
	p := &TournamentProblem{What: what, Since: tr.h.opt.Clock.Now()}
	if old != nil {
		p.Since = old.Since
	}
	if tr.problems == nil {
		tr.problems = map[string]*TournamentProblem{}
	}
	tr.problems[key] = p
	tr.h.opt.Logger.Error("the tournament cannot go on", "tournament", tr.id, "problem", what)
	tr.published()
}

// untroubled clears a problem: what failed has gone through.
func (tr *tourney) untroubled(key string) {
	if p := tr.problems[key]; p != nil {
		tr.h.opt.Logger.Info("the tournament goes on again", "tournament", tr.id, "was", p.What)
		delete(tr.problems, key)
		tr.published()
	}
}

// problemList is the problems for the view, the oldest first.
func (tr *tourney) problemList() []TournamentProblem {
	out := make([]TournamentProblem, 0, len(tr.problems))
	for _, p := range tr.problems {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b TournamentProblem) int { return a.Since.Compare(b.Since) })
	return out
}

// CancelTournament calls a tournament off (an admin's action, reason on the record). Before
// its start the fees go back at once. Running, the tournament first stops play at its
// tables (a round in play is voided with every stake returned, riding wagers go back to
// their owners), then refunds every entrant all they paid (fee and rebuys; the house takes
// back its bots') and hands every chip back; until then its view says it is cancelling.
func (h *Host) CancelTournament(ctx context.Context, id, reason string) error {
	if remote, err := h.remote(id); err != nil || remote {
		if err != nil {
			return err
		}
		return h.opt.Cluster.TournamentCommand(ctx, id, tournament.Command{Type: tournament.CmdCancel, Reason: reason})
	}
	tr, err := h.tourney(id)
	if err != nil {
		return err
	}
	if tr.archived.Load() {
		return baccarat.Errorf(baccarat.CodeBadState, "the tournament is %s", tr.currentView().Phase)
	}
	// Over already, as its view says: refused as such, not "busy" while its goroutine stops.
	if ph := tr.currentView().Phase; ph == tournament.PhaseFinished || ph == tournament.PhaseCancelled {
		return baccarat.Errorf(baccarat.CodeBadState, "the tournament is %s: it can no longer be cancelled", ph)
	}
	if reason == "" {
		return baccarat.Errorf(baccarat.CodeBadRequest, "cancelling a tournament needs a reason, for the record")
	}
	rep, err := tr.ask(ctx, tourneyCancel{reason: reason})
	if err == nil {
		tr.deliverNow(ctx, rep.calls)
	}
	return err
}

// cancel is CancelTournament on the tournament's goroutine.
func (tr *tourney) cancel(c tournament.Command) tourneyReply {
	switch ph := tr.t.Phase(); {
	case ph == tournament.PhaseFinished || ph == tournament.PhaseCancelled:
		return tourneyReply{err: baccarat.Errorf(baccarat.CodeBadState, "the tournament is %s: it can no longer be cancelled", ph)}
	case tr.cancelling != "":
		return tourneyReply{err: baccarat.Errorf(baccarat.CodeBadState, "the tournament is being cancelled already")}
	case ph != tournament.PhaseRunning:
		calls, err := tr.apply(c, nil)
		return tourneyReply{calls: calls, err: err}
	}
	tr.cancelling = c.Reason
	tr.h.opt.Logger.Warn("cancelling a running tournament", "tournament", tr.id, "reason", c.Reason)
	for _, st := range tr.tables {
		tr.h.tourneys.setGate(st.id, 0) // no table opens another round
	}
	tr.published()
	return tourneyReply{}
}

// windDown moves a running tournament's cancellation on: it stops play at each table and,
// once every table is idle with nothing on its layout, commits the cancellation. False
// while it waits.
func (tr *tourney) windDown() bool {
	idle := true
	for _, st := range tr.tables {
		if st.foreign || st.ended {
			continue
		}
		tr.h.tourneys.setGate(st.id, 0)
		if !tr.stopPlay(st) {
			idle = false
		}
	}
	if !idle {
		return false
	}
	if err := tr.sweepChips(); err != nil {
		tr.trouble("cancel", "cancelling: reading the chips to hand back: %v", err)
		return false
	}
	if _, err := tr.apply(tournament.Command{Type: tournament.CmdCancel, Reason: tr.cancelling}, nil); err != nil {
		tr.trouble("cancel", "cancelling: %v", err)
		return false
	}
	tr.cancelling, tr.sweep = "", nil
	clear(tr.problems)
	tr.published()
	for _, st := range tr.tables {
		st.ended = true // retired once idle (retireEnded)
	}
	return true
}

// stopPlay voids the round in play at a table, or gives riding wagers back; true once the
// table is idle with nothing on its layout.
func (tr *tourney) stopPlay(st *sessionTable) bool {
	if st.runner == nil {
		if head, err := tr.h.opt.Store.Head(tr.h.ctx, st.id); err == nil && head.Seq == 0 {
			return true // never created: nothing was played there
		}
		tr.openTable(st) // adopt it, to stop it
		return false
	}
	snap, err := tr.h.Snapshot(st.id, "")
	if err != nil {
		return false
	}
	s, system := snap.State, table.Header{Actor: tabletop.RequiredActor, Role: table.RoleSystem, Reason: "technical_failure"}
	switch {
	case midRound(s) && len(s.Wagers) > 0: // every stake of the round goes back, riding ones too
		if _, err := tr.h.Submit(tr.h.ctx, st.id, &table.Void{Header: system}); err != nil {
			tr.trouble("cancel", "cancelling: voiding the round in play at %s: %v", st.id, err)
		}
	case midRound(s): // an empty round is dealt out without wagers
		_ = tr.closeBeyond(st, snap)
	case tabletop.Riding(&s): // between rounds: back as at a session's end (RWS 3.9)
		if err := tr.returnRiders(st); err != nil {
			tr.trouble("cancel", "cancelling: giving riding wagers back at %s: %v", st.id, err)
		}
	case len(s.Dragon) > 0: // the Dragon session is void: every Dragon stake back
		if _, err := tr.h.Submit(tr.h.ctx, st.id, &table.EndSession{Header: system}); err != nil {
			tr.trouble("cancel", "cancelling: voiding the Dragon session at %s: %v", st.id, err)
		}
	default:
		return true
	}
	return false
}

// sweepChips reads what each entrant holds in chips, to hand back with the cancellation.
func (tr *tourney) sweepChips() error {
	tr.sweep = nil
	for _, p := range tr.t.Entrants() {
		b, err := tr.h.opt.Store.Balance(tr.h.ctx, ledger.Wallet(p, tr.t.Chips()))
		if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
			continue
		}
		if err != nil {
			return err
		}
		if b != 0 {
			tr.sweep = append(tr.sweep, transfer{ledger.Wallet(p, tr.t.Chips()), -b})
		}
	}
	return nil
}
