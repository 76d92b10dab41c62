package odds_test

import (
	"context"
	"fmt"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// The perft of baccarat: the 8-deck ways every published analysis prints.
func ExampleAnalyze() {
	a, _ := odds.Analyze(context.Background(), baccarat.NewCounts(8), nil)
	ev := a.Events()
	fmt.Println("sequences", a.Total())
	fmt.Println("Banker   ", ev.BankerWin.Num())
	fmt.Println("Player   ", ev.PlayerWin.Num())
	fmt.Println("Tie      ", ev.Tie.Num())
	// Output:
	// sequences 4998398275503360
	// Banker    2292252566437888
	// Player    2230518282592256
	// Tie       475627426473216
}

// A PAR sheet: Tiger No Commission from a fresh 8-deck shoe.
func ExampleAnalysis_Sheet() {
	a, _ := odds.Analyze(context.Background(), baccarat.NewCounts(8), nil)
	for _, b := range a.Sheet(games.MBSTiger, nil).Bets {
		fmt.Printf("%-11s hit %6.3f%%  edge %7.4f%%  sd %.3f\n", b.Bet.ID, 100*b.HitRate, 100*b.HouseEdge, b.StdDev)
	}
	// Output:
	// player      hit 44.625%  edge  1.2351%  sd 0.951
	// banker      hit 45.860%  edge  1.4581%  sd 0.930
	// tie         hit  9.516%  edge 14.3596%  sd 2.641
	// tiger       hit  5.386%  edge 16.6836%  sd 3.596
	// small_tiger hit  3.725%  edge 14.3325%  sd 4.355
	// big_tiger   hit  1.662%  edge 15.2533%  sd 6.519
	// tiger_tie   hit  1.924%  edge 30.7354%  sd 4.945
	// tiger_pair  hit 14.382%  edge 16.1217%  sd 2.987
}

// A depleted shoe: the same bets after the first three coups took out six Sixes and more.
func ExampleAnalysis_Sheet_depleted() {
	counts := baccarat.NewCounts(8)
	removed, _ := baccarat.ParseCards("6h 6d 6c 6s 6h 6d 7h 2c Kd Qs 9h 3c")
	_ = counts.RemoveAll(removed)
	a, _ := odds.Analyze(context.Background(), counts, nil)
	s := a.Sheet(games.MBSTiger, nil)
	fmt.Printf("Big Tiger: %s ≈ %.5f\n", s.Bet("big_tiger").Win, s.Bet("big_tiger").Win.Float64())
	// Output:
	// Big Tiger: 1211940706783/74800017068400 ≈ 0.01620
}
