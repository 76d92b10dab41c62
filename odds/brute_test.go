package odds

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// The slow twin: every ordering of a small shoe's physical cards, dealt through the rules
// engine (baccarat.Coup) and settled by every bet's own Resolve. Orderings are walked card by
// card until the coup is complete; a complete coup after u of the L counted cards stands for
// the (N−u)·(N−u−1)… orderings of the cards after it, which is the same as walking every
// ordered L-card prefix one by one, only faster.

// bruteTally is what the brute force counts: per game and bet, ways by outcome code; per
// cell (for Events) ways; and the total.
type bruteTally struct {
	ways  [][][]big.Int // [game][bet][code]
	index map[string][2]int
	total *big.Int
	L     int
}

var allGames = games.All()

func newBruteTally(L int) *bruteTally {
	bt := &bruteTally{index: map[string][2]int{}, total: new(big.Int), L: L}
	for gi, g := range allGames {
		var bets [][]big.Int
		for bi, b := range g.CoupBets() {
			bets = append(bets, make([]big.Int, 2+len(b.Tiers)))
			bt.index[g.ID+"/"+b.ID] = [2]int{gi, bi}
		}
		bt.ways = append(bt.ways, bets)
	}
	return bt
}

func (bt *bruteTally) bet(game, bet string) []big.Int {
	i := bt.index[game+"/"+bet]
	return bt.ways[i[0]][i[1]]
}

// bruteCount walks every ordering of shoe's cards after the revealed ones, counting L more
// cards (the convention: 6 − len(revealed) for a coup from its start).
func bruteCount(shoe, revealed []baccarat.Card, L int) *bruteTally {
	bt := newBruteTally(L)
	var co baccarat.Coup
	for _, k := range revealed {
		if err := co.Add(k); err != nil {
			panic(err)
		}
	}
	used := make([]bool, len(shoe))
	bt.walk(shoe, used, co, 0)
	return bt
}

func (bt *bruteTally) walk(shoe []baccarat.Card, used []bool, co baccarat.Coup, dealt int) {
	if co.Done() {
		w := uint64(1)
		for i := dealt; i < bt.L; i++ {
			w *= uint64(len(shoe) - i)
		}
		bt.record(co.Result(), new(big.Int).SetUint64(w))
		return
	}
	if dealt == bt.L {
		panic("the coup needs more cards than the convention counts")
	}
	for i, k := range shoe {
		if used[i] {
			continue
		}
		used[i] = true
		next := co
		if err := next.Add(k); err != nil {
			panic(err)
		}
		bt.walk(shoe, used, next, dealt+1)
		used[i] = false
	}
}

var allCoupBets = func() (bets [][]*games.Bet) {
	for _, g := range allGames {
		bets = append(bets, g.CoupBets())
	}
	return bets
}()

func (bt *bruteTally) record(r baccarat.Result, w *big.Int) {
	bt.total.Add(bt.total, w)
	for gi, bets := range allCoupBets {
		for bi, b := range bets {
			o, tier := b.Resolve(&r)
			code := codeLose
			switch o {
			case games.Push:
				code = codePush
			case games.Win:
				code = codeWin + tier
			}
			ways := &bt.ways[gi][bi][code]
			ways.Add(ways, w)
		}
	}
}

// fraction is the brute-force probability of code for a bet, as a reduced big.Rat.
func (bt *bruteTally) fraction(game, bet string, code int) *big.Rat {
	return new(big.Rat).SetFrac(&bt.bet(game, bet)[code], bt.total)
}

// win is the brute-force probability that a bet wins on any tier.
func (bt *bruteTally) win(game, bet string) *big.Rat {
	ways := bt.bet(game, bet)
	s := new(big.Int)
	for i := codeWin; i < len(ways); i++ {
		s.Add(s, &ways[i])
	}
	return new(big.Rat).SetFrac(s, bt.total)
}

// smallShoe draws a random small shoe: n cards from a few ranks and suits, so that pairs,
// identical pairs, naturals and every third-card case all occur.
func smallShoe(rng *rand.Rand, n int) []baccarat.Card {
	ranks := rng.Perm(13)[:3+rng.IntN(4)]
	suits := 1 + rng.IntN(3)
	shoe := make([]baccarat.Card, n)
	for i := range shoe {
		shoe[i] = baccarat.NewCard(baccarat.Rank(ranks[rng.IntN(len(ranks))]+1), baccarat.Suit(rng.IntN(suits)))
	}
	return shoe
}

func countsOf(cards []baccarat.Card, suited bool) baccarat.Counts {
	if !suited {
		var ranks [13]int
		for _, k := range cards {
			ranks[k.Rank()-1]++
		}
		c, err := baccarat.NewRankCounts(ranks)
		if err != nil {
			panic(err)
		}
		return c
	}
	var c baccarat.Counts // empty; built card by card
	for _, k := range cards {
		c.Add(k)
	}
	return c
}

// checkSheetAgainstBrute compares every bet of every game, exactly.
func checkSheetAgainstBrute(t *testing.T, a *Analysis, bt *bruteTally) {
	t.Helper()
	for _, g := range games.All() {
		s := a.Sheet(g, nil)
		for _, bs := range s.Bets {
			if bs.Err != nil {
				if a.Suited() {
					t.Errorf("%s/%s: %v", g.ID, bs.Bet.ID, bs.Err)
				}
				continue
			}
			check := func(what string, got Fraction, want *big.Rat) {
				if got.Rat().Cmp(want) != 0 {
					t.Errorf("%s/%s %s = %s, brute force %s", g.ID, bs.Bet.ID, what, got, want.RatString())
				}
			}
			check("push", bs.Push, bt.fraction(g.ID, bs.Bet.ID, codePush))
			check("lose", bs.Lose, bt.fraction(g.ID, bs.Bet.ID, codeLose))
			for i, tier := range bs.Tiers {
				check(fmt.Sprintf("tier %d", i), tier.Probability, bt.fraction(g.ID, bs.Bet.ID, codeWin+i))
			}
		}
	}
}

func TestCounterAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shoes := 6
	if testing.Short() {
		shoes = 2
	}
	for i := 0; i < shoes; i++ {
		shoe := smallShoe(rng, 8+i%3)
		for revealed := 0; revealed <= 2; revealed++ {
			for _, suited := range []bool{true, false} {
				name := fmt.Sprintf("shoe %d %s revealed %d suited %v", i, baccarat.FormatCards(shoe, ""), revealed, suited)
				t.Run(name, func(t *testing.T) {
					rest := shoe[revealed:]
					bt := bruteCount(rest, shoe[:revealed], 6-revealed)
					a, err := Analyze(context.Background(), countsOf(rest, suited), shoe[:revealed])
					if err != nil {
						t.Fatal(err)
					}
					if a.Total().Cmp(bt.total) != 0 {
						t.Fatalf("total %s, brute force %s", a.Total(), bt.total)
					}
					checkSheetAgainstBrute(t, a, bt)
				})
			}
		}
	}
}
