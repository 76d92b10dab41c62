package table

import (
	"reflect"
	"testing"
)

// TestStateForIsStateWithOnlyThePlayersOwn: a player's snapshot is the table's state with
// only their own wagers, funds and request ids; everything public (phase, cards, totals,
// limits, the shoe) is the same as everyone's.
func TestStateForIsStateWithOnlyThePlayersOwn(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament"}, "ann", "bob", "cat")
	x.ok(&Open{})
	x.ok(&Place{Player: "ann", Bet: "banker", Stake: 500, RequestID: "a1"})
	x.ok(&Place{Player: "bob", Bet: "player", Stake: 700, RequestID: "b1"})
	x.ok(&Place{Player: "ann", Bet: "tie", Stake: 100, RequestID: "a2"})
	x.ok(&Place{Player: "cat", Bet: "banker", Stake: 300})
	all := x.State()
	for _, player := range []string{"ann", "bob", "cat", "dan"} {
		got := x.StateFor(player)
		want := all
		want.Wagers, want.Funds, want.Requests = nil, map[string]Funds{}, map[string]uint64{}
		for _, w := range all.Wagers {
			if w.Player == player {
				want.Wagers = append(want.Wagers, w)
			}
		}
		if f, ok := all.Funds[player]; ok {
			want.Funds[player] = f
		}
		for k, v := range all.Requests {
			if len(k) > len(player) && k[:len(player)+1] == player+"/" {
				want.Requests[k] = v
			}
		}
		if want.Wagers == nil {
			want.Wagers = []Wager{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s's state:\n%+v\nwant\n%+v", player, got, want)
		}
	}
	if n := len(x.StateFor("ann").Wagers); n != 2 {
		t.Fatalf("ann sees %d wagers, want her 2", n)
	}
}
