package table

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// TestARoundHoldsAtMostMaxWagersPerRound: the wager after MaxWagersPerRound is refused
// (round_full), and a full round's settlement and its void, with the longest names and
// large stakes, each fit in one journal record: a round the store could not record could be
// neither settled nor voided, and its table would stop.
func TestARoundHoldsAtMostMaxWagersPerRound(t *testing.T) {
	for _, end := range []string{"settled", "voided"} {
		t.Run(end, func(t *testing.T) {
			tab, err := New(Config{Game: "mbs-tournament", DefaultLimit: Limit{Min: 1, Max: 1 << 40}})
			if err != nil {
				t.Fatal(err)
			}
			apply := func(c Command) []Event {
				t.Helper()
				ev, err := tab.Apply(c)
				if err != nil {
					t.Fatalf("%s: %v", c.Kind(), err)
				}
				return ev
			}
			apply(&NewShoe{})
			apply(&Open{})
			pad := strings.Repeat("x", 64-6)
			place := func(i int) *Place {
				name := fmt.Sprintf("%06d%s", i, pad) // the longest id a player may have
				return &Place{Header: Header{Actor: name, Role: RolePlayer}, Player: name, Bet: "player_pair", Stake: 1<<40 - baccarat.Money(i), Available: 1 << 50}
			}
			for i := range MaxWagersPerRound {
				apply(place(i))
			}
			if _, err := tab.Apply(place(MaxWagersPerRound)); baccarat.ErrorCode(err) != baccarat.CodeRoundFull {
				t.Fatalf("wager %d: %v, want round_full", MaxWagersPerRound+1, err)
			}
			apply(&Close{})
			var last []Event
			if end == "voided" {
				last = apply(&Void{Header: Header{Role: RolePit, Actor: "pit", Reason: "dealer_error"}})
			} else {
				for _, c := range []string{"5h", "2c", "5d", "3c", "9s"} { // Player 9 with a pair against 5
					k := baccarat.MustParseCard(c)
					last = apply(&Card{Card: &k})
				}
			}
			e := last[len(last)-1]
			if e.Type != EvRoundSettled && e.Type != EvRoundVoided {
				t.Fatalf("the round ended with %s", e.Type)
			}
			data, _ := json.Marshal(&e)
			if len(data) > journal.MaxDataLen/2 {
				t.Fatalf("a full round's %s record is %d bytes: over half of the %d a store takes", e.Type, len(data), journal.MaxDataLen)
			}
			t.Logf("a full round's %s record: %d bytes", e.Type, len(data))
		})
	}
}
