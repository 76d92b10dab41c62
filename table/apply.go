package table

import (
	"github.com/tablehouse/baccarat"
)

// Apply validates a command and, if it is allowed, changes the table and returns the events
// that record the change. An error means nothing changed. The returned slice is reused by
// the next call to Apply: copy what you keep.
//
// A request id seen before (in this round or the last) for the same wager returns no
// events and no error: the wager was placed once (WagerByRequest finds it).
func (t *Table) Apply(c *Command) ([]Event, error) {
	t.out = t.out[:0]
	role, actor, err := t.authorize(c)
	if err != nil {
		return nil, err
	}
	h := handlerFor(c.Type)
	if h == nil {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "unknown command %q", c.Type)
	}
	if err := h(t, c, actor, role); err != nil {
		return nil, err
	}
	return t.out, nil
}

type handler func(t *Table, c *Command, actor string, role Role) error

func handlerFor(ct CommandType) handler {
	switch ct {
	case CmdPlace:
		return (*Table).place
	case CmdDeal:
		return (*Table).deal
	case CmdCard:
		return (*Table).card
	case CmdOpen:
		return (*Table).open
	case CmdClose:
		return (*Table).close
	case CmdWithdraw:
		return (*Table).withdraw
	case CmdNewShoe:
		return (*Table).newShoe
	case CmdEndShoe:
		return (*Table).endShoe
	case CmdCorrect:
		return (*Table).correct
	case CmdSimultaneous:
		return (*Table).simultaneous
	case CmdInterrupt:
		return (*Table).interrupt
	case CmdResume:
		return (*Table).resume
	case CmdDeviceReset:
		return (*Table).deviceReset
	case CmdVoid:
		return (*Table).void
	case CmdEndSession:
		return (*Table).endSession
	case CmdFund:
		return (*Table).fund
	case CmdSetLimit:
		return (*Table).setLimit
	case CmdSetAreaLimit:
		return (*Table).setAreaLimit
	case CmdSetDifferential:
		return (*Table).setDifferential
	}
	return nil
}

// allowed says who may send each command. Players act only for themselves; dealers and pit
// may place a wager for a player (Tiger 3.7); the pit sets limits and ends sessions; only
// the host itself funds participants.
func allowed(ct CommandType, r Role) bool {
	if r != RolePlayer && r != RoleDealer && r != RolePit && r != RoleSystem {
		return false
	}
	switch ct {
	case CmdPlace:
		return true
	case CmdWithdraw:
		return r != RoleDealer
	case CmdFund:
		return r == RoleSystem
	case CmdEndSession, CmdSetLimit, CmdSetAreaLimit, CmdSetDifferential:
		return r == RolePit || r == RoleSystem
	}
	return r == RoleDealer || r == RolePit || r == RoleSystem
}

// allowedOnAuto says who may send each command to an automatic (RNG) table. The server
// alone shuffles, deals and paces it: no dealer acts there, and nobody else sends a card,
// a shoe, a correction or a pause. Players wager; the pit voids a round (with a reason, on
// the record), sets limits and ends a Dragon session.
func allowedOnAuto(ct CommandType, r Role) bool {
	switch r {
	case RoleSystem:
		return true
	case RolePlayer:
		return ct == CmdPlace || ct == CmdWithdraw
	case RolePit:
		switch ct {
		case CmdVoid, CmdSetLimit, CmdSetAreaLimit, CmdSetDifferential, CmdEndSession:
			return true
		}
	}
	return false
}

// naturalRole is the role assumed when a command names none (replay scripts).
func naturalRole(ct CommandType) Role {
	switch ct {
	case CmdPlace, CmdWithdraw:
		return RolePlayer
	case CmdFund:
		return RoleSystem
	case CmdEndSession, CmdSetLimit, CmdSetAreaLimit, CmdSetDifferential:
		return RolePit
	}
	return RoleDealer
}

func (t *Table) authorize(c *Command) (Role, string, error) {
	role := c.Role
	if role == "" {
		role = naturalRole(c.Type)
	}
	if !allowed(c.Type, role) {
		return "", "", baccarat.Errorf(baccarat.CodeNotAuthorized, "a %s may not %s", role, c.Type)
	}
	if t.cfg.Mode == ModeAuto && !allowedOnAuto(c.Type, role) {
		return "", "", baccarat.Errorf(baccarat.CodeNotAuthorized, "this is an automatic table: the server shuffles, deals and paces it, so a %s may not %s here", role, c.Type)
	}
	actor := c.Actor
	if role == RolePlayer {
		if actor == "" {
			actor = c.Player
		}
		if c.Player != "" && actor != c.Player {
			return "", "", baccarat.Errorf(baccarat.CodeNotAuthorized, "%s may not act for %s", actor, c.Player)
		}
	}
	if actor == "" {
		actor = string(role)
	}
	return role, actor, nil
}

// event starts an event in the output buffer, where it is filled in place (an Event is
// large; it is never copied on the hot path). Nothing may start another event before emit.
func (t *Table) event(typ EventType, c *Command, actor string, role Role) *Event {
	t.out = append(t.out, Event{Type: typ, At: c.At, Round: t.round, Actor: actor, Role: role, Reason: c.Reason})
	return &t.out[len(t.out)-1]
}

// emit numbers an event and applies it to the state. Every change of state goes through
// here, so Replay (which calls on) rebuilds exactly the same table.
func (t *Table) emit(e *Event) {
	e.Seq = t.seq + 1
	t.on(e)
}

// on applies one event to the state. It trusts the event: validation happened in Apply.
func (t *Table) on(e *Event) {
	t.seq = e.Seq
	switch e.Type {
	case EvShoeStarted:
		t.onShoeStarted(e)
	case EvShoeEnded:
		t.shoe.active, t.shoe.ending = false, false
		t.shoeResults = t.shoeResults[:0]
	case EvCutCard:
		t.shoe.ending = true
	case EvBettingOpened:
		t.onBettingOpened(e)
	case EvBettingClosed:
		t.betOpen, t.prices, t.window = false, nil, false
		if t.phase == PhaseBetting {
			t.phase = PhaseClosed
		}
	case EvWagerPlaced:
		t.onWagerPlaced(&e.Wager)
	case EvWagerWithdrawn:
		t.onWithdrawn(e.Withdrawn)
	case EvCardDealt:
		t.onCard(e.Card.Card)
	case EvCardsCorrected:
		t.onCorrected(e.Cards)
	case EvSimultaneous:
		t.pending = append(t.pending[:0], e.Cards...)
		t.window = e.Window
	case EvInterrupted:
		t.interrupted, t.window = true, e.Window
	case EvResumed:
		t.interrupted, t.window, t.pending = false, false, t.pending[:0]
		if !e.Until.IsZero() {
			t.until = e.Until
		}
	case EvDeviceReset:
		t.phase, t.betOpen, t.window = PhaseBetting, true, true
	case EvRoundSettled:
		t.onSettled(e)
	case EvRoundVoided:
		t.onVoided(e)
	case EvSessionSettled:
		t.onSessionSettled(e)
	case EvFunded:
		t.partyOf(e.Player).balance += e.Amount
		t.funded += e.Amount
	case EvLimitChanged:
		t.onLimitChanged(e)
	}
}

func (t *Table) onLimitChanged(e *Event) {
	switch e.Setting {
	case "bet_limit":
		limits := make(map[string]Limit, len(t.cfg.Limits)+1) // copied: Config() values stay unchanged
		for k, v := range t.cfg.Limits {
			limits[k] = v
		}
		limits[e.Bet] = *e.Limit
		t.cfg.Limits = limits
	case "area_limit":
		t.maxArea = e.Count
	case "differential":
		t.differential = e.Amount
	}
}

// Replay rebuilds a table from its history: recovery after a crash and audit of a disputed
// round use this one path. It checks that the events are numbered consecutively.
func Replay(cfg Config, events []Event) (*Table, error) {
	t, err := New(cfg)
	if err != nil {
		return nil, err
	}
	for i := range events {
		if err := t.Restore(&events[i]); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Restore applies one event of the table's own history (as Replay does, one at a time).
func (t *Table) Restore(e *Event) error {
	if e.Seq != t.seq+1 {
		return baccarat.Errorf(baccarat.CodeConflict, "event %d follows event %d: the history has a gap or is out of order", e.Seq, t.seq)
	}
	t.on(e)
	return nil
}
