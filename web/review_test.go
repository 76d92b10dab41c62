package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/web"
)

// raw sends body as it is, as who ("" for no token), with extra headers, and returns the
// status and the answer's bytes.
func (f *fixture) raw(who, method, path string, hdr http.Header, body []byte) (int, []byte) {
	f.t.Helper()
	req, err := http.NewRequest(method, f.srv.URL()+path, bytes.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	for k, vs := range hdr {
		req.Header[k] = vs
	}
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+f.tokens[who])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// books is what the review's refusals must leave as it was: the players' balances, their
// statements' lengths and the table's journal position.
type books struct {
	balances map[string]baccarat.Money
	entries  map[string]int64
	seq      uint64
}

func (f *fixture) books(table string) books {
	f.t.Helper()
	b := books{balances: map[string]baccarat.Money{}, entries: map[string]int64{}}
	for _, p := range []string{"ann", "bob"} {
		b.balances[p] = f.balance(p)
		var hist []struct{ Seq int64 }
		f.do(p, "GET", "/api/me/history?limit=1000", nil, &hist)
		b.entries[p] = int64(len(hist))
	}
	var snap struct{ State struct{ Seq uint64 } }
	f.do("admin", "GET", "/api/tables/"+table, nil, &snap)
	b.seq = snap.State.Seq
	return b
}

func (f *fixture) unchanged(table string, before books) {
	f.t.Helper()
	after := f.books(table)
	for p := range before.balances {
		if after.balances[p] != before.balances[p] || after.entries[p] != before.entries[p] {
			f.t.Fatalf("%s: balance %d → %d, statement %d → %d entries", p, before.balances[p], after.balances[p], before.entries[p], after.entries[p])
		}
	}
	if after.seq != before.seq {
		f.t.Fatalf("table %s journal moved: seq %d → %d", table, before.seq, after.seq)
	}
}

func decodeError(t *testing.T, b []byte) apiError {
	t.Helper()
	var e apiError
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatalf("not an error: %s", b)
	}
	return e
}

// TestTokenInQueryOnlyOnStreamUpgrade: ?token= signs in only the WebSocket upgrade of a
// table's stream; on every other route, whatever the request's headers claim, a token in the
// URL is not there.
func TestTokenInQueryOnlyOnStreamUpgrade(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 700}, nil); code != 200 {
		t.Fatalf("ann's wager: %d", code)
	}
	upgrade := http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}}
	q := "?token=" + f.tokens["ann"]
	before := f.books("tiger")

	for _, c := range []struct{ name, method, path, body string }{
		{"/api/me answers nobody", "GET", "/api/me" + q, ""},
		{"a wager is not authenticated", "POST", "/api/tables/tiger/wagers" + q, `{"bet":"player","stake":500}`},
		{"a withdrawal is not authenticated", "POST", "/api/tables/tiger/withdraw" + q, `{"wager":1}`},
		{"a statement is not read", "GET", "/api/me/history" + q, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, hdr := range []http.Header{upgrade, nil} {
				status, b := f.raw("", c.method, c.path, hdr, []byte(c.body))
				if e := decodeError(t, b); status != 401 || e.Code != baccarat.CodeUnauthenticated {
					t.Fatalf("%s %s with %v: %d %s", c.method, c.path, hdr, status, b)
				}
			}
		})
	}
	t.Run("a snapshot read with a token in the URL is a watcher's", func(t *testing.T) {
		status, b := f.raw("", "GET", "/api/tables/tiger"+q, upgrade, nil)
		if status != 200 || strings.Contains(string(b), `"player":"ann"`) || !strings.Contains(string(b), `"funds":{}`) {
			t.Fatalf("%d %s", status, b)
		}
	})
	t.Run("the stream's URL without an upgrade signs nobody in", func(t *testing.T) {
		if status, b := f.raw("", "GET", "/api/tables/tiger/stream"+q, nil, nil); status != 401 {
			t.Fatalf("%d %s", status, b)
		}
	})
	t.Run("the stream's upgrade takes ?token=", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, _, err := websocket.Dial(ctx, strings.Replace(f.srv.URL(), "http", "ws", 1)+"/api/tables/tiger/stream"+q, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		if m := readFrame(t, ctx, c)[0]; m["type"] != "snapshot" || !strings.Contains(jsonOf(m), `"player":"ann"`) {
			t.Fatalf("ann's stream: %v", m)
		}
	})
	f.unchanged("tiger", before)
}

func jsonOf(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestBodyKeysAreExactAndGivenOnce: on every route that takes a body, money first, a key
// given twice or spelt in another case is refused with bad_request naming it, nested objects
// included, and nothing changes; the exact body is then taken.
func TestBodyKeysAreExactAndGivenOnce(t *testing.T) {
	now := time.Now()
	f := newFixture(t, func(o *web.Options) {
		o.Operator = web.OperatorOptions{Codes: o.Books.(access.LaunchCodes), Secret: operatorSecret, Now: func() time.Time { return now }}
	})
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "tie", "stake": 100}, nil); code != 200 {
		t.Fatalf("ann's wager: %d", code)
	}
	before := f.books("tiger")
	cases := []struct {
		name, who, method, path, body, key string
	}{
		{"a wager's stake twice", "ann", "POST", "/api/tables/tiger/wagers", `{"bet":"banker","stake":100,"stake":90000}`, `"stake"`},
		{"a wager's Stake", "ann", "POST", "/api/tables/tiger/wagers", `{"bet":"banker","Stake":90000}`, `"Stake"`},
		{"a wager's stake escaped", "ann", "POST", "/api/tables/tiger/wagers", `{"bet":"banker","stake":100,"st\u0061ke":90000}`, `"stake"`},
		{"a wager's bet twice", "ann", "POST", "/api/tables/tiger/wagers", `{"bet":"tie","stake":100,"bet":"banker"}`, `"bet"`},
		{"a wager's REQUEST_ID", "ann", "POST", "/api/tables/tiger/wagers", `{"bet":"banker","stake":100,"REQUEST_ID":"r"}`, `"REQUEST_ID"`},
		{"a withdrawal's wager twice", "ann", "POST", "/api/tables/tiger/withdraw", `{"wager":1,"wager":1}`, `"wager"`},
		{"a withdrawal's Wager", "ann", "POST", "/api/tables/tiger/withdraw", `{"Wager":1}`, `"Wager"`},
		{"a credit's amount twice", "admin", "POST", "/api/admin/accounts/ann/credit", `{"amount":1,"amount":1000000}`, `"amount"`},
		{"a credit's Amount", "admin", "POST", "/api/admin/accounts/ann/credit", `{"Amount":1000000}`, `"Amount"`},
		{"a credit's KEY", "admin", "POST", "/api/admin/accounts/bob/credit", `{"amount":5,"KEY":"k"}`, `"KEY"`},
		{"a pit command's max twice", "pit", "POST", "/api/tables/tiger/commands", `{"cmd":"set_limit","bet":"tie","min":100,"max":200,"max":900000}`, `"max"`},
		{"a limit's MAX", "pit", "PUT", "/api/admin/tables/tiger/limits", `{"bet":"tie","min":100,"MAX":200}`, `"MAX"`},
		{"a table spec's nested Game", "admin", "POST", "/api/admin/tables", `{"id":"t2","name":"T","config":{"game":"mbs-tiger","Game":"rws-no-commission"}}`, `"Game"`},
		{"a table spec's schedule twice", "admin", "POST", "/api/admin/tables", `{"id":"t3","name":"T","config":{"game":"mbs-tiger"},"schedule":{"betting":"5s","betting":"1s"}}`, `"betting"`},
		{"a table spec's Betting", "admin", "POST", "/api/admin/tables", `{"id":"t4","name":"T","config":{"game":"mbs-tiger"},"schedule":{"Betting":"5s"}}`, `"Betting"`},
		{"an account's id twice", "admin", "POST", "/api/admin/accounts", `{"id":"eve","role":"player","id":"mallory"}`, `"id"`},
		{"an account change's disabled twice", "admin", "PATCH", "/api/admin/accounts/ann", `{"disabled":false,"disabled":true}`, `"disabled"`},
		{"a peel's Lift", "ann", "POST", "/api/tables/tiger/peel", `{"card":0,"Lift":40}`, `"Lift"`},
		{"a launch code's Code", "", "POST", "/api/launch", `{"code":"l1.x","Code":"l1.y"}`, `"Code"`},
		{"a tournament's config twice", "admin", "POST", "/api/admin/tournaments", `{"config":{},"config":{}}`, `"config"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, b := f.raw(c.who, c.method, c.path, nil, []byte(c.body))
			e := decodeError(t, b)
			if status != 400 || e.Code != baccarat.CodeBadRequest || !strings.Contains(e.Message, c.key) {
				t.Fatalf("%s: %d %s, want 400 bad_request naming %s", c.body, status, b, c.key)
			}
		})
	}
	t.Run("an operator's launch with the player twice", func(t *testing.T) {
		body := []byte(`{"player":"p-1","currency":"XXX","player":"ann"}`)
		req, _ := http.NewRequest("POST", f.srv.URL()+"/api/operator/launch", bytes.NewReader(body))
		seamless.NewStamp(http.MethodPost, web.LaunchPath, now).Sign(req.Header, seamless.DomainLaunch.Key(operatorSecret), body)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if e := decodeError(t, b); resp.StatusCode != 400 || e.Code != baccarat.CodeBadRequest || !strings.Contains(e.Message, `"player"`) {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
	})
	f.unchanged("tiger", before)
	for _, path := range []string{"/api/tables/t2", "/api/tables/t3", "/api/tables/t4", "/api/admin/accounts/eve", "/api/admin/accounts/mallory", "/api/admin/accounts/p-1"} {
		if status := f.do("admin", "GET", path, nil, nil); status != 404 {
			t.Errorf("%s: %d, want 404: a refused body made it", path, status)
		}
	}
	var ann web.AccountView
	if f.do("admin", "GET", "/api/admin/accounts/ann", nil, &ann); ann.Disabled {
		t.Fatal("ann was disabled by a refused body")
	}
	if status, b := f.raw("ann", "POST", "/api/tables/tiger/wagers", nil, []byte(`{"bet":"banker","stake":100}`)); status != 200 {
		t.Fatalf("the exact body: %d %s", status, b)
	}
}

// TestCreditsKeepAWalletWithinMaxAmount: an admin credit moves at most baccarat.MaxAmount,
// the most one posting may, and may not take a wallet past it; the refusal says the most
// the credit may be and changes nothing.
func TestCreditsKeepAWalletWithinMaxAmount(t *testing.T) {
	f := newFixture(t)
	max := baccarat.MaxAmount
	credit := func(who string, body map[string]any) (int, apiError, baccarat.Money) {
		var out struct {
			apiError
			Balance baccarat.Money
		}
		status := f.do("admin", "POST", "/api/admin/accounts/"+who+"/credit", body, &out)
		return status, out.apiError, out.Balance
	}
	before := f.books("tiger")
	for _, c := range []struct {
		name, who string
		amount    baccarat.Money
		says      string
	}{
		{"an amount past the bound", "ann", max + 1, strconv.FormatInt(int64(max), 10)},
		{"the bound itself onto a balance", "ann", max, strconv.FormatInt(int64(max-100_000), 10)},
		{"one past the room", "bob", max - 100_000 + 1, strconv.FormatInt(int64(max-100_000), 10)},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, e, _ := credit(c.who, map[string]any{"amount": c.amount, "key": "k-" + c.who})
			if status != 400 || e.Code != baccarat.CodeBadRequest || !strings.Contains(e.Message, c.says) {
				t.Fatalf("credit %d to %s: %d %+v, want 400 saying %s", c.amount, c.who, status, e, c.says)
			}
		})
	}
	f.unchanged("tiger", before)

	t.Run("a credit up to the bound is taken, and then none", func(t *testing.T) {
		if status, e, bal := credit("ann", map[string]any{"amount": max - 100_000}); status != 200 || bal != max {
			t.Fatalf("filling ann's wallet: %d %+v balance %d", status, e, bal)
		}
		full := f.books("tiger")
		if status, e, _ := credit("ann", map[string]any{"amount": 1}); status != 400 || e.Code != baccarat.CodeBadRequest || !strings.Contains(e.Message, "takes no credit") {
			t.Fatalf("a credit of 1 onto %d: %d %+v", max, status, e)
		}
		f.unchanged("tiger", full)
	})
	t.Run("a wallet not yet opened takes the bound and no more", func(t *testing.T) {
		if status, e, bal := credit("bob", map[string]any{"amount": max, "currency": "JPY"}); status != 200 || bal != max {
			t.Fatalf("%d %+v balance %d", status, e, bal)
		}
		if status, e, _ := credit("bob", map[string]any{"amount": 1, "currency": "JPY"}); status != 400 || e.Code != baccarat.CodeBadRequest {
			t.Fatalf("%d %+v", status, e)
		}
		var me web.Me
		if f.do("bob", "GET", "/api/me?currency=JPY", nil, &me); me.Balance != max {
			t.Fatalf("bob's JPY: %d", me.Balance)
		}
	})
}

// TestWatcherSnapshotHasNoFunds: a snapshot for someone who owns nothing at the table (no
// token, or staff not assigned it), read or streamed, carries "funds":{} and no sentinel.
func TestWatcherSnapshotHasNoFunds(t *testing.T) {
	f := newFixture(t)
	f.account(access.Account{ID: "dora", Role: web.RoleDealer, Tables: []string{"rws"}})
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 700}, nil); code != 200 {
		t.Fatalf("ann's wager: %d", code)
	}
	funds := func(t *testing.T, b []byte) string {
		t.Helper()
		var snap struct {
			State struct {
				Funds json.RawMessage `json:"funds"`
			} `json:"state"`
		}
		if err := json.Unmarshal(b, &snap); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		if bytes.Contains(b, []byte(`\u0000`)) || bytes.Contains(snap.State.Funds, []byte("nobody")) {
			t.Fatalf("the watcher sentinel is in the snapshot: %s", snap.State.Funds)
		}
		return string(snap.State.Funds)
	}
	for _, who := range []string{"", "dora"} {
		t.Run("read by "+strconv.Quote(who), func(t *testing.T) {
			status, b := f.raw(who, "GET", "/api/tables/tiger", nil, nil)
			if got := funds(t, b); status != 200 || got != `{}` {
				t.Fatalf("%d funds %s, want {}", status, got)
			}
		})
	}
	t.Run("streamed to staff not assigned the table", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, _, err := websocket.Dial(ctx, strings.Replace(f.srv.URL(), "http", "ws", 1)+"/api/tables/tiger/stream?token="+f.tokens["dora"], nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := funds(t, b); got != `{}` {
			t.Fatalf("streamed funds %s, want {}", got)
		}
	})
	t.Run("a player still sees their own, the table's staff all", func(t *testing.T) {
		for who, want := range map[string]string{"ann": `{"ann":{"held":700}}`, "dealer": `{"ann":{"held":700}}`, "bob": `{"bob":{"held":0}}`} {
			if _, b := f.raw(who, "GET", "/api/tables/tiger", nil, nil); funds(t, b) != want {
				t.Errorf("%s sees funds %s, want %s", who, funds(t, b), want)
			}
		}
	})
}

// TestPathIDsAreCheckedNotEchoed: a path's {id} that is not an id is refused with
// bad_request on every route that has one, and the answer does not repeat it; a well-formed
// id that names nothing is not_found, and may be named.
func TestPathIDsAreCheckedNotEchoed(t *testing.T) {
	f := newFixture(t)
	before := f.books("tiger")
	routes := []struct{ who, method, path, body string }{
		{"", "GET", "/api/tables/{id}", ""}, {"", "GET", "/api/tables/{id}/rounds", ""},
		{"", "GET", "/api/tables/{id}/rules", ""}, {"ann", "GET", "/api/tables/{id}/stream", ""},
		{"ann", "POST", "/api/tables/{id}/wagers", `{"bet":"banker","stake":100}`},
		{"ann", "POST", "/api/tables/{id}/withdraw", `{}`}, {"ann", "POST", "/api/tables/{id}/reveal", ``},
		{"ann", "POST", "/api/tables/{id}/peel", `{"card":0,"lift":1}`},
		{"admin", "POST", "/api/tables/{id}/commands", `{"cmd":"open"}`},
		{"admin", "PUT", "/api/admin/tables/{id}/limits", `{"bet":"tie","min":100,"max":200}`},
		{"", "GET", "/api/tournaments/{id}", ""}, {"ann", "POST", "/api/tournaments/{id}/register", ""},
		{"ann", "POST", "/api/tournaments/{id}/unregister", ""}, {"ann", "POST", "/api/tournaments/{id}/rebuy", ""},
		{"admin", "GET", "/api/admin/accounts/{id}", ""}, {"admin", "PATCH", "/api/admin/accounts/{id}", `{"name":"x"}`},
		{"admin", "POST", "/api/admin/accounts/{id}/revoke", ""}, {"admin", "POST", "/api/admin/accounts/{id}/token", ""},
		{"admin", "POST", "/api/admin/accounts/{id}/credit", `{"amount":100}`},
		{"", "GET", "/table/{id}", ""}, {"", "GET", "/dealer/{id}", ""},
	}
	bad := []struct{ name, escaped, marker string }{
		{"markup", "%3Cscript%3Emarker%3C%2Fscript%3E", "marker"},
		{"a dot", "ann.marker", "marker"},
		{"65 characters", strings.Repeat("m", 60) + "arker", "marker"},
		{"a NUL and a newline", "marker%00%0A", "marker"},
		{"letters beyond ASCII", "m%C3%A4rker", "rker"},
	}
	for _, r := range routes {
		for _, id := range bad {
			t.Run(r.method+" "+r.path+" with "+id.name, func(t *testing.T) {
				status, b := f.raw(r.who, r.method, strings.Replace(r.path, "{id}", id.escaped, 1), nil, []byte(r.body))
				e := decodeError(t, b)
				if status != 400 || e.Code != baccarat.CodeBadRequest || strings.Contains(string(b), id.marker) {
					t.Fatalf("%d %s: want 400 bad_request without the id", status, b)
				}
			})
		}
	}
	t.Run("a well-formed id that names nothing is not_found, named", func(t *testing.T) {
		for _, path := range []string{"/api/tables/no-such-table", "/api/tournaments/no-such-table"} {
			status, b := f.raw("", "GET", path, nil, nil)
			if e := decodeError(t, b); status != 404 || e.Code != baccarat.CodeNotFound || !strings.Contains(e.Message, "no-such-table") {
				t.Fatalf("%s: %d %s", path, status, b)
			}
		}
	})
	f.unchanged("tiger", before)
}
