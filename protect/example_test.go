package protect_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/protect"
)

// A seeded run: 30 shoes of Tiger dealt to the usual cut card. Tiger and its side bets
// change value fast as the Sixes come out; Player and Banker barely move.
func ExampleRun() {
	rep, _ := protect.Run(context.Background(), protect.Config{Game: games.MBSTiger, Shoes: 30, Seed: 1})
	c := rep.Cuts[0]
	fmt.Printf("%d shoes, %d hands before the cut card (%d cards behind it)\n", c.Shoes, c.Hands, c.CutCard)
	for _, b := range c.Bets {
		fmt.Printf("%-11s positive %5.2f%% of hands, perfect counter %+.3f a shoe\n", b.Bet, 100*b.PositiveShare, b.PerfectWinPerShoe)
	}
	// Output:
	// 30 shoes, 2445 hands before the cut card (14 cards behind it)
	// player      positive  0.20% of hands, perfect counter +0.001 a shoe
	// banker      positive  0.20% of hands, perfect counter +0.000 a shoe
	// tie         positive  0.20% of hands, perfect counter +0.027 a shoe
	// tiger       positive  2.25% of hands, perfect counter +0.287 a shoe
	// small_tiger positive  3.93% of hands, perfect counter +0.339 a shoe
	// big_tiger   positive  4.42% of hands, perfect counter +0.486 a shoe
	// tiger_tie   positive  2.00% of hands, perfect counter +0.357 a shoe
	// tiger_pair  positive  1.76% of hands, perfect counter +0.171 a shoe
}

// The count a player would use against Big Tiger: tags per rank from the effect of removal.
func ExampleDeriveCounts() {
	c, _ := protect.DeriveCounts(context.Background(), games.MBSTiger, 8)
	fmt.Printf("%s  betting correlation %.3f\n", c.Tags[5], c.BC[5])
	// Output:
	// A:+0 2:+0 3:-2 4:-1 5:-1 6:-2 7:+2 8:+2 9:+2 T:+0 J:+0 Q:+0 K:+0  betting correlation 0.986
}

// An audit: shoes given card by card, one a line (here two tiny 4-deck shoes).
func ExampleReadOrders() {
	orders := "# shoe 1\nKs,5c,9d,6h,Ks,5c,6h,9d,Ks,5c\nAh,Ah,8c,8c,2d,3s,Ah,Ah,7h,7h\n"
	rep, err := protect.Run(context.Background(), protect.Config{Game: games.PuntoBanco, Decks: 4,
		CutCards: []int{protect.MinCutCard}, Orders: protect.ReadOrders(strings.NewReader(orders)), Positions: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range rep.Cuts[0].Positions {
		fmt.Printf("shoe %d hand %d, %2d cards left: tie %+.4f\n", p.Shoe, p.Hand, p.CardsLeft, p.EV.Values[2])
	}
	_, err = protect.Run(context.Background(), protect.Config{Game: games.PuntoBanco, Decks: 4,
		Orders: protect.ReadOrders(strings.NewReader("Ah,Kd,Zz\n"))})
	fmt.Println(baccarat.ErrorCode(err)+":", err)
	// Output:
	// shoe 0 hand 0, 10 cards left: tie -0.0514
	// shoe 0 hand 1,  6 cards left: tie -0.6000
	// shoe 1 hand 0, 10 cards left: tie -0.0767
	// shoe 1 hand 1,  6 cards left: tie -0.4000
	// bad_card: line 1: card 3 "Zz" is not a card: write rank then suit, such as Ah, Td or 10h
}
