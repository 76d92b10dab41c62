package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserStatementLinePerRound: the account page's statement, a line per round per table,
// on a desktop (1280×900) and on phones (390×844, 360×740), in English and 简体中文. The player
// loses a round and wins the next at the dealer table; each page lists the lost round, opens
// it to its wagers and recall, keeps the balance after on a phone, and never scrolls sideways.
func TestBrowserStatementLinePerRound(t *testing.T) {
	s := startServer(t)
	player, dealer := s.links["player_token"], s.links["dealer_token"]
	cmd := func(body map[string]any) {
		t.Helper()
		if code := postJSON(t, s, dealer, "/api/tables/live/commands", body); code != 200 {
			t.Fatalf("dealer %v: %d", body, code)
		}
	}
	round := func(stake int64, cards ...string) {
		t.Helper()
		cmd(map[string]any{"cmd": "open"})
		if code := postJSON(t, s, player, "/api/tables/live/wagers", map[string]any{"bet": "banker", "stake": stake}); code != 200 {
			t.Fatalf("wager: %d", code)
		}
		cmd(map[string]any{"cmd": "close"})
		for _, c := range cards {
			cmd(map[string]any{"cmd": "card", "card": c})
		}
	}
	cmd(map[string]any{"cmd": "new_shoe"})
	round(2500, "9h", "2c", "Kd", "Qs")       // a Player natural 9: the Banker wager is lost
	round(1000, "2h", "3d", "3c", "3s", "9d") // Banker 6 over 5: Tiger 4.1 pays 1:2

	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: player}
	p.do("record errors", recordErrors())
	lost := `#statement li.line-round[data-table="live"][data-round="1"]`
	for _, c := range []struct {
		name, lang    string
		width, height int64
		mobile        bool
		title, lose   string
	}{
		{"desktop-en", "en", 1280, 900, false, "Statement", "lost"},
		{"desktop-zh", "zh-CN", 1280, 900, false, "账户明细", ""},
		{"phone-en", "en", 390, 844, true, "Statement", "lost"},
		{"phone-zh", "zh-CN", 390, 844, true, "账户明细", ""},
		{"small-phone-zh", "zh-CN", 360, 740, true, "账户明细", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.t = t
			view := chromedp.EmulateViewport(c.width, c.height)
			if c.mobile {
				view = chromedp.EmulateViewport(c.width, c.height, chromedp.EmulateMobile, chromedp.EmulatePortrait)
			}
			p.do("viewport", view)
			p.open("/account", c.lang)
			p.do("the lost round's line", waitJS(`!!document.querySelector('`+lost+`') && document.querySelector('`+lost+`').dataset.net === '-2500' &&
				document.querySelector('[data-total="staked"]').dataset.minor === '3500'`, 15*time.Second))
			p.do("open the lost round", js(`document.querySelector('`+lost+` .line-open').click()`),
				waitJS(`!!document.querySelector('`+lost+` .line-wagers tbody tr[data-result="lose"]') && !!document.querySelector('`+lost+` .line-recall .recall')`, 10*time.Second))
			var got struct {
				Lines, Wagers                   int
				Title, Lang, Result, Bet        string
				Overflow, BalanceShown, Credit  bool
				RowHeight, PagerHeight, Balance float64
				Net, Staked                     string
			}
			p.eval(fmt.Sprintf(`(() => { const li = document.querySelector('%[1]s'); const bal = li.querySelector('.line-balance');
				const r = bal.getBoundingClientRect(); const row = li.querySelector('.line-open').getBoundingClientRect();
				return {Lines: document.querySelectorAll('#statement li.line').length,
					Wagers: li.querySelectorAll('.line-wagers tbody tr').length,
					Title: document.querySelector('[data-i18n="stmt.title"]').textContent, Lang: document.documentElement.lang,
					Result: li.querySelector('.line-wagers tbody td:nth-child(3)').textContent,
					Bet: li.querySelector('.line-bet').dataset.minor, Net: li.querySelector('.line-net').dataset.minor,
					Staked: document.querySelector('[data-total="staked"]').dataset.minor || '',
					Overflow: document.documentElement.scrollWidth > window.innerWidth || document.body.scrollWidth > window.innerWidth,
					BalanceShown: r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= window.innerWidth,
					Credit: !!document.querySelector('#statement li.line-credit'),
					RowHeight: row.height, PagerHeight: document.querySelector('#older').getBoundingClientRect().height,
					Balance: r.right}; })()`, lost), &got)
			if got.Lines != 3 || !got.Credit {
				t.Errorf("a line per round and one for the credit: %d lines, credit %v", got.Lines, got.Credit)
			}
			if got.Wagers != 1 || got.Bet != "2500" || got.Net != "-2500" {
				t.Errorf("the lost round: %d wagers, bet %s, net %s; want 1, 2500, -2500", got.Wagers, got.Bet, got.Net)
			}
			if got.Title != c.title || got.Lang != c.lang || (c.lose != "" && got.Result != c.lose) || got.Result == "" {
				t.Errorf("in %s: title %q, lang %q, result %q", c.lang, got.Title, got.Lang, got.Result)
			}
			if got.Staked != "3500" {
				t.Errorf("the period's staked total %q, want 3500", got.Staked)
			}
			if got.Overflow {
				t.Errorf("the page scrolls sideways at %d×%d", c.width, c.height)
			}
			if !got.BalanceShown {
				t.Errorf("the balance after is not shown at %d×%d (its right edge at %.0f)", c.width, c.height, got.Balance)
			}
			if c.mobile && (got.RowHeight < 44 || got.PagerHeight < 44) {
				t.Errorf("tap targets: a line %.0f px high, the pager %.0f; want 44 at least", got.RowHeight, got.PagerHeight)
			}
			p.shot("statement-" + c.name)
			if c.mobile {
				p.screen("statement-" + c.name + "-screen")
			}
			p.noErrors()
		})
	}
}
