package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
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
	"github.com/tablehouse/baccarat/web"
)

// fixture is a real server on 127.0.0.1:0 with a temporary database, a dealer-driven Tiger
// table and tokens for every role.
type fixture struct {
	t      *testing.T
	srv    *web.Server
	host   *live.Host
	db     *sqlite.DB
	tokens map[string]string
	issuer *access.Tokens
	// metrics are the host's observer and the server's metrics.
	metrics *web.Metrics
}

// account creates an account and keeps a token for it under its id.
func (f *fixture) account(a access.Account) {
	f.t.Helper()
	a.Created = time.Now().UTC()
	if err := f.db.CreateAccount(context.Background(), a); err != nil {
		f.t.Fatal(err)
	}
	f.tokens[a.ID] = f.issuer.Issue(a)
}

func newFixture(t *testing.T, opts ...func(*web.Options)) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "web.db"))
	if err != nil {
		t.Fatal(err)
	}
	metrics := web.NewMetrics()
	host := live.New(live.Options{Store: db, Owner: "test", Observer: metrics})
	if err := host.Open(ctx); err != nil {
		t.Fatal(err)
	}
	for _, spec := range []live.Spec{
		{ID: "tiger", Name: "Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}},
		{ID: "rws", Name: "RWS", Mode: live.ModeDealer, Config: table.Config{Game: "rws-no-commission"}},
	} {
		if err := host.Create(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	tokens := access.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	f := &fixture{t: t, host: host, db: db, tokens: map[string]string{}, issuer: tokens, metrics: metrics}
	for _, a := range []access.Account{
		{ID: "ann", Role: web.RolePlayer}, {ID: "bob", Role: web.RolePlayer},
		{ID: "dealer", Role: web.RoleDealer, Tables: []string{"tiger", "rws"}},
		{ID: "pit", Role: web.RolePit, Tables: []string{"tiger", "rws"}}, {ID: "admin", Role: web.RoleAdmin},
	} {
		f.account(a)
	}
	for _, p := range []string{"ann", "bob"} {
		if err := host.Credit(ctx, "c-"+p, p, live.PlayMoney, 100_000); err != nil {
			t.Fatal(err)
		}
	}
	o := web.Options{Host: host, Books: db, Accounts: db, Tokens: tokens}
	for _, fn := range opts {
		fn(&o)
	}
	f.srv = web.New(o)
	f.srv.UseMetrics(metrics)
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

// do sends a request as who ("" for no token) and decodes the JSON answer into out.
func (f *fixture) do(who, method, path string, body any, out any) int {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, f.srv.URL()+path, rd)
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+f.tokens[who])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

type apiError struct {
	Code    baccarat.Code
	Message string
}

func (f *fixture) dealer(table string, cmd map[string]any) {
	f.t.Helper()
	var e apiError
	if code := f.do("dealer", "POST", "/api/tables/"+table+"/commands", cmd, &e); code != 200 {
		f.t.Fatalf("dealer %v: %d %+v", cmd, code, e)
	}
}

func (f *fixture) cards(table string, cards ...string) {
	for _, c := range cards {
		f.dealer(table, map[string]any{"cmd": "card", "card": c})
	}
}

func (f *fixture) balance(who string) baccarat.Money {
	var me struct{ Balance baccarat.Money }
	f.do(who, "GET", "/api/me", nil, &me)
	return me.Balance
}

func TestWagerSettlesThroughTheAPI(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	var placed struct {
		Wager   table.Wager
		Balance baccarat.Money
	}
	if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 1001, "request_id": "x1"}, &placed); code != 200 {
		t.Fatalf("wager: %d", code)
	}
	if placed.Balance != 100_000-1001 || placed.Wager.Stake != 1001 {
		t.Fatalf("placed %+v", placed)
	}
	f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 1001, "request_id": "x1"}, &placed)
	if got := f.balance("ann"); got != 100_000-1001 {
		t.Fatalf("the same request id placed twice: balance %d", got)
	}
	f.dealer("tiger", map[string]any{"cmd": "close"})
	f.cards("tiger", "2h", "3d", "3c", "3s", "9d") // Banker wins on a two-card 6: 1:2, 1001 → 500
	if got := f.balance("ann"); got != 100_000+500 {
		t.Fatalf("Tiger 4.1 banker on six pays 1:2 rounded down: balance %d, want 100500", got)
	}
	var hist []map[string]any
	f.do("ann", "GET", "/api/me/history", nil, &hist)
	if len(hist) != 3 { // credit, wager, settlement
		t.Fatalf("history: %v", hist)
	}
	var rounds []live.Round
	f.do("ann", "GET", "/api/tables/tiger/rounds?limit=10", nil, &rounds)
	if len(rounds) != 1 || len(rounds[0].Settlements) != 1 || rounds[0].Settlements[0].Net != 500 {
		t.Fatalf("recall: %+v", rounds)
	}
}

func TestErrorsHaveCodesAndStatuses(t *testing.T) {
	f := newFixture(t)
	f.dealer("rws", map[string]any{"cmd": "new_shoe"})
	cases := []struct {
		who, method, path string
		body              any
		status            int
		code              baccarat.Code
	}{
		{"ann", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": 100}, 409, "betting_closed"},
		{"ann", "POST", "/api/tables/nope/wagers", map[string]any{"bet": "banker", "stake": 100}, 404, "not_found"},
		{"ann", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": "lots"}, 400, "bad_request"},
		{"", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": 100}, 401, "unauthenticated"},
		{"dealer", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": 100}, 403, "not_authorized"},
		{"ann", "POST", "/api/tables/rws/commands", map[string]any{"cmd": "open"}, 403, "not_authorized"},
		{"ann", "POST", "/api/admin/accounts", map[string]any{"id": "eve"}, 403, "not_authorized"},
		{"dealer", "POST", "/api/admin/accounts/ann/credit", map[string]any{"amount": 5}, 403, "not_authorized"},
		{"dealer", "PUT", "/api/admin/tables/rws/limits", map[string]any{"bet": "tie", "min": 1, "max": 2}, 403, "not_authorized"},
		{"dealer", "POST", "/api/tables/rws/commands", map[string]any{"cmd": "place", "bet": "banker"}, 400, "bad_request"},
		{"dealer", "POST", "/api/tables/rws/commands", map[string]any{"cmd": "void", "reason": "whim"}, 409, "bad_state"},
	}
	for _, c := range cases {
		var e apiError
		if got := f.do(c.who, c.method, c.path, c.body, &e); got != c.status || e.Code != c.code || e.Message == "" {
			t.Errorf("%s %s %s as %q: %d %+v, want %d %s", c.method, c.path, c.body, c.who, got, e, c.status, c.code)
		}
	}
	f.dealer("rws", map[string]any{"cmd": "open"})
	var e apiError
	f.do("ann", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "player", "stake": 100}, nil)
	if got := f.do("ann", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": 100}, &e); got != 409 || e.Code != "both_sides" {
		t.Errorf("RWS 3.3 both sides: %d %+v", got, e)
	}
	if got := f.do("bob", "POST", "/api/tables/rws/wagers", map[string]any{"bet": "banker", "stake": 1_000_000}, &e); got != 402 || e.Code != "insufficient_funds" {
		t.Errorf("insufficient funds: %d %+v", got, e)
	}
}

func TestPlayersSeeOnlyTheirOwnMoney(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "player", "stake": 500}, nil)
	var snap struct {
		State table.State
	}
	f.do("bob", "GET", "/api/tables/tiger", nil, &snap)
	if len(snap.State.Wagers) != 0 || len(snap.State.Funds) != 1 || snap.State.Totals["player"] != 500 {
		t.Fatalf("bob sees ann's money: %+v", snap.State)
	}
	var e apiError
	// bob cannot withdraw ann's wager: a player acts only for themselves
	if code := f.do("bob", "POST", "/api/tables/tiger/withdraw", map[string]any{"wager": 1}, &e); code != 404 {
		t.Fatalf("bob withdrew: %d %+v", code, e)
	}
	if got := f.balance("ann"); got != 99_500 {
		t.Fatalf("ann's balance %d", got)
	}
}

func TestWebSocketSnapshotEventsAndResume(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := strings.Replace(f.srv.URL(), "http", "ws", 1) + "/api/tables/tiger/stream?token=" + f.tokens["ann"]
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	var pending []map[string]any
	msg := func() map[string]any {
		for len(pending) == 0 {
			pending = readFrame(t, ctx, c)
		}
		m := pending[0]
		pending = pending[1:]
		return m
	}
	if m := msg(); m["type"] != "snapshot" {
		t.Fatalf("first message %v", m)
	}
	f.dealer("tiger", map[string]any{"cmd": "open"})
	f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "player", "stake": 500}, nil)
	f.do("bob", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 700}, nil)
	var seen []string
	var lastSeq float64
	mySettlement := false
	// The totals are paced (a second apart at most) and never sent once a later event has
	// gone out: they come while betting is open, so the dealer waits for them before calling
	// "No more bets", as a slow machine may need to.
	dealt := false
	for len(seen) < 40 {
		if !dealt && contains(seen, "totals") {
			dealt = true
			f.dealer("tiger", map[string]any{"cmd": "close"})
			f.cards("tiger", "9h", "Kd", "Qc", "2s") // Player natural 9 wins
		}
		m := msg()
		typ, _ := m["type"].(string)
		ev, _ := m["event"].(map[string]any)
		if ev != nil {
			typ += ":" + ev["type"].(string)
			if s, ok := ev["settlements"].([]any); ok && m["type"] == "mine" {
				mySettlement = len(s) == 1
			}
			if m["type"] == "event" && ev["settlements"] != nil {
				t.Fatalf("a public settlement event carries settlements: %v", ev)
			}
			if w, ok := ev["wager"].(map[string]any); ok && w["player"] != "ann" {
				t.Fatalf("ann was sent bob's wager: %v", m)
			}
		}
		if s, ok := m["seq"].(float64); ok {
			lastSeq = s
		}
		seen = append(seen, typ)
		if typ == "roads" && dealt && contains(seen, "mine:round_settled") {
			break
		}
	}
	want := []string{"event:betting_opened", "mine:wager_placed", "totals", "event:betting_closed", "event:card_dealt", "event:round_settled", "mine:round_settled", "roads"}
	for _, w := range want {
		if !contains(seen, w) {
			t.Fatalf("stream lacks %s: %v", w, seen)
		}
	}
	if !mySettlement {
		t.Fatal("ann did not get her own settlement")
	}
	c.Close(websocket.StatusNormalClosure, "")
	// Reconnect after more happened: only the missed messages, no snapshot.
	f.dealer("tiger", map[string]any{"cmd": "open"})
	c2, _, err := websocket.Dial(ctx, url+"&since="+jsonNum(lastSeq), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.CloseNow()
	_, b, err := c2.Read(ctx)
	if err != nil || !strings.Contains(string(b), `"betting_opened"`) || strings.Contains(string(b), `"snapshot"`) {
		t.Fatalf("resume: %s %v", b, err)
	}
}

// readFrame reads one frame: a message, or an array of messages (web/API.md).
func readFrame(t *testing.T, ctx context.Context, c *websocket.Conn) []map[string]any {
	t.Helper()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 0 && b[0] == '[' {
		var ms []map[string]any
		if err := json.Unmarshal(b, &ms); err != nil {
			t.Fatal(err)
		}
		return ms
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return []map[string]any{m}
}

func jsonNum(f float64) string { b, _ := json.Marshal(f); return string(b) }

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestOpenAPIMetricsAndPages(t *testing.T) {
	f := newFixture(t)
	var doc map[string]any
	if code := f.do("", "GET", "/api/openapi.json", nil, &doc); code != 200 || doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi: %d", code)
	}
	for _, path := range []string{"/", "/table/tiger", "/dealer/tiger", "/static/app.js", "/metrics", "/api/games", "/api/tables"} {
		resp, err := http.Get(f.srv.URL() + path)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v %v", path, resp.StatusCode, err)
		}
		resp.Body.Close()
	}
}

func TestRateLimitPerToken(t *testing.T) {
	f := newFixture(t, func(o *web.Options) { o.RatePerToken, o.Burst = 1, 3 })
	codes := map[int]int{}
	for i := 0; i < 6; i++ {
		codes[f.do("ann", "GET", "/api/me", nil, nil)]++
	}
	if codes[429] == 0 || codes[200] != 3 {
		t.Fatalf("rate limit: %v", codes)
	}
}

// TestLobbyCountsThePlayersAtEachTable: the lobby lists how many players have a stake on
// each table now (its seats as a lobby counts them), not how many wagers.
func TestLobbyCountsThePlayersAtEachTable(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	for _, w := range []struct{ who, bet string }{{"ann", "banker"}, {"ann", "tie"}, {"bob", "player"}} {
		if code := f.do(w.who, "POST", "/api/tables/tiger/wagers", map[string]any{"bet": w.bet, "stake": 500}, nil); code != 200 {
			t.Fatalf("%s on %s: %d", w.who, w.bet, code)
		}
	}
	var lobby []struct {
		ID      string
		Players int
	}
	f.do("", "GET", "/api/tables", nil, &lobby)
	got := map[string]int{}
	for _, tv := range lobby {
		got[tv.ID] = tv.Players
	}
	if got["tiger"] != 2 || got["rws"] != 0 {
		t.Fatalf("players at each table: %v, want tiger 2 (ann and bob), rws 0", got)
	}
}
