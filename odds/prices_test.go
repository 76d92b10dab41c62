package odds

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// wantOdds is SPEC §3.5 done with big.Rat: floor to 0.01 of (1 − m − r)/p.
func wantOdds(win, refund *big.Rat, m Margin) baccarat.Odds {
	if win.Sign() == 0 {
		return 0
	}
	x := big.NewRat(int64(10000-m), 10000)
	x.Sub(x, refund)
	x.Quo(x, win)
	x.Mul(x, big.NewRat(100, 1))
	if x.Sign() <= 0 {
		return 0
	}
	return baccarat.Odds(new(big.Int).Quo(x.Num(), x.Denom()).Int64())
}

// Bet on Baccarat's three betting rounds (SPEC §3.5, BoB 3.1–3.3) priced from small shoes,
// against the brute force.
func TestPricesAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	margins := map[string]Margin{"tie": 1200, "big": 0}
	for i := 0; i < 3; i++ {
		shoe := smallShoe(rng, 9)
		for revealed := 0; revealed <= 2; revealed++ {
			t.Run(fmt.Sprintf("BoB 3.%d %s", revealed+1, baccarat.FormatCards(shoe, "")), func(t *testing.T) {
				rest := shoe[revealed:]
				bt := bruteCount(rest, shoe[:revealed], 6-revealed)
				prices, err := Prices(countsOf(rest, true), shoe[:revealed], games.BetOnBaccarat, margins)
				if err != nil {
					t.Fatal(err)
				}
				if len(prices) != len(games.BetOnBaccarat.Bets) {
					t.Fatalf("%d prices", len(prices))
				}
				for _, p := range prices {
					win, refund := bt.win(games.BetOnBaccarat.ID, p.Bet), bt.fraction(games.BetOnBaccarat.ID, p.Bet, codePush)
					m := marginFor(p.Bet, margins)
					if p.Win.Rat().Cmp(win) != 0 || p.Refund.Rat().Cmp(refund) != 0 {
						t.Errorf("%s: p %s r %s, brute force %s %s", p.Bet, p.Win, p.Refund, win.RatString(), refund.RatString())
					}
					want := wantOdds(win, refund, m)
					if p.Odds != want || p.Offered != (want >= 101) || p.Margin != m {
						t.Errorf("%s: odds %s offered %v margin %d, want %s (m %d)", p.Bet, p.Odds, p.Offered, p.Margin, want, m)
					}
				}
			})
		}
	}
}

func TestPricesNotOffered(t *testing.T) {
	tens := func() baccarat.Counts {
		var c baccarat.Counts
		for i := 0; i < 30; i++ {
			c.Add(baccarat.NewCard(baccarat.Ten, baccarat.Suit(i%4)))
		}
		return c
	}
	t.Run("SPEC §3.5 not offered when p = 0: Perfect Pair from one deck", func(t *testing.T) {
		prices, err := Prices(baccarat.NewCounts(1), nil, games.BetOnBaccarat, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prices {
			if p.Bet == "perfect_pair" && (p.Offered || p.Odds != 0 || !p.Win.IsZero()) {
				t.Errorf("%+v", p)
			}
		}
	})
	t.Run("SPEC §3.5 not offered below 1.01: Big when both hands must draw", func(t *testing.T) {
		c := tens()
		rev := []baccarat.Card{baccarat.MustParseCard("Tc"), baccarat.MustParseCard("Td")}
		_ = c.RemoveAll(rev)
		prices, err := Prices(c, rev, games.BetOnBaccarat, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range prices {
			switch p.Bet {
			case "big":
				if !p.Win.IsOne() || p.Offered || p.Odds != 97 {
					t.Errorf("big: %+v", p)
				}
			case "small", "player", "banker":
				if p.Offered {
					t.Errorf("%s offered: %+v", p.Bet, p)
				}
			case "tie":
				if !p.Win.IsOne() || p.Offered {
					t.Errorf("tie: %+v", p)
				}
			}
		}
	})
}

func TestPricesRefuseBadInput(t *testing.T) {
	c := baccarat.NewCounts(6)
	three := []baccarat.Card{1, 2, 3}
	if _, err := Prices(c, three, games.BetOnBaccarat, nil); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Errorf("three revealed cards: %v", err)
	}
	if _, err := Prices(c, nil, games.BetOnBaccarat, map[string]Margin{"tie": 10000}); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Errorf("a 100%% margin: %v", err)
	}
}

// The live table prices every betting round without allocating (the engine's rule: zero allocations in
// the inner loops, enforced here).
func TestPricesAllocate0(t *testing.T) {
	var p Pricer
	dst := make([]Price, 0, 16)
	for revealed := 0; revealed <= 2; revealed++ {
		rev := []baccarat.Card{baccarat.MustParseCard("7h"), baccarat.MustParseCard("Kd")}[:revealed]
		c := baccarat.NewCounts(6)
		_ = c.RemoveAll(rev)
		allocs := testing.AllocsPerRun(50, func() {
			var err error
			if dst, err = p.Prices(dst, &c, rev, games.BetOnBaccarat, DefaultMargins); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("round %d: %v allocations", revealed+1, allocs)
		}
		allocs = testing.AllocsPerRun(50, func() { dst, _ = PricesInto(dst, c, rev, games.BetOnBaccarat, nil) })
		if allocs != 0 {
			t.Errorf("PricesInto round %d: %v allocations", revealed+1, allocs)
		}
	}
}

func ExamplePrices() {
	counts := baccarat.NewCounts(6)
	revealed := []baccarat.Card{baccarat.MustParseCard("9h")} // the Player's first card: a Nine
	_ = counts.RemoveAll(revealed)
	prices, _ := Prices(counts, revealed, games.BetOnBaccarat, nil)
	for _, p := range prices {
		fmt.Printf("%-12s %6s  p=%.4f\n", p.Bet, p.Odds, p.Win.Float64())
	}
	// Output:
	// player         1.57  p=0.5595
	// banker         2.55  p=0.3442
	// tie            9.86  p=0.0963
	// player_pair   12.84  p=0.0740
	// banker_pair   12.84  p=0.0740
	// either_pair    6.66  p=0.1424
	// perfect_pair  29.78  p=0.0319
	// big            2.06  p=0.4719
	// small          1.84  p=0.5281
}
