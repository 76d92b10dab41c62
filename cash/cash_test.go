package cash_test

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name         string
		cfg          table.Config
		cur          ledger.Currency
		inTournament bool
		ok           bool
	}{
		{"SPEC 5 a tournament game for money without cash: true is refused", table.Config{Game: "mbs-tournament"}, "EUR", false, false},
		{"SPEC 5 play money is money", table.Config{Game: "mbs-dragon"}, "XXX", false, false},
		{"SPEC 5 a tournament game with cash: true is taken", table.Config{Game: "mbs-dragon", Cash: true}, "EUR", false, true},
		{"a tournament's chips are not money", table.Config{Game: "mbs-dragon"}, "CHIPS:cup", false, true},
		{"a tournament's session table needs nothing", table.Config{Game: "mbs-tournament"}, "EUR", true, true},
		{"a cash game needs nothing", table.Config{Game: "mbs-tiger"}, "EUR", false, true},
		{"an unknown game is the table's own check", table.Config{Game: "nope"}, "EUR", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := cash.Check("t1", c.cfg, c.cur, c.inTournament); (err == nil) != c.ok {
				t.Fatalf("Check: %v", err)
			}
		})
	}
}

func TestCoupEdgesOfMBSTournament(t *testing.T) {
	g, _ := games.ByID("mbs-tournament")
	edges, err := cash.CoupEdges(context.Background(), g, 8)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]cash.BetEdge{}
	for _, e := range edges {
		got[e.Bet] = e
	}
	if e := got["banker"]; e.PlayerEdge != "+1.2351%" || e.Exact != "241149546272/19524993263685" {
		t.Errorf("SPEC 3.1 Banker at 1:1, exactly: %+v", e)
	}
}
