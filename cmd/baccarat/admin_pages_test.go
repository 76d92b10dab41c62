package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// The back office as an operator runs a day from it, in a real browser: a table made from
// the form (a tournament game's exact player edge shown before it is made a cash table), a
// limit changed, a round voided, a table paused and reopened and another closed, an account credited, a tournament made and cancelled, a
// round looked up, a report read and downloaded and its totals checked against the books.
// Each action runs twice, in English on a desktop (1280×900) and in Chinese on a phone
// (390×844); every section is also toured in the other two. Screenshots go to
// testdata/artifacts/admin-*.png.

// adminCase is one browser at one size and language, signed in as the admin.
type adminCase struct {
	t    *testing.T
	ctx  context.Context
	s    *server
	lang string
	name string // "desktop-en", for screenshots
	tok  string
	dir  string // where downloads land
}

func (p *adminCase) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		p.t.Fatalf("%s (%s): %v", what, p.name, err)
	}
}

func (p *adminCase) shot(name string) { screenshot(p.t, p.ctx, "admin-"+p.name+"-"+name) }

func (p *adminCase) eval(expr string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[json.RawMessage](expr))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("evaluating %s: %s: %v", expr, raw, err)
	}
}

func (p *adminCase) open(path string) {
	p.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	p.do("open "+path, chromedp.Navigate(p.s.web.URL()+path+sep+"lang="+p.lang+"&token="+p.tok),
		waitJS(`!!document.querySelector('.admin-sec:not([hidden])') && document.querySelector('.admin-sec:not([hidden])').children.length > 0`, 15*time.Second))
}

// fill sets a field as typing does (input and change events), a select's option too.
func fill(sel, value string) chromedp.Action[chromedp.Void] {
	return js(`const e = document.querySelector(` + strconv.Quote(sel) + `); if (!e) throw new Error('no ' + ` + strconv.Quote(sel) + `);
		e.value = ` + strconv.Quote(value) + `; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}))`)
}

func click(sel string) chromedp.Action[chromedp.Void] { return chromedp.Click(chromedp.CSS(sel)) }

// twice presses a button that asks for a second press.
func twice(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if err := chromedp.Do(ctx, click(sel), waitJS(`document.querySelector(`+strconv.Quote(sel)+`).classList.contains('armed')`, 3*time.Second)); err != nil {
			return err
		}
		return chromedp.Do(ctx, click(sel))
	})
}

func (p *adminCase) noErrors() {
	p.t.Helper()
	var errs []string
	p.eval(`window.__errors || []`, &errs)
	if len(errs) > 0 {
		p.t.Errorf("script errors on the page (%s): %q", p.name, errs)
	}
}

// startAdminServer runs the server with an automatic Tiger table dealing every few seconds,
// a dealer's Tiger table and no demo tournaments.
func startAdminServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{
		{ID: "tiger", Name: "Tiger", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"},
			Schedule: live.Schedule{Betting: 3 * time.Second, Card: 100 * time.Millisecond, Result: time.Second}},
		{ID: "live", Name: "Live Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "a.db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func adminBrowser(t *testing.T, s *server, name, lang string, view chromedp.Action[chromedp.Void]) *adminCase {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, 4*time.Minute)
	t.Cleanup(cancel3)
	p := &adminCase{t: t, ctx: ctx, s: s, lang: lang, name: name, tok: s.links["admin"], dir: t.TempDir()}
	p.do("set up", recordErrors(), view, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		return tg.Call(ctx, "Browser.setDownloadBehavior", map[string]any{"behavior": "allow", "downloadPath": p.dir}, nil)
	}))
	return p
}

// adminStep runs one step of a case: the page reports to the step, which fails on its
// script errors too, and the first step that fails ends the case.
func adminStep(t *testing.T, p *adminCase, name string, fn func(p *adminCase)) {
	ok := t.Run(name, func(t *testing.T) {
		p.t = t
		fn(p)
		p.noErrors()
	})
	if !ok {
		t.FailNow()
	}
}

func TestAdminPages(t *testing.T) {
	chromium(t)
	s := startAdminServer(t)
	// Play first: the demo player's wagers at the automatic table settle while the cases run.
	wagerAtTiger(t, s, "banker", 5000)
	wagerAtTiger(t, s, "player", 2500)
	for _, c := range []struct {
		name, lang, table, tournament string
		view                          chromedp.Action[chromedp.Void]
	}{{"desktop-en", "en", "cup-cash", "spring", desktop}, {"phone-zh", "zh-CN", "cup-cash-2", "autumn", phone}} {
		t.Run(c.name, func(t *testing.T) {
			p := adminBrowser(t, s, c.name, c.lang, c.view)
			adminStep(t, p, "a table is made from the form, the player edge shown first", func(p *adminCase) { makeTable(p, c.table) })
			adminStep(t, p, "a limit is changed with a reason", changeLimit)
			adminStep(t, p, "a round is voided with a reason", voidRound)
			adminStep(t, p, "a table is paused, marked in the lobby and reopened; another is closed", func(p *adminCase) { pauseAndClose(p, c.table) })
			adminStep(t, p, "an account is credited with a reason", creditAccount)
			adminStep(t, p, "a tournament is made and cancelled", func(p *adminCase) { makeAndCancelTournament(p, c.tournament) })
			adminStep(t, p, "a round is looked up by number and by transaction", lookUpRound)
			adminStep(t, p, "the report's totals are the books' and download as CSV", readReport)
			adminStep(t, p, "the audit trail lists the actions", readAudit)
		})
	}
	for _, c := range []struct {
		name, lang string
		view       chromedp.Action[chromedp.Void]
	}{{"desktop-zh", "zh-CN", desktop}, {"phone-en", "en", phone}} {
		t.Run(c.name+" tour", func(t *testing.T) {
			p := adminBrowser(t, s, c.name, c.lang, c.view)
			adminStep(t, p, "every section opens", tour)
		})
	}
}

// wagerAtTiger places a demo player's wager at the automatic table once it takes bets.
func wagerAtTiger(t *testing.T, s *server, bet string, stake baccarat.Money) {
	t.Helper()
	type tiger struct {
		State struct {
			Phase string
			Round uint64
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var snap tiger
		apiGet(t, s, s.links["player_token"], "/api/tables/tiger", &snap)
		if snap.State.Phase == "betting" {
			if postJSON(t, s, s.links["player_token"], "/api/tables/tiger/wagers", map[string]any{"bet": bet, "stake": stake}) == 200 {
				// Settled before the steps that read the player's balance begin: a round
				// settling in the middle of one would move it.
				for time.Now().Before(deadline) {
					var now tiger
					apiGet(t, s, s.links["player_token"], "/api/tables/tiger", &now)
					if now.State.Round > snap.State.Round || now.State.Phase == "settled" || now.State.Phase == "void" {
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
				t.Fatal("the tiger table's round never settled")
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the tiger table never took the wager")
}

func makeTable(p *adminCase, id string) {
	p.open("/admin")
	p.do("the tables", waitJS(`!!document.querySelector('#tables-list tr[data-table="tiger"]')`, 10*time.Second), click("#new-table"),
		waitJS(`!document.querySelector('#table-form').hidden`, 5*time.Second),
		fill(`#table-form [name="id"]`, id), fill(`#table-form [name="name"]`, "Cup for cash"),
		fill(`#table-form [name="game"]`, "mbs-tournament"), fill(`#table-form [name="schedule_betting"]`, "2.5"),
		// A tournament game for money: refused until it says it is a cash table, and the
		// exact player edge of its bets is shown before.
		waitJS(`(document.querySelector('[data-player-edge="banker"]')||{}).dataset?.edge === '+1.2351%'`, 10*time.Second),
		waitJS(`document.querySelector('#table-check').dataset.ok === 'false'`, 10*time.Second))
	p.shot("table-edge")
	p.do("made a cash table", waitJS(`!!document.querySelector('#table-limits [name="max_tie"]')`, 10*time.Second),
		fill(`#table-limits [name="max_tie"]`, "200"), js(`document.querySelector('#table-form [name="cash"]').click()`),
		waitJS(`document.querySelector('#table-check').dataset.ok === 'true'`, 10*time.Second), click("#table-create"),
		waitJS(`!!document.querySelector('#tables-list tr[data-table="`+id+`"]')`, 10*time.Second))
	var snap struct {
		Table struct {
			Game, Currency string
			BettingSeconds float64 `json:"betting_seconds"`
			Limits         map[string]table.Limit
		}
	}
	apiGet(p.t, p.s, p.tok, "/api/tables/"+id, &snap)
	if snap.Table.Game != "mbs-tournament" || snap.Table.BettingSeconds != 2.5 || snap.Table.Limits["tie"].Max != 20000 {
		p.t.Fatalf("the table made: %+v", snap.Table)
	}
	p.shot("tables")
}

func changeLimit(p *adminCase) {
	p.open("/admin/table/tiger")
	max := "500"
	if p.lang != "en" {
		max = "600"
	}
	p.do("the live view", waitJS(`document.querySelectorAll('#limit-bet option').length > 3 && !!document.querySelector('#live-phase').dataset.phase`, 15*time.Second),
		fill("#limit-bet", "tie"), fill("#limit-min", "1"), fill("#limit-max", max), fill("#limit-reason", "quiet night"),
		js(`document.querySelector('#limit-form').requestSubmit()`),
		waitJS(`(document.querySelector('#live-limits tr[data-bet="tie"]')||{dataset:{}}).dataset.max === '`+max+`00'`, 10*time.Second))
	var snap struct{ State table.State }
	apiGet(p.t, p.s, p.tok, "/api/tables/tiger", &snap)
	if l := snap.State.Limits["tie"]; l.Min != 100 || strconv.FormatInt(int64(l.Max), 10) != max+"00" {
		p.t.Fatalf("the tie's limits at the table: %+v", l)
	}
	p.shot("live")
}

func voidRound(p *adminCase) {
	dealer, player := p.s.links["dealer_token"], p.s.links["player_token"]
	var snap struct{ State table.State }
	apiGet(p.t, p.s, dealer, "/api/tables/live", &snap)
	if !snap.State.Shoe.Active {
		postJSON(p.t, p.s, dealer, "/api/tables/live/commands", map[string]any{"cmd": "new_shoe"})
	}
	if code := postJSON(p.t, p.s, dealer, "/api/tables/live/commands", map[string]any{"cmd": "open"}); code != 200 {
		p.t.Fatalf("open: %d", code)
	}
	before := balanceOf(p.t, p.s)
	if code := postJSON(p.t, p.s, player, "/api/tables/live/wagers", map[string]any{"bet": "banker", "stake": 700}); code != 200 {
		p.t.Fatalf("wager: %d", code)
	}
	p.open("/admin/table/live")
	p.do("void", waitJS(`(document.querySelector('#live-phase')||{dataset:{}}).dataset.phase === 'betting' && !!document.querySelector('#live-wagers li[data-wager]')`, 15*time.Second),
		fill("#void-reason", "dealer_error"), fill("#void-note", "the shoe jammed"), twice("#void-round"),
		waitJS(`document.querySelector('#live-phase').dataset.phase === 'void'`, 10*time.Second))
	if got := balanceOf(p.t, p.s); got != before {
		p.t.Fatalf("the voided stake is back: balance %d, was %d", got, before)
	}
	p.shot("voided")
}

// pauseAndClose pauses the automatic table from its live view, sees the lobby mark it, and
// reopens it; then pauses the table the case made, which has nothing in play, waits for its
// round under way to end and closes it: the players' lobby leaves it out, the staff's marks it,
// and its page says it is closed, with the way back to the lobby.
func pauseAndClose(p *adminCase, other string) {
	state := func(s string) string {
		return `(document.querySelector('#live-table-state')||{dataset:{}}).dataset.state === '` + s + `'`
	}
	// Pressed from script: the toast of the last press may lie over the next button on a phone.
	press := func(sel string) chromedp.Action[chromedp.Void] {
		return js(`document.querySelector(` + strconv.Quote(sel) + `).click()`)
	}
	p.open("/admin/table/tiger")
	p.do("pause", waitJS(state("open"), 15*time.Second), fill("#table-reason", "staff break"), press("#table-pause"),
		waitJS(state("paused"), 10*time.Second))
	p.do("the lobby's mark", chromedp.Navigate(p.s.web.URL()+"/?lang="+p.lang+"&token="+p.tok),
		waitJS(`(() => { const c = document.querySelector('.table-card[data-table="tiger"]');
			return !!c && c.dataset.paused === 'true' && !c.querySelector('.tc-paused').hidden; })()`, 10*time.Second))
	p.shot("lobby-paused")
	p.open("/admin/table/tiger")
	p.do("reopen", waitJS(state("paused"), 15*time.Second), press("#table-reopen"), waitJS(state("open"), 10*time.Second))
	p.open("/admin/table/" + other)
	p.do("close", waitJS(state("open"), 15*time.Second), fill("#table-reason", "end of the night"), press("#table-pause"),
		waitJS(state("paused")+` && ['idle', 'settled', 'void'].includes(document.querySelector('#live-phase').dataset.phase)`, 30*time.Second),
		fill("#table-reason", "end of the night"), press("#table-close"), waitJS(`document.querySelector('#table-close').classList.contains('armed')`, 3*time.Second),
		press("#table-close"), waitJS(state("closed"), 10*time.Second))
	p.shot("closed")
	var lobby []struct{ ID string }
	apiGet(p.t, p.s, p.s.links["player_token"], "/api/tables", &lobby)
	for _, tv := range lobby {
		if tv.ID == other {
			p.t.Fatalf("the closed table %s is in the players' lobby", other)
		}
	}
	p.open("/admin")
	p.do("the tables list", waitJS(`!!document.querySelector('#tables-list tr[data-table="`+other+`"][data-state="closed"] [data-table-state="closed"]')`, 10*time.Second))
	p.do("the closed table's page", chromedp.Navigate(p.s.web.URL()+"/table/"+other+"?lang="+p.lang+"&token="+p.tok),
		waitJS(`!!document.querySelector('#table-closed:not([hidden]) a[href="/"]') && document.querySelector('#phase').textContent === Bac.t('phase.table_closed')`, 15*time.Second))
	p.shot("closed-table")
}

func creditAccount(p *adminCase) {
	p.open("/admin/accounts")
	before := balanceOf(p.t, p.s)
	p.do("find the demo player", fill("#acct-q", "demo"), waitJS(`!!document.querySelector('#acct-list-box tr[data-account="demo"]')`, 10*time.Second),
		click(`#acct-list-box tr[data-account="demo"] button`), waitJS(`!!document.querySelector('#acct-detail[data-account="demo"] #acct-balance')`, 10*time.Second))
	p.shot("account")
	// The statement's newest entry is the credit, and the balance the page shows is the
	// wallet's (a round at the automatic table may settle meanwhile).
	p.do("credit", fill("#money-amount", "12.34"), fill("#money-reason", "goodwill"), click("#money-credit"),
		waitJS(`(() => { const r = document.querySelector('#acct-statement tbody tr[data-seq]'); return !!r && r.dataset.memo === 'credit' &&
			Number(document.querySelector('#acct-balance').dataset.balance) >= `+strconv.FormatInt(int64(before+1234), 10)+`; })()`, 10*time.Second))
	var shown baccarat.Money
	p.eval(`Number(document.querySelector('#acct-balance').dataset.balance)`, &shown)
	var hist []ledger.Entry
	apiGet(p.t, p.s, p.s.links["player_token"], "/api/me/history?limit=1000", &hist)
	credited, ok := -1, false
	for i, e := range hist {
		if e.Memo == "credit" && e.Amount == 1234 {
			credited = i
		}
		if credited >= 0 && e.Balance == shown {
			ok = true
		}
	}
	if !ok {
		p.t.Fatalf("the credit of 12.34: the page shows a balance of %d, the statement %+v", shown, hist)
	}
	p.shot("credited")
}

func makeAndCancelTournament(p *adminCase, id string) {
	p.open("/admin/tournaments")
	p.do("the form", click("#new-tournament"), waitJS(`!document.querySelector('#tour-form').hidden`, 5*time.Second),
		fill("#tour-id", id), fill("#tour-name", "Cup "+id), fill("#tour-bots", "2"),
		waitJS(`document.querySelector('#tour-check').dataset.ok === 'true'`, 10*time.Second),
		fill("#tour-template-name", "weekly-"+id), click("#tour-save-template"),
		waitJS(`!!document.querySelector('#tour-template option[value="weekly-`+id+`"]')`, 10*time.Second))
	p.shot("tournament-form")
	p.do("create", click("#tour-create"), waitJS(`!!document.querySelector('#tour-list tr[data-tournament="`+id+`"]')`, 10*time.Second),
		fill("#tour-cancel-reason", "not enough players"), twice(`[data-cancel="`+id+`"]`),
		waitJS(`(document.querySelector('#tour-list tr[data-tournament="`+id+`"]')||{dataset:{}}).dataset.phase === 'cancelled'`, 15*time.Second))
	var v struct{ Phase string }
	apiGet(p.t, p.s, p.tok, "/api/tournaments/"+id, &v)
	if v.Phase != "cancelled" {
		p.t.Fatalf("the tournament is %s", v.Phase)
	}
	p.shot("tournaments")
}

// settledTigerRound waits for a settled round of the automatic table with the demo player's
// wagers in it. The table recalls its last ten rounds: on a slow machine the rounds bet in
// at the start may have left them, and the player bets again.
func settledTigerRound(t *testing.T, s *server) live.Round {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for pass := 0; time.Now().Before(deadline); pass++ {
		if pass == 1 {
			wagerAtTiger(t, s, "banker", 1000)
		}
		var rounds []live.Round
		apiGet(t, s, s.links["admin"], "/api/tables/tiger/rounds?limit=10", &rounds)
		for _, r := range rounds {
			if len(r.Settlements) > 0 && r.Result != nil {
				return r
			}
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatal("no round of the tiger table with a wager settled")
	return live.Round{}
}

func lookUpRound(p *adminCase) {
	r := settledTigerRound(p.t, p.s)
	p.open("/admin/rounds")
	p.do("by number", fill("#rl-table", "tiger"), fill("#rl-round", strconv.FormatUint(r.Round, 10)), click("#recall-go"),
		waitJS(`(document.querySelector('#recall')||{dataset:{}}).dataset.round === '`+strconv.FormatUint(r.Round, 10)+`'`, 15*time.Second))
	var got struct {
		Cards, Status   string
		Events, Settles int
		Commitment      string
	}
	p.eval(`({Cards: document.querySelector('#recall-cards').dataset.recallCards, Status: document.querySelector('#recall').dataset.status,
		Events: document.querySelectorAll('#recall-events tbody tr[data-seq]').length,
		Settles: document.querySelectorAll('#recall-settlements tbody tr[data-wager]').length,
		Commitment: (document.querySelector('#recall-commitment')||{dataset:{}}).dataset.commitment || ''})`, &got)
	var cards []string
	for _, e := range r.Events {
		if e.Type == table.EvCardDealt {
			cards = append(cards, e.Card.Card.String())
		}
	}
	if got.Cards != strings.Join(cards, " ") || got.Status != "settled" || got.Settles != len(r.Settlements) || got.Events < len(r.Events) || len(got.Commitment) != 64 {
		p.t.Fatalf("the recall of round %d shows %+v; the table's: cards %v, %d settlements, %d events", r.Round, got, cards, len(r.Settlements), len(r.Events))
	}
	p.shot("recall")
	// By the ledger key of the demo player's wager in it, as their statement names it.
	var hist []ledger.Entry
	apiGet(p.t, p.s, p.s.links["player_token"], "/api/me/history?limit=1000", &hist)
	key := ""
	for _, e := range hist {
		if e.Table == "tiger" && uint64(e.Round) == r.Round {
			key = e.Key
		}
	}
	if key == "" {
		p.t.Fatalf("no statement entry of round %d", r.Round)
	}
	p.open("/admin/rounds")
	p.do("by transaction", fill("#rl-tx", key), click("#recall-go"),
		waitJS(`(document.querySelector('#recall')||{dataset:{}}).dataset.round === '`+strconv.FormatUint(r.Round, 10)+`'`, 15*time.Second))
}

// books are the figures the books hold of the tables' play in play money: the house's
// takings from settlements, and the stakes the wagers moved into play.
func books(t *testing.T, s *server) (takings, staked baccarat.Money) {
	t.Helper()
	ctx := context.Background()
	entries, err := s.store.Statement(ctx, ledger.House(live.PlayMoney), ledger.Page{Limit: ledger.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Memo == "round_settled" || e.Memo == "session_settled" {
			takings += e.Amount
		}
	}
	accts, err := s.store.Accounts(ctx, "inplay/")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range accts {
		if !strings.HasSuffix(a.ID, "/"+string(live.PlayMoney)) {
			continue
		}
		es, err := s.store.Statement(ctx, a.ID, ledger.Page{Limit: ledger.MaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if strings.HasPrefix(e.Memo, "wager ") {
				staked += e.Amount
			}
		}
	}
	return takings, staked
}

func readReport(p *adminCase) {
	settledTigerRound(p.t, p.s)
	p.open("/admin/reports")
	// The summaries are folded every couple of seconds: the page is read again until its
	// totals are the books' (the wagers were placed at the start; no more money moves).
	takings, staked := books(p.t, p.s)
	row := `document.querySelector('#report-totals tr[data-currency="XXX"]')`
	deadline := time.Now().Add(20 * time.Second)
	var got struct {
		Takings, Staked baccarat.Money
		Bars            int64
	}
	for {
		var loads int
		p.do("the first read", waitJS(`Number(document.querySelector('#sec-reports').dataset.loads || 0) > 0`, 10*time.Second))
		p.eval(`Number(document.querySelector('#sec-reports').dataset.loads || 0)`, &loads)
		p.do("the report", click("#report-load"), waitJS(`Number(document.querySelector('#sec-reports').dataset.loads || 0) > `+strconv.Itoa(loads), 10*time.Second),
			waitJS(`!!`+row, time.Second))
		p.eval(`({Takings: Number(`+row+`.dataset.takings), Staked: Number(`+row+`.dataset.staked),
			Bars: document.querySelectorAll('#chart-takings rect[data-day]').length})`, &got)
		if got.Takings == takings && got.Staked == staked || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
		takings, staked = books(p.t, p.s)
	}
	if got.Takings != takings || got.Staked != staked || got.Bars < 1 {
		p.t.Fatalf("the report says takings %d, staked %d (%d bars); the books %d and %d", got.Takings, got.Staked, got.Bars, takings, staked)
	}
	p.do("the charts", waitJS(`!!document.querySelector('#chart-hold path[data-line="hold"]')`, 5*time.Second))
	p.shot("report")
	// The CSV: its total line is the same takings, in major units.
	p.do("download", click("#report-csv"),
		waitJS(`!!document.querySelector('#sec-reports').dataset.downloaded`, 10*time.Second))
	var name string
	p.eval(`document.querySelector('#sec-reports').dataset.downloaded`, &name)
	var lines [][]string
	deadline = time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(p.dir, name))
		if err == nil && len(b) > 0 {
			lines, err = csv.NewReader(strings.NewReader(string(b))).ReadAll()
			if err != nil {
				p.t.Fatal(err)
			}
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the CSV %s was not downloaded: %v", name, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	want := fmt.Sprintf("%d.%02d", takings/100, abs(takings)%100)
	if takings < 0 && takings > -100 {
		want = "-" + want
	}
	found := false
	for _, l := range lines {
		if len(l) > 12 && l[0] == "total" && l[3] == "XXX" {
			found = l[12] == want
		}
	}
	if !found {
		p.t.Fatalf("the CSV's total takings are not %s: %q", want, lines)
	}
}

func abs(v baccarat.Money) baccarat.Money {
	if v < 0 {
		return -v
	}
	return v
}

func readAudit(p *adminCase) {
	// A player's limits set by an admin: a staff action in the trail, and the first entry of
	// the players' responsible-gaming record below it.
	player := "rg-" + p.name
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/admin/accounts", `{"id":"` + player + `","role":"player"}`},
		{"PUT", "/api/admin/accounts/" + player + "/limits", `{"loss_per_day":50000,"reason":"asked by the player's casino"}`},
	} {
		req, _ := http.NewRequest(c.method, p.s.web.URL()+c.path, strings.NewReader(c.body))
		req.Header.Set("Authorization", "Bearer "+p.tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			p.t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			p.t.Fatalf("%s %s: %d", c.method, c.path, resp.StatusCode)
		}
	}
	p.open("/admin/audit")
	p.do("the players' record", waitJS(`document.querySelector('#audit-rg-list tbody tr[data-kind="limits_set"][data-player="`+player+`"]') !== null`, 10*time.Second),
		waitJS(`document.querySelector('#audit-list tbody tr[data-action="player.limits"][data-target="`+player+`"]') !== null`, 10*time.Second))
	p.do("the trail", waitJS(`document.querySelectorAll('#audit-list tbody tr[data-action]').length >= 5`, 10*time.Second))
	var acts []string
	p.eval(`Array.from(document.querySelectorAll('#audit-list tbody tr[data-action]')).map((r) => r.dataset.action)`, &acts)
	have := map[string]bool{}
	for _, a := range acts {
		have[a] = true
	}
	for _, a := range []string{"table.create", "table.void", "wallet.credit", "tournament.create", "tournament.cancel", "template.save"} {
		if !have[a] {
			p.t.Errorf("the audit trail has no %s: %v", a, acts)
		}
	}
	p.do("search", fill("#audit-action", "wallet."), click("#audit-search"),
		waitJS(`Array.from(document.querySelectorAll('#audit-list tbody tr')).every((r) => (r.dataset.action||'').startsWith('wallet'))`, 10*time.Second))
	p.shot("audit")
}

// tour opens the back office from the lobby's link for staff, then every section, and checks
// each shows its content in the page's language.
func tour(p *adminCase) {
	p.do("the lobby", chromedp.Navigate(p.s.web.URL()+"/?lang="+p.lang+"&token="+p.tok),
		waitJS(`!!document.querySelector('#admin-link') && !document.querySelector('#admin-link').hidden &&
			document.querySelector('#admin-link').getAttribute('href') === '/admin'`, 15*time.Second))
	for _, sec := range []struct{ path, ready string }{
		{"/admin", `#tables-list tr[data-table]`}, {"/admin/pit", `#floor [data-floor-table]`}, {"/admin/table/tiger", `#live-phase[data-phase]`},
		{"/admin/rounds", `#recall-form`}, {"/admin/accounts", `#acct-list-box tr[data-account]`}, {"/admin/tournaments", `#tour-list-box table`},
		{"/admin/reports", `#report-totals`}, {"/admin/reconciliation", `#books tr[data-currency]`}, {"/admin/audit", `#audit-list`},
	} {
		p.open(sec.path)
		p.do("section "+sec.path, waitJS(`!!document.querySelector(`+strconv.Quote(sec.ready)+`)`, 15*time.Second))
		var lang string
		p.eval(`document.documentElement.lang`, &lang)
		if lang != p.lang {
			p.t.Fatalf("%s is in %q, want %q", sec.path, lang, p.lang)
		}
		p.shot(strings.ReplaceAll(strings.TrimPrefix(sec.path, "/"), "/", "-"))
	}
	var balanced []string
	p.eval(`Array.from(document.querySelectorAll('#books tr[data-currency]')).map((r) => r.dataset.balanced)`, &balanced)
	for _, b := range balanced {
		if b != "true" {
			p.t.Fatalf("the books do not balance: %v", balanced)
		}
	}
}
