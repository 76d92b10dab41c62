package table

import (
	"slices"

	"github.com/tablehouse/baccarat"
)

// interrupt records a power failure, crash or device fault (Tiger 5.17; SPEC §4). When no
// wager's result is yet certain, a withdrawal window opens: each owner may withdraw all of
// their wagers. Otherwise the round goes on to its end after resume.
func (t *Table) interrupt(c *Command, actor string, role Role) error {
	if !t.roundOpen() {
		return badState("no round is under way")
	}
	if t.interrupted {
		return badState("the round is already interrupted")
	}
	certain := t.anyCertain()
	e := t.event(EvInterrupted, c, actor, role)
	e.Window, e.Certain = !certain, certain
	t.emit(e)
	return nil
}

// anyCertain reports whether any wager of the round has conclusively won, lost or pushed,
// which the odds engine tells from the cards dealt and the cards left.
func (t *Table) anyCertain() bool {
	if len(t.wagers) == 0 {
		return false
	}
	chances, err := t.chances()
	if err != nil {
		return false
	}
	for _, w := range t.wagers {
		for _, ch := range chances {
			if ch.Bet == w.Bet && (ch.Win.IsOne() || ch.Lose.IsOne() || ch.Push.IsOne()) {
				return true
			}
		}
	}
	return false
}

// resume ends an interruption or a withdrawal window. After a simultaneous draw it deals the
// drawn cards in their order: the known order, or the one the pit determined (Cards).
func (t *Table) resume(c *Command, actor string, role Role) error {
	if len(t.pending) > 0 {
		return t.resumeDraw(c, actor, role)
	}
	if !t.interrupted {
		return badState("nothing to resume")
	}
	t.emit(t.event(EvResumed, c, actor, role))
	return nil
}

func (t *Table) resumeDraw(c *Command, actor string, role Role) error {
	order := c.Cards
	if order == nil {
		order = t.pending
	}
	if !sameCards(order, t.pending) {
		return refuse(baccarat.CodeBadRequest, "resume gives the order of the cards drawn together: %s", baccarat.FormatCards(t.pending, " "))
	}
	all := append(t.Revealed(), order...)
	if err := partialCoup(all); err != nil {
		return err
	}
	order = slices.Clone(order)
	e := t.event(EvResumed, c, actor, role)
	e.Cards = order
	t.emit(e)
	for _, k := range order {
		t.dealCard(k, c, actor, role)
		if t.phase != PhaseDealing {
			break
		}
	}
	return nil
}

// deviceReset: the dealing device had to be reset after "No more bets" (Tiger 5.9). With no
// card dealt, betting reopens: players may withdraw and wager again before "No more bets"
// is called again. With cards dealt, the round is void.
func (t *Table) deviceReset(c *Command, actor string, role Role) error {
	if t.phase != PhaseClosed && t.phase != PhaseDealing {
		return badState("a device reset is handled after No more bets and before the result")
	}
	if t.coup.Len() > 0 || t.betting > 1 || len(t.pending) > 0 {
		t.voidRound(c, actor, role, "device_reset", nil)
		return nil
	}
	e := t.event(EvDeviceReset, c, actor, role)
	e.Phase, e.Window = PhaseBetting, true
	t.emit(e)
	return nil
}

// void voids the round with a reason (SPEC §4): every stake is returned, earlier rounds stand.
func (t *Table) void(c *Command, actor string, role Role) error {
	if !t.roundOpen() {
		return badState("only a round under way can be voided; round %d is %s", t.round, t.phase)
	}
	if !slices.Contains(VoidReasons, c.Reason) {
		return refuse(baccarat.CodeBadRequest, "void needs a reason, one of %v", VoidReasons)
	}
	t.voidRound(c, actor, role, c.Reason, nil)
	return nil
}

func (t *Table) voidRound(c *Command, actor string, role Role, reason string, cards []baccarat.Card) {
	e := t.event(EvRoundVoided, c, actor, role)
	e.Reason, e.Cards, e.Phase = reason, cards, PhaseVoid
	e.Settlements = make([]Settlement, 0, len(t.wagers))
	for _, w := range t.wagers {
		e.Settlements = append(e.Settlements, Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake,
			Outcome: "void", Odds: w.Odds, Returned: w.Stake})
	}
	t.emit(e)
	if reason == "insufficient_cards" && !t.shoe.ending {
		t.emit(t.event(EvCutCard, c, actor, role))
	}
	t.afterRound(c, actor, role)
}

func (t *Table) onVoided(e *Event) {
	for _, s := range e.Settlements {
		f := t.partyOf(s.Player)
		f.held -= s.Stake
		f.balance += s.Returned
	}
	t.endRound(PhaseVoid)
}

func (t *Table) endRound(p Phase) {
	t.phase, t.betOpen, t.prices = p, false, nil
	t.interrupted, t.window, t.pending = false, false, t.pending[:0]
	t.wagers = t.wagers[:0]
	t.clearTallies()
}
