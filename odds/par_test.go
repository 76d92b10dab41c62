package odds

import (
	"context"
	"math/big"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// round writes r rounded half-up to the given number of decimals, as a published table does.
func round(r *big.Rat, decimals int) string { return r.FloatString(decimals) }

func pct(r *big.Rat) *big.Rat { return new(big.Rat).Mul(r, big.NewRat(100, 1)) }

func eightDecks(t *testing.T) *Analysis {
	t.Helper()
	a, err := Analyze(context.Background(), baccarat.NewCounts(8), nil)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The published figures of SPEC §7, and the classic edges of the 8-deck game, each rounded
// from the exact value to the precision it was published at.
func TestPublishedFigures(t *testing.T) {
	a := eightDecks(t)
	ev := a.Events()
	tiger := a.Sheet(games.MBSTiger, nil)
	punto := a.Sheet(games.PuntoBanco, nil)
	for _, tc := range []struct {
		name string
		got  *big.Rat
		dec  int
		want string
	}{
		{"SPEC §7 Banker wins 0.458597", ev.BankerWin.Rat(), 6, "0.458597"},
		{"SPEC §7 Player wins 0.446247", ev.PlayerWin.Rat(), 6, "0.446247"},
		{"SPEC §7 Tie 0.095156", ev.Tie.Rat(), 6, "0.095156"},
		{"SPEC §7 Tie at 8:1 house edge 14.36%", pct(tiger.Bet("tie").ExactHouseEdge()), 2, "14.36"},
		{"SPEC §7 Big Tiger 50:1 house edge 15.253%", pct(tiger.Bet("big_tiger").ExactHouseEdge()), 3, "15.253"},
		{"SPEC §7 Big Tiger hit rate 1.662%", pct(tiger.Bet("big_tiger").Win.Rat()), 3, "1.662"},
		{"SPEC §7 4 cards dealt 0.378868", ev.Cards4.Rat(), 6, "0.378868"},
		{"SPEC §7 5 cards dealt 0.303444", ev.Cards5.Rat(), 6, "0.303444"},
		{"SPEC §7 6 cards dealt 0.317687", ev.Cards6.Rat(), 6, "0.317687"},
		{"SPEC §3.6 Banker at 0.95:1 house edge 1.0579%", pct(punto.Bet("banker").ExactHouseEdge()), 4, "1.0579"},
		{"SPEC §3.1 Player house edge 1.2351%", pct(punto.Bet("player").ExactHouseEdge()), 4, "1.2351"},
		{"SPEC §3.1 Tie house edge 14.3596%", pct(punto.Bet("tie").ExactHouseEdge()), 4, "14.3596"},
		{"SPEC §3.1 Banker at 1:1 gives players 1.24%", pct(a.Sheet(games.MBSTournament, nil).Bet("banker").ExactHouseEdge()), 2, "-1.24"},
		{"Tiger house edge 0.166836", tiger.Bet("tiger").ExactHouseEdge(), 6, "0.166836"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := round(tc.got, tc.dec); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// The float figures of a sheet agree with its exact fractions to 12 significant digits.
func TestSheetFloatsMatchExact(t *testing.T) {
	a := eightDecks(t)
	for _, g := range games.All() {
		for _, bs := range a.Sheet(g, nil).Bets {
			for _, c := range []struct {
				what  string
				got   float64
				exact *big.Rat
			}{
				{"return", bs.Return, bs.ExactReturn()},
				{"variance", bs.Variance, bs.ExactVariance()},
				{"hit rate", bs.HitRate, bs.Win.Rat()},
			} {
				want, _ := c.exact.Float64()
				if d := (c.got - want) / want; d > 1e-12 || d < -1e-12 {
					t.Errorf("%s/%s %s %.15g, exact %.15g", g.ID, bs.Bet.ID, c.what, c.got, want)
				}
			}
		}
	}
}

func TestSheetTiersAndOutcomesSumToOne(t *testing.T) {
	a := eightDecks(t)
	for _, g := range games.All() {
		for _, bs := range a.Sheet(g, nil).Bets {
			sum := new(big.Rat).Add(bs.Push.Rat(), bs.Lose.Rat())
			win := new(big.Rat)
			for _, tier := range bs.Tiers {
				win.Add(win, tier.Probability.Rat())
			}
			if win.Cmp(bs.Win.Rat()) != 0 {
				t.Errorf("%s/%s: tiers sum to %s, Win %s", g.ID, bs.Bet.ID, win.RatString(), bs.Win)
			}
			if sum.Add(sum, win).Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s/%s: win + push + lose = %s", g.ID, bs.Bet.ID, sum.RatString())
			}
		}
	}
}

func TestPerfectPairNeedsSuits(t *testing.T) {
	var ranks [13]int
	for i := range ranks {
		ranks[i] = 24
	}
	counts, err := baccarat.NewRankCounts(ranks)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), counts, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := a.Sheet(games.BetOnBaccarat, nil)
	if s.Bet("perfect_pair").Err == nil {
		t.Error("BoB 1.16 Perfect Pair counted from a shoe without suits")
	}
	if err := s.Bet("either_pair").Err; err != nil {
		t.Errorf("BoB 1.13 Either Pair needs only ranks: %v", err)
	}
}

func TestEffectOfRemoval(t *testing.T) {
	base, eor, err := EffectOfRemoval(context.Background(), baccarat.NewCounts(8), nil, games.PuntoBanco, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(eor) != 13 {
		t.Fatalf("%d ranks", len(eor))
	}
	bi := -1
	for i, bs := range base.Bets {
		if bs.Bet.ID == "banker" {
			bi = i
		}
	}
	// Removing one card moves the Banker edge by hundredths of a percent at most; the
	// effects of the ranks, weighted by their counts, sum to zero: removing a card at random
	// changes nothing on average (the burn card does not matter).
	if d := eor[3].Delta[bi]; d == 0 || d > 1e-3 || d < -1e-3 {
		t.Errorf("removing a 4 changes the Banker edge by %g", d)
	}
	for i := range base.Bets {
		sum := 0.0
		for _, rm := range eor {
			sum += rm.Delta[i] * 32
		}
		if sum > 1e-12 || sum < -1e-12 {
			t.Errorf("%s: effects sum to %g", base.Bets[i].Bet.ID, sum)
		}
	}
}
