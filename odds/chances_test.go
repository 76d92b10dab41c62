package odds

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// need is how many more cards a coup in progress may still need (Chances' convention).
func need(revealed []baccarat.Card) int {
	var co baccarat.Coup
	for _, k := range revealed {
		_ = co.Add(k)
	}
	switch {
	case co.Done():
		return 0
	case co.Len() < 4:
		return 6 - co.Len()
	case co.Next() == baccarat.P3:
		return 2
	}
	return 1
}

// Every prefix of a coup, 0 to 6 cards, against the brute force: mid-coup states with the
// Player to draw, the Banker to draw, and complete coups.
func TestChancesAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 4; i++ {
		shoe := smallShoe(rng, 10)
		r, used, err := baccarat.Deal(shoe)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n <= used; n++ {
			revealed, rest := shoe[:n], shoe[n:]
			t.Run(fmt.Sprintf("%s after %d cards", r, n), func(t *testing.T) {
				got, err := Chances(countsOf(rest, true), revealed, games.MBSTiger)
				if err != nil {
					t.Fatal(err)
				}
				got2, err := Chances(countsOf(rest, true), revealed, games.BetOnBaccarat)
				if err != nil {
					t.Fatal(err)
				}
				bt := bruteCount(rest, revealed, need(revealed))
				check := func(game string, cs []BetChance) {
					for _, c := range cs {
						for code, f := range map[int]Fraction{codePush: c.Push, codeLose: c.Lose} {
							if want := bt.fraction(game, c.Bet, code); f.Rat().Cmp(want) != 0 {
								t.Errorf("%s/%s code %d: %s, brute force %s", game, c.Bet, code, f, want.RatString())
							}
						}
						if want := bt.win(game, c.Bet); c.Win.Rat().Cmp(want) != 0 {
							t.Errorf("%s/%s win: %s, brute force %s", game, c.Bet, c.Win, want.RatString())
						}
					}
				}
				check(games.MBSTiger.ID, got)
				check(games.BetOnBaccarat.ID, got2)
			})
		}
	}
}

func TestChancesCertainty(t *testing.T) {
	cards := func(s string) []baccarat.Card {
		c, err := baccarat.ParseCards(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	shoe := baccarat.NewCounts(8)
	for _, tc := range []struct {
		name     string
		revealed string
		bet      string
		certain  bool
	}{
		{"Tiger 5.17 complete coup: every result certain", "9h Kd 9c 5s", "tiger", true},
		{"Tiger 5.17 Tiger Pair decided by four cards", "7h 7d 2c Ks", "tiger_pair", true},
		{"Tiger 5.17 Player to draw: Player not yet decided", "3h Kd 2c Ks", "player", false},
		{"Tiger 5.17 Banker to draw on 0 after the Player stood", "6h Kd Tc Ks", "banker", false},
		{"Tiger 5.17 two cards: Tiger Pair undecided", "7h 7d", "tiger_pair", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rev := cards(tc.revealed)
			c := shoe
			if err := c.RemoveAll(rev); err != nil {
				t.Fatal(err)
			}
			cs, err := Chances(c, rev, games.MBSTiger)
			if err != nil {
				t.Fatal(err)
			}
			for _, bc := range cs {
				sum := new(big.Rat).Add(bc.Win.Rat(), bc.Push.Rat())
				if sum.Add(sum, bc.Lose.Rat()).Cmp(big.NewRat(1, 1)) != 0 {
					t.Errorf("%s: probabilities sum to %s", bc.Bet, sum.RatString())
				}
				if bc.Bet == tc.bet && bc.Certain() != tc.certain {
					t.Errorf("%s certain = %v (win %s push %s lose %s)", bc.Bet, bc.Certain(), bc.Win, bc.Push, bc.Lose)
				}
			}
		})
	}
}

func TestChancesRefuse(t *testing.T) {
	few, _ := baccarat.NewRankCounts([13]int{1})
	cards, _ := baccarat.ParseCards("3h Kd 2c Ks")
	if _, err := Chances(few, cards, games.MBSTiger); baccarat.ErrorCode(err) != baccarat.CodeBadShoe {
		t.Errorf("one card left and the coup may need two: %v", err)
	}
	done, _ := baccarat.ParseCards("9h Kd 9c 5s 3d")
	if _, err := Chances(baccarat.NewCounts(8), done, games.MBSTiger); baccarat.ErrorCode(err) != baccarat.CodeExtraCard {
		t.Errorf("a fifth card after a natural: %v", err)
	}
}

func ExampleChances() {
	// Tiger 5.17: the round is interrupted after four cards. The Player (5) must draw, the
	// Banker holds 6; neither hand paired, so Tiger Pair is already lost.
	revealed, _ := baccarat.ParseCards("3h 6d 2c Ks")
	counts := baccarat.NewCounts(8)
	_ = counts.RemoveAll(revealed)
	cs, _ := Chances(counts, revealed, games.MBSTiger)
	for _, c := range cs {
		fmt.Printf("%-11s win %.4f certain %v\n", c.Bet, c.Win.Float64(), c.Certain())
	}
	// Output:
	// player      win 0.2461 certain false
	// banker      win 0.6645 certain false
	// tie         win 0.0894 certain false
	// tiger       win 0.5885 certain false
	// small_tiger win 0.5413 certain false
	// big_tiger   win 0.0473 certain false
	// tiger_tie   win 0.0777 certain false
	// tiger_pair  win 0.0000 certain true
}
