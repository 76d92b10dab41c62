package table

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// The wager refusals of SPEC §4, each with the params that say it in any language: a page
// shows "the maximum on Banker is 1,000.00; you have 500.00 on it" from the code and its
// params, formatted for its reader, not from the English message (web/API.md, "Errors").
// Amounts are minor units beside the table's currency, bets are ids. They are built here,
// apart from place, because they run only when a wager is refused: place's way through for
// a wager taken neither builds a map nor formats an amount.

// refuseWith is refuse with the refusal's params.
func refuseWith(code baccarat.Code, params baccarat.Params, format string, args ...any) error {
	return baccarat.Refuse(code, params, format, args...)
}

// amounts are params naming money, in the table's currency.
func (t *Table) amounts(p baccarat.Params) baccarat.Params { return p.Money(t.cfg.Currency) }

// unknownBet: the game has no bet by the id sent.
func (t *Table) unknownBet(c *Place) error {
	return refuseWith(baccarat.CodeUnknownBet, baccarat.Params{"bet": c.Bet}, "%s has no bet %q", t.game.Name, c.Bet)
}

// notOffered: a bet the game has but does not take now (a Dragon bet after a session's
// first hand, a Bet on Baccarat bet not priced in this betting round).
func notOffered(b *games.Bet, format string, args ...any) error {
	return refuseWith(baccarat.CodeBetNotOffered, baccarat.Params{"bet": b.ID}, format, args...)
}

// oddsChanged: the decimal odds sent are not those on offer now.
func oddsChanged(b *games.Bet, now, sent baccarat.Odds) error {
	return refuseWith(baccarat.CodeOddsChanged, baccarat.Params{"bet": b.ID, "odds": now.String(), "sent": sent.String()},
		"the odds of %s are now %s (you sent %s)", b.Name, now, sent)
}

// belowMinimum, aboveMaximum: a stake outside the bet's limits. have is what the party
// already has on the spot, 0 for none.
func (t *Table) belowMinimum(p *placement, min baccarat.Money) error {
	return refuseWith(baccarat.CodeBelowMinimum, t.amounts(baccarat.Params{"bet": p.b.ID, "min": min, "stake": p.c.Stake}),
		"the minimum on %s is %s", p.b.Name, t.money(min))
}

func (t *Table) aboveMaximum(p *placement, max baccarat.Money) error {
	params := t.amounts(baccarat.Params{"bet": p.b.ID, "max": max, "have": p.have, "stake": p.c.Stake})
	if p.have == 0 {
		return refuseWith(baccarat.CodeAboveMaximum, params, "the maximum on %s is %s", p.b.Name, t.money(max))
	}
	return refuseWith(baccarat.CodeAboveMaximum, params, "the maximum on %s is %s; you have %s on it", p.b.Name, t.money(max), t.money(p.have))
}

// insufficientFunds: a stake over what the player has.
func (t *Table) insufficientFunds(c *Place) error {
	return refuseWith(baccarat.CodeInsufficientFunds, t.amounts(baccarat.Params{"stake": c.Stake, "available": c.Available}),
		"a stake of %s is more than the %s available", t.money(c.Stake), t.money(c.Available))
}

// bothSides: a main bet on the side opposite one the party holds (RWS 3.3). side is the
// side they hold.
func bothSides(side baccarat.Winner) error {
	return refuseWith(baccarat.CodeBothSides, baccarat.Params{"side": side.String()},
		"you hold %s this round: Player or Banker, never both (RWS 3.3)", side)
}

// needsMain: a side bet with no main bet beside it (RWS 3.4).
func needsMain(b *games.Bet) error {
	return refuseWith(baccarat.CodeSideBetNeedsMain, baccarat.Params{"bet": b.ID},
		"place Player or Banker first: %s only goes beside a main wager (RWS 3.4)", b.Name)
}

// areaFull: the playing area holds the most wagers it may (Tiger 3.6).
func (t *Table) areaFull() error {
	return refuseWith(baccarat.CodeAreaFull, baccarat.Params{"max": t.maxArea},
		"this playing area already holds %d wagers (Tiger 3.6)", t.maxArea)
}

// overDifferential: the wager would take the difference between Player and Banker stakes
// past the table's limit (Tiger 5.18).
func (t *Table) overDifferential(after baccarat.Money) error {
	return refuseWith(baccarat.CodeTableDifferential, t.amounts(baccarat.Params{"after": after, "limit": t.differential}),
		"it would take the table differential to %s, over the limit of %s (Tiger 5.18)", t.money(after), t.money(t.differential))
}
