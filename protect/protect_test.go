package protect

import (
	"context"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

func long() bool { return os.Getenv("BACCARAT_LONG") == "1" }

func mustRun(t *testing.T, cfg Config) *Report {
	t.Helper()
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The expectation at a position is what odds counts from the same cards (Analyze, then the
// PAR sheet's Return), bit for bit: from the cards left known card by card, and, for the games
// without Perfect Pair, from the 13 rank counts the report prints, as `analyze --shoe` reads
// them.
func TestProtectExpectationEqualsAnalyzeOfTheCardsLeft(t *testing.T) {
	for _, g := range []*games.Game{games.MBSTiger, games.BetOnBaccarat, games.RWSNoCommission} {
		t.Run(g.ID, func(t *testing.T) {
			cfg := Config{Game: g, Shoes: 1, Seed: 5, Positions: true, Workers: 1}
			rep := mustRun(t, cfg)
			order := SeededShoe(g.Decks.Default, 5, 0).Order()
			dealt := 0
			for i, p := range rep.Cuts[0].Positions {
				dealt = len(order) - p.CardsLeft
				if i%7 != 0 && i != len(rep.Cuts[0].Positions)-1 {
					continue
				}
				left := baccarat.NewShoeFromOrder(order)
				left.Advance(dealt)
				byCard := left.Counts()
				if Remaining(byCard.Ranks()) != p.Remaining {
					t.Fatalf("hand %d: remaining %s, the order leaves %s", p.Hand, p.Remaining, byCard.String())
				}
				compare(t, g, "by card", &byCard, p)
				if g != games.BetOnBaccarat {
					byRank, err := baccarat.ParseCounts(p.Remaining.String())
					if err != nil {
						t.Fatal(err)
					}
					compare(t, g, "by rank", &byRank, p)
				}
			}
		})
	}
}

func compare(t *testing.T, g *games.Game, how string, counts *baccarat.Counts, p Position) {
	t.Helper()
	a, err := odds.Analyze(context.Background(), *counts, nil)
	if err != nil {
		t.Fatal(err)
	}
	sh := a.Sheet(g, nil)
	for i, b := range sh.Bets {
		if got, want := p.EV.Values[i], b.Return; math.Float64bits(got) != math.Float64bits(want) || p.EV.Bets[i] != b.Bet.ID {
			t.Errorf("shoe %d hand %d %s %s: %v, analyze says %s %v", p.Shoe, p.Hand, how, p.EV.Bets[i], got, b.Bet.ID, want)
		}
		if ex := b.ExactReturn(); ex.Sign() != sign(p.EV.Values[i]) {
			t.Errorf("hand %d %s: %v has another sign than the exact %s", p.Hand, b.Bet.ID, p.EV.Values[i], ex.RatString())
		}
	}
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// Bet on Baccarat prices its bets from the cards (SPEC §3.5): at the odds it offers, no bet
// is ever worth a positive expectation, whatever the shoe.
func TestProtectBetOnBaccaratNeverPositive(t *testing.T) {
	rep := mustRun(t, Config{Game: games.BetOnBaccarat, Shoes: 12, Seed: 2, CutCards: []int{5, 39}})
	for _, c := range rep.Cuts {
		for _, b := range c.Bets {
			if b.PositiveShare != 0 || b.PerfectWinPerShoe != 0 || b.Count.Threshold != nil || b.Count.WinPerShoe != 0 {
				t.Errorf("cut card %d %s: %+v", c.CutCard, b.Bet, b)
			}
			if b.SafeCutCard == nil || *b.SafeCutCard != MinCutCard {
				t.Errorf("%s: safe from %v cards behind the cut card, want %d (safe anywhere)", b.Bet, b.SafeCutCard, MinCutCard)
			}
		}
	}
}

// A hand is in a cut card's report exactly when a baccarat.Shoe with that cut card would deal
// it: a round starts while the cut card has not come out (Tiger 3.17).
func TestProtectCutCardIsTheShoes(t *testing.T) {
	cuts := []int{5, 14, 60}
	rep := mustRun(t, Config{Game: games.MBSTournament, Shoes: 3, Seed: 9, CutCards: cuts, Positions: true})
	for c, cut := range cuts {
		var want uint64
		for i := 0; i < 3; i++ {
			s := SeededShoe(8, 9, i)
			s.SetCut(cut)
			for !s.CutReached() {
				_, used, err := baccarat.Deal(s.Undealt())
				if err != nil {
					t.Fatal(err)
				}
				s.Advance(used)
				want++
			}
		}
		if got := rep.Cuts[c].Hands; got != want || uint64(len(rep.Cuts[c].Positions)) != want {
			t.Errorf("cut card %d: %d hands (%d positions), the shoe deals %d", cut, got, len(rep.Cuts[c].Positions), want)
		}
	}
	if rep.Hands < rep.Cuts[0].Hands || rep.Cuts[0].Hands <= rep.Cuts[1].Hands || rep.Cuts[1].Hands <= rep.Cuts[2].Hands {
		t.Errorf("hands by cut card: %d, %d, %d of %d", rep.Cuts[0].Hands, rep.Cuts[1].Hands, rep.Cuts[2].Hands, rep.Hands)
	}
}

// The same seed gives the same report, positions included, whatever the number of workers;
// so does the same list of orders.
func TestProtectSameReportWhateverTheWorkers(t *testing.T) {
	cfg := Config{Game: games.MBSTiger, Decks: 4, Shoes: chunkShoes + 1, Seed: 7, CutCards: []int{14, 30}, Positions: true, Bands: true}
	var reports []*Report
	for _, w := range []int{1, 3} {
		cfg.Workers = w
		reports = append(reports, mustRun(t, cfg))
	}
	if !reflect.DeepEqual(reports[0], reports[1]) {
		t.Error("seed 7 on 3 workers differs from 1 worker")
	}
	var shoes [][]baccarat.Card
	for i := 0; i < 6; i++ {
		shoes = append(shoes, SeededShoe(4, 7, i).Order())
	}
	ocfg := Config{Game: games.MBSTiger, Decks: 4, CutCards: []int{14}, Positions: true}
	var fromOrders []*Report
	for _, w := range []int{1, 3} {
		ocfg.Workers, ocfg.Orders = w, Orders(shoes)
		fromOrders = append(fromOrders, mustRun(t, ocfg))
	}
	if !reflect.DeepEqual(fromOrders[0], fromOrders[1]) {
		t.Error("the same orders on 4 workers differ from 1 worker")
	}
	cfg.Shoes, cfg.CutCards, cfg.Bands = 6, []int{14}, false
	seeded := mustRun(t, cfg)
	if !reflect.DeepEqual(seeded.Cuts, fromOrders[0].Cuts) {
		t.Error("the seeded shoes given as orders report otherwise")
	}
	cfg.Seed = 8
	if other := mustRun(t, cfg); reflect.DeepEqual(other.Cuts, seeded.Cuts) {
		t.Error("seeds 7 and 8 deal the same")
	}
}

// The safe cut card is the first depth at which the perfect counter's win per shoe is below
// the level; it only falls as the cut card moves up.
func TestProtectSafeCutCardIsWhereTheWinFallsBelowTheLevel(t *testing.T) {
	rep := mustRun(t, Config{Game: games.MBSTiger, Shoes: 25, Seed: 3, Safe: 0.05, CutCards: []int{14}})
	for b, wins := range rep.PerfectByCut {
		for i := 1; i < len(wins); i++ {
			if wins[i] > wins[i-1] {
				t.Fatalf("%s: %v at %d cards behind, %v at %d", rep.Bets[b], wins[i], i+MinCutCard, wins[i-1], i-1+MinCutCard)
			}
		}
		safe := *rep.Cuts[0].Bets[b].SafeCutCard
		if wins[safe-MinCutCard] >= 0.05 || safe > MinCutCard && wins[safe-1-MinCutCard] < 0.05 {
			t.Errorf("%s: safe at %d, wins %v", rep.Bets[b], safe, wins[:min(len(wins), safe-MinCutCard+2)])
		}
		if got := rep.Cuts[0].Bets[b].PerfectWinPerShoe; got != wins[14-MinCutCard] {
			t.Errorf("%s: %v per shoe at 14, the curve says %v", rep.Bets[b], got, wins[14-MinCutCard])
		}
	}
	if *rep.Cuts[0].Bets[3].SafeCutCard <= 14 {
		t.Errorf("Tiger is safe at %d cards behind: a perfect counter wins more than 0.05 a shoe at 14", *rep.Cuts[0].Bets[3].SafeCutCard)
	}
	// SPEC §3.1: Banker at 1:1 gives the player about 1.24% on every hand, wherever the cut
	// card is.
	tour := mustRun(t, Config{Game: games.MBSTournament, Shoes: 2, Seed: 3})
	if b := tour.Cuts[0].Bets[1]; b.SafeCutCard != nil || b.PositiveShare < 0.9 {
		t.Errorf("MBS banker at 1:1: a safe cut card (%v), positive on %v of hands", b.SafeCutCard != nil, b.PositiveShare)
	}
}

// Without positions asked for, nothing is kept per position: a run's memory does not grow
// with its shoes.
func TestProtectKeepsNoPositionsUnlessAsked(t *testing.T) {
	rep := mustRun(t, Config{Game: games.PuntoBanco, Shoes: 5, Seed: 1})
	if rep.Cuts[0].Positions != nil || rep.Bands != nil {
		t.Errorf("%d positions, %d bands kept", len(rep.Cuts[0].Positions), len(rep.Bands))
	}
	if rep.Cuts[0].CutCard != 14 || rep.Decks != 8 {
		t.Errorf("default cut card %d, decks %d: want sim's 14 and the game's 8", rep.Cuts[0].CutCard, rep.Decks)
	}
	bob := mustRun(t, Config{Game: games.BetOnBaccarat, Shoes: 1, Seed: 1})
	if bob.Cuts[0].CutCard != 39 || bob.Decks != 6 {
		t.Errorf("Bet on Baccarat: cut card %d, decks %d; want 39 (BoB 3.4) and 6", bob.Cuts[0].CutCard, bob.Decks)
	}
	dragon := mustRun(t, Config{Game: games.MBSDragon, Shoes: 1, Seed: 1})
	if strings.Contains(strings.Join(dragon.Bets, " "), "dragon") || len(dragon.Bets) != 5 {
		t.Errorf("mbs-dragon bets %v: Dragon bets settle on a session and are left out", dragon.Bets)
	}
}

func TestProtectRefusesBadConfig(t *testing.T) {
	two := [][]baccarat.Card{SeededShoe(8, 1, 0).Order()}
	for _, tc := range []struct {
		name string
		code baccarat.Code
		msg  string
		cfg  Config
	}{
		{"no game", baccarat.CodeUnknownGame, "choose one of", Config{Shoes: 1}},
		{"SPEC §2 Tiger with 3 decks", baccarat.CodeBadShoe, "4 to 10 decks", Config{Game: games.MBSTiger, Decks: 3, Shoes: 1}},
		{"SPEC §2 Bet on Baccarat with 8 decks", baccarat.CodeBadShoe, "6 to 6 decks", Config{Game: games.BetOnBaccarat, Decks: 8, Shoes: 1}},
		{"no shoes", baccarat.CodeBadRequest, "0 shoes", Config{Game: games.MBSTiger}},
		{"a cut card 4 deep", baccarat.CodeBadRequest, "5 to 410", Config{Game: games.MBSTiger, Shoes: 1, CutCards: []int{14, 4}}},
		{"a cut card behind the shoe", baccarat.CodeBadRequest, "5 to 410", Config{Game: games.MBSTiger, Shoes: 1, CutCards: []int{411}}},
		{"a negative safe level", baccarat.CodeBadRequest, "safe level", Config{Game: games.MBSTiger, Shoes: 1, Safe: -1}},
		{"no orders", baccarat.CodeBadRequest, "no shoe", Config{Game: games.MBSTiger, Orders: Orders(nil)}},
		{"an order 14 deep", baccarat.CodeBadShoe, "shoe 0: 14 cards", Config{Game: games.MBSTiger, Orders: Orders([][]baccarat.Card{two[0][:14]})}},
		{"a ninth copy in 8 decks", baccarat.CodeCardNotInShoe, "9th copy of",
			Config{Game: games.MBSTiger, Orders: Orders([][]baccarat.Card{append(append([]baccarat.Card{}, two[0]...), two[0][0])})}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Run(context.Background(), tc.cfg)
			if rep != nil || baccarat.ErrorCode(err) != tc.code || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("report %v, error %v; want code %s saying %q", rep != nil, err, tc.code, tc.msg)
			}
		})
	}
}

// ReadOrders names the line of a bad card; Run names the line of a shoe the decks cannot
// contain.
func TestProtectReadOrdersNamesTheLine(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		code       baccarat.Code
		msg        string
	}{
		{"a card that is not a card", "# audit\n\nAh,7d,Ts,9c,8h,2d\nAh,7x\n", baccarat.CodeBadCard, `line 4: card 2 "7x"`},
		{"a fifth Ace of hearts in 4 decks", "Ah,Ah,7d,8c,9s,Td\n\nAh,Ah,Ah,Ah,Ah,7d,8c,9s,Td\n", baccarat.CodeCardNotInShoe,
			"line 3: card 5 is the 5th copy of Ah, and 4 decks hold 4"},
		{"a shoe of 5 cards", "Ah,Kd,7d,8c,9s\n", baccarat.CodeBadShoe, "line 1: 5 cards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Run(context.Background(), Config{Game: games.PuntoBanco, Decks: 4, CutCards: []int{5},
				Orders: ReadOrders(strings.NewReader(tc.text)), Workers: 2})
			if baccarat.ErrorCode(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v; want code %s saying %q", err, tc.code, tc.msg)
			}
		})
	}
}
