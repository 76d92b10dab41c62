package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

// TestSqueezeCardSeenPrivatelyClosesTheWithdrawalWindow (SPEC §4): once a card has been
// passed face down to a squeezer, nobody may withdraw in that round. An interruption after
// n cards opens a withdrawal window only when no outcome is established (Tiger 5.17) and no
// card dealt so far went face down to a squeezer. The coup is Tiger's
// P 2h 3d 7h | B 4c Ks 5s (deal order 2h 4c 3d Ks 7h 5s), whose unsqueezed windows are
// open for 0 to 3 cards (TestTiger517OutcomeEstablished).
func TestSqueezeCardSeenPrivatelyClosesTheWithdrawalWindow(t *testing.T) {
	deal := strings.Fields("2h 4c 3d Ks 7h 5s")
	established := []bool{false, false, false, false, true, true}
	backers := []struct {
		name    string
		bets    []string // ann's wagers
		private int      // the first card position that goes face down to a squeezer (6: none)
	}{
		{"nobody backs a hand: nothing is squeezed", []string{"tie"}, 6},
		{"the Player hand is backed: P1 goes to its squeezer", []string{"player"}, 0},
		{"only the Banker hand is backed: B1 goes to its squeezer", []string{"banker"}, 1},
		{"both hands are backed", []string{"player", "banker"}, 0},
	}
	for _, b := range backers {
		for n := range len(deal) {
			window := !established[n] && n <= b.private
			t.Run(fmt.Sprintf("SPEC 4 squeeze, %s, interrupted after %d cards: window %v", b.name, n, window), func(t *testing.T) {
				x := newTB(t, Config{Game: "mbs-tiger", Squeeze: true}, "ann", "bob")
				x.ok(&Open{})
				for _, bet := range b.bets {
					x.place("ann", bet, 1000)
				}
				x.place("bob", "tie", 500)
				x.ok(&Close{})
				for _, f := range deal[:n] {
					for x.Squeezer() != "" { // the dealer reveals a hand before its third cards
						x.ok(&Reveal{Header: Header{Role: RoleDealer}})
					}
					x.cards(f)
				}
				if got := x.SeenPrivately(); got != (n > b.private) {
					t.Fatalf("SeenPrivately() = %v after %d cards", got, n)
				}
				e := last(x.ok(&Interrupt{Header: Header{Reason: "power_failure"}}), EvInterrupted)
				if e.Window != window {
					t.Fatalf("window %v, want %v", e.Window, window)
				}
				withdraw := &Withdraw{Header: Header{Actor: "ann", Role: RolePlayer}}
				if window {
					if w := last(x.ok(withdraw), EvWagerWithdrawn); w == nil || len(w.Withdrawn()) != len(b.bets) {
						t.Fatalf("in the window ann withdraws every wager of hers: %+v", w)
					}
					return
				}
				code := baccarat.CodeBettingClosed
				x.refused(withdraw, code)
				x.refused(&Withdraw{Header: Header{Actor: "bob", Role: RolePlayer}}, code)
			})
		}
	}
}

// TestSqueezeSimultaneousDrawOpensNoWindowOnceACardIsPrivate (SPEC §4, Tiger 5.8): two cards
// drawn together with their order known let players withdraw before the reconstruction,
// unless a card of the round already went face down to a squeezer.
func TestSqueezeSimultaneousDrawOpensNoWindowOnceACardIsPrivate(t *testing.T) {
	for _, squeeze := range []bool{false, true} {
		t.Run(fmt.Sprintf("Tiger 5.8 squeeze %v", squeeze), func(t *testing.T) {
			x := newTB(t, Config{Game: "mbs-tiger", Squeeze: squeeze}, "ann")
			x.ok(&Open{})
			x.place("ann", "player", 1000)
			x.ok(&Close{})
			x.cards("2h") // P1: face down to ann at a squeeze table
			e := last(x.ok(&Simultaneous{Cards: []baccarat.Card{*card("4c"), *card("3d")}, Known: true}), EvSimultaneous)
			if e.Window == squeeze {
				t.Fatalf("window %v at a table that squeezes: %v", e.Window, squeeze)
			}
			withdraw := &Withdraw{Header: Header{Actor: "ann", Role: RolePlayer}}
			if squeeze {
				x.refused(withdraw, baccarat.CodeBettingClosed)
				return
			}
			x.ok(withdraw)
		})
	}
}
