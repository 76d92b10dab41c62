package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/web"
)

// cupSpec is a tournament whose registration is open for an hour.
func cupSpec() live.TournamentSpec {
	now := time.Now().UTC().Add(-time.Second)
	return live.TournamentSpec{Config: tournament.Config{ID: "cup", Name: "Cup", Game: "mbs-dragon", Currency: "XXX", EntryFee: 2500,
		StartingChips: 10_000, MaxEntrants: 6, TableSize: 6, RegistrationOpens: now, RegistrationCloses: now.Add(time.Hour),
		Start: now.Add(time.Hour), Stakes: tournament.Stakes{Min: 100, Max: 2000}, Rounds: []tournament.Round{{Hands: 10}},
		Prizes: []int{10000}, Dragon: true}}
}

type tournamentView struct {
	ID    string `json:"id"`
	Phase string `json:"phase"`
	Seq   uint64 `json:"seq"`
	State struct {
		Entrants []struct {
			Player string `json:"player"`
		} `json:"entrants"`
		Pool struct {
			Total baccarat.Money `json:"total"`
		} `json:"pool"`
	} `json:"state"`
	Me *struct {
		Registered bool           `json:"registered"`
		Balance    baccarat.Money `json:"balance"`
	} `json:"me"`
	Code baccarat.Code `json:"code"`
}

func TestTournamentAPIRegistersFollowsAndRefuses(t *testing.T) {
	f := newFixture(t)
	var created tournamentView
	if code := f.do("admin", "POST", "/api/admin/tournaments", cupSpec(), &created); code != 201 || created.ID != "cup" {
		t.Fatalf("an admin creates a tournament: %d %+v", code, created)
	}
	if code := f.do("ann", "POST", "/api/admin/tournaments", cupSpec(), nil); code != http.StatusForbidden {
		t.Fatalf("a player creates a tournament: %d", code)
	}
	waitPhase(t, f, "registering")
	for _, c := range []struct {
		name, who, path string
		status          int
		code            baccarat.Code
	}{
		{"SPEC 5 a player registers: the fee leaves the wallet for the pool", "ann", "/register", 200, ""},
		{"SPEC 5 once", "ann", "/register", http.StatusConflict, tournament.CodeAlreadyRegistered},
		{"a dealer does not register", "dealer", "/register", http.StatusForbidden, "not_authorized"},
		{"SPEC 5 a player who is not registered has nothing to withdraw", "bob", "/unregister", http.StatusConflict, tournament.CodeNotRegistered},
		{"SPEC 5 no rebuy before the start", "bob", "/rebuy", http.StatusConflict, "bad_state"},
		{"no such tournament", "ann", "/../nope/register", http.StatusNotFound, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var v tournamentView
			if got := f.do(c.who, "POST", "/api/tournaments/cup"+c.path, nil, &v); got != c.status || (c.code != "" && v.Code != c.code) {
				t.Fatalf("%d %q, want %d %q", got, v.Code, c.status, c.code)
			}
		})
	}
	var v tournamentView
	f.do("ann", "GET", "/api/tournaments/cup", nil, &v)
	if v.Me == nil || !v.Me.Registered || v.Me.Balance != 100_000-2500 || v.State.Pool.Total != 2500 || len(v.State.Entrants) != 1 {
		t.Fatalf("after ann registered: %+v %+v", v, v.Me)
	}
	// Following: a long poll answers as soon as the tournament moves past the seq it gave.
	done := make(chan tournamentView, 1)
	go func() {
		var next tournamentView
		f.do("", "GET", "/api/tournaments/cup?after="+itoa(v.Seq), nil, &next)
		done <- next
	}()
	time.Sleep(100 * time.Millisecond)
	f.do("bob", "POST", "/api/tournaments/cup/register", nil, nil)
	select {
	case next := <-done:
		if next.Seq <= v.Seq || len(next.State.Entrants) != 2 || next.Me != nil {
			t.Fatalf("the long poll answered %+v", next)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the long poll did not answer when the tournament moved")
	}
	f.do("ann", "POST", "/api/tournaments/cup/unregister", nil, &v)
	if v.Me == nil || v.Me.Registered || v.Me.Balance != 100_000 {
		t.Fatalf("SPEC 5 unregistering refunds the fee: %+v", v.Me)
	}
	var list []tournamentView
	if code := f.do("", "GET", "/api/tournaments", nil, &list); code != 200 || len(list) != 1 || list[0].ID != "cup" {
		t.Fatalf("the list: %d %+v", code, list)
	}
}

func waitPhase(t *testing.T, f *fixture, phase string) {
	t.Helper()
	for i := 0; i < 200; i++ {
		var v tournamentView
		f.do("", "GET", "/api/tournaments/cup", nil, &v)
		if v.Phase == phase {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the tournament never reached %s", phase)
}

func itoa(n uint64) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

func TestCashTableOfATournamentGameMustSaySoAndShowsItsExactEdge(t *testing.T) {
	for _, c := range []struct {
		name string
		spec live.Spec
		ok   bool
	}{
		{"SPEC 5 MBS Tournament for money without cash: true is refused", live.Spec{ID: "c1", Config: table.Config{Game: "mbs-tournament"}}, false},
		{"SPEC 5 RWS for money without cash: true is refused", live.Spec{ID: "c2", Config: table.Config{Game: "rws-no-commission"}, Currency: "EUR"}, false},
		{"SPEC 5 MBS Dragon with cash: true is taken", live.Spec{ID: "c3", Config: table.Config{Game: "mbs-dragon", Cash: true}}, true},
		{"a tournament's chips are not cash", live.Spec{ID: "c4", Config: table.Config{Game: "mbs-dragon"}, Currency: "CHIPS:cup"}, true},
		{"a cash game needs nothing", live.Spec{ID: "c5", Config: table.Config{Game: "mbs-tiger"}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := cash.Check(c.spec.ID, c.spec.Config, c.spec.Currency, c.spec.Tournament != nil); (err == nil) != c.ok {
				t.Fatalf("cash.Check: %v", err)
			}
		})
	}
	edges := map[string]cash.BetEdge{}
	for _, e := range web.PlayerEdges(table.Config{Game: "mbs-dragon", Cash: true}, "XXX") {
		edges[e.Bet] = e
	}
	for bet, want := range map[string]string{"banker": "+1.2351%", "player": "-1.2351%", "tie": "-14.3596%",
		"banker_dragon": "+97.8986%", "player_dragon": "+75.1298%", "any_dragon": "+99.0610%"} {
		if edges[bet].PlayerEdge != want {
			t.Errorf("SPEC 3.4 %s: player edge %q, want %q", bet, edges[bet].PlayerEdge, want)
		}
	}
	if edges["banker"].Exact != "241149546272/19524993263685" || edges["any_dragon"].Hands != 30 {
		t.Errorf("SPEC 3.1 Banker at 1:1, exactly: %+v %+v", edges["banker"], edges["any_dragon"])
	}
	if web.PlayerEdges(table.Config{Game: "mbs-dragon"}, "CHIPS:cup") != nil || web.PlayerEdges(table.Config{Game: "mbs-tiger"}, "XXX") != nil {
		t.Error("only a tournament game's cash table shows a player edge")
	}
	f := newFixture(t)
	spec := live.Spec{ID: "mbs", Name: "MBS for cash", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tournament"}}
	if code := f.do("admin", "POST", "/api/admin/tables", spec, nil); code != http.StatusBadRequest {
		t.Fatalf("SPEC 5 an admin's cash table of a tournament game without cash: true: %d", code)
	}
	spec.Config.Cash = true
	if code := f.do("admin", "POST", "/api/admin/tables", spec, nil); code != 201 {
		t.Fatalf("with cash: true: %d", code)
	}
	var lobby []web.TableView
	f.do("", "GET", "/api/tables", nil, &lobby)
	for _, tv := range lobby { // the fixture's RWS table plays for money too, from before the rule
		if (tv.ID == "mbs" || tv.ID == "rws") != (len(tv.PlayerEdge) == 5) {
			t.Errorf("the lobby's %s shows %d player edges", tv.ID, len(tv.PlayerEdge))
		}
	}
}
