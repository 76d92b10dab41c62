package odds

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// bruteDragon settles the bet on every sequence of results of a session of n hands, weighting
// each by the product of its hands' exact probabilities: the slow twin of the chain.
func bruteDragon(b *games.Bet, ev Events, n int) (tiers [3]*big.Rat, lose *big.Rat) {
	p := map[baccarat.Winner]*big.Rat{
		baccarat.BankerWins: ev.BankerWin.Rat(), baccarat.PlayerWins: ev.PlayerWin.Rat(), baccarat.Tie: ev.Tie.Rat(),
	}
	for i := range tiers {
		tiers[i] = new(big.Rat)
	}
	lose = new(big.Rat)
	seq := make([]baccarat.Winner, n)
	var walk func(i int, w *big.Rat)
	walk = func(i int, w *big.Rat) {
		if i == n {
			s := games.SettleDragon(b, 100, seq)
			if s.Outcome == games.Win {
				tiers[s.Tier].Add(tiers[s.Tier], w)
			} else {
				lose.Add(lose, w)
			}
			return
		}
		for _, r := range []baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins, baccarat.Tie} {
			seq[i] = r
			walk(i+1, new(big.Rat).Mul(w, p[r]))
		}
	}
	walk(0, big.NewRat(1, 1))
	return tiers, lose
}

func TestDragonChainAgainstBruteForce(t *testing.T) {
	a := eightDecks(t)
	lengths := []int{1, 5, 6, 7, 8}
	if long() {
		lengths = append(lengths, 9, 10, 11)
	}
	for _, b := range games.MBSDragon.DragonBets() {
		for _, n := range lengths {
			t.Run(fmt.Sprintf("Dragon 3.11 %s over %d hands", b.ID, n), func(t *testing.T) {
				ds, err := a.Dragon(context.Background(), b, n)
				if err != nil {
					t.Fatal(err)
				}
				tiers, lose := bruteDragon(b, a.Events(), n)
				for i := range tiers {
					if got := ds.Tiers[i].Probability.Rat(); got.Cmp(tiers[i]) != 0 {
						t.Errorf("%s: %s, brute force %s", ds.Tiers[i].Event, got.RatString(), tiers[i].RatString())
					}
				}
				if ds.Lose.Rat().Cmp(lose) != 0 {
					t.Errorf("lose %s, brute force %s", ds.Lose, lose.RatString())
				}
			})
		}
	}
}

func TestDragonBreakEven(t *testing.T) {
	a := eightDecks(t)
	ctx := context.Background()
	for _, b := range games.MBSDragon.DragonBets() {
		t.Run(b.ID, func(t *testing.T) {
			n, ok, err := a.DragonBreakEven(ctx, b, 1000)
			if err != nil || !ok {
				t.Fatalf("no break-even: %v", err)
			}
			before, _ := a.Dragon(ctx, b, n-1)
			at, _ := a.Dragon(ctx, b, n)
			if before.HouseEdge < 0 || at.HouseEdge >= 0 {
				t.Errorf("break-even %d: edge %.6f before, %.6f at", n, before.HouseEdge, at.HouseEdge)
			}
		})
	}
	// A shoe of Tens only ties every coup: no streak ever, so no session length pays.
	tens, _ := baccarat.NewRankCounts([13]int{9: 40})
	ta, err := Analyze(ctx, tens, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := ta.DragonBreakEven(ctx, games.MBSDragon.Bet("any_dragon"), 200); ok {
		t.Error("a session of ties breaks even")
	}
}

func TestDragonEdges(t *testing.T) {
	a := eightDecks(t)
	b := games.MBSDragon.Bet("any_dragon")
	edges, err := a.DragonEdges(context.Background(), b, 40)
	if err != nil || len(edges) != 40 {
		t.Fatalf("%d edges: %v", len(edges), err)
	}
	for _, n := range []int{1, 4, 5, 12, 40} {
		ds, _ := a.Dragon(context.Background(), b, n)
		if edges[n-1] != ds.HouseEdge {
			t.Errorf("%d hands: %v, Dragon says %v", n, edges[n-1], ds.HouseEdge)
		}
	}
	if edges[3] != 1 {
		t.Errorf("Dragon 4.2 four hands cannot reach a streak of five: edge %v, want 1", edges[3])
	}
}

func ExampleAnalysis_Dragon() {
	a, _ := Analyze(context.Background(), baccarat.NewCounts(8), nil)
	bet := games.MBSDragon.Bet("banker_dragon")
	ds, _ := a.Dragon(context.Background(), bet, 30)
	fmt.Printf("Royal %.4f  house edge %.4f\n", ds.Tiers[2].Probability.Float64(), ds.HouseEdge)
	n, _, _ := a.DragonBreakEven(context.Background(), bet, 500)
	fmt.Println("breaks even after", n, "hands")
	// Output:
	// Royal 0.0920  house edge -0.9790
	// breaks even after 17 hands
}
