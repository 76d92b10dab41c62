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

// Ending is how a bet ends on a coup whatever is staked on it: what every wager on the bet
// shares. It is split from the money (Net) so that a table decides each bet once per coup,
// or once for good for each way it can end, and then settles wager after wager by Net
// alone: the settlement rules live here, for the table's fast path and for Settle alike.
type Ending struct {
	Outcome Outcome
	// atOdds: a win paid at each wager's own decimal odds (Bet on Baccarat).
	atOdds bool
	Tier   int // the tier it won on; −1 unless it won
	// pays is what a win pays a unit staked: its tier's ratio; for a win at odds, −100/100,
	// to which Net adds the odds. Zero, which pays nothing, unless the bet won.
	pays baccarat.Ratio
	// The fields are ordered to make four words, which the compiler keeps in registers
	// when Net is inlined into the table's settling loop, instead of copying to the stack.
}

// Ending is how b ends when it resolves to outcome o on tier (Bet.Resolve): a fixed-odds win
// pays its tier's ratio, a Bet on Baccarat one pays at the odds each wager was locked at.
func (b *Bet) Ending(o Outcome, tier int) Ending {
	switch {
	case o != Win:
		return Ending{Outcome: o, Tier: -1}
	case b.Decimal:
		return atOdds(tier)
	}
	return Ending{Outcome: Win, Tier: tier, pays: b.Tiers[tier].Pays}
}

// atOdds is a win paid at each wager's decimal odds: stake·odds − stake is the ratio
// (odds − 100)/100 of the stake, odds being in hundredths (baccarat.Odds.Net).
func atOdds(tier int) Ending {
	return Ending{Outcome: Win, Tier: tier, pays: baccarat.Ratio{Num: -100, Den: 100}, atOdds: true}
}

// Pays is the ratio a fixed-odds win pays; zero for any other ending.
func (e Ending) Pays() baccarat.Ratio {
	if e.atOdds {
		return baccarat.Ratio{}
	}
	return e.pays
}

// Net is the change an ending makes to the money of a wager of stake locked at odds: what it
// won (Won) on a win, −stake on a loss, 0 on a push or void.
func (e Ending) Net(stake baccarat.Money, odds baccarat.Odds) baccarat.Money {
	switch e.Outcome {
	case Win:
		return e.Won(stake, odds)
	case Lose:
		return -stake
	}
	return 0
}

// Won is what a winning wager of stake locked at odds wins: its tier's ratio of the stake,
// rounded down to the minor unit (SPEC §4), or, at a Bet on Baccarat win, stake·odds − stake
// (SPEC §3.5). The table calls it for every winning wager it settles (table/settle.go), so it
// stays small enough to inline (go build -gcflags=-m ./table says "inlining call to
// games.Ending.Won").
func (e Ending) Won(stake baccarat.Money, odds baccarat.Odds) baccarat.Money {
	if e.atOdds {
		e.pays.Num += int64(odds) // (odds − 100)/100: one ratio, so Won inlines
	}
	return e.pays.Net(stake)
}

// settle is the settlement of a wager of stake at odds that ends as e.
func (e Ending) settle(stake baccarat.Money, odds baccarat.Odds) Settlement {
	return Settlement{Outcome: e.Outcome, Tier: e.Tier, Pays: e.Pays(), Net: e.Net(stake, odds)}
}

// Settle decides a fixed-odds wager on one coup. Winnings are stake·Num/Den rounded down to
// the minor unit (SPEC §4).
func Settle(b *Bet, stake baccarat.Money, r *baccarat.Result) Settlement {
	return b.Ending(b.Resolve(r)).settle(stake, 0)
}

// SettleAtOdds decides a Bet on Baccarat wager at the decimal odds it was locked at
// (SPEC §3.5): a win returns stake·odds, a Tie returns Player and Banker stakes.
func SettleAtOdds(b *Bet, stake baccarat.Money, odds baccarat.Odds, r *baccarat.Result) Settlement {
	e := b.Ending(b.Resolve(r))
	if e.Outcome == Win {
		e = atOdds(e.Tier)
	}
	return e.settle(stake, odds)
}

// VoidSettlement is the settlement of every wager of a void round or cancelled draw: the
// stake is returned (SPEC §4, BoB 5.1.4).
func VoidSettlement() Settlement { return Settlement{Outcome: Void, Tier: -1} }
