package games_test

import (
	"fmt"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// A Banker win on six pays half in the no-commission games (RWS 4.1.1).
func ExampleSettle() {
	r, _ := baccarat.ParseCoup("P 2h 3c 9d | B 3d 3s")
	for _, id := range []string{"banker", "tiger", "tiger_pair"} {
		s := games.Settle(games.MBSTiger.Bet(id), 1000, &r)
		fmt.Println(id, s.Outcome, s.Pays, s.Net)
	}
	// Output:
	// banker win 1:2 500
	// tiger win 12:1 12000
	// tiger_pair win 4:1 4000
}

// Dragon bets settle once per session, on the longest streak.
func ExampleSettleDragon() {
	results := []baccarat.Winner{baccarat.BankerWins, baccarat.BankerWins, baccarat.Tie, baccarat.BankerWins,
		baccarat.BankerWins, baccarat.BankerWins, baccarat.PlayerWins}
	s := games.SettleDragon(games.MBSDragon.Bet("banker_dragon"), 100, results)
	fmt.Println(s.Outcome, s.Pays, s.Net)
	// Output: win 2:1 200
}
