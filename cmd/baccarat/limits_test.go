package main

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

var limitsSecret = []byte("limits-operator-secret-0123456789")

// startLimitsServer runs the program with launches signed under limitsSecret and two EUR
// tables, a and b, that stay in betting, on the database at db.
func startLimitsServer(t *testing.T, db string) *secServer {
	t.Helper()
	dir := filepath.Dir(db)
	cfg := serveConfig{Tables: []live.Spec{
		{ID: "a", Name: "A", Mode: live.ModeAuto, Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}, Schedule: live.Schedule{Betting: 10 * time.Minute}},
		{ID: "b", Name: "B", Mode: live.ModeAuto, Currency: "EUR", Config: table.Config{Game: "punto-banco"}, Schedule: live.Schedule{Betting: 10 * time.Minute}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: db, Config: path, Demo: demoTournaments{Off: true},
		Operator: operatorFlags{OperatorSecret: hex.EncodeToString(limitsSecret)}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	x := &secServer{t: t, s: s, tokens: map[string]string{"admin": s.links["admin"]}}
	x.waitPhase("a", table.PhaseBetting)
	x.waitPhase("b", table.PhaseBetting)
	return x
}

// launch launches player with limits (nil: none sent), signed; the status and code, and on
// success signs the player in and credits them 1,000.00 EUR once.
func (x *secServer) launch(player string, limits *responsible.Limits) (int, string) {
	x.t.Helper()
	q := map[string]any{"player": player, "currency": "EUR"}
	if limits != nil {
		q["limits"] = limits
	}
	body, h := signedLaunchBody(x.t, q, limitsSecret)
	code, errCode, raw := x.post("", web.LaunchPath, body, h)
	if code != 200 {
		return code, errCode
	}
	var ans web.LaunchAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		x.t.Fatal(err)
	}
	var ex web.ExchangeAnswer
	x.want("", "POST", "/api/launch", map[string]string{"code": ans.Code}, 200, "", &ex)
	x.tokens[player] = ex.Token
	x.want("admin", "POST", "/api/admin/accounts/"+player+"/credit", map[string]any{"amount": 100_000, "key": "limits-" + player, "currency": "EUR"}, 200, "", nil)
	return 200, ""
}

// stake places a Banker wager and returns the status and code.
func (x *secServer) stake(player, tableID string, stake int64) (int, string, string) {
	x.t.Helper()
	code, errCode, raw := x.call(player, "POST", "/api/tables/"+tableID+"/wagers", map[string]any{"bet": "banker", "stake": stake})
	var e struct{ Message string }
	_ = json.Unmarshal(raw, &e)
	return code, errCode, e.Message
}

func (x *secServer) taken(player, tableID string, stake int64) {
	x.t.Helper()
	if code, errCode, msg := x.stake(player, tableID, stake); code != 200 {
		x.t.Fatalf("%s stakes %d at %s: %d %s %s; want it taken", player, stake, tableID, code, errCode, msg)
	}
}

func (x *secServer) refusedWager(player, tableID string, stake int64, status int, code string, words ...string) {
	x.t.Helper()
	got, gotCode, msg := x.stake(player, tableID, stake)
	if got != status || gotCode != code {
		x.t.Fatalf("%s stakes %d at %s: %d %s %s; want %d %s", player, stake, tableID, got, gotCode, msg, status, code)
	}
	for _, w := range words {
		if !strings.Contains(msg, w) {
			x.t.Fatalf("refusal %q does not say %q", msg, w)
		}
	}
}

// TestHTTPLaunchedPlayersAtEachLimit: players launched by the operator with limits, wagering at
// two tables, refused one minor unit past each limit and taken up to it, with the limit in
// words; the record of it in the player's view and the back office's; and all of it still
// so after the server restarts on its database.
func TestHTTPLaunchedPlayersAtEachLimit(t *testing.T) {
	db := filepath.Join(t.TempDir(), "limits.db")
	x := startLimitsServer(t, db)

	x.launch("round", &responsible.Limits{StakePerRound: 10_000})
	x.taken("round", "a", 6_000)
	x.refusedWager("round", "a", 4_001, 403, "limit_reached", "100.00 EUR per round", "40.00 EUR more at most")
	x.taken("round", "a", 4_000)
	x.taken("round", "b", 10_000) // another table's round

	x.launch("sess", &responsible.Limits{LossPerSession: 20_000})
	x.taken("sess", "a", 15_000)
	x.refusedWager("sess", "b", 5_001, 403, "limit_reached", "200.00 EUR per session")
	x.taken("sess", "b", 5_000)
	x.refusedWager("sess", "a", 1, 403, "limit_reached")

	x.launch("day", &responsible.Limits{LossPerDay: 30_000})
	x.taken("day", "a", 29_900)
	x.refusedWager("day", "b", 101, 403, "limit_reached", "per day")
	x.taken("day", "b", 100)

	if code, errCode := x.launch("bad", &responsible.Limits{LossPerDay: -5}); code != 400 || errCode != "bad_request" {
		t.Fatalf("a launch with a negative limit: %d %s", code, errCode)
	}
	tomorrow := time.Now().Add(24 * time.Hour).UTC()
	if code, errCode := x.launch("cool", &responsible.Limits{Excluded: &responsible.Exclusion{Kind: responsible.CoolOff, Until: tomorrow}}); code != 403 || errCode != "excluded" {
		t.Fatalf("a launch that cools the player off: %d %s", code, errCode)
	}

	// A player who excludes themselves on our pages: no more wagers, no more launches, and
	// the operator's next limits do not lift it.
	x.launch("self", nil)
	x.taken("self", "a", 100)
	var v web.LimitsView
	x.want("self", "POST", "/api/me/exclude", map[string]any{"kind": "self_exclusion", "months": 6}, 200, "", &v)
	if v.Excluded == nil || v.Excluded.Kind != responsible.SelfExclusion || v.Session.Open {
		t.Fatalf("after excluding themselves: %+v", v)
	}
	x.refusedWager("self", "b", 100, 403, "excluded", "self-exclusion")
	if code, errCode := x.launch("self", &responsible.Limits{}); code != 403 || errCode != "excluded" {
		t.Fatalf("a launch of a self-excluded player: %d %s", code, errCode)
	}
	x.want("self", "POST", "/api/me/exclude", map[string]any{"kind": "cool_off", "days": 1}, 200, "", &v)
	if v.Excluded.Kind != responsible.SelfExclusion {
		t.Fatalf("a cool-off shortened a self-exclusion: %+v", v.Excluded)
	}

	// The record: the player's own, and the back office's.
	x.want("sess", "GET", "/api/me/limits", nil, 200, "", &v)
	if v.Session.Tally.Staked != 20_000 || v.Limits.LossPerSession != 20_000 || !hasEvent(v.Events, responsible.EvLimitReached, "sess") {
		t.Fatalf("sess's view: %+v", v)
	}
	var all []responsible.Event
	x.want("admin", "GET", "/api/admin/limit-events?player=self", nil, 200, "", &all)
	if !hasEvent(all, responsible.EvExcluded, "self") {
		t.Fatalf("the back office's record: %+v", all)
	}
	x.want("admin", "GET", "/api/admin/limit-events?limit=5000", nil, 400, "bad_request", nil)
	x.want("admin", "PUT", "/api/admin/accounts/round/limits", map[string]any{"stake_per_round": 20_000, "colour": "red"}, 400, "bad_request", nil)

	// The server restarts on its database: the tallies and exclusions are still there.
	x.s.Close()
	x = startLimitsServer(t, db)
	defer x.s.Close()
	x.tokens["day"], x.tokens["round"] = relaunch(t, x, "day"), relaunch(t, x, "round")
	x.refusedWager("day", "a", 1, 403, "limit_reached", "per day") // a new session, the same day
	if code, errCode := x.launch("self", nil); code != 403 || errCode != "excluded" {
		t.Fatalf("after the restart, a self-excluded player launched: %d %s", code, errCode)
	}
	x.want("admin", "PUT", "/api/admin/accounts/round/limits", map[string]any{"stake_per_round": 20_000}, 200, "", nil)
	x.taken("round", "a", 10_000) // the same round: 100.00 staked before, 200.00 allowed now
	x.refusedWager("round", "a", 1, 403, "limit_reached")
}

// relaunch signs a player in again (a new session) without crediting them.
func relaunch(t *testing.T, x *secServer, player string) string {
	t.Helper()
	body, h := signedLaunchBody(t, map[string]any{"player": player, "currency": "EUR"}, limitsSecret)
	code, errCode, raw := x.post("", web.LaunchPath, body, h)
	if code != 200 {
		t.Fatalf("relaunch %s: %d %s", player, code, errCode)
	}
	var ans web.LaunchAnswer
	_ = json.Unmarshal(raw, &ans)
	var ex web.ExchangeAnswer
	x.want("", "POST", "/api/launch", map[string]string{"code": ans.Code}, 200, "", &ex)
	return ex.Token
}

func hasEvent(evs []responsible.Event, kind responsible.EventKind, player string) bool {
	for _, e := range evs {
		if e.Kind == kind && e.Player == player {
			return true
		}
	}
	return false
}

// TestHTTPRealityCheckAnswers: a launched player answers a reality check (continue, or
// leave, which ends the session); answers of another session or in other words are refused.
func TestHTTPRealityCheckAnswers(t *testing.T) {
	x := startLimitsServer(t, filepath.Join(t.TempDir(), "rc.db"))
	defer x.s.Close()
	x.launch("rc", &responsible.Limits{RealityCheck: 1})
	x.taken("rc", "a", 100)
	var v web.LimitsView
	x.want("rc", "GET", "/api/me/limits", nil, 200, "", &v)
	if v.Session.CheckNow || v.Session.CheckDue.Sub(v.Session.Started) != time.Minute {
		t.Fatalf("a check due a minute in: %+v", v.Session)
	}
	// Answering before it is due is allowed (the page may ask early): the next is due a
	// minute from the answer.
	x.want("rc", "POST", "/api/me/reality-check", map[string]any{"answer": "continue", "session": v.Session.ID}, 200, "", &v)
	x.want("rc", "POST", "/api/me/reality-check", map[string]any{"answer": "continue", "session": v.Session.ID + 1}, 403, "session_ended", nil)
	x.want("rc", "POST", "/api/me/reality-check", map[string]any{"answer": "maybe"}, 400, "bad_request", nil)
	x.want("rc", "POST", "/api/me/reality-check", map[string]any{"answer": "leave"}, 200, "", &v)
	if v.Session.Open || v.Session.EndReason != responsible.EndLeft {
		t.Fatalf("after leaving: %+v", v.Session)
	}
	x.refusedWager("rc", "b", 100, 403, "session_ended")
}
