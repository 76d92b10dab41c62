package table

import (
	"unsafe"

	"github.com/tablehouse/baccarat"
)

// Apply validates a command and, if it is allowed, changes the table and returns the events
// that record the change. An error means nothing changed. The returned events, and the
// slices they hold, are the table's and are reused by the next call to Apply: read them,
// change nothing in them, and copy what you keep (Event.Clone).
//
// A request id seen before (in this round or the last) for the same wager returns no
// events and no error: the wager was placed once (WagerByRequest finds it). A closed table
// takes no command at all, whoever sends it (pause.go).
//
// The commands of every round go a short way when they are of the kind sent most and
// nothing but their common case can follow: a player's own prepared wager, and a deal, an
// open and a close that name no one (dealNext, openNext, closeNext). Each short way checks
// only what could refuse or divert its command and leaves anything else, unchanged, to the
// whole way (applyAll), which checks every rule in order; so a command gets the same events,
// or the same refusal, whichever way it went (fastpath_test.go holds each to its twin). Their
// events are written whole into buffers of their own (ownPlaced, dealt, opened, shut),
// which nothing else writes, so that they are never cleared.
func (t *Table) Apply(c Command) ([]Event, error) {
	switch c := c.(type) {
	case *Place:
		// A player's own single-coup, fixed-odds wager at their own seat (Prepare found it
		// plain), new on a spot where they have nothing yet (else it may raise a wager
		// there: raise.go), within every limit, on a bet no layout rule reads, at a table open for
		// it: laid straight onto the layout as layWager and tally lay it. It is written here
		// rather than called, which would cost a wager about a fifteenth more.
		p := &c.prep
		stake := c.Stake
		if p.table != t || !p.plain || t.closed || c.RequestID != "" || !t.betOpen || t.interrupted ||
			stake <= 0 || stake > c.Available || !c.ownAtAGlance() {
			break
		}
		// Where the layout is full, the whole way grows it (or refuses): this way calls
		// nothing.
		n := len(t.wagers)
		if n >= MaxWagersPerRound || n == cap(t.wagers) {
			break
		}
		bi := p.bi
		info := t.bets[bi]
		if info.layout != 0 { // no layout rule, so no limit per playing area either
			break
		}
		party := &t.parties[p.party]
		betting := t.betting
		epoch := t.epoch
		spot := &party.own[bi][betting]
		if l := &t.limits[bi]; stake < l.Min || stake > l.Max || spot.in(epoch) != 0 {
			break
		}

		// The tallies, as tally counts them for a wager at the party's own seat.
		party.held += stake
		spot.of, spot.amount = epoch, stake
		t.totals[bi] += stake
		t.staked |= 1 << bi
		if side := info.side; side != baccarat.NoWinner {
			t.sides[side] += stake
			party.heldIn[side] = epoch
		}
		// The wager, on the layout, and its event.
		ws := t.wagers[:n+1]
		t.wagers = ws
		w := &ws[n]
		seat := c.Seat
		if seat == "" {
			seat = c.Player
		}
		id, round, seq := t.nextWager+1, t.round, t.seq+1
		t.nextWager, t.seq = id, seq
		w.ID, w.Round, w.Player, w.Seat, w.Bet, w.Stake = id, round, c.Player, seat, p.b.ID, stake
		w.Betting, w.party, w.seat, w.bet = betting, p.party, p.seat, uint8(bi)
		if n < t.optional { // the slot may hold what such a wager leaves empty (addWager)
			w.Odds, w.RequestID, w.PlacedBy, w.Riding, w.Session = 0, "", "", false, 0
		}
		e := &t.ownPlaced[0] // its type and role were set by setShortWays
		e.Seq, e.At, e.Round, e.Actor, e.Reason, e.Wager = seq, c.At, round, c.Player, c.Reason, w
		return t.ownPlaced[:], nil
	}
	switch c := c.(type) { // the commands of every round that name no one
	case *Deal:
		if ev := t.dealNext(c); ev != nil {
			return ev, nil
		}
	case *Open:
		if t.openNext(c) {
			return t.opened[:], nil
		}
	case *Close:
		if t.closeNext(c) {
			return t.shut[:], nil
		}
	}
	return t.applyAll(c)
}

// applyAll is Apply for every command, checking every rule.
func (t *Table) applyAll(c Command) ([]Event, error) {
	t.out = t.general[:0]
	if t.closed {
		return nil, errClosed
	}
	var err error
	switch c := c.(type) {
	case *Place: // the commands of every round: one type switch, no interface calls, no closures
		role, actor := RolePlayer, c.Player
		if !c.own() {
			role, actor, err = t.authorize(CmdPlace, &c.Header, c.Player)
		}
		if err == nil {
			err = t.place(c, actor, role)
		}
	case *Deal:
		role, actor, aerr := t.authorize(CmdDeal, &c.Header, "")
		if err = aerr; err == nil {
			err = t.deal(c, actor, role)
		}
	case *Card:
		role, actor, aerr := t.authorize(CmdCard, &c.Header, "")
		if err = aerr; err == nil {
			err = t.card(c, actor, role)
		}
	case *Open:
		role, actor, aerr := t.authorize(CmdOpen, &c.Header, "")
		if err = aerr; err == nil {
			err = t.open(c, actor, role)
		}
	case *Close:
		role, actor, aerr := t.authorize(CmdClose, &c.Header, "")
		if err = aerr; err == nil {
			err = t.close(&c.Header, actor, role)
		}
	default:
		err = t.applyOther(c)
	}
	t.general = t.out // as the events grew it
	if err != nil {
		return nil, err
	}
	return t.out, nil
}

// apply authorizes a command, then runs it.
func apply(t *Table, kind CommandType, h *Header, player string, run func(actor string, role Role) error) error {
	role, actor, err := t.authorize(kind, h, player)
	if err != nil {
		return err
	}
	return run(actor, role)
}

// applyOther runs every command but those of every round.
func (t *Table) applyOther(c Command) error {
	h := c.Head()
	run := func(fn func(actor string, role Role) error) error { return apply(t, c.Kind(), h, playerOf(c), fn) }
	switch c := c.(type) {
	case *Withdraw:
		return run(func(a string, r Role) error { return t.withdraw(c, a, r) })
	case *NewShoe:
		return run(func(a string, r Role) error { return t.newShoe(c, a, r) })
	case *EndShoe:
		return run(func(a string, r Role) error { return t.endShoe(h, a, r) })
	case *Correct:
		return run(func(a string, r Role) error { return t.correct(c, a, r) })
	case *Simultaneous:
		return run(func(a string, r Role) error { return t.simultaneous(c, a, r) })
	case *Interrupt:
		return run(func(a string, r Role) error { return t.interrupt(h, a, r) })
	case *Resume:
		return run(func(a string, r Role) error { return t.resume(c, a, r) })
	case *DeviceReset:
		return run(func(a string, r Role) error { return t.deviceReset(h, a, r) })
	case *Void:
		return run(func(a string, r Role) error { return t.void(h, a, r) })
	case *EndSession:
		return run(func(a string, r Role) error { return t.endSession(h, a, r) })
	case *SetLimit:
		return run(func(a string, r Role) error { return t.setLimit(c, a, r) })
	case *SetAreaLimit:
		return run(func(a string, r Role) error { return t.setAreaLimit(c, a, r) })
	case *SetDifferential:
		return run(func(a string, r Role) error { return t.setDifferential(c, a, r) })
	case *Reveal:
		return run(func(a string, r Role) error { return t.reveal(c, a, r) })
	case *Peel:
		return run(func(a string, r Role) error { return t.peel(c, a, r) })
	case *Pause:
		return run(func(a string, r Role) error { return t.pause(h, a, r) })
	case *Reopen:
		return run(func(a string, r Role) error { return t.reopen(h, a, r) })
	case *CloseTable:
		return run(func(a string, r Role) error { return t.closeTable(h, a, r) })
	case *Draw:
		return run(func(a string, r Role) error { return t.draw(c, a, r) })
	case *GiveUpShoe:
		return run(func(a string, r Role) error { return t.giveUpShoe(h, a, r) })
	case *HandShoe:
		return run(func(a string, r Role) error { return t.handShoe(c, a, r) })
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "unknown command %T", c)
}

// playerOf is the player a command acts for, if it names one.
func playerOf(c Command) string {
	switch c := c.(type) {
	case *Place:
		return c.Player
	case *Withdraw:
		return c.Player
	}
	return ""
}

// allowed says who may send each command. Players act only for themselves; dealers and pit
// may place a wager for a player (Tiger 3.7); the pit sets limits, ends sessions, and pauses,
// reopens and closes the table (a dealer deals the rounds the pit lets the table play). Only
// a player draws with the shoe they hold, or gives it up (Method C); staff hand it on.
func allowed(ct CommandType, r Role) bool {
	switch ct {
	case CmdPlace, CmdReveal:
		return true
	case CmdPeel, CmdDraw, CmdGiveUpShoe:
		return r == RolePlayer
	case CmdHandShoe:
		return r == RoleDealer || r == RolePit || r == RoleSystem
	case CmdWithdraw:
		return r != RoleDealer
	case CmdEndSession, CmdSetLimit, CmdSetAreaLimit, CmdSetDifferential, CmdPause, CmdReopen, CmdCloseTable:
		return r == RolePit || r == RoleSystem
	}
	return r == RoleDealer || r == RolePit || r == RoleSystem
}

// allowedOnAuto says who may send each command to an automatic (RNG) table. The server
// alone shuffles, deals and paces it: no dealer acts there, and nobody else sends a card,
// a shoe, a correction or an interruption. Players wager; the pit voids a round (with a
// reason, on the record), sets limits, ends a Dragon session, pauses, reopens and closes the
// table (pause.go), and hands the shoe to a player (Method C, Tiger 3.9.4.1: the pit's
// discretion); the player holding it draws and gives it up.
func allowedOnAuto(ct CommandType, r Role) bool {
	switch r {
	case RoleSystem:
		return true
	case RolePlayer:
		return ct == CmdPlace || ct == CmdWithdraw || ct == CmdReveal || ct == CmdPeel || ct == CmdDraw || ct == CmdGiveUpShoe
	case RolePit:
		switch ct {
		case CmdVoid, CmdSetLimit, CmdSetAreaLimit, CmdSetDifferential, CmdEndSession, CmdPause, CmdReopen, CmdCloseTable, CmdHandShoe:
			return true
		}
	}
	return false
}

// naturalRole is the role assumed when a command names none (replay scripts).
func naturalRole(ct CommandType) Role {
	switch ct {
	case CmdPlace, CmdWithdraw, CmdDraw, CmdGiveUpShoe:
		return RolePlayer
	case CmdEndSession, CmdSetLimit, CmdSetAreaLimit, CmdSetDifferential, CmdPause, CmdReopen, CmdCloseTable, CmdHandShoe:
		return RolePit
	}
	return RoleDealer
}

// naturalActor is who a command acts as when it names no one, for no player: its natural
// role, under that role's name, if the role may send it at this table (ok). It is what
// authorize says of such a command (TestNaturalActorsAreAuthorized), made once (naturals) for
// Apply's short ways.
type naturalActor struct {
	role  Role
	actor string
	ok    bool
}

// naturals works out the naturalActor of every command at a table, automatic or not.
func naturals(auto int) (n [commandCount]naturalActor) {
	for ct := range commandCount {
		role := naturalRole(ct)
		n[ct] = naturalActor{role: role, actor: roleNames[role], ok: permitted[auto][ct]&(1<<role) != 0}
	}
	return n
}

func (t *Table) authorize(ct CommandType, h *Header, player string) (Role, string, error) {
	role := h.Role
	if role == RoleNone {
		role = naturalRole(ct)
	}
	if role > RoleSystem || ct >= commandCount || permitted[t.auto][ct]&(1<<role) == 0 {
		return 0, "", t.unauthorized(ct, role)
	}
	actor := h.Actor
	switch {
	case role != RolePlayer:
	case actor == "":
		actor = player
	case player != "" && actor != player:
		return 0, "", baccarat.Errorf(baccarat.CodeNotAuthorized, "%s may not act for %s", actor, player)
	}
	if actor == "" {
		actor = roleNames[role]
	}
	return role, actor, nil
}

// own reports whether a wager is a player placing their own, the wager sent most, which
// every table allows: authorize would let it through as RolePlayer, acting as c.Player
// (TestOwnWagerIsAuthorized), so Apply need not ask it.
func (c *Place) own() bool {
	return c.Role <= RolePlayer && c.Player != "" && (c.Actor == "" || c.Actor == c.Player)
}

// ownAtAGlance is own without comparing text: a player who names no actor, or names as the
// actor the very string that names the player (the same bytes, so the same name: a host
// fills both from one identity). It calls nothing, so that Apply's short way for a wager
// keeps its values in registers. A player who names themselves by another copy of the name
// is their own too (own), and goes the whole way.
func (c *Place) ownAtAGlance() bool {
	return c.Role <= RolePlayer && c.Player != "" && (c.Actor == "" ||
		len(c.Actor) == len(c.Player) && unsafe.StringData(c.Actor) == unsafe.StringData(c.Player))
}

func (t *Table) unauthorized(ct CommandType, role Role) error {
	if role <= RoleSystem && allowed(ct, role) {
		return baccarat.Errorf(baccarat.CodeNotAuthorized, "this is an automatic table: the server shuffles, deals and paces it, so a %s may not %s here", role, ct)
	}
	return baccarat.Errorf(baccarat.CodeNotAuthorized, "a %s may not %s", role, ct)
}

// permitted is allowed and allowedOnAuto as one table, [automatic][command], a bit per
// role (1<<role), made once: the hot path of every command asks it in one load.
var permitted = func() (p [2][commandCount]uint8) {
	for ct := CommandType(0); ct < commandCount; ct++ {
		for r := RolePlayer; r <= RoleSystem; r++ {
			if allowed(ct, r) {
				p[0][ct] |= 1 << r
			}
			if allowed(ct, r) && allowedOnAuto(ct, r) {
				p[1][ct] |= 1 << r
			}
		}
	}
	return p
}()

// event starts an event in the output buffer, where it is filled in place. Nothing may
// start another event before emit.
func (t *Table) event(typ EventType, h *Header, actor string, role Role) *Event {
	t.out = append(t.out, Event{})
	e := &t.out[len(t.out)-1]
	e.Type, e.At, e.Round, e.Actor, e.Role, e.Reason = typ, h.At, t.round, actor, role, h.Reason
	return e
}

// emit numbers an event and applies it to the state. Every change of state goes through
// here, or, for the events every round makes by the dozen, makes on's change without its
// dispatch: emitWager, cardDealt, emitSettled and Apply's short ways, which call on's own
// functions (onCard, onBettingOpened, onBettingClosed) or, for a wager, lay it as layWager
// and tally would. So Replay (which calls on) rebuilds exactly the same table.
func (t *Table) emit(e *Event) {
	e.Seq = t.seq + 1
	t.on(e)
}

// on applies one event to the state. It trusts the event: validation happened in Apply.
func (t *Table) on(e *Event) {
	t.seq = e.Seq
	if t.cfg.ShoeToPlayer {
		t.mc.since = e.At // Method C: the holder's time to draw runs from the last event
	}
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
		t.onBettingClosed()
	case EvWagerPlaced:
		t.onWagerPlaced(e.Wager)
	case EvWagerWithdrawn:
		t.onWithdrawn(e.Withdrawn())
	case EvWagerRaised, EvWagerLowered:
		t.onRestaked(e)
	case EvCardDealt:
		t.onCard(e.Card.Card)
	case EvCardsCorrected:
		t.onCorrected(e.Cards())
	case EvSimultaneous:
		t.pending = append(t.pending[:0], e.Cards()...)
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
	case EvSqueezeStarted:
		t.onSqueezeStarted(e)
	case EvSqueezeEnded:
		t.onSqueezeEnded(e)
	case EvLimitChanged:
		if e.Detail != nil {
			t.onLimitChanged(e.Detail)
		}
	case EvTablePaused, EvTableReopened, EvTableClosed:
		t.onPause(e.Type)
	case EvShoePassed:
		t.onShoePassed(e)
	}
}

func (t *Table) onLimitChanged(d *Detail) {
	switch d.Setting {
	case SettingBetLimit:
		limits := make(map[string]Limit, len(t.cfg.Limits)+1) // copied: Config() values stay unchanged
		for k, v := range t.cfg.Limits {
			limits[k] = v
		}
		limits[d.Bet] = *d.Limit
		t.cfg.Limits = limits
		t.setLimits()
	case SettingAreaLimit:
		counted := t.maxArea > 0
		t.maxArea = d.Count
		t.setLayout()
		if !counted && t.maxArea > 0 {
			t.retally() // the areas were not counted without a limit to read them (tally)
		}
	case SettingDifferential:
		t.differential = d.Amount
		t.setLayout()
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
