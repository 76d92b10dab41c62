package protect

import (
	"math/big"
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// permutations calls fn with every distinct ordering of cards (sorted first), in
// lexicographic order.
func permutations(cards []baccarat.Card, fn func([]baccarat.Card)) {
	p := slices.Clone(cards)
	slices.Sort(p)
	for {
		fn(p)
		i := len(p) - 2
		for i >= 0 && p[i] >= p[i+1] {
			i--
		}
		if i < 0 {
			return
		}
		j := len(p) - 1
		for p[j] <= p[i] {
			j--
		}
		p[i], p[j] = p[j], p[i]
		slices.Reverse(p[i+1:])
	}
}

// netScale is a common denominator of every pay ratio of the games (1:2, 19:20, n:1).
const netScale = 20

// net is a bet's exact net result on a coup, in units of 1/netScale of the stake, from its own
// Resolve and pay table: nothing from odds.
func net(b *games.Bet, r *baccarat.Result) int64 {
	o, tier := b.Resolve(r)
	switch o {
	case games.Win:
		p := b.Tiers[tier].Pays
		if netScale%p.Den != 0 {
			panic("a pay ratio netScale does not divide")
		}
		return p.Num * (netScale / p.Den)
	case games.Lose:
		return -netScale
	}
	return 0
}

// bruteEV gives the sign of every bet's exact expectation from the cards left: of the sum of
// its net results over every distinct ordering of them, each dealt by the rules engine.
type bruteEV struct {
	bets []*games.Bet
	memo map[string][]int64
}

func (e *bruteEV) of(cards []baccarat.Card) []int64 {
	key := slices.Clone(cards)
	slices.Sort(key)
	if sums, ok := e.memo[baccarat.FormatCards(key, "")]; ok {
		return sums
	}
	sums := make([]int64, len(e.bets))
	permutations(cards, func(p []baccarat.Card) {
		r, _, err := baccarat.Deal(p)
		if err != nil {
			panic(err)
		}
		for i, b := range e.bets {
			sums[i] += net(b, &r)
		}
	})
	e.memo[baccarat.FormatCards(key, "")] = sums
	return sums
}

// The perfect counter's win per shoe, checked by brute force on a tiny shoe: every distinct
// ordering of its ten cards is dealt to the cut card by the rules engine; before each hand
// each bet's exact expectation is found by dealing every ordering of the cards left; where it
// is positive the counter bets one unit and wins or loses what the coup really pays. The
// mean of that over every ordering is exactly the expected win per shoe the report gives.
// BACCARAT_LONG=1 adds larger shoes and other games.
func TestProtectPerfectCounterBruteForceOnATinyShoe(t *testing.T) {
	type bruteCase struct {
		shoe string
		g    *games.Game
	}
	cases := []bruteCase{{"9d 9d 9d 9d 6h 6h 6h Ks Ks Ks", games.MBSTiger}}
	if long() {
		cases = append(cases, bruteCase{"Ks Ks Ks Ks 7c 7c 7c 3d 3d 6h", games.MBSTiger},
			bruteCase{"Ks Ks Ks 5c 5c 5c 9d 9d 6h 6h", games.MBSTiger},
			bruteCase{"Qs Qs Qs 4c 4c Ah 7d 7d 6h 6h", games.RWSNoCommission},
			bruteCase{"Ah Ah Ah 8c 8c 8c 9d 9d Ts Ts", games.PuntoBanco})
	}
	for _, tc := range cases {
		t.Run(tc.g.ID+" "+tc.shoe, func(t *testing.T) { bruteForce(t, tc.shoe, tc.g) })
	}
}

func bruteForce(t *testing.T, cards string, g *games.Game) {
	shoe, err := baccarat.ParseCards(cards)
	if err != nil {
		t.Fatal(err)
	}
	brute := &bruteEV{bets: g.CoupBets(), memo: map[string][]int64{}}
	nb := len(brute.bets)
	win := make([]int64, nb) // in 1/netScale of a unit
	positive := make([]int, nb)
	var orders [][]baccarat.Card
	hands := 0
	permutations(shoe, func(p []baccarat.Card) {
		orders = append(orders, slices.Clone(p))
		for pos := 0; len(p)-pos > MinCutCard; hands++ {
			ev := brute.of(p[pos:])
			r, used, err := baccarat.Deal(p[pos:])
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range brute.bets {
				if ev[i] > 0 {
					positive[i]++
					win[i] += net(b, &r)
				}
			}
			pos += used
		}
	})
	rep := mustRun(t, Config{Game: g, Decks: g.Decks.Min, CutCards: []int{MinCutCard}, Orders: Orders(orders)})
	c := rep.Cuts[0]
	if c.Shoes != len(orders) || c.Hands != uint64(hands) {
		t.Fatalf("%d shoes, %d hands; brute force %d, %d", c.Shoes, c.Hands, len(orders), hands)
	}
	bets := 0
	for i, b := range c.Bets {
		exact := big.NewRat(win[i], netScale*int64(len(orders)))
		want, _ := exact.Float64()
		if d := b.PerfectWinPerShoe - want; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: %.15f per shoe, brute force %.15f (%s)", b.Bet, b.PerfectWinPerShoe, want, exact.RatString())
		}
		if got := int(b.PositiveShare*float64(hands) + 0.5); got != positive[i] {
			t.Errorf("%s: positive on %d hands, brute force %d", b.Bet, got, positive[i])
		}
		bets += positive[i]
	}
	if bets == 0 {
		t.Error("no bet is ever positive: the shoe checks nothing")
	}
	t.Logf("%d orderings, %d hands, positive hands by bet %v", len(orders), hands, positive)
}
