package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// The security suite: every way an attacker or a careless operator was seen to break the
// server, tried again the same way against a real server on 127.0.0.1:0. Each attempt must
// be refused with its code and change nothing: no balance, no journal record.

// secServer runs the whole program with an automatic Tiger table that stays in betting for
// the length of the test, and a dealer table; it has accounts for two players, the demo
// dealer (assigned the dealer table only), a pit assigned the automatic table, and an admin.
type secServer struct {
	t      *testing.T
	s      *server
	tokens map[string]string
}

func startSecServer(t *testing.T, tune ...func(*server)) *secServer {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{
		{ID: "tiger", Name: "Tiger", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"},
			Schedule: live.Schedule{Betting: 10 * time.Minute}},
		{ID: "live", Name: "Live Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "sec.db"), Config: path}
	for _, fn := range tune {
		fn(s)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	x := &secServer{t: t, s: s, tokens: map[string]string{"demo": s.links["player_token"], "dealer": s.links["dealer_token"], "admin": s.links["admin"]}}
	for _, a := range []map[string]any{
		{"id": "ann", "role": "player"}, {"id": "bob", "role": "player"},
		{"id": "pit-1", "role": "pit", "tables": []string{"tiger"}},
	} {
		var out struct{ Token string }
		x.want("admin", "POST", "/api/admin/accounts", a, 201, "", &out)
		x.tokens[a["id"].(string)] = out.Token
	}
	for _, p := range []string{"ann", "bob"} {
		x.want("admin", "POST", "/api/admin/accounts/"+p+"/credit", map[string]any{"amount": 100_000}, 200, "", nil)
	}
	x.waitPhase("tiger", table.PhaseBetting)
	return x
}

// call sends a request (body: a value to encode, or raw []byte) and returns the status, the
// error code if any, and the raw answer.
func (x *secServer) call(who, method, path string, body any, hdr ...string) (int, string, []byte) {
	x.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, x.s.web.URL()+path, rd)
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+x.tokens[who])
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		x.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e struct{ Code string }
	_ = json.Unmarshal(raw, &e)
	return resp.StatusCode, e.Code, raw
}

// want checks a request's status and code, decoding a success into out.
func (x *secServer) want(who, method, path string, body any, status int, code string, out any) []byte {
	x.t.Helper()
	got, gotCode, raw := x.call(who, method, path, body)
	if got != status || gotCode != code {
		x.t.Fatalf("%s %s as %s: %d %s, want %d %s", method, path, who, got, truncateBody(raw), status, code)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			x.t.Fatal(err)
		}
	}
	return raw
}

func truncateBody(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// balance reads a player's balance as the admin sees it (the player may be disabled).
func (x *secServer) balance(who string) int64 {
	x.t.Helper()
	var a struct{ Balance int64 }
	x.want("admin", "GET", "/api/admin/accounts/"+who, nil, 200, "", &a)
	return a.Balance
}

func (x *secServer) head(tableID string) uint64 {
	x.t.Helper()
	h, err := x.s.store.Head(context.Background(), tableID)
	if err != nil {
		x.t.Fatal(err)
	}
	return h.Seq
}

func (x *secServer) waitPhase(tableID string, p table.Phase) {
	x.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		snap, err := x.s.host.Snapshot(tableID, "")
		if err == nil && snap.State.Phase == p {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	x.t.Fatalf("table %s never reached %s", tableID, p)
}

// refused checks that a request is refused with status and code and that neither the
// balances of ann, bob and the demo player nor the journals of both tables moved.
func (x *secServer) refused(name, who, method, path string, body any, status int, code string) {
	x.t.Helper()
	before := [5]int64{x.balance("ann"), x.balance("bob"), x.balance("demo"), int64(x.head("tiger")), int64(x.head("live"))}
	got, gotCode, raw := x.call(who, method, path, body)
	if got != status || gotCode != code {
		x.t.Errorf("%s: %d %s, want %d %s", name, got, truncateBody(raw), status, code)
		return
	}
	after := [5]int64{x.balance("ann"), x.balance("bob"), x.balance("demo"), int64(x.head("tiger")), int64(x.head("live"))}
	if before != after {
		x.t.Errorf("%s was refused but something changed: balances and journal heads %v → %v", name, before, after)
	}
}

// TestSecurityDealerCannotRigAnAutomaticTable: a dealer token was used to end and restart
// the shoe of an automatic table and deal chosen cards into it, and to void its rounds.
// The table's mode is journalled; only the server deals an automatic table; the demo
// dealer acts on the demo dealer table only; voiding an automatic round is the pit's, with
// a reason, on the record.
func TestSecurityDealerCannotRigAnAutomaticTable(t *testing.T) {
	x := startSecServer(t)
	x.want("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 1000}, 200, "", nil)
	for _, cmd := range []map[string]any{
		{"cmd": "end_shoe"}, {"cmd": "new_shoe"}, {"cmd": "card", "card": "9h"}, {"cmd": "close"},
		{"cmd": "void", "reason": "dealer_error"}, {"cmd": "correct", "cards": []string{"9h"}},
		{"cmd": "simultaneous_draw", "cards": []string{"9h", "9d"}},
	} {
		x.refused("the demo dealer sends "+cmd["cmd"].(string)+" to the automatic table", "dealer", "POST", "/api/tables/tiger/commands", cmd, 403, "not_authorized")
	}
	// The pit assigned to the automatic table still may not deal it.
	for _, cmd := range []map[string]any{{"cmd": "end_shoe"}, {"cmd": "new_shoe"}, {"cmd": "card", "card": "9h"}, {"cmd": "close"}} {
		x.refused("the pit sends "+cmd["cmd"].(string)+" to the automatic table", "pit-1", "POST", "/api/tables/tiger/commands", cmd, 403, "not_authorized")
	}
	// Nobody sends a shoe order: the field does not exist for callers.
	x.refused("an order in a dealer command", "admin", "POST", "/api/tables/live/commands",
		map[string]any{"cmd": "new_shoe", "order": []string{"9h"}, "salt": "00"}, 400, "bad_request")
	// The dealer is not assigned the pit's table and the pit not the dealer's.
	x.refused("the pit on the dealer table", "pit-1", "POST", "/api/tables/live/commands", map[string]any{"cmd": "open"}, 403, "not_authorized")
	x.refused("a void without a reason", "pit-1", "POST", "/api/tables/tiger/commands", map[string]any{"cmd": "void"}, 400, "bad_request")
	// The pit voids the automatic round with a reason: the stake comes back, the actor is recorded.
	var out struct{ Events []table.Event }
	x.want("pit-1", "POST", "/api/tables/tiger/commands", map[string]any{"cmd": "void", "reason": "dealer_error"}, 200, "", &out)
	if len(out.Events) == 0 || out.Events[0].Type != table.EvRoundVoided || out.Events[0].Actor != "pit-1" || out.Events[0].Reason != "dealer_error" {
		t.Fatalf("the pit's void: %+v", out.Events)
	}
	if got := x.balance("ann"); got != 100_000 {
		t.Fatalf("after the void ann has %d, want her stake back", got)
	}
}

// TestSecurityLimitsCannotWedgeATable: a maximum of 2^63−1 was accepted, and a winning
// wager under it could never be committed. Limits now keep every bet's largest payout
// within what the books can post.
func TestSecurityLimitsCannotWedgeATable(t *testing.T) {
	x := startSecServer(t)
	for _, max := range []int64{math.MaxInt64, 1e15, 1e14} {
		x.refused("a limit whose payout the books cannot post", "admin", "PUT", "/api/admin/tables/tiger/limits",
			map[string]any{"bet": "tiger_pair", "min": 100, "max": max, "reason": "high roller"}, 400, "bad_request")
	}
	x.want("admin", "PUT", "/api/admin/tables/tiger/limits", map[string]any{"bet": "banker", "min": 100, "max": 5_000_000, "reason": "vip"}, 200, "", nil)
}

// TestSecurityBoundedInput: a 900 KB seat was placed and withdrawn 40 times (140 MB of
// database); ids took NUL and right-to-left overrides; a dotted account id got a token that
// never worked; bodies took trailing data.
func TestSecurityBoundedInput(t *testing.T) {
	x := startSecServer(t)
	huge := strings.Repeat("a", 900<<10)
	x.refused("a 900 KB seat", "ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100, "seat": huge}, 413, "too_large")
	x.refused("a 65-character seat", "ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100, "seat": strings.Repeat("a", 65)}, 400, "bad_request")
	for _, id := range []string{"r\x00", "r\u202eevil", "r 1", strings.Repeat("r", 65)} {
		x.refused("request id "+strings.ToValidUTF8(id[:min(8, len(id))], "?"), "ann", "POST", "/api/tables/tiger/wagers",
			map[string]any{"bet": "banker", "stake": 100, "request_id": id}, 400, "bad_request")
	}
	x.refused("trailing data after the object", "ann", "POST", "/api/tables/tiger/wagers", []byte(`{"bet":"banker","stake":100}{"bet":"tie","stake":100}`), 400, "bad_request")
	x.refused("an unknown field", "ann", "POST", "/api/tables/tiger/wagers", []byte(`{"bet":"banker","stake":100,"player":"bob"}`), 400, "bad_request")
	x.refused("an array body", "admin", "POST", "/api/admin/accounts/ann/credit", []byte(`[{"amount":100}]`), 400, "bad_request")
	x.refused("a dotted account id", "admin", "POST", "/api/admin/accounts", map[string]any{"id": "ann.smith", "role": "player"}, 400, "bad_request")
	x.refused("a credit to an account never created", "admin", "POST", "/api/admin/accounts/nobody/credit", map[string]any{"amount": 100}, 404, "not_found")
	x.refused("an over-long bet", "ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": strings.Repeat("b", 5000), "stake": 100}, 400, "unknown_bet")
}

// TestSecurityNobodyBlocksAnothersArea: three players each put a wager on seat "ann" and
// Ann could no longer bet. A player bets on their own playing area.
func TestSecurityNobodyBlocksAnothersArea(t *testing.T) {
	x := startSecServer(t)
	for _, p := range []string{"bob", "demo"} {
		x.refused(p+" bets on ann's area", p, "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "tiger", "stake": 100, "seat": "ann"}, 403, "not_authorized")
	}
	x.want("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "tiger", "stake": 100}, 200, "", nil)
	x.want("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "tiger", "stake": 100, "seat": "ann"}, 200, "", nil)
}

// TestSecurityIdempotencyOutlivesTheRound: the same request id in a later round placed a
// second wager or returned an empty one; with a different body it returned the original.
func TestSecurityIdempotencyOutlivesTheRound(t *testing.T) {
	x := startSecServer(t)
	var first struct{ Wager table.Wager }
	x.want("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "player", "stake": 500, "request_id": "r-1"}, 200, "", &first)
	x.want("pit-1", "POST", "/api/tables/tiger/commands", map[string]any{"cmd": "void", "reason": "technical_failure"}, 200, "", nil)
	x.waitPhase("tiger", table.PhaseBetting) // the next round
	var again struct{ Wager table.Wager }
	x.want("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "player", "stake": 500, "request_id": "r-1"}, 200, "", &again)
	if again.Wager.ID != first.Wager.ID || again.Wager.Stake != 500 || again.Wager.Round != first.Wager.Round {
		t.Fatalf("the same request id a round later: %+v, want the first wager %+v", again.Wager, first.Wager)
	}
	x.refused("the same id with another stake", "ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "player", "stake": 600, "request_id": "r-1"}, 409, "idempotency_conflict")
	x.refused("the same id at another table", "ann", "POST", "/api/tables/live/wagers", map[string]any{"bet": "player", "stake": 500, "request_id": "r-1"}, 409, "idempotency_conflict")
}

// TestSecurityConnections: anonymous streams without a cap, tokens in URLs, no Retry-After.
func TestSecurityConnections(t *testing.T) {
	x := startSecServer(t, func(s *server) {
		s.Streams = web.StreamLimits{PerToken: 2}
		s.AddressRate = 20
		s.Timeouts = web.Timeouts{ReadHeader: 300 * time.Millisecond, Read: 500 * time.Millisecond, Idle: 500 * time.Millisecond}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := strings.Replace(x.s.web.URL(), "http", "ws", 1) + "/api/tables/tiger/stream"
	if _, resp, err := websocket.Dial(ctx, ws, nil); err == nil || resp == nil || resp.StatusCode != 401 {
		t.Fatalf("an anonymous stream: %v %v", resp, err)
	}
	var conns []*websocket.Conn
	for i := 0; i < 2; i++ {
		c, _, err := websocket.Dial(ctx, ws+"?token="+x.tokens["ann"], nil)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	_, resp, err := websocket.Dial(ctx, ws+"?token="+x.tokens["ann"], nil)
	if err == nil || resp == nil || resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a third stream for one account: %v %v", resp, err)
	}
	for _, c := range conns {
		c.CloseNow()
	}
	// A token in the URL of an ordinary request is not a sign-in.
	if got, code, _ := x.call("", "GET", "/api/me?token="+x.tokens["ann"], nil); got != 401 || code != "unauthenticated" {
		t.Fatalf("?token= on a GET: %d %s", got, code)
	}
	// The scheme is case-insensitive.
	if got, _, _ := x.call("", "GET", "/api/me", nil, "Authorization", "bearer "+x.tokens["ann"]); got != 200 {
		t.Fatalf("lower-case bearer: %d", got)
	}
	// A slow client is cut: headers that never finish, a body that never comes.
	for name, send := range map[string]string{
		"headers that never end":  "GET /api/games HTTP/1.1\r\nHost: x\r\n",
		"a body that never comes": "POST /api/tables/tiger/wagers HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{",
	} {
		c, err := net.Dial("tcp", x.s.web.URL()[len("http://"):])
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.Write([]byte(send))
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		start := time.Now()
		_, err = bufio.NewReader(c).ReadString(0)
		if err == nil || time.Since(start) > 4*time.Second {
			t.Errorf("%s: the connection stayed open (%v after %s)", name, err, time.Since(start))
		}
		c.Close()
	}
	// Public GETs are rate limited per address, and 429 says when to come back.
	limited := false
	for i := 0; i < 200 && !limited; i++ {
		req, _ := http.NewRequest("GET", x.s.web.URL()+"/api/games", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 429 {
			limited = true
			if resp.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		}
	}
	if !limited {
		t.Fatal("200 public GETs in a burst were never limited")
	}
}

// TestSecurityRevocation: tokens could not be revoked short of changing the server secret.
func TestSecurityRevocation(t *testing.T) {
	x := startSecServer(t)
	x.want("admin", "PATCH", "/api/admin/accounts/ann", map[string]any{"disabled": true}, 200, "", nil)
	x.refused("a wager by a disabled player", "ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100}, 401, "unauthenticated")
	x.want("admin", "PATCH", "/api/admin/accounts/ann", map[string]any{"disabled": false}, 200, "", nil)
	x.want("ann", "GET", "/api/me", nil, 200, "", nil)
	old := x.tokens["ann"]
	var fresh struct{ Token string }
	x.want("admin", "POST", "/api/admin/accounts/ann/revoke", map[string]any{}, 200, "", &fresh)
	x.refused("a wager with a revoked token", "ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100}, 401, "unauthenticated")
	x.tokens["ann"] = fresh.Token
	x.want("ann", "GET", "/api/me", nil, 200, "", nil)
	if old == fresh.Token {
		t.Fatal("revoking issued the same token")
	}
	x.refused("an admin disabling themselves", "admin", "PATCH", "/api/admin/accounts/admin", map[string]any{"disabled": true}, 400, "bad_request")
}

// TestServeConfigCapsStreams: the config file's "streams" sets the caps on open streams (a
// floor of players behind one address needs more than the default 512; here, fewer).
func TestServeConfigCapsStreams(t *testing.T) {
	x := startSecServer(t, func(s *server) {
		var cfg map[string]any
		b, _ := os.ReadFile(s.Config)
		_ = json.Unmarshal(b, &cfg)
		cfg["streams"] = map[string]int{"per_address": 1}
		b, _ = json.Marshal(cfg)
		_ = os.WriteFile(s.Config, b, 0o600)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := strings.Replace(x.s.web.URL(), "http", "ws", 1) + "/api/tables/tiger/stream?token="
	c, _, err := websocket.Dial(ctx, ws+x.tokens["ann"], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, resp, err := websocket.Dial(ctx, ws+x.tokens["bob"], nil); err == nil || resp == nil || resp.StatusCode != 429 {
		t.Fatalf("a second stream from an address capped at one: %v %v", resp, err)
	}
}
