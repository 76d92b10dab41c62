package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// refusalBody is an error answer as a page reads it: the code, the English message and the
// params the page says it with in its own language (web/API.md, "Errors").
type refusalBody struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Params  map[string]any `json:"params"`
}

// TestWagerRefusalsCarryTheirParams: each wager refusal of SPEC §4 answers its params in the
// JSON body, amounts as integer minor units beside the table's currency and its decimals, so
// that a page in any language can say "the maximum on Banker is 1,000.00" itself.
func TestWagerRefusalsCarryTheirParams(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, spec := range []live.Spec{
		{ID: "lim", Name: "Limits", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger",
			Limits: map[string]table.Limit{"tie": {Min: 100, Max: 1000}}, Differential: 5000}},
		{ID: "boo", Name: "Bet on Baccarat", Mode: live.ModeDealer, Config: table.Config{Game: "bet-on-baccarat"}},
	} {
		if err := f.host.Create(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	f.account(access.Account{ID: "dealer2", Role: web.RoleDealer, Tables: []string{"tiger", "rws", "lim", "boo"}})
	f.tokens["dealer"] = f.tokens["dealer2"] // f.dealer acts as the dealer of these tables
	f.dealer("rws", map[string]any{"cmd": "new_shoe"})
	for _, id := range []string{"lim", "boo"} {
		f.dealer(id, map[string]any{"cmd": "new_shoe"})
		f.dealer(id, map[string]any{"cmd": "open"})
	}
	var snap struct {
		State struct {
			Prices []struct {
				Bet  string `json:"bet"`
				Odds string `json:"odds"`
			} `json:"prices"`
		} `json:"state"`
	}
	f.do("ann", "GET", "/api/tables/boo", nil, &snap)
	if len(snap.State.Prices) == 0 {
		t.Fatal("the Bet on Baccarat table offers no prices")
	}
	price := snap.State.Prices[0]
	wager := func(who, tableID string, body map[string]any) refusalBody {
		t.Helper()
		var e refusalBody
		f.do(who, "POST", "/api/tables/"+tableID+"/wagers", body, &e)
		return e
	}
	money := func(p map[string]any) map[string]any { p["currency"], p["minor_units"] = "XXX", 2; return p }
	cases := []struct {
		code  string
		who   string
		table string
		setup func()
		body  map[string]any
		want  map[string]any // JSON numbers as float64, as a page reads them
	}{
		{"betting_closed", "ann", "rws", nil, map[string]any{"bet": "banker", "stake": 100}, nil},
		{"side_bet_needs_main", "bob", "rws", func() { f.dealer("rws", map[string]any{"cmd": "open"}) },
			map[string]any{"bet": "tie", "stake": 100}, map[string]any{"bet": "tie"}},
		{"both_sides", "ann", "rws", func() { wager("ann", "rws", map[string]any{"bet": "player", "stake": 100}) },
			map[string]any{"bet": "banker", "stake": 100}, map[string]any{"side": "player"}},
		{"insufficient_funds", "bob", "rws", nil, map[string]any{"bet": "banker", "stake": 1_000_000},
			money(map[string]any{"stake": 1_000_000, "available": 100_000})},
		{"unknown_bet", "ann", "lim", nil, map[string]any{"bet": "dragon", "stake": 100}, map[string]any{"bet": "dragon"}},
		{"below_minimum", "ann", "lim", nil, map[string]any{"bet": "tie", "stake": 99},
			money(map[string]any{"bet": "tie", "min": 100, "stake": 99})},
		{"above_maximum", "ann", "lim", func() { wager("ann", "lim", map[string]any{"bet": "tie", "stake": 600}) },
			map[string]any{"bet": "tie", "stake": 500}, money(map[string]any{"bet": "tie", "max": 1000, "have": 600, "stake": 500})},
		{"table_differential", "bob", "lim", nil, map[string]any{"bet": "player", "stake": 5001},
			money(map[string]any{"after": 5001, "limit": 5000})},
		{"odds_changed", "ann", "boo", nil, map[string]any{"bet": price.Bet, "stake": 100, "odds": "1.01"},
			map[string]any{"bet": price.Bet, "odds": price.Odds, "sent": "1.01"}},
	}
	for _, c := range cases {
		t.Run(c.code, func(t *testing.T) {
			if c.setup != nil {
				c.setup()
			}
			e := wager(c.who, c.table, c.body)
			if e.Code != c.code {
				t.Fatalf("%v: code %q (%s), want %s", c.body, e.Code, e.Message, c.code)
			}
			if e.Message == "" {
				t.Error("no message")
			}
			if got, want := fmt.Sprint(e.Params), fmt.Sprint(numbers(c.want)); got != want {
				t.Errorf("params %s, want %s", got, want)
			}
		})
	}
}

// numbers writes a case's integers as the float64s JSON decodes them to, for comparing.
func numbers(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range m {
		if i, ok := v.(int); ok {
			v = float64(i)
		}
		out[k] = v
	}
	return out
}
