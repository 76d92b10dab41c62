package tournament

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// liveTable finds the current round's table n and checks it is playing a session.
func (t *Tournament) liveTable(n int) (*table, error) {
	if t.phase != PhaseRunning {
		return nil, badState("the tournament is %s", t.phase)
	}
	tb := t.tableOf(n)
	if tb == nil {
		return nil, baccarat.Errorf(baccarat.CodeNotFound, "round %d has no table %d", t.Round(), n)
	}
	if !tb.live {
		return nil, badState("table %d is not playing a session", n)
	}
	return tb, nil
}

// startSession starts the table's next session of the round.
func (t *Tournament) startSession(c *Command) error {
	if t.phase != PhaseRunning {
		return badState("the tournament is %s", t.phase)
	}
	tb := t.tableOf(c.Table)
	switch {
	case tb == nil:
		return baccarat.Errorf(baccarat.CodeNotFound, "round %d has no table %d", t.Round(), c.Table)
	case tb.finished:
		return badState("table %d has finished round %d", tb.number, t.Round())
	case tb.live:
		return badState("table %d is already playing session %d", tb.number, tb.session)
	}
	t.emit(c.At, Event{Type: EvSessionStarted, Round: t.Round(), Table: tb.number, Session: tb.session + 1})
	return nil
}

func (t *Tournament) onSessionStarted(e *Event) {
	tb := t.tableOf(e.Table)
	tb.session, tb.live, tb.hands, tb.reports, tb.lastAt = e.Session, true, 0, 0, e.At
	rec := SessionRecord{Round: e.Round, Table: e.Table, Session: e.Session, StartedAt: e.At}
	for _, id := range tb.players {
		if p := t.lookup(id); !p.eliminated {
			rec.Seats = append(rec.Seats, SessionSeat{Player: id, Start: p.chips})
		}
	}
	tb.record = len(t.sessions)
	t.sessions = append(t.sessions, rec)
}

// sessionConfig is the configuration of the table's current (or last) session.
func (t *Tournament) sessionConfig(tb *table) Session {
	return t.roundConfig(t.Round()).Sessions[tb.session-1]
}

// reportHand records a hand's net chip changes at a table; the host sends it when the
// table settles (or voids) a round. The session's last counted hand ends the session; in a
// Dragon tournament its changes include the Dragon settlement (see the package doc).
func (t *Tournament) reportHand(c *Command) error {
	tb, err := t.liveTable(c.Table)
	if err != nil {
		return err
	}
	if c.Hand != 0 && c.Hand != tb.reports+1 {
		return baccarat.Errorf(baccarat.CodeConflict, "table %d session %d waits for hand %d, not %d", tb.number, tb.session, tb.reports+1, c.Hand)
	}
	if c.Void && len(c.Changes) > 0 {
		return badRequest("a voided hand changes no chips: every stake is returned")
	}
	if err := t.checkChanges(tb, c.Changes, t.lossCap(tb)); err != nil {
		return err
	}
	e := Event{Type: EvHandReported, Round: t.Round(), Table: tb.number, Session: tb.session, Hand: tb.reports + 1,
		Void: c.Void, Changes: append([]ChipChange(nil), c.Changes...)}
	if !c.Void {
		e.Counted = tb.hands + 1
	}
	t.emit(c.At, e)
	if !c.Void {
		t.afterHand(c.At, tb)
	}
	return nil
}

// lossCap is the most a player can lose on the table's next hand: the round's maximum
// stake, except on the last hand of a Dragon session of hands, which also settles the
// Dragon bets (a timed session's come with end_session).
func (t *Tournament) lossCap(tb *table) baccarat.Money {
	if s := t.sessionConfig(tb); t.cfg.Dragon && tb.hands+1 == s.Hands {
		return baccarat.MaxAmount
	}
	return t.Stakes().Max
}

// checkChanges checks a report's chip changes against the table's players and chips.
func (t *Tournament) checkChanges(tb *table, changes []ChipChange, lossCap baccarat.Money) error {
	rec := &t.sessions[tb.record]
	seen := make(map[string]bool, len(changes))
	for _, ch := range changes {
		p := t.lookup(ch.Player)
		switch {
		case p == nil || p.table != tb.number:
			return refuseWith(CodeNotAtTable, params{"table": tb.number}, "%s is not playing at table %d", ch.Player, tb.number)
		case p.eliminated:
			return refuse(CodeEliminated, "%s has been eliminated", ch.Player)
		case rec.seat(ch.Player) == nil:
			return refuseWith(CodeNotAtTable, params{"table": tb.number}, "%s is not playing this session at table %d", ch.Player, tb.number)
		case seen[ch.Player]:
			return badRequest("%s appears twice in one report: send one net change per player", ch.Player)
		case ch.Net < -lossCap:
			return baccarat.Errorf(baccarat.CodeAboveMaximum, "%s cannot lose %d on one hand: the maximum stake is %d", ch.Player, -ch.Net, lossCap)
		case p.chips+ch.Net < 0:
			return baccarat.Errorf(baccarat.CodeInsufficientFunds, "%s has %d chips and cannot lose %d", ch.Player, p.chips, -ch.Net)
		case ch.Net > baccarat.MaxAmount-p.chips:
			return badRequest("%s cannot win %d: more chips than the books hold", ch.Player, ch.Net)
		}
		seen[ch.Player] = true
	}
	return nil
}

func (t *Tournament) onChanges(e *Event) {
	tb := t.tableOf(e.Table)
	rec := &t.sessions[tb.record]
	for _, ch := range e.Changes {
		t.lookup(ch.Player).chips += ch.Net
		rec.seat(ch.Player).Net += ch.Net
	}
	if e.Type != EvHandReported {
		return
	}
	tb.reports = e.Hand
	if e.Void {
		rec.Voided++
		return
	}
	tb.hands, rec.Hands = e.Counted, e.Counted
}

// afterHand eliminates the busted (not in Dragon tournaments, where busts wait for the
// session's end and its Dragon settlement) and ends the session after its last hand or
// when nobody is left in play.
func (t *Tournament) afterHand(at time.Time, tb *table) {
	if !t.cfg.Dragon {
		t.eliminateBusted(at, tb, &Point{Round: t.Round(), Session: tb.session, Hand: tb.hands})
	}
	switch s := t.sessionConfig(tb); {
	case s.Hands > 0 && tb.hands >= s.Hands:
		t.finishSession(at, tb, "hands")
	case t.active(tb) == 0:
		t.finishSession(at, tb, "no_players")
	}
}

// endSession ends the table's session now: a timed session whose time is up (after the
// hand in play), or an organiser's decision. In a Dragon tournament Changes carry the
// settlement of the session's Dragon bets.
func (t *Tournament) endSession(c *Command) error {
	tb, err := t.liveTable(c.Table)
	if err != nil {
		return err
	}
	if len(c.Changes) > 0 && !t.cfg.Dragon {
		return badRequest("only a Dragon tournament's session ends with chip changes (its Dragon settlement)")
	}
	if err := t.checkChanges(tb, c.Changes, baccarat.MaxAmount); err != nil {
		return err
	}
	if len(c.Changes) > 0 {
		t.emit(c.At, Event{Type: EvDragonSettled, Round: t.Round(), Table: tb.number, Session: tb.session,
			Changes: append([]ChipChange(nil), c.Changes...)})
	}
	reason := c.Reason
	if reason == "" {
		reason = "ended"
		if t.sessionConfig(tb).Duration > 0 {
			reason = "time"
		}
	}
	t.finishSession(c.At, tb, reason)
	return nil
}
