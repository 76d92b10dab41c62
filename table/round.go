package table

import (
	"encoding/hex"
	"slices"

	"github.com/tablehouse/baccarat"
)

func badState(format string, args ...any) error {
	return baccarat.Errorf(baccarat.CodeBadState, format, args...)
}

// roundOpen reports whether a round is under way (betting opened and not yet finished).
func (t *Table) roundOpen() bool {
	return t.phase == PhaseBetting || t.phase == PhaseClosed || t.phase == PhaseDealing
}

// newShoe starts a shoe. With Order it is an RNG shoe the table deals from (its order and
// salt stay secret; the commitment is published, SPEC §2); without, cards come from a
// dealer's shoe and the table knows only its composition.
func (t *Table) newShoe(c *NewShoe, actor string, role Role) error {
	if t.roundOpen() {
		return badState("a new shoe starts between rounds, not during round %d", t.round)
	}
	if t.shoe.active {
		return badState("shoe %d is still in play: end it first (end_shoe)", t.shoe.number)
	}
	decks := c.Decks
	if decks == 0 {
		decks = t.cfg.Decks
	}
	g := t.game
	if decks < g.Decks.Min || decks > g.Decks.Max {
		return baccarat.Errorf(baccarat.CodeBadShoe, "%s is played with %d to %d decks, not %d", g.Name, g.Decks.Min, g.Decks.Max, decks)
	}
	info := &ShoeInfo{Number: t.shoe.number + 1, Decks: decks, Cards: decks * baccarat.NumCards, Live: c.Order == nil}
	if c.Order != nil {
		if err := checkOrder(c.Order, decks); err != nil {
			return err
		}
		salt, err := hex.DecodeString(c.Salt)
		if err != nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "salt must be hex")
		}
		commit := baccarat.Commit(c.Order, salt)
		if c.Commitment != nil && *c.Commitment != commit {
			return baccarat.Errorf(baccarat.CodeBadShoe, "the commitment does not match the order and salt")
		}
		info.Order, info.Salt, info.Commitment = slices.Clone(c.Order), c.Salt, &commit
		info.CutCard = c.CutCard
		if info.CutCard <= 0 {
			info.CutCard = t.cfg.CutCard
		}
	} else if c.Commitment != nil {
		info.Commitment = c.Commitment
	}
	e := t.event(EvShoeStarted, &c.Header, actor, role)
	e.more().Shoe = info
	t.emit(e)
	return nil
}

// checkOrder checks that an RNG shoe's order is decks complete decks: every one of the 52
// cards, decks times (a composition is made of its cards' counts, so counting the cards is
// comparing it with baccarat.NewCounts(decks)).
func checkOrder(order []baccarat.Card, decks int) error {
	var got [baccarat.NumCards]int
	for _, k := range order {
		if !k.Valid() {
			return baccarat.Errorf(baccarat.CodeBadShoe, "the shoe order holds an invalid card")
		}
		got[k]++
	}
	for _, n := range got {
		if n != decks {
			return baccarat.Errorf(baccarat.CodeBadShoe, "the shoe order is not %d complete decks", decks)
		}
	}
	return nil
}

func (t *Table) onShoeStarted(e *Event) {
	s := e.Shoe()
	t.shoe = shoeState{active: true, number: s.Number, decks: s.Decks, counts: baccarat.NewCounts(s.Decks),
		order: s.Order, cutCard: s.CutCard, commitment: s.Commitment, salt: s.Salt}
	t.shoe.cutAt = len(s.Order) - s.CutCard
	t.shoeResults = t.shoeResults[:0]
}

// endShoe ends the shoe: now if no round is under way, else after the round (the dealer saw
// the cut card, Tiger 3.17).
func (t *Table) endShoe(h *Header, actor string, role Role) error {
	if !t.shoe.active {
		return badState("there is no shoe in play")
	}
	if t.roundOpen() {
		if !t.shoe.ending {
			t.emit(t.event(EvCutCard, h, actor, role))
		}
		return nil
	}
	t.emitShoeEnded(h, actor, role)
	return nil
}

func (t *Table) emitShoeEnded(h *Header, actor string, role Role) {
	e := t.event(EvShoeEnded, h, actor, role)
	info := &ShoeInfo{Number: t.shoe.number, Decks: t.shoe.decks, Cards: t.shoe.decks * baccarat.NumCards,
		Commitment: t.shoe.commitment, Live: t.shoe.order == nil}
	if t.shoe.order != nil {
		info.Order, info.Salt = t.shoe.order, t.shoe.salt
		salt, _ := hex.DecodeString(t.shoe.salt)
		ok := baccarat.Reveal{Order: t.shoe.order, Salt: salt}.Verify(*t.shoe.commitment)
		info.Verified = &ok
	}
	e.more().Shoe = info
	t.emit(e)
}

// open starts a round: "Place your bets, please" (MBS 3.1).
func (t *Table) open(c *Open, actor string, role Role) error {
	if t.roundOpen() {
		return badState("round %d is still %s", t.round, t.phase)
	}
	if t.paused {
		return badState("the table is paused by the pit: no new round until it reopens")
	}
	if !t.shoe.active {
		return badState("there is no shoe: start one (new_shoe)")
	}
	e := t.event(EvBettingOpened, &c.Header, actor, role)
	e.Round, e.Betting, e.Until, e.Phase = t.round+1, 1, c.Until, PhaseBetting
	if t.game.Rules.BettingRounds > 1 {
		e.more().Prices = t.price(nil)
	}
	t.emit(e)
	return nil
}

func (t *Table) onBettingOpened(e *Event) {
	t.betting, t.betOpen, t.until, t.prices = e.Betting, true, e.Until, e.Prices()
	if e.Betting > 1 { // Bet on Baccarat's second and third rounds open inside dealing
		return
	}
	t.round, t.phase, t.reopened = e.Round, PhaseBetting, false
	t.coup = baccarat.Coup{}
	t.sq, t.revealed = nil, 0
	t.interrupted, t.window, t.pending = false, false, t.pending[:0]
	t.prevReqs, t.reqs = t.reqs, t.prevReqs
	if len(t.reqs) > 0 {
		clear(t.reqs)
	}
	t.wagers = t.wagers[:0]
	t.clearTallies()
	for i := range t.riding { // RWS 3.9: pushes stay on the layout into this round
		w := t.riding[i]
		w.Round = t.round
		t.addWager(&w)
	}
	t.riding = t.riding[:0]
	if len(t.chips) > 0 {
		t.pruneChips()
	}
}

// openNext is open for the Open sent most: one that names no one, at a table where it acts
// in its natural role, of a game of one betting round. It opens the round as open would,
// its betting_opened event in opened, where nothing else is ever written (only what changes
// from round to round is set; setShortWays set the rest), and reports false, having
// changed nothing, for any other Open: Apply then sends it the whole way.
func (t *Table) openNext(c *Open) bool {
	n := &t.natural[CmdOpen]
	if t.closed || c.Role != RoleNone || c.Actor != "" || !n.ok || t.roundOpen() || t.paused || !t.shoe.active ||
		t.game.Rules.BettingRounds > 1 {
		return false
	}
	e := &t.opened[0]
	e.Seq, e.At, e.Round, e.Reason, e.Until = t.seq+1, c.At, t.round+1, c.Reason, c.Until
	t.seq = e.Seq
	t.onBettingOpened(e)
	return true
}

// closeNext is close for the Close sent most, one that names no one where it acts in its
// natural role, as openNext is open's: its betting_closed event in shut.
func (t *Table) closeNext(c *Close) bool {
	n := &t.natural[CmdClose]
	if t.closed || c.Role != RoleNone || c.Actor != "" || !n.ok || !t.betOpen || t.interrupted || t.cfg.ShoeToPlayer {
		return false
	}
	phase := t.phase
	if phase == PhaseBetting {
		phase = PhaseClosed
	}
	e := &t.shut[0]
	e.Seq, e.At, e.Round, e.Reason = t.seq+1, c.At, t.round, c.Reason
	e.Betting, e.Phase = t.betting, phase
	t.seq = e.Seq
	t.onBettingClosed()
	return true
}

// onBettingClosed applies a betting_closed event: no more bets.
func (t *Table) onBettingClosed() {
	t.betOpen, t.prices, t.window = false, nil, false
	if t.phase == PhaseBetting {
		t.phase = PhaseClosed
	}
}

// close is "No more bets" (MBS 3.2): no wager may be placed, increased or withdrawn after it
// (MBS 5.6, 5.7). For Bet on Baccarat it also closes the second and third betting rounds.
func (t *Table) close(h *Header, actor string, role Role) error {
	if !t.betOpen || t.interrupted {
		return badState("betting is not open")
	}
	e := t.event(EvBettingClosed, h, actor, role)
	e.Betting = t.betting
	e.Phase = t.phase
	if t.phase == PhaseBetting {
		e.Phase = PhaseClosed
	}
	t.emit(e)
	t.passShoeAtClose(h, actor, role)
	return nil
}

// setLimit sets a bet's minimum and maximum; it applies to wagers placed from now on.
func (t *Table) setLimit(c *SetLimit, actor string, role Role) error {
	b := t.game.Bet(c.Bet)
	if b == nil {
		return baccarat.Errorf(baccarat.CodeUnknownBet, "%s has no bet %q", t.game.Name, c.Bet)
	}
	l := Limit{Min: c.Min, Max: c.Max}
	if err := checkLimit(b, l, t.cfg.Currency); err != nil {
		return err
	}
	e := t.event(EvLimitChanged, &c.Header, actor, role)
	d := e.more()
	d.Setting, d.Bet, d.Limit = SettingBetLimit, c.Bet, &l
	t.emit(e)
	return nil
}

// setAreaLimit restricts the wagers per playing area below the game's maximum (Tiger 3.6.1).
func (t *Table) setAreaLimit(c *SetAreaLimit, actor string, role Role) error {
	most := t.game.Rules.MaxWagersPerArea
	if most == 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s has no limit of wagers per area", t.game.Name)
	}
	if c.Limit < 1 || c.Limit > most {
		return baccarat.Errorf(baccarat.CodeBadRequest, "wagers per area must be 1 to %d (Tiger 3.6)", most)
	}
	e := t.event(EvLimitChanged, &c.Header, actor, role)
	d := e.more()
	d.Setting, d.Count = SettingAreaLimit, c.Limit
	t.emit(e)
	return nil
}

// setDifferential sets the table differential limit (Tiger 5.18); 0 removes it.
func (t *Table) setDifferential(c *SetDifferential, actor string, role Role) error {
	if !t.game.Rules.TableDifferential {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s has no table differential", t.game.Name)
	}
	if c.Amount < 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "the table differential cannot be negative")
	}
	e := t.event(EvLimitChanged, &c.Header, actor, role)
	d := e.more()
	d.Setting, d.Amount = SettingDifferential, c.Amount
	t.emit(e)
	return nil
}
