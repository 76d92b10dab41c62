package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// The responsible-gaming pages (web/static/limits.js) in Chromium against the real server.
// The limits' clock (server.LimitsNow, the host's and the web's) is moved ahead by hand, so a
// reality check every 30 minutes falls due at once; the tables keep the real clock and deal
// as usual. One server and one browser serve every case; screenshots go to
// testdata/artifacts/limits-*.png.

// rgClock is the real clock, ahead by what a test moved it.
type rgClock struct{ ahead atomic.Int64 }

func (c *rgClock) now() time.Time          { return time.Now().Add(time.Duration(c.ahead.Load())) }
func (c *rgClock) forward(d time.Duration) { c.ahead.Add(int64(d)) }

// rgPage is one player's page in the shared browser, with the server and its clock.
type rgPage struct {
	*pagesCase
	clk   *rgClock
	admin string
	id    string // the player's
	bets  int    // wagers sent, for their request ids
}

// TestLimitsPagesRealityCheckSessionEndAndExclusion: a player with a reality check every 30
// minutes, 31 minutes on, sees the check on the table page with the time played and the
// session's net result, and the table refuses their wagers (reality_check) until they answer;
// Continue closes it and a wager is taken; 31 minutes later Leave ends the session
// (session_ended) and the page says so. The same check in Chinese; and a cool-off of a day
// chosen on the account page, after a confirmation, refuses wagers (excluded).
func TestLimitsPagesRealityCheckSessionEndAndExclusion(t *testing.T) {
	clk := &rgClock{}
	s := startRGServer(t, clk)
	ctx := browser(t)
	if err := chromedp.Do(ctx, recordErrors(), desktop); err != nil {
		t.Fatal(err)
	}
	c := &rgPage{pagesCase: &pagesCase{t: t, ctx: ctx, s: s}, clk: clk, admin: s.links["admin"]}
	t.Run("a reality check every 30 min: played time and net, continue, then leave ends the session", func(t *testing.T) {
		c.t = t
		c.realityCheck()
	})
	t.Run("the reality check in Chinese", func(t *testing.T) { c.t = t; c.chinese() })
	t.Run("a cool-off of 1 day chosen on the account page refuses wagers as excluded", func(t *testing.T) { c.t = t; c.coolOff() })
}

// startRGServer is startServer with the limits' clock given.
func startRGServer(t *testing.T, clk *rgClock) *server {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{
		{ID: "tiger", Name: "Tiger", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"},
			Schedule: live.Schedule{Betting: 5 * time.Second, Card: 100 * time.Millisecond, Result: 1500 * time.Millisecond}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "l.db"), Config: path, Demo: demoTournaments{Off: true}, LimitsNow: clk.now}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// call sends a request and returns its status and, for a refusal, its code.
func (c *rgPage) call(method, token, path string, body, out any) (int, string) {
	c.t.Helper()
	var b []byte
	if body != nil {
		b, _ = json.Marshal(body)
	}
	req, _ := http.NewRequest(method, c.s.web.URL()+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e struct{ Code string }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		return resp.StatusCode, e.Code
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			c.t.Fatal(err)
		}
	}
	return resp.StatusCode, ""
}

// player creates a player with money and the limits given (an admin's PUT), and signs in as
// them: their session begins now, by the limits' clock.
func (c *rgPage) player(id string, limits map[string]any) {
	c.t.Helper()
	var acct struct{ Token string }
	if code, why := c.call("POST", c.admin, "/api/admin/accounts", map[string]any{"id": id, "name": strings.ToUpper(id[:1]) + id[1:]}, &acct); code != 201 {
		c.t.Fatalf("creating %s: %d %s", id, code, why)
	}
	if code, why := c.call("POST", c.admin, "/api/admin/accounts/"+id+"/credit", map[string]any{"amount": 1_000_000}, nil); code != 200 {
		c.t.Fatalf("crediting %s: %d %s", id, code, why)
	}
	if code, why := c.call("PUT", c.admin, "/api/admin/accounts/"+id+"/limits", limits, nil); code != 200 {
		c.t.Fatalf("setting %s's limits: %d %s", id, code, why)
	}
	c.id, c.tok = id, acct.Token
}

// wager sends a wager of 1.00 on Player and returns its status and refusal code.
func (c *rgPage) wager() (int, string) {
	c.t.Helper()
	c.bets++
	return c.call("POST", c.tok, "/api/tables/tiger/wagers", map[string]any{"bet": "player", "stake": 100,
		"request_id": fmt.Sprintf("limits-%s-%d", c.id, c.bets)}, nil)
}

// wagerTaken places a wager in the next betting window (the table's own clock runs as usual).
func (c *rgPage) wagerTaken(what string) {
	c.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		code, why := c.wager()
		if code == 200 {
			return
		}
		if why != "betting_closed" && why != "bad_state" && why != "busy" { // between rounds, or a shoe change
			c.t.Fatalf("%s: a wager was refused %d %s", what, code, why)
		}
		time.Sleep(150 * time.Millisecond)
	}
	c.t.Fatalf("%s: no betting window in 20 s", what)
}

// refused sends a wager the player's limits refuse, whatever the table's phase.
func (c *rgPage) refused(what, want string) {
	c.t.Helper()
	if code, why := c.wager(); why != want {
		c.t.Fatalf("%s: a wager answered %d %q, want %q", what, code, why, want)
	}
}

// rgView is what GET /api/me/limits says of the session.
type rgView struct {
	Excluded *struct{ Kind string }
	Session  struct {
		ID     int64
		Open   bool
		Played int `json:"played_minutes"`
		Tally  struct{ Staked, Net, Open baccarat.Money }
	}
}

func (c *rgPage) view() rgView {
	c.t.Helper()
	var v rgView
	if code, why := c.call("GET", c.tok, "/api/me/limits", nil, &v); code != 200 {
		c.t.Fatalf("reading the limits: %d %s", code, why)
	}
	return v
}

// checkShown waits for the reality check and returns what it shows.
func (c *rgPage) checkShown(what string) (played int, net, text string) {
	c.t.Helper()
	c.do(what, waitJS(`(() => { const d = document.querySelector('#limits-check');
		return !!d && !d.parentElement.hidden && document.activeElement && document.activeElement.id === 'limits-continue' &&
			document.body.classList.contains('limits-paused') && document.querySelector('section.betting').inert; })()`, 10*time.Second))
	var got struct{ Played, Net, Text string }
	c.eval(`(() => { const d = document.querySelector('#limits-check');
		return {Played: d.dataset.played, Net: d.querySelector('.limits-net').textContent, Text: d.textContent}; })()`, &got)
	played, _ = strconv.Atoi(got.Played)
	return played, got.Net, got.Text
}

// rgMoney is how the page writes a net result of play money: a sign, grouping, 2 decimals.
func rgMoney(minor baccarat.Money) string {
	switch {
	case minor > 0:
		return "+" + majorUnits(minor)
	case minor < 0:
		return "-" + majorUnits(-minor)
	}
	return majorUnits(0)
}

func (c *rgPage) realityCheck() {
	c.player("rita", map[string]any{"reality_check_minutes": 30})
	// A wager played and settled, so the session has a result to show.
	c.wagerTaken("before the check")
	var before rgView
	for deadline := time.Now().Add(20 * time.Second); ; {
		if before = c.view(); before.Session.Tally.Staked > 0 && before.Session.Tally.Open == 0 {
			break
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("the wager never settled: %+v", before)
		}
		time.Sleep(200 * time.Millisecond)
	}
	c.open("/table/tiger", "en")
	c.do("the session clock", waitJS(`document.body.dataset.limits === 'open' && !document.querySelector('#limits-clock').hidden &&
		!!document.querySelector('[data-bet="player"]')`, 15*time.Second))

	c.clk.forward(31 * time.Minute)
	c.refused("31 minutes on", "reality_check")
	// The page hears of it from its own API client's refusal, as when the player clicks a bet.
	c.do("a wager from the page", js(`Bac.api('POST', '/api/tables/tiger/wagers', {bet: 'player', stake: 100, request_id: Bac.uuid()}).catch(() => {})`))
	played, net, text := c.checkShown("the reality check")
	server := c.view()
	if played < 31 || played > server.Session.Played || !strings.Contains(text, strconv.Itoa(played)+" min") {
		c.t.Errorf("the check shows %d minutes played (%q); the server says %d", played, text, server.Session.Played)
	}
	if want := rgMoney(server.Session.Tally.Net); net != want {
		c.t.Errorf("the check shows a net result of %q; the server's is %d minor units (%q)", net, server.Session.Tally.Net, want)
	}
	c.do("Esc does not dismiss it", chromedp.KeyEvent(kb.Escape), chromedp.Sleep(300*time.Millisecond),
		waitJS(`!document.querySelector('#limits-check').parentElement.hidden`, time.Second))
	c.refused("while the check is open", "reality_check")
	screenshot(c.t, c.ctx, "limits-reality-check")

	c.do("continue", chromedp.Click(chromedp.CSS(`#limits-continue`)),
		waitJS(`document.querySelector('#limits-check').parentElement.hidden && !document.body.classList.contains('limits-paused') &&
			!document.querySelector('section.betting').inert`, 10*time.Second))
	c.wagerTaken("after continuing")

	c.clk.forward(31 * time.Minute)
	c.refused("31 minutes after continuing", "reality_check")
	c.do("the next check", js(`BacLimits.refresh()`))
	c.checkShown("the second reality check")
	c.do("leave", chromedp.Click(chromedp.CSS(`#limits-leave`)),
		waitJS(`(() => { const n = document.querySelector('#limits-notice');
			return document.querySelector('#limits-check').parentElement.hidden && !n.hidden && n.dataset.reason === 'left' &&
				!!n.querySelector('a[href="/"]') && document.body.classList.contains('limits-ended') && document.querySelector('section.betting').inert &&
				document.querySelector('#limits-clock').hidden; })()`, 10*time.Second))
	var notice string
	c.eval(`document.querySelector('#limits-notice').textContent`, &notice)
	if !strings.Contains(notice, "still settle") {
		c.t.Errorf("the notice does not say open wagers still settle: %q", notice)
	}
	c.refused("after leaving", "session_ended")
	screenshot(c.t, c.ctx, "limits-session-ended")
	c.noErrors()
	c.open("/", "en")
	c.do("the lobby says so too", waitJS(`(() => { const n = document.querySelector('#limits-notice');
		return !!n && !n.hidden && n.dataset.reason === 'left' && !document.querySelector('#limits-notice-lobby') &&
			document.querySelectorAll('[data-table]').length === 1; })()`, 10*time.Second))
	c.noErrors()
}

func (c *rgPage) chinese() {
	c.player("li", map[string]any{"reality_check_minutes": 30})
	c.open("/table/tiger", "zh-CN")
	c.do("the session clock", waitJS(`document.documentElement.lang === 'zh-CN' && document.body.dataset.limits === 'open' &&
		!!document.querySelector('[data-bet="player"]')`, 15*time.Second))
	c.clk.forward(31 * time.Minute)
	c.refused("31 minutes on", "reality_check")
	c.do("the check falls due", js(`BacLimits.refresh()`))
	played, net, text := c.checkShown("the reality check in Chinese")
	var labels struct{ Title, Continue, Leave string }
	c.eval(`({Title: document.querySelector('#limits-check-title').textContent, Continue: document.querySelector('#limits-continue').textContent,
		Leave: document.querySelector('#limits-leave').textContent})`, &labels)
	if labels.Title != "现实检查" || labels.Continue != "继续游戏" || labels.Leave != "离开" {
		c.t.Errorf("the check in Chinese reads %+v", labels)
	}
	if !strings.Contains(text, strconv.Itoa(played)+" 分钟") || net != "0.00" {
		c.t.Errorf("the check shows %q (net %q) for %d minutes and no wager", text, net, played)
	}
	screenshot(c.t, c.ctx, "limits-reality-check-zh")
	c.noErrors()
}

func (c *rgPage) coolOff() {
	c.player("kim", map[string]any{"loss_per_day": 500_000})
	c.open("/account", "en")
	c.do("the section", waitJS(`!document.querySelector('#limits-panel').hidden &&
		document.querySelector('#limits-rules').textContent.includes('5,000.00') &&
		!!document.querySelector('#limits-events li[data-kind="limits_set"]')`, 15*time.Second))
	c.do("choose 1 day", chromedp.Click(chromedp.CSS(`input[name="limits-period"][value="cool_off:1"]`)),
		waitJS(`!document.querySelector('#limits-exclude-go').disabled`, 5*time.Second),
		chromedp.Click(chromedp.CSS(`#limits-exclude-go`)),
		waitJS(`!document.querySelector('#limits-exclude-confirm').hidden &&
			document.querySelector('#limits-exclude-confirm').textContent.includes('cannot be undone')`, 5*time.Second))
	if v := c.view(); v.Excluded != nil || !v.Session.Open {
		c.t.Fatalf("excluded before confirming: %+v", v)
	}
	screenshot(c.t, c.ctx, "limits-exclude-confirm")
	c.do("confirm", chromedp.Click(chromedp.CSS(`#limits-exclude-yes`)),
		waitJS(`(() => { const n = document.querySelector('#limits-notice');
			return !n.hidden && n.dataset.reason === 'excluded' && document.querySelector('#limits-exclude-confirm').hidden &&
				!!document.querySelector('#limits-events li[data-kind="excluded"]') &&
				document.querySelector('#limits-rules').textContent.includes('A cool-off until'); })()`, 10*time.Second))
	c.refused("in a cool-off", "excluded")
	screenshot(c.t, c.ctx, "limits-account-excluded")
	c.noErrors()
}
