package odds

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func long() bool { return os.Getenv("BACCARAT_LONG") == "1" }

func mustBig(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

// The perft of baccarat: the 8-deck ways published by every combinatorial analysis, compared
// as integers.
func TestEightDeckWays(t *testing.T) {
	a, err := Analyze(context.Background(), baccarat.NewCounts(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	ev := a.Events()
	for _, tc := range []struct {
		name string
		got  Fraction
		want string
	}{
		{"SPEC §7 Banker wins 2,292,252,566,437,888 ways", ev.BankerWin, "2292252566437888"},
		{"SPEC §7 Player wins 2,230,518,282,592,256 ways", ev.PlayerWin, "2230518282592256"},
		{"SPEC §7 Tie 475,627,426,473,216 ways", ev.Tie, "475627426473216"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got.Num().Cmp(mustBig(tc.want)) != 0 {
				t.Errorf("ways %s, want %s", tc.got.Num(), tc.want)
			}
			if tc.got.Den().Cmp(a.Total()) != 0 {
				t.Errorf("denominator %s, want the total %s", tc.got.Den(), a.Total())
			}
		})
	}
	t.Run("the ways sum to 416·415·414·413·412·411", func(t *testing.T) {
		want := big.NewInt(416 * 415 * 414 * 413 * 412 * 411)
		if a.Total().Cmp(want) != 0 {
			t.Errorf("total %s, want %s", a.Total(), want)
		}
		sum := new(big.Int).Add(ev.BankerWin.Num(), ev.PlayerWin.Num())
		if sum.Add(sum, ev.Tie.Num()).Cmp(want) != 0 {
			t.Errorf("ways sum to %s, want %s", sum, want)
		}
	})
}

// The fast counter against the plain math/big counter on real shoes: full shoes of 4 to 10
// decks and depleted ones, with 0, 1 and 2 cards revealed.
func TestCounterAgainstPlainCounter(t *testing.T) {
	type tc struct {
		name     string
		counts   baccarat.Counts
		revealed []baccarat.Card
	}
	cases := []tc{
		{"8 decks", baccarat.NewCounts(8), nil},
		{"6 decks, P1 7h", baccarat.NewCounts(6), []baccarat.Card{baccarat.MustParseCard("7h")}},
		{"4 decks, P1 Kd B1 5s", baccarat.NewCounts(4), []baccarat.Card{baccarat.MustParseCard("Kd"), baccarat.MustParseCard("5s")}},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	depleted := 2
	if long() {
		depleted = 20
		for d := 4; d <= 10; d++ {
			cases = append(cases, tc{fmt.Sprintf("%d decks", d), baccarat.NewCounts(d), nil})
		}
	}
	for i := 0; i < depleted; i++ {
		c := baccarat.NewCounts(6 + i%3)
		for j := 0; j < 20+rng.IntN(250); j++ {
			k := baccarat.Card(rng.IntN(52))
			_ = c.Remove(k)
		}
		var rev []baccarat.Card
		for len(rev) < i%3 {
			k := baccarat.Card(rng.IntN(52))
			if c.Remove(k) == nil {
				rev = append(rev, k)
			}
		}
		cases = append(cases, tc{fmt.Sprintf("depleted %d: %d cards, %d revealed", i, c.Total(), len(rev)), c, rev})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c counter
			c.setValues(&tc.counts)
			vals := make([]int, len(tc.revealed))
			for i, k := range tc.revealed {
				vals[i] = k.Value()
			}
			c.countCells(vals)
			cells, total, err := countCellsBig(context.Background(), c.n, c.N, vals)
			if err != nil {
				t.Fatal(err)
			}
			if total.Cmp(new(big.Int).SetUint64(c.t6.total)) != 0 {
				t.Fatalf("total %d, plain counter %s", c.t6.total, total)
			}
			for i := range cells {
				if !cells[i].IsUint64() || cells[i].Uint64() != c.t6.cells[i] {
					P, B, pd, bd := cellParts(i)
					t.Errorf("cell P%d B%d drew %v/%v: %d, plain counter %s", P, B, pd, bd, c.t6.cells[i], &cells[i])
				}
			}
		})
	}
}

// A shoe beyond 1625 cards overflows 64-bit 6-card counts: the math/big path must agree with
// itself (the ways add up) and be close to the 8-deck game.
func TestHugeShoeUsesBig(t *testing.T) {
	if testing.Short() {
		t.Skip("math/big count")
	}
	a, err := Analyze(context.Background(), baccarat.NewCounts(40), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.big == nil {
		t.Fatal("a 2080-card shoe counted in uint64")
	}
	ev := a.Events()
	sum := new(big.Rat).Add(ev.PlayerWin.Rat(), ev.BankerWin.Rat())
	if sum.Add(sum, ev.Tie.Rat()).Cmp(big.NewRat(1, 1)) != 0 {
		t.Errorf("P + B + T = %s", sum.RatString())
	}
	if _, _, ok := ev.BankerWin.Uint64(); ok {
		t.Error("ways of a 2080-card shoe fit in uint64?")
	}
	t.Run("on the math/big path the ways are counts, not reduced: Banker + Player + Tie = 2080·2079·…·2075", func(t *testing.T) {
		want := big.NewInt(1)
		for n := int64(2080); n > 2074; n-- {
			want.Mul(want, big.NewInt(n))
		}
		if a.Total().Cmp(want) != 0 {
			t.Fatalf("total %s, want %s", a.Total(), want)
		}
		for _, sum := range [][]Fraction{{ev.BankerWin, ev.PlayerWin, ev.Tie}, {ev.Cards4, ev.Cards5, ev.Cards6}} {
			got := new(big.Int)
			for _, f := range sum {
				got.Add(got, f.Num())
				if f.Den().Cmp(want) != 0 {
					t.Errorf("denominator %s, want the total %s", f.Den(), want)
				}
			}
			if got.Cmp(want) != 0 {
				t.Errorf("ways sum to %s, want %s", got, want)
			}
		}
	})
	if b := ev.BankerWin.Float64(); b < 0.4584 || b > 0.4589 {
		t.Errorf("Banker wins %.6f from 40 decks", b)
	}
	s := a.Sheet(games.MBSTiger, nil)
	if e := s.Bet("big_tiger").HouseEdge; e < 0.14 || e > 0.17 {
		t.Errorf("Big Tiger edge %.5f from 40 decks", e)
	}
	prices, err := Prices(baccarat.NewCounts(40), nil, games.BetOnBaccarat, nil)
	if err != nil || len(prices) != 9 {
		t.Fatalf("%d prices from 40 decks: %v", len(prices), err)
	}
	bob := a.Sheet(games.BetOnBaccarat, nil)
	for i, p := range prices {
		if want := bob.Bets[i].Price; want == nil || p.Odds != want.Odds || p.Win.Cmp(want.Win) != 0 {
			t.Errorf("%s: %+v, sheet %+v", p.Bet, p, want)
		}
	}
}

func TestAnalyzeRefusesBadInput(t *testing.T) {
	five, _ := baccarat.NewRankCounts([13]int{5})
	for _, tc := range []struct {
		name     string
		counts   baccarat.Counts
		revealed []baccarat.Card
		code     baccarat.Code
	}{
		{"fewer than 6 cards", five, nil, baccarat.CodeBadShoe},
		{"three cards revealed", baccarat.NewCounts(8), []baccarat.Card{1, 2, 3}, baccarat.CodeBadRequest},
		{"a revealed card that is not a card", baccarat.NewCounts(8), []baccarat.Card{60}, baccarat.CodeBadCard},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Analyze(context.Background(), tc.counts, tc.revealed)
			if baccarat.ErrorCode(err) != tc.code {
				t.Errorf("error %v, want code %s", err, tc.code)
			}
		})
	}
}

// The counter's inner loops allocate nothing: the live Bet on Baccarat table prices every
// betting round through them.
func TestCounterAllocates0(t *testing.T) {
	counts := baccarat.NewCounts(8)
	var c counter
	for _, vals := range [][]int{nil, {7}, {7, 0}, {7, 0, 3}} {
		allocs := testing.AllocsPerRun(20, func() {
			c.setValues(&counts)
			c.countCells(vals)
			pc := newPairComp(&counts)
			c.t6.pairTotal = countPairs(&pc, []baccarat.Card{1, 2, 3}[:len(vals)], &c.t6.pairs)
		})
		if allocs != 0 {
			t.Errorf("%d revealed: %v allocations per count", len(vals), allocs)
		}
	}
}
