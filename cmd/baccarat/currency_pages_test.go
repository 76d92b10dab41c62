package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// The pages in a table's real currency, in a real browser: a JPY table (no decimals) and a
// BHD table (three), where Banker winning on six pays 1:2. ann holds yen and dinars (credited
// by the admin API), stakes an odd amount on Banker at each (¥101, 1.001 BHD) and a chip from
// the page, and the dealer deals Banker winning on six: the lobby, the chips, the stakes, the
// payouts rounded down in the currency's minor unit (+¥50, +BHD 0.500), the balances, the
// dealer console and the statement are each in their table's currency, on a desktop in
// English and on a phone in Chinese. Players an operator launches with a language we do not
// have get English; a Chinese tag gets 繁體中文 by its script or region (zh-Hant, zh-TW, zh-HK,
// zh-MO), else 简体中文. Screenshots: testdata/artifacts/pages-currency-*.png.

// operatorTestSecret signs the test's operator launches (hex, 32 bytes).
var operatorTestSecret = strings.Repeat("5a", 32)

// startCurrencyServer runs a server with a dealer table in JPY (Tiger) and one in BHD (RWS
// no-commission, played for money), a dealer assigned to both, and ann holding ¥100,000 and
// 50.000 BHD. It returns the tokens of admin, lin (the dealer) and ann.
func startCurrencyServer(t *testing.T) (*server, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{Tables: []live.Spec{
		{ID: "jpy", Name: "Tiger ¥", Mode: live.ModeDealer, Currency: "JPY", Config: table.Config{Game: "mbs-tiger"}},
		{ID: "bhd", Name: "RWS BHD", Mode: live.ModeDealer, Currency: "BHD", Config: table.Config{Game: "rws-no-commission", Cash: true}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "cur.db"), Config: path, Demo: demoTournaments{Off: true},
		Operator: operatorFlags{OperatorSecret: operatorTestSecret}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	tokens := map[string]string{"admin": s.links["admin"]}
	for _, a := range []map[string]any{
		{"id": "lin", "name": "Lin", "role": "dealer", "tables": []string{"jpy", "bhd"}},
		{"id": "ann", "name": "Ann", "role": "player"},
	} {
		var acct struct{ Token string }
		if code := postFor(t, s, tokens["admin"], "/api/admin/accounts", a, &acct); code != 201 {
			t.Fatalf("creating %s: %d", a["id"], code)
		}
		tokens[a["id"].(string)] = acct.Token
	}
	for cur, amount := range map[string]int64{"JPY": 100_000, "BHD": 50_000} {
		var got struct {
			Balance    int64
			MinorUnits int `json:"minor_units"`
		}
		if code := postFor(t, s, tokens["admin"], "/api/admin/accounts/ann/credit", map[string]any{"amount": amount, "currency": cur}, &got); code != 200 ||
			got.Balance != amount {
			t.Fatalf("crediting ann %d %s: %d %+v", amount, cur, code, got)
		}
	}
	return s, tokens
}

// launchURL makes an operator's signed launch and returns the page's address.
func launchURL(t *testing.T, s *server, body map[string]string) string {
	t.Helper()
	key, _ := hex.DecodeString(operatorTestSecret)
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", s.web.URL()+"/api/operator/launch", bytes.NewReader(b))
	seamless.NewStamp(http.MethodPost, web.LaunchPath, time.Now()).Sign(req.Header, seamless.DomainLaunch.Key(key), b)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans web.LaunchAnswer
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil || resp.StatusCode != 200 || ans.URL == "" {
		t.Fatalf("launching %v: %d %+v %v", body, resp.StatusCode, ans, err)
	}
	return ans.URL
}

// follow opens an address whose page moves on by itself (the launch page replaces itself
// with the table or the lobby), then waits until expr holds on the page it lands on.
func (p *pagesCase) follow(what, url, expr string) {
	p.t.Helper()
	p.do(what, chromedp.Navigate("about:blank"), js(`location.href = `+jsString(url)))
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
	p.t.Fatalf("%s: the page never showed %s", what, expr)
}

// textJS reads an element's text with non-breaking spaces as spaces ("BHD 0.500").
func textJS(sel string) string {
	return `((e) => e ? e.textContent.replace(/\u00a0/g, ' ').trim() : null)(document.querySelector(` + jsString(sel) + `))`
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// chipsJS lists the chip tray: each chip's data-chip, label and title.
const chipsJS = `({Values: [...document.querySelectorAll('#chips [data-chip]')].map((b) => Number(b.dataset.chip)),
	Labels: [...document.querySelectorAll('#chips [data-chip]')].map((b) => b.textContent),
	Titles: [...document.querySelectorAll('#chips [data-chip]')].map((b) => b.title.replace(/\u00a0/g, ' ')),
	Currency: document.querySelector('#chip-currency') ? document.querySelector('#chip-currency').textContent : '',
	Pressed: Number((document.querySelector('#chips [aria-pressed="true"]') || {dataset: {}}).dataset.chip || 0)})`

type chipsView struct {
	Values         []int64
	Labels, Titles []string
	Currency       string
	Pressed        int64
}

func TestCurrencyPagesJPYAndBHD(t *testing.T) {
	s, tokens := startCurrencyServer(t)
	page := peoplePages(t, s, tokens)
	command := func(tbl string, cmd map[string]any) {
		t.Helper()
		if code := postJSON(t, s, tokens["lin"], "/api/tables/"+tbl+"/commands", cmd); code != 200 {
			t.Fatalf("the dealer's %v at %s: %d", cmd, tbl, code)
		}
	}
	// ann's odd stakes, through the API as a player's client sends them.
	wagerIDs := map[string]uint64{}
	for _, tbl := range []string{"jpy", "bhd"} {
		command(tbl, map[string]any{"cmd": "new_shoe"})
		command(tbl, map[string]any{"cmd": "open"})
	}
	for tbl, stake := range map[string]int64{"jpy": 101, "bhd": 1_001} {
		var placed struct{ Wager struct{ ID uint64 } }
		if code := postFor(t, s, tokens["ann"], "/api/tables/"+tbl+"/wagers", map[string]any{"bet": "banker", "stake": stake, "request_id": "cur-" + tbl}, &placed); code != 200 {
			t.Fatalf("ann's %d on Banker at %s: %d", stake, tbl, code)
		}
		wagerIDs[tbl] = placed.Wager.ID
	}

	desk, phoneZh, dealer := page("ann", desktop), page("ann", phone), page("lin", desktop)
	step := func(name string, pages []*pagesCase, fn func(t *testing.T)) { pageStep(t, name, pages, fn) }
	text := func(p *pagesCase, sel string) string {
		var s *string
		p.eval(textJS(sel), &s)
		if s == nil {
			return "<none>"
		}
		return *s
	}

	step("desktop lobby: each table's limits in its own currency", []*pagesCase{desk}, func(t *testing.T) {
		desk.open("/", "en")
		desk.do("the lobby", waitJS(`document.querySelectorAll('[data-table] .tc-limits').length === 2 &&
			[...document.querySelectorAll('.tc-limits')].every((e) => e.textContent !== '')`, 15*time.Second))
		if got := text(desk, `[data-table="jpy"] .tc-limits`); got != "Limits ¥100 – ¥1,000,000" {
			t.Errorf("the JPY table's limits read %q, want Limits ¥100 – ¥1,000,000", got)
		}
		if got := text(desk, `[data-table="bhd"] .tc-limits`); got != "Limits BHD 0.100 – BHD 1,000.000" {
			t.Errorf("the BHD table's limits read %q, want Limits BHD 0.100 – BHD 1,000.000", got)
		}
		desk.shot("currency-desktop-lobby")
	})

	step("desktop JPY table: chips in yen, the odd stake, a chip from the page, the balance", []*pagesCase{desk}, func(t *testing.T) {
		desk.open("/table/jpy", "en")
		desk.do("the table", waitJS(`document.querySelector('#conn').dataset.status === 'live' &&
			document.querySelector('#chips').dataset.currency === 'JPY' && document.querySelector('[data-bet="banker"]').dataset.mine === '101' &&
			document.querySelector('#balance').textContent === '99,899'`, 15*time.Second))
		var chips chipsView
		desk.eval(chipsJS, &chips)
		if want := []int64{100, 500, 1_000, 5_000, 25_000, 100_000}; !equalInts(chips.Values, want) ||
			strings.Join(chips.Labels, " ") != "100 500 1K 5K 25K 100K" || chips.Titles[0] != "Chip ¥100" || chips.Titles[5] != "Chip ¥100,000" ||
			chips.Currency != "JPY" || chips.Pressed != 5_000 {
			t.Errorf("the JPY chips: %+v; want ¥100 500 1K 5K 25K 100K (data-chip in yen), ¥5,000 chosen", chips)
		}
		if got := text(desk, `[data-bet="banker"] .mine-amount`); got != "101" {
			t.Errorf("the stake on Banker reads %q, want 101", got)
		}
		if got := text(desk, `[data-bet="banker"] .spot-limits`); got != "100 – 1,000,000" {
			t.Errorf("Banker's limits read %q, want 100 – 1,000,000", got)
		}
		if got := text(desk, `#wallet .currency`); got != "JPY" {
			t.Errorf("the wallet's currency reads %q, want JPY", got)
		}
		desk.do("a ¥100 chip on Banker", chromedp.Click(chromedp.CSS(`[data-chip="100"]`)), chromedp.Click(chromedp.CSS(`[data-bet="banker"]`)),
			waitJS(`document.querySelector('[data-bet="banker"]').dataset.mine === '201' && document.querySelector('#balance').textContent === '99,799'`, 10*time.Second))
		if got := text(desk, `#bet-hint`); !strings.Contains(got, "¥100") {
			t.Errorf("the hint reads %q, want the ¥100 chip", got)
		}
		if got := text(desk, `[data-bet="banker"] .mine-amount`); got != "201" {
			t.Errorf("the stakes on Banker read %q, want 201", got)
		}
		desk.shot("currency-desktop-jpy-bets")
	})

	step("phone BHD table in Chinese: chips in dinars, the odd stake to the fils", []*pagesCase{phoneZh}, func(t *testing.T) {
		phoneZh.open("/table/bhd", "zh-CN")
		phoneZh.do("the table", waitJS(`document.documentElement.lang === 'zh-CN' && document.querySelector('#conn').dataset.status === 'live' &&
			document.querySelector('#chips').dataset.currency === 'BHD' && document.querySelector('[data-bet="banker"]').dataset.mine === '1001' &&
			document.querySelector('#balance').textContent === '48.999'`, 15*time.Second))
		var chips chipsView
		phoneZh.eval(chipsJS, &chips)
		if want := []int64{1_000, 5_000, 25_000, 100_000, 500_000, 1_000_000}; !equalInts(chips.Values, want) ||
			strings.Join(chips.Labels, " ") != "1 5 25 100 500 1000" || !strings.Contains(chips.Titles[0], "BHD 1.000") || chips.Currency != "BHD" {
			t.Errorf("the BHD chips: %+v; want 1 5 25 100 500 1000 BHD (data-chip in fils)", chips)
		}
		if got := text(phoneZh, `[data-bet="banker"] .mine-amount`); got != "1.001" {
			t.Errorf("the stake on 庄 reads %q, want 1.001", got)
		}
		if got := text(phoneZh, `[data-bet="banker"] .spot-name`); got != "庄" {
			t.Errorf("Banker is %q in Chinese", got)
		}
		phoneZh.do("a 1 BHD chip on Banker", chromedp.Click(chromedp.CSS(`[data-chip="1000"]`)), chromedp.Click(chromedp.CSS(`[data-bet="banker"]`)),
			waitJS(`document.querySelector('[data-bet="banker"]').dataset.mine === '2001' && document.querySelector('#balance').textContent === '47.999'`, 10*time.Second))
		if got := text(phoneZh, `[data-bet="banker"] .mine-amount`); got != "2.001" {
			t.Errorf("the stakes on 庄 read %q, want 2.001", got)
		}
		var width float64
		phoneZh.eval(`document.documentElement.scrollWidth`, &width)
		if width > 390 {
			t.Errorf("the page is %.0f px wide on a 390 px phone", width)
		}
		phoneZh.screen("currency-phone-bhd-zh-bets")
	})

	step("the dealer console counts the stakes in yen", []*pagesCase{dealer}, func(t *testing.T) {
		dealer.open("/dealer/jpy", "en")
		dealer.do("the console", waitJS(`document.querySelector('#conn').dataset.status === 'live' && !!document.querySelector('#totals [data-bet="banker"]')`, 15*time.Second))
		if got := text(dealer, `#totals [data-bet="banker"] b`); got != "¥201" {
			t.Errorf("the console's Banker total reads %q, want ¥201", got)
		}
		dealer.shot("currency-dealer-jpy")
	})

	// Banker wins on six: P 2h 3c 9d (4), B 3d 3s (6).
	for _, tbl := range []string{"jpy", "bhd"} {
		command(tbl, map[string]any{"cmd": "close"})
		for _, c := range []string{"2h", "3d", "3c", "3s", "9d"} {
			command(tbl, map[string]any{"cmd": "card", "card": c})
		}
	}

	payoutsJS := func(wager uint64) string {
		return `({Winner: document.querySelector('#result').dataset.winner,
			Odd: ((e) => e ? e.textContent.replace(/\u00a0/g, ' ') : '')(document.querySelector('#payouts li[data-wager="` + jsonNum(wager) + `"] .payout-value')),
			All: [...document.querySelectorAll('#payouts .payout-value')].map((e) => e.textContent.replace(/\u00a0/g, ' ')),
			Total: document.querySelector('#payout-total') ? document.querySelector('#payout-total .payout-net').textContent.replace(/\u00a0/g, ' ') : '',
			Net: document.querySelector('#payout-total') ? document.querySelector('#payout-total').dataset.net : '',
			Balance: document.querySelector('#balance').textContent})`
	}
	type payouts struct {
		Winner, Odd, Total, Net, Balance string
		All                              []string
	}

	// The page's chip raised the odd stake: one wager on the spot (one payout), of ¥201 and 2.001 BHD.
	step("desktop JPY result: ¥201 on Banker's six wins ¥100, rounded down to the yen", []*pagesCase{desk}, func(t *testing.T) {
		desk.do("the result", waitJS(`document.querySelector('#result').dataset.winner === 'banker' && document.querySelectorAll('#payouts li').length === 1 &&
			document.querySelector('#balance').textContent === '100,100'`, 15*time.Second))
		var got payouts
		desk.eval(payoutsJS(wagerIDs["jpy"]), &got)
		if got.Odd != "+¥100" || strings.Join(got.All, " ") != "+¥100" || got.Total != "+¥100" || got.Net != "100" || got.Balance != "100,100" {
			t.Errorf("the JPY result: %+v; want +¥100 on the ¥201 (not ¥100.5), a balance of 100,100", got)
		}
		if got := text(desk, `[data-bet="banker"] .spot-outcome`); got != "+¥100" {
			t.Errorf("Banker's spot says %q, want +¥100", got)
		}
		desk.shot("currency-desktop-jpy-result")
	})

	step("phone BHD result in Chinese: 2.001 BHD on Banker's six wins 1.000, rounded down to the fils", []*pagesCase{phoneZh}, func(t *testing.T) {
		phoneZh.do("the result", waitJS(`document.querySelector('#result').dataset.winner === 'banker' && document.querySelectorAll('#payouts li').length === 1 &&
			document.querySelector('#balance').textContent === '51.000'`, 15*time.Second))
		var got payouts
		phoneZh.eval(payoutsJS(wagerIDs["bhd"]), &got)
		if got.Odd != "+BHD 1.000" || strings.Join(got.All, " ") != "+BHD 1.000" || got.Total != "+BHD 1.000" || got.Net != "1000" || got.Balance != "51.000" {
			t.Errorf("the BHD result: %+v; want +BHD 1.000 on the 2.001 (not 1.0005), a balance of 51.000", got)
		}
		phoneZh.screen("currency-phone-bhd-zh-result")
		phoneZh.shot("currency-phone-bhd-zh-result-page")
	})

	step("desktop account: each wallet's statement and totals in its currency", []*pagesCase{desk}, func(t *testing.T) {
		desk.open("/account?currency=JPY", "en")
		newest := `#statement li.line-round[data-table="%s"] .line-back`
		desk.do("the JPY statement", waitJS(`!!document.querySelector('`+strings.Replace(newest, "%s", "jpy", 1)+`') &&
			document.querySelector('[data-total="staked"]').dataset.minor === '201'`, 15*time.Second))
		var got struct {
			Options                         []string
			Pick, Badge, Balance, Currency  string
			Settled, SettledBal             string
			Staked, Won, Net, StatementCurr string
		}
		read := `({Options: [...document.querySelectorAll('#wallet-currency option')].map((o) => o.value), Pick: document.querySelector('#wallet-currency').value,
			Badge: document.querySelector('#statement-currency').textContent, Balance: document.querySelector('#balance').textContent,
			Currency: document.querySelector('#wallet .currency').textContent,
			Settled: document.querySelector('#statement li.line-round .line-back .line-value').textContent,
			SettledBal: document.querySelector('#statement li.line-round .line-balance .line-value').textContent,
			Staked: document.querySelector('[data-total="staked"] .value').textContent.replace(/\u00a0/g, ' '),
			Won: document.querySelector('[data-total="won"] .value').textContent.replace(/\u00a0/g, ' '),
			Net: document.querySelector('[data-total="net"] .value').textContent.replace(/\u00a0/g, ' '),
			StatementCurr: document.querySelector('#statement').dataset.currency})`
		desk.eval(read, &got)
		if strings.Join(got.Options, " ") != "XXX BHD JPY" || got.Pick != "JPY" || got.Badge != "JPY" || got.Balance != "100,100" || got.Currency != "JPY" ||
			got.Settled != "301" || got.SettledBal != "100,100" || got.Staked != "¥201" || got.Won != "¥301" || got.Net != "+¥100" {
			t.Errorf("the JPY wallet: %+v", got)
		}
		desk.shot("currency-desktop-account-jpy")
		desk.do("the BHD wallet", js(`const s = document.querySelector('#wallet-currency'); s.value = 'BHD'; s.dispatchEvent(new Event('change'))`),
			waitJS(`!!document.querySelector('`+strings.Replace(newest, "%s", "bhd", 1)+`') && document.querySelector('[data-total="staked"]').dataset.minor === '2001'`, 15*time.Second))
		desk.eval(read, &got)
		if got.Pick != "BHD" || got.Badge != "BHD" || got.Balance != "51.000" || got.Currency != "BHD" || got.Settled != "3.001" ||
			got.SettledBal != "51.000" || got.Staked != "BHD 2.001" || got.Won != "BHD 3.001" || got.Net != "+BHD 1.000" || got.StatementCurr != "BHD" {
			t.Errorf("the BHD wallet: %+v", got)
		}
		desk.shot("currency-desktop-account-bhd")
	})

	step("launched players: Chinese for zh, English for a language we do not have", nil, func(t *testing.T) {
		if code := postJSON(t, s, tokens["admin"], "/api/admin/accounts/yuki/credit", map[string]any{"amount": 5_000}); code != 404 {
			t.Fatalf("crediting a player not launched yet: %d, want 404", code)
		}
		yukiURL := launchURL(t, s, map[string]string{"player": "yuki", "name": "Yuki", "currency": "JPY", "language": "zh", "table": "jpy"})
		if code := postJSON(t, s, tokens["admin"], "/api/admin/accounts/yuki/credit", map[string]any{"amount": 5_000}); code != 200 { // her own currency: JPY
			t.Fatalf("crediting yuki: %d", code)
		}
		yuki := page("", phone)
		yuki.t = t
		yuki.follow("yuki's launch", yukiURL, `location.pathname === '/table/jpy' && document.documentElement.lang === 'zh-CN' &&
			document.querySelector('#balance').textContent === '5,000' && document.querySelector('#chips').dataset.currency === 'JPY' &&
			!!document.querySelector('[data-bet="banker"] .spot-name') && document.querySelector('[data-bet="banker"] .spot-name').textContent === '庄'`)
		var stored string
		yuki.eval(`localStorage.getItem('baccarat.lang')`, &stored)
		if stored != "zh" {
			t.Errorf("the launch page kept the language %q, want the operator's zh", stored)
		}
		yuki.screen("currency-phone-launch-zh")
		yuki.noErrors()

		pedroURL := launchURL(t, s, map[string]string{"player": "pedro", "name": "Pedro", "currency": "JPY", "language": "pt-BR"})
		pedro := page("", desktop)
		pedro.t = t
		pedro.follow("pedro's launch", pedroURL, `location.pathname === '/' && document.documentElement.lang === 'en' &&
			!!document.querySelector('h1') && document.querySelector('h1').textContent === 'Tables' && !!document.querySelector('#lang') && document.querySelector('#lang').value === 'en'`)
		// Every tag a launch or an address may carry, as the pages read it.
		var norms map[string]string
		pedro.eval(`Object.fromEntries(['zh', 'zh-CN', 'zh-cn', 'ZH', 'zh-Hans', 'zh-SG', 'zh-Hant-TW', 'zh-TW', 'zh_hk', 'zh-MO', 'zh-Hant', 'zh_CN', 'cn', 'ko-KR', 'th', 'vi-VN', 'en', 'en-GB', 'EN_us', 'ja', 'pt-BR', 'fr', 'enx', ''].map((x) => [x, BacI18n.norm(x) || 'none']))`, &norms)
		want := map[string]string{"zh": "zh-CN", "zh-CN": "zh-CN", "zh-cn": "zh-CN", "ZH": "zh-CN", "zh-Hans": "zh-CN", "zh-SG": "zh-CN", "zh-Hant-TW": "zh-TW", "zh-TW": "zh-TW",
			"zh_hk": "zh-TW", "zh-MO": "zh-TW", "zh-Hant": "zh-TW", "zh_CN": "zh-CN", "cn": "zh-CN", "ko-KR": "ko", "th": "th", "vi-VN": "vi", "en": "en", "en-GB": "en", "EN_us": "en", "ja": "none", "pt-BR": "none", "fr": "none", "enx": "none", "": "none"}
		for k, v := range want {
			if norms[k] != v {
				t.Errorf("the language tag %q reads as %q, want %q", k, norms[k], v)
			}
		}
		// A language asked for by address that we do not have is English too, and is not kept.
		pedro.do("?lang=fr", js(`localStorage.setItem('baccarat.lang', 'zh-TW')`), chromedp.Navigate(s.web.URL()+"/?lang=fr"),
			waitJS(`document.documentElement.lang === 'en' && localStorage.getItem('baccarat.lang') === 'zh-TW'`, 10*time.Second),
			chromedp.Navigate(s.web.URL()+"/"), waitJS(`document.documentElement.lang === 'zh-TW'`, 10*time.Second))
		pedro.shot("currency-desktop-launch-en")
		pedro.noErrors()
	})
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func jsonNum(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
