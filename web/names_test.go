package web_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/web"
)

// The operator's ids of two players: what no other player may ever read.
const (
	annID = "op-7731-ann"
	bobID = "op-5520-bob"
)

// newPeopleFixture is a server as `baccarat serve` runs one: its host shows players to one
// another by handle and display name (access.People under the tokens' secret).
func newPeopleFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("0123456789abcdef0123456789abcdef")
	host := live.New(live.Options{Store: db, Owner: "test", People: access.NewPeople(secret, db)})
	if err := host.Open(ctx); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, host: host, db: db, tokens: map[string]string{}, issuer: access.NewTokens(secret)}
	for _, a := range []access.Account{{ID: annID, Role: web.RolePlayer}, {ID: bobID, Role: web.RolePlayer},
		{ID: "dealer", Role: web.RoleDealer, Tables: []string{"sq"}}, {ID: "admin", Role: web.RoleAdmin}} {
		f.account(a)
	}
	for _, p := range []string{annID, bobID} {
		if err := host.Credit(ctx, "c-"+p, p, live.PlayMoney, 100_000); err != nil {
			t.Fatal(err)
		}
	}
	f.srv = web.New(web.Options{Host: host, Books: db, Accounts: db, Tokens: f.issuer})
	if err := f.srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = f.srv.Shutdown(ctx)
		host.Close()
		db.Close()
	})
	return f
}

// body is a GET's answer as who reads it.
func (f *fixture) body(who, path string) string {
	f.t.Helper()
	_, b := f.raw(who, "GET", path, nil, nil)
	return string(b)
}

type publicMe struct {
	Public *struct {
		Handle string `json:"handle"`
		Name   string `json:"name"`
		Number int    `json:"number"`
	} `json:"public"`
}

func TestDisplayNameIsChosenAndRefusedByTheNameRules(t *testing.T) {
	f := newPeopleFixture(t)
	var me publicMe
	f.do(bobID, "GET", "/api/me", nil, &me)
	if me.Public == nil || me.Public.Name != "" || me.Public.Number < 1000 || me.Public.Handle == "" || strings.Contains(me.Public.Handle, bobID) {
		t.Fatalf("a player without a name is a neutral number: %+v", me.Public)
	}
	for _, c := range []struct {
		name, who string
		body      any
		status    int
		code      baccarat.Code
	}{
		{"a name that passes for the dealer is refused", annID, map[string]any{"name": "Dealer"}, 400, "invalid_name"},
		{"a bot's prefix is refused", annID, map[string]any{"name": "bot.ann"}, 400, "invalid_name"},
		{"an invisible character is refused", annID, map[string]any{"name": "Li\u200bn"}, 400, "invalid_name"},
		{"a name over 24 characters is refused", annID, map[string]any{"name": strings.Repeat("x", 25)}, 400, "invalid_name"},
		{"staff choose no display name", "dealer", map[string]any{"name": "Lin"}, 403, "not_authorized"},
		{"a player chooses their name", annID, map[string]any{"name": "  Lin  "}, 200, ""},
	} {
		var e apiError
		if code := f.do(c.who, "PUT", "/api/me/name", c.body, &e); code != c.status || e.Code != c.code {
			t.Errorf("%s: %d %+v", c.name, code, e)
		}
	}
	f.do(annID, "GET", "/api/me", nil, &me)
	if me.Public == nil || me.Public.Name != "Lin" {
		t.Fatalf("the chosen name, trimmed: %+v", me.Public)
	}
	var audit []struct {
		Actor, Action, Target string
		Detail                json.RawMessage
	}
	f.do("admin", "GET", "/api/admin/audit?target="+annID, nil, &audit)
	if len(audit) != 1 || audit[0].Actor != annID || audit[0].Action != "account.update" || !strings.Contains(string(audit[0].Detail), `"Lin"`) {
		t.Errorf("the change is audited once, by the player, refusals not at all: %+v", audit)
	}
}

// TestSqueezeAndLeaderboardShowNamesNeverAccountIDs: the player who squeezes is shown to the
// others by name (the snapshot, the stream's squeeze_started and peels), a tournament's
// leaderboard names players by handle with their names, and nothing another player reads
// holds the first one's account id.
func TestSqueezeAndLeaderboardShowNamesNeverAccountIDs(t *testing.T) {
	f := newPeopleFixture(t)
	if code := f.do(annID, "PUT", "/api/me/name", map[string]any{"name": "Lin"}, nil); code != 200 {
		t.Fatalf("ann names herself: %d", code)
	}
	var ann, bob publicMe
	f.do(annID, "GET", "/api/me", nil, &ann)
	f.do(bobID, "GET", "/api/me", nil, &bob)

	// The squeeze.
	if code := f.do("admin", "POST", "/api/admin/tables", live.Spec{ID: "sq", Name: "Squeeze", Mode: live.ModeDealer,
		Config: table.Config{Game: "mbs-tiger", Squeeze: true}}, nil); code != 201 {
		t.Fatalf("creating the table: %d", code)
	}
	f.dealer("sq", map[string]any{"cmd": "new_shoe"})
	f.dealer("sq", map[string]any{"cmd": "open"})
	for who, stake := range map[string]int{annID: 2000, bobID: 1000} {
		if code := f.do(who, "POST", "/api/tables/sq/wagers", map[string]any{"bet": "banker", "stake": stake}, nil); code != 200 {
			t.Fatalf("%s's wager: %d", who, code)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(f.srv.URL(), "http", "ws", 1)+"/api/tables/sq/stream?token="+f.tokens[bobID], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	f.dealer("sq", map[string]any{"cmd": "close"})
	f.cards("sq", "2h", "3d", "3c", "3s") // the Banker's cards face down to all but ann
	if code := f.do(annID, "POST", "/api/tables/sq/peel", map[string]any{"card": 0, "lift": 40}, nil); code != 204 {
		t.Fatalf("ann's peel: %d", code)
	}
	var stream strings.Builder
	var started, peeled bool
	for !started || !peeled {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("the stream ended before the squeeze and the peel: %v\n%s", err, stream.String())
		}
		stream.Write(b)
		stream.WriteByte('\n')
		msgs := []json.RawMessage{b}
		if len(b) > 0 && b[0] == '[' { // messages written together
			_ = json.Unmarshal(b, &msgs)
		}
		for _, b := range msgs {
			var m struct {
				Type  string
				Event *struct {
					Type   string `json:"type"`
					Player string `json:"player"`
				}
				Peel  *struct{ Squeezer string }
				Names map[string]access.Person
			}
			_ = json.Unmarshal(b, &m)
			switch {
			case m.Type == "event" && m.Event != nil && m.Event.Type == "squeeze_started":
				started = true
				if m.Event.Player != ann.Public.Handle || m.Names[ann.Public.Handle].Name != "Lin" {
					t.Errorf("squeeze_started names the squeezer by handle, shown as Lin: %s", b)
				}
			case m.Type == "peel":
				peeled = true
				if m.Peel == nil || m.Peel.Squeezer != ann.Public.Handle {
					t.Errorf("a peel names the squeezer by handle: %s", b)
				}
			}
		}
	}
	if strings.Contains(stream.String(), annID) {
		t.Errorf("bob's stream holds ann's account id:\n%s", stream.String())
	}
	var snap struct {
		State table.State
		Names map[string]access.Person
	}
	f.do(bobID, "GET", "/api/tables/sq", nil, &snap)
	if snap.State.Squeeze == nil || snap.State.Squeeze.Squeezer != ann.Public.Handle || snap.Names[ann.Public.Handle].Name != "Lin" {
		t.Errorf("bob's snapshot: squeeze %+v, names %+v", snap.State.Squeeze, snap.Names)
	}
	if body := f.body(bobID, "/api/tables/sq"); strings.Contains(body, annID) {
		t.Errorf("bob's snapshot holds ann's account id: %s", body)
	}

	// The tournament.
	now := time.Now().UTC()
	spec := live.TournamentSpec{Config: tournament.Config{ID: "cup", Name: "Cup", Game: "mbs-dragon", Currency: "XXX", EntryFee: 2500,
		StartingChips: 10_000, MaxEntrants: 6, TableSize: 6, RegistrationOpens: now.Add(-time.Second), RegistrationCloses: now.Add(1500 * time.Millisecond),
		Start: now.Add(1500 * time.Millisecond), Stakes: tournament.Stakes{Min: 100, Max: 2000}, Rounds: []tournament.Round{{Hands: 10}},
		Prizes: []int{10000}, Dragon: true}}
	if code := f.do("admin", "POST", "/api/admin/tournaments", spec, nil); code != 201 {
		t.Fatalf("creating the tournament: %d", code)
	}
	waitPhase(t, f, "registering")
	for _, who := range []string{annID, bobID} {
		if code := f.do(who, "POST", "/api/tournaments/cup/register", nil, nil); code != 200 {
			t.Fatalf("%s registers: %d", who, code)
		}
	}
	waitPhase(t, f, "running")
	var v struct {
		State struct {
			Leaderboard []struct{ Player string } `json:"leaderboard"`
		} `json:"state"`
		Me *struct {
			Player string `json:"player"`
		} `json:"me"`
		Names map[string]access.Person `json:"names"`
	}
	f.do(bobID, "GET", "/api/tournaments/cup", nil, &v)
	shown := map[string]access.Person{}
	for _, s := range v.State.Leaderboard {
		shown[s.Player] = v.Names[s.Player]
	}
	if len(shown) != 2 || shown[ann.Public.Handle].Name != "Lin" || shown[bob.Public.Handle].Number != bob.Public.Number ||
		v.Me == nil || v.Me.Player != bob.Public.Handle {
		t.Errorf("the leaderboard by handle and name: %+v, names %+v, me %+v", v.State.Leaderboard, v.Names, v.Me)
	}
	for _, who := range []string{bobID, ""} {
		for _, path := range []string{"/api/tournaments/cup", "/api/tournaments", "/api/tables"} {
			if body := f.body(who, path); strings.Contains(body, annID) {
				t.Errorf("%s as %q holds ann's account id: %s", path, who, body)
			}
		}
	}
	if body := f.body("admin", "/api/tournaments/cup"); !strings.Contains(body, annID) {
		t.Errorf("staff see players by account id: %s", body)
	}
}
