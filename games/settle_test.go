package games

import (
	"testing"

	"github.com/tablehouse/baccarat"
)

// TestEndingNetIsTheRuleWrittenPlainly: Net, written to inline into the table's settling
// loop, is compared with SPEC §4's rule written plainly over every ending of every bet of
// every game, stakes and odds at the edges of their ranges.
func TestEndingNetIsTheRuleWrittenPlainly(t *testing.T) {
	stakes := []baccarat.Money{-1, 0, 1, 7, 1001, 123_456_789, baccarat.MaxAmount}
	odds := []baccarat.Odds{0, 99, 100, 101, 257, baccarat.MaxOdds}
	plain := func(b *Bet, o Outcome, tier int, stake baccarat.Money, at baccarat.Odds) baccarat.Money {
		switch {
		case o == Win && b.Decimal:
			return at.Net(stake)
		case o == Win:
			return b.Tiers[tier].Pays.Net(stake)
		case o == Lose:
			return -stake
		}
		return 0
	}
	n := 0
	for _, g := range All() {
		for _, b := range g.Bets {
			tiers := max(len(b.Tiers), 1)
			for o := Lose; o <= Void; o++ {
				for tier := range tiers {
					if o != Win && tier > 0 {
						break
					}
					e := b.Ending(o, tier)
					for _, s := range stakes {
						for _, at := range odds {
							n++
							if got, want := e.Net(s, at), plain(b, o, tier, s, at); got != want {
								t.Fatalf("%s %s %s tier %d, stake %d at %s: Net %d, the rule %d", g.ID, b.ID, o, tier, s, at, got, want)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d endings, stakes and odds compared", n)
}
