package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/games"
)

// TestTiger517OutcomeEstablished: "with an outcome established (i.e. any of the available
// wagers has conclusively won or lost), play shall continue" (Tiger 5.17). The available
// wagers are the game's bets (Tiger 3.5), placed or not: nobody bets here, and still the
// withdrawal window closes as soon as some bet of the game is decided. The coup is
// P 2h 3d 7h | B 4c Ks 5s (deal order 2h 4c 3d Ks 7h 5s): no pair on either side, Banker 4.
//
// After 3 cards the Player's pair is decided (2h, 3d: lost) in every game that offers it;
// Tiger offers no Player Pair, but after 4 cards Tiger Pair (neither hand pairs) and Small
// Tiger (Banker's two cards make 4, not 6) are decided. Punto banco, with pair bets too,
// goes as the tournament games.
func TestTiger517OutcomeEstablished(t *testing.T) {
	deal := strings.Fields("2h 4c 3d Ks 7h 5s")
	// window[n] is whether a withdrawal window opens when the round is interrupted after n cards.
	want := map[string][]bool{
		"mbs-tournament":    {true, true, true, false, false, false},
		"rws-no-commission": {true, true, true, false, false, false},
		"mbs-tiger":         {true, true, true, true, false, false},
		"mbs-dragon":        {true, true, true, false, false, false},
		"bet-on-baccarat":   {true, true, true, false, false, false},
		"punto-banco":       {true, true, true, false, false, false},
	}
	if len(want) != len(games.All()) {
		t.Fatalf("the table covers %d games, the platform has %d", len(want), len(games.All()))
	}
	for game, windows := range want {
		for n, window := range windows {
			name := fmt.Sprintf("Tiger 5.17 %s interrupted after %d cards: window %v", game, n, window)
			t.Run(name, func(t *testing.T) {
				x := newTB(t, Config{Game: game})
				x.ok(&Open{})
				x.ok(&Close{})
				for _, f := range deal[:n] {
					x.cards(f)
					if x.Status().BetOpen { // Bet on Baccarat's second and third betting rounds
						x.ok(&Close{})
					}
				}
				ev := x.ok(&Interrupt{Header: Header{Reason: "power_failure"}})
				e := last(ev, EvInterrupted)
				if e.Window != window || e.Certain == window {
					t.Fatalf("window %v certain %v, want window %v", e.Window, e.Certain, window)
				}
				if x.OutcomeEstablished() == window {
					t.Fatalf("OutcomeEstablished() = %v", !window)
				}
			})
		}
	}
}
