package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Refusals in the player's language: a wager over the table's maximum, refused in 简体中文,
// reads as the Chinese sentence with the maximum and what the player already has formatted
// for the page, the code kept out of sight (data-code); the dealer console says a malformed card's
// error in Chinese; a table with a Chinese name shows it. Screenshots go to
// testdata/artifacts/pages-refusal-*.png.

// startRefusalServer runs a server with one dealer table, Banker's maximum 1,000.00 and a
// Chinese name, betting open (the demo dealer opens it), and the demo player's 500.00 on
// Banker already.
func startRefusalServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{
		{ID: "live", Name: "Live Tiger", Names: baccarat.Names{"zh-CN": "老虎真人桌", "ko": "타이거 라이브"}, Mode: live.ModeDealer,
			Config: table.Config{Game: "mbs-tiger", Limits: map[string]table.Limit{"banker": {Min: 100, Max: 100_000}}}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "b.db"), Config: path}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for _, cmd := range []string{"new_shoe", "open"} {
		if code := postJSON(t, s, s.links["dealer_token"], "/api/tables/live/commands", map[string]any{"cmd": cmd}); code != 200 {
			t.Fatalf("%s: %d", cmd, code)
		}
	}
	if code := postJSON(t, s, s.links["player_token"], "/api/tables/live/wagers", map[string]any{"bet": "banker", "stake": 50_000}); code != 200 {
		t.Fatalf("500.00 on Banker: %d", code)
	}
	return s
}

// TestBrowserRefusalsInChinese: SPEC §4's above_maximum, refused to a player reading 简体中文,
// is "庄的最高限额为 1,000.00，您已下注 500.00" with above_maximum only in the toast's data-code; a card
// the dealer mistyped is refused in Chinese in the console.
func TestBrowserRefusalsInChinese(t *testing.T) {
	s := startRefusalServer(t)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("record script errors", recordErrors(), desktop)

	p.open("/table/live", "zh-CN")
	p.do("the Chinese table", waitJS(`document.documentElement.lang === 'zh-CN' && !!document.querySelector('[data-chip="100000"]') &&
		!!document.querySelector('[data-bet="banker"]') && document.querySelector('#phase').dataset.phase === 'betting'`, 20*time.Second))
	if got := p.text(`document.querySelector('#table-name').textContent`); got != "老虎真人桌" {
		t.Errorf("the table's name reads %q, want its Chinese name 老虎真人桌", got)
	}
	// Every toast is kept as it shows: it goes after a few seconds.
	var kept bool
	p.eval(`window.shownToasts = []; new MutationObserver(() => {
		for (const m of document.querySelectorAll('#toasts .toast')) {
			const x = {msg: (m.querySelector('.toast-msg') || {}).textContent || '', code: m.dataset.code || '', shown: m.textContent};
			if (!window.shownToasts.some((y) => y.msg === x.msg)) window.shownToasts.push(x);
		}
	}).observe(document.body, {childList: true, subtree: true}); true`, &kept)
	p.do("1,000.00 more on Banker", chromedp.Click(chromedp.CSS(`[data-chip="100000"]`)), chromedp.Click(chromedp.CSS(`[data-bet="banker"]`)),
		waitJS(`window.shownToasts.length > 0`, 10*time.Second))
	var toasts []struct{ Msg, Code, Shown string }
	p.eval(`window.shownToasts`, &toasts)
	p.shot("refusal-zh-table")
	want := "庄的最高限额为 1,000.00，您已下注 500.00"
	if len(toasts) == 0 || toasts[0].Msg != want {
		t.Errorf("the refusal reads %+v, want the message %q", toasts, want)
	} else if toasts[0].Code != "above_maximum" {
		t.Errorf("the refusal's code, kept for support in data-code, is %q, want above_maximum", toasts[0].Code)
	}
	for _, x := range toasts {
		if strings.Contains(x.Shown, "above_maximum") || strings.Contains(x.Shown, "maximum") {
			t.Errorf("a raw code or English in the message: %q", x.Msg)
		}
	}

	// The sentences' variants and fallbacks, as the page says them: a limit by its kind, a
	// code without its params, a code the page does not know.
	for _, c := range []struct{ err, want string }{
		{`{code: 'limit_reached', params: {kind: 'stake_per_round', limit: 1000, staked: 400, stake: 700, left: 600, currency: 'XXX', minor_units: 2}}`,
			"您每局的下注限额为 10.00，本局已下注 4.00：最多还可下注 6.00"},
		{`{code: 'both_sides', params: {side: 'player'}}`, "本局您已押闲：庄或闲只能押一边"},
		{`{code: 'no_rebuys_left', params: {max: 0}}`, "本锦标赛不设重购"},
		{`{code: 'area_full', params: {max: 3}}`, "您的投注区已有 3 注，已达上限"},
		{`{code: 'below_minimum', message: 'the minimum on Banker is 1.00'}`, "低于本桌此投注的最低限额"},
		{`{code: 'no_such_code', message: 'something new'}`, "请求被拒绝"},
	} {
		if got := p.text(`Bac.errorText(` + c.err + `)`); got != c.want {
			t.Errorf("%s reads %q, want %q", c.err, got, c.want)
		}
	}

	p.open("/", "zh-CN")
	p.do("the Chinese lobby", waitJS(`!!document.querySelector('[data-table="live"] .tc-name') && document.querySelector('[data-table="live"] .tc-name').textContent !== ''`, 15*time.Second))
	if got := p.text(`document.querySelector('[data-table="live"] .tc-name').textContent`); got != "老虎真人桌" {
		t.Errorf("the lobby names the table %q, want 老虎真人桌", got)
	}

	// The dealer console: a malformed card is refused in Chinese, the card as typed.
	d := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["dealer_token"]}
	d.do("record script errors", recordErrors(), desktop)
	d.open("/dealer/live", "zh-CN")
	d.do("the Chinese console", chromedp.WaitVisible(chromedp.CSS(`#card-input`)),
		waitJS(`document.documentElement.lang === 'zh-CN' && document.querySelector('#table-name').textContent.includes('老虎真人桌')`, 15*time.Second),
		chromedp.Focus(chromedp.CSS(`#card-input`)), chromedp.SendKeys(chromedp.CSS(`#card-input`), "7x\r"),
		waitJS(`document.querySelector('#card-error').textContent !== ''`, 10*time.Second))
	d.shot("refusal-zh-dealer")
	msg := d.text(`(() => { const c = document.querySelector('#card-error').cloneNode(true); for (const x of c.querySelectorAll('code')) x.remove(); return c.textContent.trim(); })()`)
	if !strings.HasPrefix(msg, "7x 不是一张牌") || strings.Contains(msg, "is not a card") {
		t.Errorf("the console says %q for the card 7x, want the Chinese sentence (7x 不是一张牌…)", msg)
	}
	if got := d.text(`(document.querySelector('#card-error code') || {}).textContent || ''`); got != "[bad_card]" {
		t.Errorf("the code after the sentence is %q, want [bad_card]", got)
	}
	if got := d.text(`document.querySelector('#dealer-log li.refused').textContent`); !strings.Contains(got, "不是一张牌") {
		t.Errorf("the console's log reads %q, want the Chinese sentence", got)
	}
	p.noErrors()
	d.noErrors()
}
