package tournament

import "time"

// busted reports whether a player in play cannot make the current round's minimum stake.
func (t *Tournament) busted(p *player) bool {
	return !p.eliminated && p.chips < t.Stakes().Min
}

// canRebuy reports whether the player may still rebuy at point pt: rebuys left, and the
// window still open (pt before the end of the window's last hand).
func (t *Tournament) canRebuy(p *player, pt Point) bool {
	rb := t.cfg.Rebuy
	return rb != nil && p.rebuys < rb.Max && pt.Before(rb.Until)
}

// point is where the table stands: after its counted hands of the live session, or before
// the first hand of its next session.
func (t *Tournament) point(tb *table) Point {
	if tb.live {
		return Point{Round: t.Round(), Session: tb.session, Hand: tb.hands}
	}
	return Point{Round: t.Round(), Session: tb.session + 1}
}

// eliminateBusted eliminates the table's busted players who can no longer rebuy: at pt, or
// never when pt is nil (at a round's end).
func (t *Tournament) eliminateBusted(at time.Time, tb *table, pt *Point) {
	for _, id := range tb.players {
		if p := t.lookup(id); t.busted(p) && (pt == nil || !t.canRebuy(p, *pt)) {
			t.emit(at, Event{Type: EvEliminated, Player: id, Round: t.Round(), Table: tb.number,
				Session: tb.session, Hand: tb.hands, Amount: p.chips})
		}
	}
}

// rebuy sells a busted player chips again. The host charges Event.Amount to the player's
// wallet (it goes to the prize pool) and credits Event.Chips in the tournament's chips.
func (t *Tournament) rebuy(c *Command) error {
	p, tb, err := t.mayRebuy(c)
	if err != nil {
		return err
	}
	rb := t.cfg.Rebuy
	e := Event{Type: EvRebought, Player: p.id, Amount: rb.Price, Chips: rb.Chips, Count: p.rebuys + 1,
		Round: t.Round(), Table: tb.number, Debit: c.Debit}
	if tb.live {
		e.Session, e.Hand = tb.session, tb.hands
	}
	t.emit(c.At, e)
	return nil
}

// mayRebuy is rebuy's validation: the player, and their table.
func (t *Tournament) mayRebuy(c *Command) (*player, *table, error) {
	if t.phase != PhaseRunning {
		return nil, nil, badState("rebuys are taken while the tournament runs: it is %s", t.phase)
	}
	p := t.lookup(c.Player)
	rb := t.cfg.Rebuy
	switch {
	case p == nil || p.table == 0:
		return nil, nil, refuseWith(CodeNotRegistered, params{"round": t.Round()}, "%s is not playing round %d", c.Player, t.Round())
	case p.eliminated:
		return nil, nil, refuse(CodeEliminated, "%s has been eliminated", c.Player)
	case rb == nil:
		return nil, nil, refuseWith(CodeNoRebuysLeft, params{"max": 0}, "this tournament has no rebuys")
	case p.rebuys >= rb.Max:
		return nil, nil, refuseWith(CodeNoRebuysLeft, params{"max": rb.Max}, "%s has used all %d rebuys", c.Player, rb.Max)
	case !t.busted(p):
		return nil, nil, refuseWith(CodeNotBusted, params{"chips": p.chips, "min": t.Stakes().Min},
			"%s has %d chips and can still make the minimum stake of %d", c.Player, p.chips, t.Stakes().Min)
	}
	tb := t.tableOf(p.table)
	if !t.canRebuy(p, t.point(tb)) {
		u := rb.Until
		return nil, nil, refuseWith(CodeRebuyClosed, params{"hand": u.Hand, "session": u.Session, "round": u.Round},
			"rebuys closed at the end of hand %d of session %d of round %d", u.Hand, u.Session, u.Round)
	}
	return p, tb, nil
}

func (t *Tournament) onRebought(e *Event) {
	p := t.lookup(e.Player)
	p.chips += e.Chips
	p.rebuys = e.Count
	p.paid += e.Amount
	t.collected += e.Amount
	if tb := t.tableOf(p.table); tb.live {
		t.sessions[tb.record].seat(p.id).Rebuys += e.Chips
	}
}
