package roads_test

import (
	"fmt"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/roads"
)

// The worked example of ROADS.md: the logical Big Road, the three derived roads and both Asks.
func Example() {
	rounds, err := roads.ParseRounds("T B P P T B B B P B P P B T T B P B B B B B B B B P P P P P P B")
	if err != nil {
		panic(err)
	}
	b, _ := roads.New(rounds)
	br := b.BigRoad()
	fmt.Print("leading ties ", br.LeadingTies, ":")
	for _, c := range br.Columns {
		fmt.Printf(" %s%d", c.Side.Letter(), len(c.Cells))
	}
	fmt.Println()
	for _, k := range roads.Kinds {
		fmt.Printf("%-13s ", k)
		for _, m := range b.Road(k) {
			fmt.Print(m.Letter())
		}
		fmt.Println()
	}
	fmt.Println("Ask Banker", b.Ask(baccarat.BankerWins))
	fmt.Println("Ask Player", b.Ask(baccarat.PlayerWins))
	// Output:
	// leading ties 1: B1 P2 B3 P1 B1 P2 B2 P1 B8 P6 B1
	// Big Eye Boy   bbRbbbRbbRRbbRRRRRRbRRRRRb
	// Small Road    bRbbbbbbbbRbRRRRRbbRRRRb
	// Cockroach Pig RbRbbbRRbRRRRRbRbRRRb
	// Ask Banker [red red blue]
	// Ask Player [blue blue red]
}

// A dealer's shoe grows one round at a time; each Append brings every road up to date. After
// two rounds Big Eye Boy is still empty, but a Banker next would start it with red, so Ask
// Banker says red.
func ExampleBoard_Append() {
	var b roads.Board
	for _, w := range []baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins, baccarat.PlayerWins} {
		_ = b.Append(roads.Round{Winner: w})
		fmt.Println(b.Len(), "rounds: Big Eye Boy", b.Road(roads.BigEyeBoy), "Ask Banker", b.Ask(baccarat.BankerWins))
	}
	// Output:
	// 1 rounds: Big Eye Boy [] Ask Banker [none none none]
	// 2 rounds: Big Eye Boy [] Ask Banker [red none none]
	// 3 rounds: Big Eye Boy [blue] Ask Banker [blue none none]
}

// The Big Road grid turns a streak of more than six into a dragon tail along the bottom row.
func ExampleBoard_BigRoadGrid() {
	rounds, _ := roads.ParseRounds("BBBBBBBB")
	b, _ := roads.New(rounds)
	for _, p := range b.BigRoadGrid() {
		fmt.Printf("(%d,%d) ", p.Column, p.Row)
	}
	fmt.Println()
	// Output:
	// (0,0) (0,1) (0,2) (0,3) (0,4) (0,5) (1,5) (2,5)
}

// Pair and natural flags follow their result letter: p Player pair, b Banker pair, n natural.
func ExampleParseRounds() {
	rounds, err := roads.ParseRounds("Bp Pbn, T")
	fmt.Println(rounds, err)
	_, err = roads.ParseRounds("BPX")
	fmt.Println(err)
	// Output:
	// [Bp Pbn T] <nil>
	// position 3: 'X': expected a result B, P, T or, after one, a flag p (Player pair), b (Banker pair), n (natural)
}

// Good-road detectors read the end of the Big Road against thresholds the operator sets.
func ExampleBoard_Stats() {
	rounds, _ := roads.ParseRounds("PBPBPBBBBB")
	b, _ := roads.New(rounds)
	s := b.Stats(roads.Settings{LongStreak: 5}, -1)
	fmt.Printf("Banker %d/%d (%d‰)\n", s.Banker.Count, s.Hands, s.Banker.PerMille())
	for _, d := range s.Detectors {
		if d.Hit {
			fmt.Println(d.Name, d.Length)
		}
	}
	// Output:
	// Banker 7/10 (700‰)
	// long_banker 5
}
