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

// dealNext is deal for the Deal sent most: one that names no one, so that it acts in the
// dealer's natural role, when deal would deal the next card and nothing before it (no cut
// card comes out first) at a table without the squeeze. It deals it as deal would, without
// the layers between Apply and dealCard, and returns its events; for any other Deal it
// returns none, having changed nothing: Apply then sends it the whole way.
func (t *Table) dealNext(c *Deal) []Event {
	n, s := &t.natural[CmdDeal], &t.shoe
	if t.closed || c.Role != RoleNone || c.Actor != "" || !n.ok || !s.active || s.order == nil ||
		s.next >= len(s.order) || s.next >= s.cutAt || !t.cardDue() || t.cfg.Squeeze || t.cfg.ShoeToPlayer {
		return nil
	}
	// The card_dealt event, as cardDealt makes it, in dealt[0], where nothing else is ever
	// written: only what changes from card to card is set (setShortWays set the rest), and
	// the events that follow it, if any, are appended after it.
	k := s.order[s.next]
	e := &t.dealt[0]
	e.Seq, e.At, e.Round, e.Reason = t.seq+1, c.At, t.round, c.Reason
	e.Card.Card, e.Card.Position, e.Card.Left = k, t.coup.Next(), s.counts.Total()-1
	t.seq = e.Seq
	t.onCard(k)
	if t.game.Rules.BettingRounds <= 1 && !t.coup.Done() && s.counts.Total() != 0 {
		return t.dealt[:1] // afterCard would do nothing
	}
	t.out = t.dealt[:1]
	t.afterCard(&c.Header, n.actor, n.role, c.Until)
	t.dealt = t.out // as the events after the card grew it
	return t.out
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
	t.cardDealt(k, h, actor, role)
	t.afterCard(h, actor, role, until)
}

// cardDealt records a card: its card_dealt event, numbered and applied as on would apply it
// (onCard), without on's dispatch. Replay rebuilds the same table from the event.
func (t *Table) cardDealt(k baccarat.Card, h *Header, actor string, role Role) {
	e := t.event(EvCardDealt, h, actor, role)
	d := &e.Card // the event is new: only what a card sets is set
	d.Card, d.Position, d.Left, d.set = k, t.coup.Next(), t.shoe.counts.Total()-1, true
	if t.cfg.Squeeze {
		if who, hidden := t.hiddenFrom(t.coup.Len()); hidden {
			d.Hidden, d.For = true, who
		}
	}
	e.Phase = PhaseDealing
	e.Seq = t.seq + 1
	t.seq = e.Seq
	if t.cfg.ShoeToPlayer {
		t.mc.since = e.At // as on sets it
	}
	t.onCard(k)
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
