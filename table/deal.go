package table

import (
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
)

// checkCardDue explains why no card may be dealt now, or returns nil: it refuses exactly
// when cardDue is false, which the card commands ask first, in a few compares.
func (t *Table) checkCardDue() error {
	// Every case is "a card when no card is due" (SPEC §2): refused, changing nothing; the
	// message says what the table is waiting for instead.
	switch {
	case t.phase == PhaseBetting:
		return refuse(baccarat.CodeExtraCard, "no card is due: betting is open; close it (No more bets) before dealing")
	case t.phase != PhaseClosed && t.phase != PhaseDealing:
		return refuse(baccarat.CodeExtraCard, "no card is due: round %d is %s", t.round, t.phase)
	case t.betOpen:
		return refuse(baccarat.CodeExtraCard, "no card is due: betting round %d is open; close it before the next card (BoB 3.2, 3.3)", t.betting)
	case t.interrupted || t.window || len(t.pending) > 0:
		return refuse(baccarat.CodeExtraCard, "no card is due: the round is interrupted; resume it first")
	case t.sq != nil:
		return refuse(baccarat.CodeExtraCard, "no card is due: %s is squeezing the %s hand (reveal ends it)", t.sq.squeezer, t.sq.side)
	case t.coup.Done():
		return refuse(baccarat.CodeExtraCard, "no card is due: the coup is complete")
	}
	return nil
}

// deal deals the next card of an RNG shoe.
func (t *Table) deal(c *Deal, actor string, role Role) error {
	if !t.shoe.active || t.shoe.order == nil {
		return badState("this table takes cards from a dealer's shoe: send card commands")
	}
	if !t.cardDue() {
		return t.checkCardDue()
	}
	if t.shoe.next >= len(t.shoe.order) {
		t.voidRound(&c.Header, actor, role, "insufficient_cards", nil) // MBS 5.5
		return nil
	}
	if t.shoe.next >= t.shoe.cutAt && !t.shoe.ending {
		t.emit(t.event(EvCutCard, &c.Header, actor, role)) // Tiger 3.17: finish the round, then end the shoe
	}
	t.dealCard(t.shoe.order[t.shoe.next], &c.Header, actor, role, c.Until)
	return nil
}

// card takes a card from a dealer's card-reading shoe. A card the shoe cannot contain
// (foreign, or one copy too many) voids the round (MBS 5.1, Tiger 5.1); a card when none is
// due is refused (SPEC §2).
func (t *Table) card(c *Card, actor string, role Role) error {
	if c.Card == nil || !c.Card.Valid() {
		return refuse(baccarat.CodeBadCard, "card needs a card, such as \"7h\"")
	}
	if !t.shoe.active {
		return badState("there is no shoe in play")
	}
	if t.shoe.order != nil {
		return badState("this table deals from its RNG shoe: send deal commands")
	}
	if !t.cardDue() {
		return t.checkCardDue()
	}
	if c.Cut && !t.shoe.ending {
		t.emit(t.event(EvCutCard, &c.Header, actor, role))
	}
	if !t.shoe.counts.Has(*c.Card) {
		t.voidRound(&c.Header, actor, role, "foreign_card", []baccarat.Card{*c.Card})
		return nil
	}
	t.dealCard(*c.Card, &c.Header, actor, role, c.Until)
	return nil
}

// dealCard deals one card and everything that follows from it: Bet on Baccarat's next
// betting round, the settlement, or a void when the shoe runs out (MBS 5.5).
// until is when a Bet on Baccarat betting round the card opens is due to close.
func (t *Table) dealCard(k baccarat.Card, h *Header, actor string, role Role, until time.Time) {
	e := t.event(EvCardDealt, h, actor, role)
	e.Card = DealtCard{Card: k, Position: t.coup.Next(), Left: t.shoe.counts.Total() - 1, set: true}
	if t.cfg.Squeeze {
		if who, hidden := t.hiddenFrom(t.coup.Len()); hidden {
			e.Card.Hidden, e.Card.For = true, who
		}
	}
	e.Phase = PhaseDealing
	t.emit(e)
	t.afterCard(h, actor, role, until)
}

func (t *Table) afterCard(h *Header, actor string, role Role, until time.Time) {
	switch {
	case t.coup.Len() == 4 && t.revealed == 0 && t.startSqueeze(h, actor, role):
		// the first two cards of each hand are squeezed before anything else happens
	case t.coup.Done():
		t.settle(h, actor, role)
	case t.game.Rules.BettingRounds > 1 && t.coup.Len() <= 2:
		o := t.event(EvBettingOpened, h, actor, role)
		o.Betting, o.Phase, o.Until = t.coup.Len()+1, PhaseDealing, until
		o.more().Prices = t.price(t.Revealed())
		t.emit(o)
	case t.shoe.counts.Total() == 0:
		t.voidRound(h, actor, role, "insufficient_cards", nil)
	}
}

func (t *Table) onCard(k baccarat.Card) {
	t.phase = PhaseDealing
	_ = t.coup.Add(k)
	_ = t.shoe.counts.Remove(k)
	if t.shoe.order != nil {
		t.shoe.next++
	}
}

// correct re-enters the cards of the coup in their right order when they were dealt out of
// order (Tiger 5.7). The cards must be the ones dealt; the round goes on.
func (t *Table) correct(c *Correct, actor string, role Role) error {
	if t.phase != PhaseDealing || t.coup.Done() {
		return badState("corrections are made while dealing, before the result")
	}
	if t.game.Rules.BettingRounds > 1 {
		return badState("Bet on Baccarat cancels a draw with a card in the wrong place (BoB 5.1.2): void it")
	}
	dealt := t.Revealed()
	if !sameCards(dealt, c.Cards) {
		return refuse(baccarat.CodeBadCoup, "a correction reorders the %d cards dealt (%s); it cannot change them", len(dealt), baccarat.FormatCards(dealt, " "))
	}
	if err := partialCoup(c.Cards); err != nil {
		return err
	}
	e := t.event(EvCardsCorrected, &c.Header, actor, role)
	e.more().Cards = slices.Clone(c.Cards)
	t.emit(e)
	if t.coup.Done() {
		t.settle(&c.Header, actor, role)
	}
	return nil
}

// partialCoup checks that cards, in order, are a coup in progress or just complete.
func partialCoup(cards []baccarat.Card) error {
	var k baccarat.Coup
	for i, x := range cards {
		if k.Done() {
			return refuse(baccarat.CodeBadCoup, "in that order the coup is complete after %d cards, not %d", i, len(cards))
		}
		_ = k.Add(x)
	}
	return nil
}

func sameCards(a, b []baccarat.Card) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

func (t *Table) onCorrected(cards []baccarat.Card) {
	t.coup = baccarat.Coup{}
	for _, k := range cards {
		_ = t.coup.Add(k)
	}
}

// simultaneous records two or more cards drawn together (Tiger 5.8, MBS 5.3). With the
// order unknown during the initial deal the round is void; otherwise players may withdraw
// before the cards are reconstructed (resume, with the order when it was unknown), unless a
// card of the round was seen by one player alone (SeenPrivately).
func (t *Table) simultaneous(c *Simultaneous, actor string, role Role) error {
	if t.shoe.order != nil {
		return badState("an RNG shoe never draws two cards at once")
	}
	if err := t.checkCardDue(); err != nil {
		return err
	}
	if len(c.Cards) < 2 {
		return refuse(baccarat.CodeBadRequest, "a simultaneous draw names the two or more cards drawn")
	}
	counts := t.shoe.counts
	for _, k := range c.Cards {
		if counts.Remove(k) != nil {
			t.voidRound(&c.Header, actor, role, "foreign_card", []baccarat.Card{k})
			return nil
		}
	}
	if need := 6 - t.coup.Len(); len(c.Cards) > need {
		return refuse(baccarat.CodeBadRequest, "the coup can take at most %d more cards; void it if more came out (wrong_card_count)", need)
	}
	if !c.Known && t.coup.Len() < 4 {
		t.voidRound(&c.Header, actor, role, "simultaneous_draw", slices.Clone(c.Cards)) // Tiger 5.8.2.1, MBS 5.3
		return nil
	}
	e := t.event(EvSimultaneous, &c.Header, actor, role)
	e.more().Cards, e.Window = slices.Clone(c.Cards), !t.SeenPrivately()
	t.emit(e)
	return nil
}
