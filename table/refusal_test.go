package table

import (
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
)

// TestRefusalsNameTheirAmounts: each wager refusal of SPEC §4 carries the params a page says
// it with in its reader's language, naming the right amounts (minor units, with the table's
// currency and its decimals), bets and counts: the limit the stake broke, what the player
// already has on the spot, what they have available.
func TestRefusalsNameTheirAmounts(t *testing.T) {
	usd := func(p baccarat.Params) baccarat.Params { return p.Money("USD") }
	cases := []struct {
		name  string
		game  string
		cfg   func(*Config)
		setup func(*tb)
		place *Place
		code  baccarat.Code
		want  baccarat.Params
	}{
		{"SPEC §4 below the minimum names the bet and its minimum", "mbs-tiger", nil, nil,
			&Place{Player: "ann", Bet: "tie", Stake: 99}, baccarat.CodeBelowMinimum,
			usd(baccarat.Params{"bet": "tie", "min": baccarat.Money(100), "stake": baccarat.Money(99)})},
		{"SPEC §4 above the maximum names the maximum, and nothing held", "mbs-tiger", nil, nil,
			&Place{Player: "ann", Bet: "tie", Stake: 1001}, baccarat.CodeAboveMaximum,
			usd(baccarat.Params{"bet": "tie", "max": baccarat.Money(1000), "have": baccarat.Money(0), "stake": baccarat.Money(1001)})},
		{"SPEC §4 above the maximum with what is on the spot names what the player has", "mbs-tiger", nil,
			func(x *tb) { x.place("ann", "tie", 600) },
			&Place{Player: "ann", Bet: "tie", Stake: 500}, baccarat.CodeAboveMaximum,
			usd(baccarat.Params{"bet": "tie", "max": baccarat.Money(1000), "have": baccarat.Money(600), "stake": baccarat.Money(500)})},
		{"SPEC §4 insufficient funds names the stake and what is available", "mbs-tiger", nil, nil,
			&Place{Player: "ann", Bet: "banker", Stake: 700, Available: 650}, baccarat.CodeInsufficientFunds,
			usd(baccarat.Params{"stake": baccarat.Money(700), "available": baccarat.Money(650)})},
		{"Tiger 5.18 the table differential names the difference after and the limit", "mbs-tiger", nil, nil,
			&Place{Player: "ann", Bet: "banker", Stake: 5001}, baccarat.CodeTableDifferential,
			usd(baccarat.Params{"after": baccarat.Money(5001), "limit": baccarat.Money(5000)})},
		{"Tiger 3.6 a full playing area names the wagers it holds", "mbs-tiger", nil,
			func(x *tb) {
				for _, p := range []string{"bob", "cat", "dan"} {
					x.ok(&Place{Header: Header{Role: RoleDealer, Actor: "dealer-1"}, Player: p, Seat: "3", Bet: "small_tiger", Stake: 100})
				}
			},
			&Place{Header: Header{Role: RoleDealer, Actor: "dealer-1"}, Player: "ann", Seat: "3", Bet: "small_tiger", Stake: 100}, baccarat.CodeAreaFull,
			baccarat.Params{"max": 3}},
		{"RWS 3.3 both sides names the side held", "rws-no-commission", nil,
			func(x *tb) { x.place("ann", "player", 100) },
			&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBothSides,
			baccarat.Params{"side": "player"}},
		{"RWS 3.4 a side bet alone names the bet", "rws-no-commission", nil, nil,
			&Place{Player: "ann", Bet: "tie", Stake: 100}, baccarat.CodeSideBetNeedsMain,
			baccarat.Params{"bet": "tie"}},
		{"an unknown bet names the id sent", "mbs-tiger", nil, nil,
			&Place{Player: "ann", Bet: "dragon", Stake: 100}, baccarat.CodeUnknownBet,
			baccarat.Params{"bet": "dragon"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Game: c.game, Currency: "USD"}
			if c.game == "mbs-tiger" {
				cfg.Limits, cfg.Differential, cfg.MaxWagersPerArea = map[string]Limit{"tie": {Min: 100, Max: 1000}}, 5000, 3
			}
			x := newTB(t, cfg, "ann", "bob", "cat", "dan")
			x.ok(&Open{})
			if c.setup != nil {
				c.setup(x)
			}
			x.refused(c.place, c.code)
			_, err := x.apply(c.place)
			var e *baccarat.Error
			if !errors.As(err, &e) {
				t.Fatalf("%v is not a *baccarat.Error", err)
			}
			if !maps.EqualFunc(e.Params, c.want, func(a, b any) bool { return a == b }) {
				t.Errorf("params %v, want %v", e.Params, c.want)
			}
		})
	}
}

// TestOddsRefusalsNameTheBetAndOdds: Bet on Baccarat's refusals (SPEC §3.5) name the bet, and
// odds that changed both the odds now and those sent, as the decimal odds the API writes.
func TestOddsRefusalsNameTheBetAndOdds(t *testing.T) {
	x := newTB(t, Config{Game: "bet-on-baccarat"}, "ann")
	x.ok(&Open{})
	if len(x.prices) == 0 {
		t.Fatal("no prices")
	}
	pr := x.prices[0]
	_, err := x.apply(&Place{Player: "ann", Bet: pr.Bet, Stake: 100, Odds: pr.Odds + 1})
	want := baccarat.Params{"bet": pr.Bet, "odds": pr.Odds.String(), "sent": (pr.Odds + 1).String()}
	if e, ok := err.(*baccarat.Error); !ok || e.Code != baccarat.CodeOddsChanged || !maps.Equal(toStrings(e.Params), toStrings(want)) {
		t.Errorf("odds changed: %v (%#v), want params %v", err, err, want)
	}
	x.prices = slices.Clone(x.prices)
	x.prices[0].Offered = false
	_, err = x.apply(&Place{Player: "ann", Bet: pr.Bet, Stake: 100, Odds: pr.Odds})
	if e, ok := err.(*baccarat.Error); !ok || e.Code != baccarat.CodeBetNotOffered || e.Params["bet"] != pr.Bet {
		t.Errorf("not offered: %v (%#v), want params bet=%s", err, err, pr.Bet)
	}
}

func toStrings(p baccarat.Params) map[string]string {
	out := map[string]string{}
	for k, v := range p {
		out[k], _ = v.(string)
	}
	return out
}
