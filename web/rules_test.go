package web_test

import (
	"context"
	"math/big"
	"strconv"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

func (f *fixture) rules(id string) web.RulesView {
	f.t.Helper()
	var v web.RulesView
	if code := f.do("", "GET", "/api/tables/"+id+"/rules", nil, &v); code != 200 {
		f.t.Fatalf("GET /api/tables/%s/rules: %d", id, code)
	}
	return v
}

func pct4(r *big.Rat) string { return new(big.Rat).Mul(r, big.NewRat(100, 1)).FloatString(4) }

// sheetOf is the odds engine's PAR sheet of a full shoe.
func sheetOf(t *testing.T, game string, decks int, margins map[string]odds.Margin) (*odds.Analysis, *odds.Sheet) {
	t.Helper()
	g, err := games.ByID(game)
	if err != nil {
		t.Fatal(err)
	}
	a, err := odds.Analyze(context.Background(), baccarat.NewCounts(decks), nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, a.Sheet(g, margins)
}

// checkCoupBets compares every single-coup bet of a rules view with the odds engine, exactly.
func checkCoupBets(t *testing.T, v web.RulesView, sheet *odds.Sheet) {
	t.Helper()
	for _, b := range v.Bets {
		if b.Kind == "dragon" {
			continue
		}
		bs := sheet.Bet(b.ID)
		edge := bs.ExactHouseEdge()
		ret := new(big.Rat).Sub(big.NewRat(1, 1), edge)
		if b.HouseEdge.Fraction != edge.String() || b.HouseEdge.Percent != pct4(edge) {
			t.Errorf("%s %s house edge %+v, want %s = %s%%", v.Table, b.ID, b.HouseEdge, edge, pct4(edge))
		}
		if b.Return.Fraction != ret.String() || b.Return.Percent != pct4(ret) {
			t.Errorf("%s %s return %+v, want %s = %s%%", v.Table, b.ID, b.Return, ret, pct4(ret))
		}
		if b.Win.Fraction != bs.Win.Rat().String() || len(b.Tiers) != len(bs.Tiers) {
			t.Errorf("%s %s win %+v tiers %d, want %s and %d tiers", v.Table, b.ID, b.Win, len(b.Tiers), bs.Win, len(bs.Tiers))
		}
	}
}

func TestRulesAreTheOddsEnginesExactFigures(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, spec := range []live.Spec{
		{ID: "tiger6", Name: "Tiger 6", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger", Decks: 6}},
		{ID: "bob", Name: "BoB", Mode: live.ModeDealer, Config: table.Config{Game: "bet-on-baccarat", Margins: map[string]odds.Margin{"tie": 300}}},
		{ID: "dragon", Name: "Dragon", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-dragon", SessionHands: 20}},
	} {
		if err := f.host.Create(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("Tiger 8 decks: every bet as the PAR sheet says", func(t *testing.T) {
		v := f.rules("tiger")
		_, sheet := sheetOf(t, "mbs-tiger", 8, nil)
		if v.Decks != 8 || v.Cards != 416 || v.Tournament || len(v.Bets) != 8 || v.Limits["tie"].Max == 0 {
			t.Fatalf("view %+v", v)
		}
		checkCoupBets(t, v, sheet)
	})

	t.Run("SPEC 7 Tie 8:1 edge from the published 8-deck ways", func(t *testing.T) {
		// 475,627,426,473,216 Tie sequences of 416·415·414·413·412·411: edge = 1 − 9·T/N.
		T, _ := new(big.Int).SetString("475627426473216", 10)
		N := big.NewInt(416 * 415 * 414 * 413 * 412 * 411)
		edge := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFrac(new(big.Int).Mul(T, big.NewInt(9)), N))
		var tie web.BetRules
		for _, b := range f.rules("tiger").Bets {
			if b.ID == "tie" {
				tie = b
			}
		}
		if tie.Tiers[0].Pays != "8:1" || tie.HouseEdge.Fraction != edge.String() || tie.HouseEdge.Percent != "14.3596" {
			t.Fatalf("Tie %+v, want 8:1 and edge %s (14.3596%%)", tie, edge)
		}
	})

	t.Run("a 6-deck table is counted from 6 decks, not a cached 8", func(t *testing.T) {
		v := f.rules("tiger6")
		_, sheet := sheetOf(t, "mbs-tiger", 6, nil)
		if v.Decks != 6 || v.Cards != 312 {
			t.Fatalf("view %+v", v)
		}
		checkCoupBets(t, v, sheet)
	})

	t.Run("RWS is a tournament game with its placement rules", func(t *testing.T) {
		v := f.rules("rws")
		_, sheet := sheetOf(t, "rws-no-commission", 8, nil)
		if !v.Tournament || !v.OneSide || !v.SideNeedsMain || len(v.Rules) == 0 {
			t.Fatalf("view %+v", v)
		}
		checkCoupBets(t, v, sheet)
	})

	t.Run("BoB 3.5 the table's margins and its full-shoe odds", func(t *testing.T) {
		v := f.rules("bob")
		margins := map[string]odds.Margin{"tie": 300}
		_, sheet := sheetOf(t, "bet-on-baccarat", 6, margins)
		checkCoupBets(t, v, sheet)
		for _, b := range v.Bets {
			p := sheet.Bet(b.ID).Price
			if b.Margin == nil || b.Margin.Fraction != big.NewRat(int64(p.Margin), 10000).String() || b.Odds != p.Odds.String() {
				t.Errorf("%s margin %+v odds %q, want %d bp at %s", b.ID, b.Margin, b.Odds, p.Margin, p.Odds)
			}
			if b.ID == "tie" && b.Margin.Percent != "3.0000" {
				t.Errorf("the table's tie margin: %+v", b.Margin)
			}
		}
	})

	t.Run("Dragon 3.12 bets priced over the table's session", func(t *testing.T) {
		v := f.rules("dragon")
		a, _ := sheetOf(t, "mbs-dragon", 8, nil)
		g, _ := games.ByID("mbs-dragon")
		if !v.Tournament || v.SessionHands != 20 {
			t.Fatalf("view %+v", v)
		}
		for _, b := range v.Bets {
			if b.Kind != "dragon" {
				continue
			}
			ds, err := a.Dragon(ctx, g.Bet(b.ID), 20)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := strconv.ParseFloat(b.HouseEdge.Percent, 64)
			if d := got - 100*ds.HouseEdge; d > 0.00005 || d < -0.00005 || b.SessionHands != 20 {
				t.Errorf("%s edge %s%%, the engine says %.6f%%", b.ID, b.HouseEdge.Percent, 100*ds.HouseEdge)
			}
		}
	})

	t.Run("every tier carries its stable id, which the pages translate it by", func(t *testing.T) {
		for table, game := range map[string]string{"tiger": "mbs-tiger", "bob": "bet-on-baccarat", "dragon": "mbs-dragon"} {
			g, _ := games.ByID(game)
			for _, b := range f.rules(table).Bets {
				tiers := g.Bet(b.ID).Tiers
				for i, tr := range b.Tiers {
					if i >= len(tiers) || tr.ID != tiers[i].ID || tr.Event != tiers[i].Event {
						t.Errorf("%s %s tier %d is %q %q, want the game's", table, b.ID, i, tr.ID, tr.Event)
					}
				}
			}
		}
	})

	t.Run("limits are the table's current ones", func(t *testing.T) {
		body := map[string]any{"bet": "tie", "min": 200, "max": 5000, "reason": "test"}
		if code := f.do("pit", "PUT", "/api/admin/tables/tiger/limits", body, nil); code != 200 {
			t.Fatalf("set limit: %d", code)
		}
		if l := f.rules("tiger").Limits["tie"]; l.Min != 200 || l.Max != 5000 {
			t.Fatalf("tie limit %+v", l)
		}
	})

	t.Run("no such table is 404", func(t *testing.T) {
		var e apiError
		if code := f.do("", "GET", "/api/tables/nope/rules", nil, &e); code != 404 || e.Code != "not_found" {
			t.Fatalf("%d %+v", code, e)
		}
	})
}
