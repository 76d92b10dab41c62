package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// longName is a table's and a tournament's name that would wrap to six lines on a phone.
const longName = "Grand Imperial Dragon Pearl High Roller Baccarat Salon of the Golden Lotus Palace Room Eight"

// TestLobbyListsCashTablesFirstAndTournamentTablesUnderTheirTournament: on a phone, the lobby
// opens on its cash tables (a tournament's session tables are not among them, and the cash
// tables come before the tournaments on the page); its Tournaments tab lists the running
// tournament first with its session tables nested in its card, one line each, its players with
// the house's bots counted ("3 players (3 bots)"), and the last three ended tournaments with a
// button for all of them. The tab chosen is remembered after a reload; names are cut at two
// lines; the tabs are at least 44×44 px; nothing scrolls sideways at 390 and 360 px.
func TestLobbyListsCashTablesFirstAndTournamentTablesUnderTheirTournament(t *testing.T) {
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{{ID: "tiger", Name: longName, Mode: live.ModeAuto,
		Config: table.Config{Game: "mbs-tiger"}}}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "lobby.db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	now := time.Now().UTC()
	ctx := context.Background()
	// The running one: three house bots at one table, starting in 3 s, one long session.
	cup := live.TournamentSpec{Config: tournament.Config{ID: "cup", Name: longName, Game: "mbs-tournament", Currency: "XXX",
		EntryFee: 1000, StartingChips: 10_000, MaxEntrants: 4, TableSize: 4,
		RegistrationOpens: now, RegistrationCloses: now.Add(3 * time.Second), Start: now.Add(3 * time.Second),
		Stakes: tournament.Stakes{Min: 100, Max: 2000}, Rounds: []tournament.Round{{Hands: 50}}, Prizes: []int{10000}},
		Schedule: live.Schedule{Betting: 5 * time.Second, Card: 150 * time.Millisecond, Result: time.Second},
		Bots:     tabletop.Bots("house-", 3)}
	if err := s.host.CreateTournament(ctx, cup); err != nil {
		t.Fatal(err)
	}
	// Four that end at once (nobody registers: cancelled at their start), 1 s apart.
	for i := 1; i <= 4; i++ {
		start := now.Add(time.Duration(i) * time.Second)
		old := live.TournamentSpec{Config: tournament.Config{ID: fmt.Sprintf("old%d", i), Name: fmt.Sprintf("Old Cup %d", i),
			Game: "mbs-tournament", Currency: "XXX", EntryFee: 1000, StartingChips: 10_000, MaxEntrants: 4, TableSize: 4,
			RegistrationOpens: now, RegistrationCloses: start, Start: start,
			Stakes: tournament.Stakes{Min: 100, Max: 2000}, Rounds: []tournament.Round{{Hands: 3}}, Prizes: []int{10000}}}
		if err := s.host.CreateTournament(ctx, old); err != nil {
			t.Fatal(err)
		}
	}

	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("record script errors", recordErrors(), phone)
	p.open("/", "en")
	// The cup's session table is open once it starts.
	p.do("the cash view", waitJS(`!!document.querySelector('#tables [data-table="tiger"]') && document.body.dataset.lobbyView === 'cash'`, 15*time.Second),
		waitJS(`!!document.querySelector('#lobby-tournaments [data-tournament="cup"] [data-session-table]')`, 30*time.Second))
	var sessions []string
	var tables []struct {
		ID         string
		Tournament *struct{ Tournament string }
	}
	apiGet(t, s, p.tok, "/api/tables", &tables)
	for _, tv := range tables {
		if tv.Tournament != nil && tv.Tournament.Tournament == "cup" {
			sessions = append(sessions, tv.ID)
		}
	}
	if len(sessions) == 0 {
		t.Fatalf("no session table of the cup in GET /api/tables: %+v", tables)
	}
	sessionsJS, _ := json.Marshal(sessions)

	// Cash: only the cash table, before the tournaments; the session tables have no card.
	var cash struct {
		Cards, Sessions          []string
		First, CashShown, TShown bool
	}
	p.eval(fmt.Sprintf(`(() => { const ids = %s; return {
		Cards: [...document.querySelectorAll('[data-table]')].map((e) => e.dataset.table),
		Sessions: ids.filter((id) => !!document.querySelector('[data-table="' + id + '"]')),
		First: !!(document.querySelector('#tables [data-table]').compareDocumentPosition(document.querySelector('#lobby-tournaments')) & Node.DOCUMENT_POSITION_FOLLOWING),
		CashShown: !document.querySelector('#lobby-cash').hidden, TShown: !document.querySelector('#lobby-tournaments').hidden}; })()`, sessionsJS), &cash)
	if strings.Join(cash.Cards, ",") != "tiger" || len(cash.Sessions) > 0 {
		t.Errorf("the lobby's table cards are %q (session tables among them: %q), want only the cash table tiger", cash.Cards, cash.Sessions)
	}
	if !cash.First || !cash.CashShown || cash.TShown {
		t.Errorf("cash view: cash tables before the tournaments %v, cash shown %v, tournaments shown %v", cash.First, cash.CashShown, cash.TShown)
	}
	p.fits("the cash view")
	p.clamped(`#tables [data-table="tiger"] .tc-name`)
	// The filter's tabs: 44×44 px at least.
	var small []string
	p.eval(`[...document.querySelectorAll('#lobby-views [role="tab"]')].filter((e) => { const r = e.getBoundingClientRect();
		return r.width < 44 || r.height < 44; }).map((e) => e.id + ' ' + Math.round(e.getBoundingClientRect().width) + '×' + Math.round(e.getBoundingClientRect().height))`, &small)
	if len(small) > 0 {
		t.Errorf("tabs smaller than 44×44 px: %q", small)
	}
	p.screen("phone-lobby-cash")

	// Tournaments: the cup first with its session tables nested, then the last three ended.
	p.do("the tournaments view", js(`document.querySelector('#lobby-tab-tournaments').click()`),
		waitJS(`!document.querySelector('#lobby-tournaments').hidden && document.querySelector('#lobby-cash').hidden &&
			document.querySelectorAll('#lobby-t-cards [data-tournament][data-phase="cancelled"]').length === 3 &&
			!document.querySelector('#lobby-t-more').hidden`, 20*time.Second)) // all four ended: the fourth may still be starting at first
	var tv struct {
		Order, Nested []string
		Loose         int
		Players       string
		Bots          string
		More          bool
		Links         []string
	}
	p.eval(`({ Order: [...document.querySelectorAll('#lobby-t-cards > [data-tournament]')].map((e) => e.dataset.tournament),
		Nested: [...document.querySelectorAll('[data-tournament="cup"] [data-session-table]')].map((e) => e.dataset.sessionTable),
		Loose: [...document.querySelectorAll('[data-session-table]')].filter((e) => !e.closest('#lobby-t-cards [data-tournament]')).length,
		Players: document.querySelector('[data-tournament="cup"] .tl-players').textContent,
		Bots: document.querySelector('[data-tournament="cup"] .tl-players').dataset.bots,
		More: !document.querySelector('#lobby-t-more').hidden,
		Links: [...document.querySelectorAll('[data-tournament="cup"] [data-session-table] a')].map((a) => a.getAttribute('href') + ' ' + a.textContent) })`, &tv)
	if strings.Join(tv.Order, ",") != "cup,old4,old3,old2" {
		t.Errorf("the tournaments in the lobby: %q, want the running cup first, then the three ended last, newest first", tv.Order)
	}
	if strings.Join(tv.Nested, ",") != strings.Join(sessions, ",") || tv.Loose > 0 {
		t.Errorf("the cup's session tables in its card: %q (%d elsewhere), want %q", tv.Nested, tv.Loose, sessions)
	}
	for i, l := range tv.Links {
		if i < len(sessions) && l != "/table/"+sessions[i]+" Watch" {
			t.Errorf("session line %d links %q, want /table/%s Watch", i, l, sessions[i])
		}
	}
	if tv.Players != "3 players (3 bots)" || tv.Bots != "3" {
		t.Errorf("the cup's players read %q (bots %q), want 3 players (3 bots)", tv.Players, tv.Bots)
	}
	if !tv.More {
		t.Error("no button to show every ended tournament")
	}
	p.fits("the tournaments view")
	p.clamped(`[data-tournament="cup"] .tl-name`)
	p.screen("phone-lobby-tournaments")
	p.do("show all ended", js(`document.querySelector('#lobby-t-more').click()`),
		waitJS(`[...document.querySelectorAll('#lobby-t-cards > [data-tournament]')].map((e) => e.dataset.tournament).join() === 'cup,old4,old3,old2,old1'`, 5*time.Second))

	// The choice is remembered: a reload opens on the tournaments.
	p.open("/", "en")
	p.do("the tournaments after a reload", waitJS(`document.body.dataset.lobbyView === 'tournaments' &&
		document.querySelector('#lobby-tab-tournaments').getAttribute('aria-selected') === 'true' &&
		!document.querySelector('#lobby-tournaments').hidden && !!document.querySelector('[data-tournament="cup"] [data-session-table]')`, 15*time.Second))
	p.do("360×740", chromedp.EmulateViewport(360, 740, chromedp.EmulateMobile, chromedp.EmulatePortrait))
	p.fits("the tournaments view at 360 px")
	p.open("/?view=cash", "en")
	p.do("?view=cash", waitJS(`document.body.dataset.lobbyView === 'cash' && !!document.querySelector('#tables [data-table="tiger"]')`, 15*time.Second))
	p.fits("the cash view at 360 px")
	p.screen("phone-360-lobby-cash")
	// In Chinese: the tournaments' cards and their session lines say nothing in English.
	p.open("/?view=tournaments", "zh-CN")
	p.do("the Chinese tournaments view", waitJS(`document.documentElement.lang === 'zh-CN' &&
		!!document.querySelector('[data-tournament="cup"] [data-session-table]') && !document.querySelector('#lobby-tournaments').hidden`, 15*time.Second))
	p.noEnglish(`#lobby-views, #lobby-tournaments`, []string{longName, "Old Cup"})
	p.fits("the Chinese tournaments view at 360 px")
	p.screen("phone-360-lobby-tournaments-zh")
	p.noErrors()
}

// fits fails the case if the page scrolls sideways.
func (p *pagesCase) fits(what string) {
	p.t.Helper()
	var w struct{ Scroll, Inner int }
	p.eval(`({ Scroll: document.documentElement.scrollWidth, Inner: innerWidth })`, &w)
	if w.Scroll > w.Inner {
		p.t.Errorf("%s scrolls sideways: %d px wide in a %d px window", what, w.Scroll, w.Inner)
	}
}

// clamped fails the case if the element's text takes more than two lines.
func (p *pagesCase) clamped(sel string) {
	p.t.Helper()
	var c struct {
		Height, Line float64
		Clamp        string
	}
	p.eval(fmt.Sprintf(`(() => { const e = document.querySelector(%q); const cs = getComputedStyle(e);
		return { Height: e.getBoundingClientRect().height, Line: parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.4, Clamp: cs.webkitLineClamp }; })()`, sel), &c)
	if c.Clamp != "2" || c.Height > 2*c.Line+2 {
		p.t.Errorf("%s: %.0f px high (a line is about %.0f px), line clamp %q: want two lines at most", sel, c.Height, c.Line, c.Clamp)
	}
}
