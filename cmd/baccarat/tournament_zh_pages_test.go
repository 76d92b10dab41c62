package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The tournament pages in 简体中文 on a phone (390×844): the list, a tournament as it takes
// registrations and once it runs, the tournament panel of its table and the lobby's
// tournaments. What the pages write themselves is Chinese; what the server names (the
// tournament, the players, the currency) stays as it is and is left out of the check.
// Screenshots go to testdata/artifacts/pages-phone-tournament*-zh*.png.

// untranslatedJS lists, for each visible element the selector finds, the Latin words and
// key names left in its text, titles and labels once the server's names are taken out.
// MBS and RWS are the rule books a game's name cites, in every language; SHA-256 is a name.
const untranslatedJS = `((sel, names) => {
	const out = [];
	for (const el of document.querySelectorAll(sel)) {
		if (el.closest('[hidden]')) continue;
		const c = el.cloneNode(true);
		for (const x of c.querySelectorAll('.player, .hash')) x.remove(); // names and hashes are data
		let text = c.textContent;
		for (const x of [c, ...c.querySelectorAll('[title], [aria-label]')]) {
			text += ' ' + (x.getAttribute('title') || '') + ' ' + (x.getAttribute('aria-label') || '');
		}
		for (const n of names) text = text.split(n).join(' ');
		const keys = text.match(/\btournament\.[a-z_.]+/g) || [];
		const words = (text.match(/[A-Za-z]{2,}/g) || []).filter((w) => !['MBS', 'RWS', 'SHA'].includes(w));
		if (keys.length || words.length) out.push((el.id || el.className) + ': ' + [...keys, ...words].join(' '));
	}
	return out;
})`

// regexpEnglishUI: the English words of the tournament page's panels a translation replaces.
var regexpEnglishUI = regexp.MustCompile(`Register|Unregister|Rebuy|Leaderboard|Prizes|Schedule|Sessions|Chips|Entry`)

// noEnglish fails the case if the panels the selector finds show English or key names.
func (p *pagesCase) noEnglish(sel string, names []string) {
	p.t.Helper()
	b, _ := json.Marshal(names)
	var left []string
	p.eval(fmt.Sprintf(`%s(%q, %s)`, untranslatedJS, sel, b), &left)
	if len(left) > 0 {
		p.t.Errorf("untranslated on the Chinese page (%s): %q", sel, left)
	}
}

func (p *pagesCase) text(expr string) string {
	p.t.Helper()
	var s string
	p.eval(expr, &s)
	return s
}

// TestBrowserTournamentPagesInChinese: a player who reads Chinese finds the tournament,
// registers, follows it and plays it in Chinese, with the language switch in every top bar.
func TestBrowserTournamentPagesInChinese(t *testing.T) {
	s := startTournamentServerOpenFor(t, 20*time.Second) // the list and its checks come first
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("record script errors", recordErrors(), phone)
	var cup struct {
		Name  string
		State struct{ Entrants []struct{ Player string } }
	}
	apiGet(t, s, p.tok, "/api/tournaments/cup", &cup)
	names := []string{cup.Name, "demo"}
	for _, e := range cup.State.Entrants {
		names = append(names, e.Player)
	}

	p.open("/tournaments", "zh-CN")
	p.do("the Chinese list", waitJS(`document.documentElement.lang === 'zh-CN' && !!document.querySelector('#t-cards [data-tournament="cup"]')`, 15*time.Second))
	if got := p.text(`document.querySelector('#t-cards [data-tournament="cup"]').textContent`); !strings.Contains(got, "报名中") || !strings.Contains(got, "奖池") {
		t.Errorf("the tournament's card reads %q: want 报名中 and 奖池", got)
	}
	if got := p.text(`(document.querySelector('.topbar [data-lang-slot] #lang') || {}).value || ''`); got != "zh-CN" {
		t.Errorf("the top bar's language switch: %q, want zh-CN chosen", got)
	}
	if got := p.text(`document.title`); !strings.HasPrefix(got, "锦标赛") {
		t.Errorf("the list's title: %q", got)
	}
	p.noEnglish(`#t-index, .topbar .title`, names)
	p.screen("phone-tournaments-zh")

	// Registration open: the Register button and every panel in Chinese.
	p.open("/tournament/cup", "zh-CN")
	p.do("the Chinese tournament", waitJS(`!document.querySelector('#t-register').hidden && document.querySelectorAll('#t-leaderboard tbody tr').length >= 3`, 15*time.Second))
	var heads []string
	p.eval(`[...document.querySelectorAll('#t-detail h2')].map((e) => e.textContent)`, &heads)
	for _, want := range []string{"排行榜", "牌桌", "轮次", "赛程与规则", "场次"} {
		if !strings.Contains(strings.Join(heads, "|"), want) {
			t.Errorf("no heading %s on the Chinese tournament page: %q", want, heads)
		}
	}
	if got := p.text(`document.querySelector('#t-register').textContent`); got != "报名" {
		t.Errorf("the register button reads %q, want 报名", got)
	}
	if got := p.text(`document.querySelector('#t-schedule').textContent`); !strings.Contains(got, "报名费") || !strings.Contains(got, "奖池") {
		t.Errorf("the schedule reads %q: want 报名费 and 奖池", got)
	}
	p.noEnglish(`#t-detail > section, #t-detail > div > section, .topbar .title small`, names)
	if got := p.text(`document.querySelector('#t-detail').textContent`); regexpEnglishUI.MatchString(got) {
		t.Errorf("English left on the Chinese tournament page: %q", regexpEnglishUI.FindAllString(got, -1))
	}
	// Every toast shown is kept as it appears: a slow machine may reach the check after the
	// toast has gone (it shows for 4.6 s).
	var kept bool
	p.eval(`window.shownToasts = []; new MutationObserver(() => {
		for (const m of document.querySelectorAll('#toasts .toast-msg')) if (!window.shownToasts.includes(m.textContent)) window.shownToasts.push(m.textContent);
	}).observe(document.body, {childList: true, subtree: true}); true`, &kept)
	// The page may show the player registered a moment before its toast: wait for both.
	p.do("register", chromedp.Click(chromedp.CSS(`#t-register`)),
		waitJS(`!!document.querySelector('#t-me-registered') && window.shownToasts.length > 0`, 10*time.Second))
	if got := p.text(`window.shownToasts.join('|')`); !strings.Contains(got, "报名成功") {
		t.Errorf("the toast after registering: %q, want 报名成功", got)
	}
	p.screen("phone-tournament-zh-registered")

	// Running: the player's table, the tables of the round and the leaderboard.
	p.do("the tournament starts", waitJS(`!!document.querySelector('#t-my-table') && !!document.querySelector('#t-tables [data-table-id]')`, 30*time.Second))
	if got := p.text(`document.querySelector('#t-tables').textContent`); !strings.Contains(got, "第 1 桌") || !strings.Contains(got, "进入牌桌") {
		t.Errorf("the tables panel reads %q", got)
	}
	p.noEnglish(`#t-detail > section, #t-detail > div > section`, names)
	p.screen("phone-tournament-zh-running")
	p.shot("phone-tournament-zh-running")
	tableURL := p.text(`document.querySelector('#t-my-table').getAttribute('href')`)

	// The table's tournament panel, with chips in the top bar's wallet.
	p.open(tableURL, "zh-CN")
	p.do("the Chinese tournament table", waitJS(`!!document.querySelector('#t-panel') && document.querySelector('#t-hands-left').textContent !== '–' &&
		document.querySelector('#wallet .label').textContent === '筹码' && !!document.querySelector('#t-standings tr.me')`, 20*time.Second))
	if got := p.text(`document.querySelector('#t-panel').textContent`); !strings.Contains(got, "剩余局数") || !strings.Contains(got, "您的筹码") {
		t.Errorf("the table's tournament panel reads %q", got)
	}
	p.noEnglish(`#t-panel .t-me, #t-panel #t-standings, #t-panel-where`, names)
	p.screen("phone-tournament-table-zh")

	// The lobby's tournaments.
	p.open("/?view=tournaments", "zh-CN") // the tournaments tab
	p.do("the Chinese lobby's tournaments", waitJS(`!!document.querySelector('#lobby-tournaments [data-tournament="cup"]') &&
		document.querySelector('#lobby-tournaments h2').textContent.startsWith('锦标赛')`, 15*time.Second))
	p.noEnglish(`#lobby-tournaments`, names)
	p.screen("phone-lobby-tournaments-zh")
	p.noErrors()
}
