package web_test

import (
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// TestMethodCThroughTheAPI (Tiger 3.11 online): at an automatic Tiger table playing Method C
// the highest stake takes the shoe at No more bets and draws each card (POST /draw); another
// player's draw is not_authorized and a draw with no card due is extra_card, each changing
// nothing; the pit hands the shoe on (POST /hand-shoe), a dealer may not at an automatic
// table; the holder gives it up (POST /give-up-shoe); the table's state says who holds it.
// A dealer's table cannot be made to play Method C.
func TestMethodCThroughTheAPI(t *testing.T) {
	f := newFixture(t)
	f.account(access.Account{ID: "dealer-mc", Role: web.RoleDealer, Tables: []string{"mc"}})
	var e apiError
	if code := f.do("admin", "POST", "/api/admin/tables", live.Spec{ID: "mc-dealer", Name: "C", Mode: live.ModeDealer,
		Config: table.Config{Game: "mbs-tiger", ShoeToPlayer: true}}, &e); code != 400 || e.Code != "bad_request" {
		t.Fatalf("Method C at a dealer's table: %d %+v", code, e)
	}
	f.create(live.Spec{ID: "mc", Name: "Method C", Mode: live.ModeAuto,
		Config:   table.Config{Game: "mbs-tiger", ShoeToPlayer: true, DrawSeconds: 60},
		Schedule: live.Schedule{Betting: 1500 * time.Millisecond, Card: 10 * time.Millisecond, Result: time.Hour}})
	state := func() table.State {
		var v struct{ State table.State }
		f.do("ann", "GET", "/api/tables/mc", nil, &v)
		return v.State
	}
	waitFor := func(what string, ok func(table.State) bool) table.State {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			if st := state(); ok(st) {
				return st
			}
		}
		t.Fatalf("waiting for %s: %+v", what, state())
		return table.State{}
	}
	waitFor("betting", func(st table.State) bool { return st.BetOpen })
	for who, stake := range map[string]int{"ann": 2000, "bob": 1000} {
		if code := f.do(who, "POST", "/api/tables/mc/wagers", map[string]any{"bet": "banker", "stake": stake}, &e); code != 200 {
			t.Fatalf("%s's wager: %d %+v", who, code, e)
		}
	}
	st := waitFor("No more bets", func(st table.State) bool { return st.Phase == table.PhaseClosed })
	if st.MethodC == nil || st.MethodC.Holder != "ann" || !st.MethodC.Due || st.MethodC.DrawSeconds != 60 || st.MethodC.Until.IsZero() {
		t.Fatalf("Tiger 3.11 ann, the highest stake, holds the shoe and the first card waits for her: %+v", st.MethodC)
	}
	refused := func(who, path string, body any, status int, code baccarat.Code) {
		t.Helper()
		before := state()
		var e apiError
		if got := f.do(who, "POST", path, body, &e); got != status || e.Code != code {
			t.Fatalf("%s %s: %d %+v, want %d %s", who, path, got, e, status, code)
		}
		if after := state(); after.Seq != before.Seq {
			t.Fatalf("%s %s was refused, yet the table moved from event %d to %d", who, path, before.Seq, after.Seq)
		}
	}
	refused("bob", "/api/tables/mc/draw", nil, 403, "not_authorized")
	refused("bob", "/api/tables/mc/give-up-shoe", nil, 403, "not_authorized")
	refused("dealer-mc", "/api/tables/mc/hand-shoe", map[string]any{"player": "bob"}, 403, "not_authorized")
	refused("admin", "/api/tables/mc/hand-shoe", map[string]any{"player": "no one!"}, 400, "bad_request")
	refused("ann", "/api/tables/mc/hand-shoe", map[string]any{"player": "bob"}, 403, "not_authorized")
	var drawn struct{ Events []table.Event }
	if code := f.do("ann", "POST", "/api/tables/mc/draw", nil, &drawn); code != 200 || len(drawn.Events) == 0 ||
		drawn.Events[0].Type != table.EvCardDealt || drawn.Events[0].Actor != "ann" {
		t.Fatalf("ann draws the first card: %d %+v", code, drawn)
	}
	// The pit (an admin acts as the pit) hands the shoe to bob, who draws the rest.
	var handed struct{ Events []table.Event }
	if code := f.do("admin", "POST", "/api/tables/mc/hand-shoe", map[string]any{"player": "bob"}, &handed); code != 200 ||
		len(handed.Events) != 1 || handed.Events[0].Type != table.EvShoePassed || handed.Events[0].Player() != "bob" || handed.Events[0].Reason != table.PassHanded {
		t.Fatalf("the pit hands the shoe to bob: %d %+v", code, handed)
	}
	refused("ann", "/api/tables/mc/draw", nil, 403, "not_authorized")
	for st := state(); st.Phase == table.PhaseClosed || st.Phase == table.PhaseDealing; st = state() {
		if code := f.do("bob", "POST", "/api/tables/mc/draw", nil, &e); code != 200 {
			t.Fatalf("bob's draw: %d %+v", code, e)
		}
	}
	if st := state(); st.Phase != table.PhaseSettled || len(st.Cards) < 4 {
		t.Fatalf("the round is settled on the cards drawn: %+v", st)
	}
	if holder := state().MethodC.Holder; holder == "bob" {
		// Banker won or pushed: bob keeps it until he gives it up (Tiger 3.11.8.1).
		refused("bob", "/api/tables/mc/draw", nil, 409, "extra_card")
		if code := f.do("bob", "POST", "/api/tables/mc/give-up-shoe", nil, &e); code != 200 {
			t.Fatalf("bob gives the shoe up: %d %+v", code, e)
		}
	}
	if st := state(); st.MethodC.Holder != "" {
		t.Fatalf("nobody holds the shoe now: %+v", st.MethodC)
	}
}
