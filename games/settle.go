package games

import "github.com/tablehouse/baccarat"

// Settlement is a wager's end: its outcome, the tier it won on (−1 unless it won), what that
// tier pays, and Net, the change to its owner's money: the amount won, −stake on a loss, 0 on
// a push or void.
type Settlement struct {
	Outcome Outcome
	Tier    int
	Pays    baccarat.Ratio
	Net     baccarat.Money
}

// Returned is what goes back to the owner: stake plus winnings, the stake on a push or void,
// nothing on a loss.
func (s Settlement) Returned(stake baccarat.Money) baccarat.Money { return stake + s.Net }

// Settle decides a fixed-odds wager on one coup. Winnings are stake·Num/Den rounded down to
// the minor unit (SPEC §4).
func Settle(b *Bet, stake baccarat.Money, r *baccarat.Result) Settlement {
	o, tier := b.Resolve(r)
	switch o {
	case Win:
		pays := b.Tiers[tier].Pays
		return Settlement{Outcome: Win, Tier: tier, Pays: pays, Net: pays.Net(stake)}
	case Lose:
		return Settlement{Outcome: Lose, Tier: -1, Net: -stake}
	}
	return Settlement{Outcome: o, Tier: -1}
}

// SettleAtOdds decides a Bet on Baccarat wager at the decimal odds it was locked at
// (SPEC §3.5): a win returns stake·odds, a Tie returns Player and Banker stakes.
func SettleAtOdds(b *Bet, stake baccarat.Money, odds baccarat.Odds, r *baccarat.Result) Settlement {
	o, tier := b.Resolve(r)
	switch o {
	case Win:
		return Settlement{Outcome: Win, Tier: tier, Net: odds.Net(stake)}
	case Lose:
		return Settlement{Outcome: Lose, Tier: -1, Net: -stake}
	}
	return Settlement{Outcome: o, Tier: -1}
}

// VoidSettlement is the settlement of every wager of a void round or cancelled draw: the
// stake is returned (SPEC §4, BoB 5.1.4).
func VoidSettlement() Settlement { return Settlement{Outcome: Void, Tier: -1} }
