package table

import (
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// interrupt records a power failure, crash or device fault (Tiger 5.17; SPEC §4). When no
// outcome is established and no card has been seen by one player alone (SeenPrivately), a
// withdrawal window opens: each owner may withdraw all of their wagers. Otherwise the round
// goes on to its end after resume.
func (t *Table) interrupt(h *Header, actor string, role Role) error {
	if !t.roundOpen() {
		return badState("no round is under way")
	}
	if t.interrupted {
		return badState("the round is already interrupted")
	}
	established := t.OutcomeEstablished()
	e := t.event(EvInterrupted, h, actor, role)
	e.Window, e.Certain = !established && !t.SeenPrivately(), established
	t.emit(e)
	return nil
}

// OutcomeEstablished reports whether an outcome is established in the sense of Tiger 5.17:
// some wager the game makes available (its rule list of bets, Tiger 3.5), placed or not,
// has conclusively won or lost. The odds engine tells it exactly from the cards dealt and
// the cards left, so in a game with pair bets there is no withdrawal window once the
// cards that decide a pair are out, whoever bet on it. Dragon bets are decided over a
// session, not by one coup, and do not count.
func (t *Table) OutcomeEstablished() bool {
	if t.coup.Len() == 0 {
		return false
	}
	chances, err := t.chances()
	if err != nil {
		return false
	}
	for _, ch := range chances {
		if ch.Certain() {
			return true
		}
	}
	return false
}

// resume ends an interruption or a withdrawal window. After a simultaneous draw it deals the
// drawn cards in their order: the known order, or the one the pit determined (Cards).
func (t *Table) resume(c *Resume, actor string, role Role) error {
	if len(t.pending) > 0 {
		return t.resumeDraw(c, actor, role)
	}
	if !t.interrupted {
		return badState("nothing to resume")
	}
	e := t.event(EvResumed, &c.Header, actor, role)
	if t.betOpen {
		// An interrupted betting phase reopens with a fresh window, announced to everyone:
		// the interruption must not eat the players' betting time (SPEC §4).
		e.Until, e.Phase, e.Betting = c.Until, t.phase, t.betting
	}
	t.emit(e)
	return nil
}

func (t *Table) resumeDraw(c *Resume, actor string, role Role) error {
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
	e := t.event(EvResumed, &c.Header, actor, role)
	e.more().Cards = order
	t.emit(e)
	for _, k := range order {
		t.dealCard(k, &c.Header, actor, role, c.Until)
		if t.phase != PhaseDealing {
			break
		}
	}
	return nil
}

// deviceReset: the dealing device had to be reset after "No more bets" (Tiger 5.9). With no
// card dealt, betting reopens: players may withdraw and wager again before "No more bets"
// is called again. With cards dealt, the round is void.
func (t *Table) deviceReset(h *Header, actor string, role Role) error {
	if t.phase != PhaseClosed && t.phase != PhaseDealing {
		return badState("a device reset is handled after No more bets and before the result")
	}
	if t.coup.Len() > 0 || t.betting > 1 || len(t.pending) > 0 {
		t.voidRound(h, actor, role, "device_reset", nil)
		return nil
	}
	e := t.event(EvDeviceReset, h, actor, role)
	e.Phase, e.Window = PhaseBetting, true
	t.emit(e)
	return nil
}

// void voids the round with a reason (SPEC §4): every stake is returned, earlier rounds stand.
func (t *Table) void(h *Header, actor string, role Role) error {
	if !t.roundOpen() {
		return badState("only a round under way can be voided; round %d is %s", t.round, t.phase)
	}
	if !slices.Contains(VoidReasons, h.Reason) {
		return refuse(baccarat.CodeBadRequest, "void needs a reason, one of %v", VoidReasons)
	}
	t.voidRound(h, actor, role, h.Reason, nil)
	return nil
}

func (t *Table) voidRound(h *Header, actor string, role Role, reason string, cards []baccarat.Card) {
	e := t.event(EvRoundVoided, h, actor, role)
	e.Reason, e.Phase = reason, PhaseVoid
	if cards != nil {
		e.more().Cards = cards
	}
	e.Settlements = t.settleBuf[:0]
	for _, w := range t.wagers {
		e.Settlements = append(e.Settlements, Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake,
			Outcome: games.Void, Odds: w.Odds, Returned: w.Stake})
	}
	t.settleBuf = e.Settlements
	t.emit(e)
	if reason == "insufficient_cards" && !t.shoe.ending {
		t.emit(t.event(EvCutCard, h, actor, role))
	}
	t.afterRound(h, actor, role)
}

func (t *Table) onVoided(e *Event) {
	for _, s := range e.Settlements {
		t.parties[t.Party(s.Player)].held -= s.Stake
	}
	t.endRound(PhaseVoid)
}
