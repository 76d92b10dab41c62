package live

import (
	"time"

	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// The end of a session at its table, as the tournament drives it: the wagers riding on a Tie
// given back, the round beyond the session's gate closed unplayed, a timed session ended once
// its hand in play is over, and the tables of ended sessions retired when idle. The reading
// and reporting of the hands that lead up to it is tournament_tables.go's.

// returnRiders gives the wagers riding on a Tie back to their owners when the session ends
// (RWS 3.9): a betting round is opened, as after any tie, and the owners' riding wagers
// withdrawn for them; the round is then dealt without wagers (the gate refuses any).
func (tr *tourney) returnRiders(st *sessionTable) error {
	if !tr.t.Game().Rules.TieRides {
		return nil
	}
	snap, err := tr.h.Snapshot(st.id, "")
	if err != nil {
		return err
	}
	if !tabletop.Riding(&snap.State) {
		return tr.closeBeyond(st, snap)
	}
	// The table's runner stamps each command's time (At), as for anything submitted.
	if open := tabletop.RidersOpen(&snap.State, time.Time{}, tr.h.opt.Clock.Now().Add(tr.spec.Schedule.Betting)); open != nil {
		if _, err := tr.h.Submit(tr.h.ctx, st.id, open); err != nil {
			return err
		}
		if snap, err = tr.h.Snapshot(st.id, ""); err != nil {
			return err
		}
	}
	for _, w := range tabletop.Riders(&snap.State, time.Time{}) {
		if _, err := tr.h.Submit(tr.h.ctx, st.id, w); err != nil {
			return err
		}
	}
	if snap, err = tr.h.Snapshot(st.id, ""); err != nil {
		return err
	}
	return tr.closeBeyond(st, snap)
}

// closeBeyond closes the betting of a round beyond the session's gate, which the table's
// schedule leaves open (tournament_hooks.go): nobody may wager in it, and once closed it is
// dealt without wagers and the table is idle again.
func (tr *tourney) closeBeyond(st *sessionTable, snap *Snapshot) error {
	s := snap.State
	if !s.BetOpen || s.Interrupted || s.Betting > 1 || tr.h.tourneys.mayOpen(st.id, s.Round) {
		return nil
	}
	_, err := tr.h.Submit(tr.h.ctx, st.id, &table.Close{Header: table.Header{Actor: tabletop.RequiredActor, Role: table.RoleSystem}})
	return err
}

// endTimedSession ends a session whose time is up once the hand in play has ended: the gate
// closes, the table finishes its round, its hands are reported, riding wagers go back and a
// Dragon session is settled, whose settlement the end_session carries. False while it waits.
func (tr *tourney) endTimedSession(c tournament.Command) bool {
	var st *sessionTable
	for _, x := range tr.tables {
		if x.s.Round == tr.t.Round() && x.s.Table == c.Table && !x.ended {
			st = x
		}
	}
	if st == nil { // no table was ever opened for it: nothing was played
		_, err := tr.apply(c, nil)
		return err == nil
	}
	if st.runner == nil {
		return false
	}
	if !st.closing {
		snap, err := tr.h.Snapshot(st.id, "")
		if err != nil {
			return false
		}
		st.closing, st.last = true, max(st.co.Opened(), snap.State.Round)
		tr.h.tourneys.setGate(st.id, st.gate())
	}
	// The snapshot first, then the journal: a round the snapshot shows ended is in the
	// journal by then, so its hand is read and reported before the session ends. Read the
	// other way round, a hand that ended between the two was settled at the table (its chips
	// moved) but never reported, and the session's end took back fewer chips than it gave.
	snap, err := tr.h.Snapshot(st.id, "")
	if err != nil {
		return false
	}
	tr.follow(st)
	if tr.closeBeyond(st, snap) != nil || midRound(snap.State) || st.co.Pending() > 0 {
		return false
	}
	if err := tr.returnRiders(st); err != nil {
		return false
	}
	if _, settled := st.co.Dragon(); tr.t.Game().Rules.DragonSessions && !settled {
		if _, err := tr.h.Submit(tr.h.ctx, st.id, tabletop.SessionEnd(time.Time{})); err != nil {
			tr.h.opt.Logger.Warn("settling a timed Dragon session", "table", st.id, "err", err)
			return false
		}
		tr.read(st)
		if _, settled := st.co.Dragon(); !settled {
			return false
		}
	}
	if tr.report(st); st.co.Pending() > 0 { // nothing ends after the snapshot; should a hand have, it counts first
		return false
	}
	c.Changes, _ = st.co.Dragon()
	if _, err := tr.apply(c, nil); err != nil {
		tr.trouble("report "+st.id, "ending the timed session of table %s: %v", st.id, err)
		return false
	}
	return true
}

func midRound(s table.State) bool {
	return s.Phase == table.PhaseBetting || s.Phase == table.PhaseClosed || s.Phase == table.PhaseDealing || s.Interrupted
}

// retireEnded stops the tables of ended sessions once they are idle: the runner releases its
// lease and no host adopts the table again (it is its tournament's).
func (tr *tourney) retireEnded() {
	for id, st := range tr.tables {
		if !st.ended {
			continue
		}
		if st.runner != nil {
			snap, err := tr.h.Snapshot(id, "")
			if err == nil && midRound(snap.State) {
				_ = tr.closeBeyond(st, snap) // a round opened as the session ended: let it finish
				continue
			}
			st.unlisten()
			st.runner.stop()
		}
		delete(tr.tables, id)
		tr.h.tourneys.mu.Lock()
		delete(tr.h.tourneys.gates, id)
		tr.h.tourneys.mu.Unlock()
	}
}
