package web_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/web"
)

// clockFixture is a server on clk whose tokens are issued on it.
func clockFixture(t *testing.T, clk *clock) *fixture {
	t.Helper()
	f := newFixture(t, func(o *web.Options) {
		o.Operator = web.OperatorOptions{Now: clk.now}
		o.Tokens.Legacy = clk.now()
	})
	for _, a := range []access.Account{{ID: "ann", Role: web.RolePlayer}, {ID: "bob", Role: web.RolePlayer},
		{ID: "dealer", Role: web.RoleDealer}, {ID: "admin", Role: web.RoleAdmin}} {
		f.tokens[a.ID] = f.issuer.IssueAt(a, clk.now())
	}
	return f
}

// me reads /api/me with tok and returns the status, the error and any renewed token.
func (f *fixture) me(tok string) (int, apiError, string) {
	f.t.Helper()
	req, _ := http.NewRequest("GET", f.srv.URL()+"/api/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var e apiError
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		e = decodeError(f.t, b)
	}
	return resp.StatusCode, e, resp.Header.Get(web.TokenRefreshHeader)
}

// TestTokensExpireAndAreRenewedInUse: a player's token works 12 hours and a staff token 24;
// past half its life a request's answer carries a new one (X-Token-Refresh), which works on;
// an expired token is 401 saying to sign in again, and a wager sent with it changes nothing.
func TestTokensExpireAndAreRenewedInUse(t *testing.T) {
	clk := newClock()
	f := clockFixture(t, clk)
	issued := clk.now()
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	old := f.tokens["ann"]

	clk.add(time.Hour)
	if code, e, fresh := f.me(old); code != 200 || fresh != "" {
		t.Fatalf("an hour in: %d %+v, renewed %q; want 200, not renewed yet", code, e, fresh)
	}
	clk.add(5 * time.Hour) // half a player's token's life
	code, e, renewed := f.me(old)
	if code != 200 || renewed == "" {
		t.Fatalf("six hours in: %d %+v, renewed %q; want 200 and a new token", code, e, renewed)
	}
	if c, ok := f.issuer.Check(renewed); !ok || c.ID != "ann" || c.Role != web.RolePlayer || !c.Issued.Equal(clk.now().UTC()) {
		t.Fatalf("the renewed token %q: %+v %v", renewed, c, ok)
	}
	if code, _, _ := f.me(renewed); code != 200 {
		t.Fatalf("the renewed token: %d", code)
	}

	clk.add(6*time.Hour - time.Second)
	if code, e, _ := f.me(old); code != 200 {
		t.Fatalf("a second before 12 hours: %d %+v", code, e)
	}
	clk.add(time.Second)
	balance, _ := f.host.Balance(context.Background(), "ann", live.PlayMoney)
	seq := f.seq("tiger")
	if code, e, _ := f.me(old); code != 401 || e.Code != baccarat.CodeUnauthenticated || !strings.Contains(e.Message, "expired") ||
		!strings.Contains(e.Message, "sign in again") {
		t.Fatalf("12 hours in: %d %+v, want 401 expired, sign in again", code, e)
	}
	status, b := f.raw("", "POST", "/api/tables/tiger/wagers", http.Header{"Authorization": {"Bearer " + old}}, []byte(`{"bet":"banker","stake":100}`))
	if e := decodeError(t, b); status != 401 || e.Code != baccarat.CodeUnauthenticated {
		t.Fatalf("a wager with the expired token: %d %s", status, b)
	}
	if after, _ := f.host.Balance(context.Background(), "ann", live.PlayMoney); after != balance || f.seq("tiger") != seq {
		t.Fatalf("the refused wager moved something: balance %d → %d, seq %d → %d", balance, after, seq, f.seq("tiger"))
	}
	if code, _, _ := f.me(renewed); code != 200 {
		t.Fatalf("the renewed token at 12 hours: %d", code)
	}

	if code, _, fresh := f.me(f.tokens["dealer"]); code != 200 || fresh == "" {
		t.Fatalf("a dealer's token at 12 hours: %d, renewed %q; want 200 and renewed", code, fresh)
	}
	clk.add(12 * time.Hour)
	if code, e, _ := f.me(f.tokens["dealer"]); code != 401 || !strings.Contains(e.Message, "expired") {
		t.Fatalf("a dealer's token at 24 hours: %d %+v", code, e)
	}
	if !clk.now().Equal(issued.Add(access.StaffTokenLife)) {
		t.Fatal("the test's clock is off")
	}
}

func (f *fixture) seq(table string) uint64 {
	f.t.Helper()
	snap, err := f.host.Snapshot(table, "")
	if err != nil {
		f.t.Fatal(err)
	}
	return snap.State.Seq
}

// TestTokensOfTheEarlierFormAreRenewedThenExpire: a v2 token, issued before tokens carried
// their issue time, works on after the upgrade, is renewed on its first use, and expires a
// player's token's life after the server started.
func TestTokensOfTheEarlierFormAreRenewedThenExpire(t *testing.T) {
	clk := newClock()
	f := clockFixture(t, clk)
	m := hmac.New(sha256.New, []byte("0123456789abcdef0123456789abcdef"))
	m.Write([]byte("v2|player|bob|0"))
	v2 := "v2.player.bob.0." + base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
	clk.add(time.Hour)
	code, e, renewed := f.me(v2)
	if code != 200 || !strings.HasPrefix(renewed, "v3.player.bob.0.") {
		t.Fatalf("a v2 token: %d %+v, renewed %q; want 200 and a v3 token", code, e, renewed)
	}
	clk.add(access.PlayerTokenLife - time.Hour)
	if code, e, _ := f.me(v2); code != 401 || !strings.Contains(e.Message, "expired") {
		t.Fatalf("a v2 token a player's token's life after the start: %d %+v", code, e)
	}
	if code, _, _ := f.me(renewed); code != 200 {
		t.Fatalf("its renewal: %d", code)
	}
}

// TestStreamOfAnExpiredTokenIsClosed: an open stream re-checks its token every 15 to 30 s;
// once the token has expired the stream is closed, saying so.
func TestStreamOfAnExpiredTokenIsClosed(t *testing.T) {
	t.Parallel()
	clk := newClock()
	f := clockFixture(t, clk)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, strings.Replace(f.srv.URL(), "http", "ws", 1)+"/api/tables/tiger/stream?token="+f.tokens["ann"], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if m := readFrame(t, ctx, c)[0]; m["type"] != "snapshot" {
		t.Fatalf("first message %v", m)
	}
	clk.add(access.PlayerTokenLife)
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || !strings.Contains(ce.Reason, "expired") {
			t.Fatalf("the stream ended with %v, want closed: token expired", err)
		}
		return
	}
}
