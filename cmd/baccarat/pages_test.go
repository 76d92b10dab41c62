package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
)

// The player's pages as a new player meets them, on a desktop (1280×900) and on a phone
// (390×844): the rules panel, the account page, the Chinese page, the phone layout and a
// dropped connection. One server and one browser serve every case, so the whole run takes
// about half a minute; screenshots go to testdata/artifacts/pages-*.png.

// jsErrors records the page's uncaught errors and rejected promises from before its first
// script, so that a case fails on a script error as well as on what it checks.
const jsErrors = `window.__errors = [];
addEventListener('error', (e) => __errors.push(String(e.message) + ' at ' + e.filename + ':' + e.lineno));
addEventListener('unhandledrejection', (e) => __errors.push('unhandled: ' + (e.reason && (e.reason.stack || e.reason))));`

func recordErrors() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		return chromedp.Void{}, t.Call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": jsErrors}, nil)
	}
}

// pagesCase runs one case: it fails on the page's script errors and saves a screenshot.
type pagesCase struct {
	t   *testing.T
	ctx context.Context
	s   *server
	tok string
}

func (p *pagesCase) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.shot("failed-" + strings.ReplaceAll(what, " ", "-"))
		p.t.Fatalf("%s: %v", what, err)
	}
}

// pageStep runs one step of a page test that needs the steps before it: the pages report to
// the step, a step fails on their script errors too, and the first step that fails ends the test.
func pageStep(t *testing.T, name string, pages []*pagesCase, fn func(t *testing.T)) {
	ok := t.Run(name, func(t *testing.T) {
		for _, p := range pages {
			p.t = t
		}
		fn(t)
		for _, p := range pages {
			p.noErrors()
		}
	})
	if !ok {
		t.FailNow()
	}
}

func (p *pagesCase) eval(expr string, out any) {
	p.t.Helper()
	raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[json.RawMessage](expr))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		p.t.Fatalf("evaluating %s: %s: %v", expr, raw, err)
	}
}

// js runs a statement in the page.
func js(stmt string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[json.RawMessage](`(() => { `+stmt+`; return null; })()`)(ctx, t)
		return err
	})
}

func (p *pagesCase) shot(name string) { screenshot(p.t, p.ctx, "pages-"+name) }

// screen saves what the viewport shows: a phone's first screen.
func (p *pagesCase) screen(name string) {
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	dir := filepath.Join("testdata", "artifacts")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, "pages-"+name+".png"), png, 0o644)
}

// noErrors fails the case if the page threw.
func (p *pagesCase) noErrors() {
	p.t.Helper()
	var errs []string
	p.eval(`window.__errors || []`, &errs)
	if len(errs) > 0 {
		p.t.Errorf("script errors on the page: %q", errs)
	}
}

var (
	desktop = chromedp.EmulateViewport(1280, 900)
	phone   = chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait)
)

func (p *pagesCase) open(path, lang string) {
	p.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	p.do("open "+path, chromedp.Navigate(p.s.web.URL()+path+sep+"lang="+lang+"&token="+p.tok))
}

// bettingFor waits until the tiger table takes bets for at least the given time.
func (p *pagesCase) bettingFor(d time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var snap struct {
			State struct {
				Phase string
				Until time.Time
			}
		}
		apiGet(p.t, p.s, p.tok, "/api/tables/tiger", &snap)
		if snap.State.Phase == "betting" && time.Until(snap.State.Until) > d {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.t.Fatal("the tiger table never opened betting")
}

func postJSON(t *testing.T, s *server, token, path string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", s.web.URL()+path, strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// settledRound waits until the round of the player's wager is settled and returns it.
func (p *pagesCase) settledRound(round uint64) live.Round {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var rounds []live.Round
		apiGet(p.t, p.s, p.tok, "/api/tables/tiger/rounds?limit=10", &rounds)
		for _, r := range rounds {
			if r.Round == round && len(r.Settlements) > 0 {
				return r
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	p.t.Fatalf("round %d never settled", round)
	return live.Round{}
}

func TestPages(t *testing.T) {
	s := startServer(t)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("record script errors", recordErrors())

	// A wager through the API first: its round settles while the rules and language cases run.
	p.bettingFor(time.Second)
	if code := postJSON(t, s, p.tok, "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 2500, "request_id": "pages-1"}); code != 200 {
		t.Fatalf("placing a wager: %d", code)
	}
	var snap struct{ State struct{ Round uint64 } }
	apiGet(t, s, p.tok, "/api/tables/tiger", &snap)
	wagerRound := snap.State.Round

	t.Run("desktop rules panel shows the odds engine's exact Tie edge", func(t *testing.T) { p.t = t; rulesCase(p) })
	t.Run("phone Chinese page shows 庄 闲 和 and the roads", func(t *testing.T) { p.t = t; chineseCase(p) })
	t.Run("desktop statement lists a settled wager and recalls its round", func(t *testing.T) { p.t = t; statementCase(p, wagerRound) })
	t.Run("phone chips never cover a bet's label and the roads are on the first screen", func(t *testing.T) { p.t = t; phoneCase(p) })
	t.Run("desktop connection lost: overlay, no betting, exact state when back", func(t *testing.T) { p.t = t; connectionCase(p) })
}

func rulesCase(p *pagesCase) {
	g, _ := games.ByID("mbs-tiger")
	a, err := odds.Analyze(context.Background(), baccarat.NewCounts(8), nil)
	if err != nil {
		p.t.Fatal(err)
	}
	edge := a.Sheet(g, nil).Bet("tie").ExactHouseEdge()
	pct := new(big.Rat).Mul(edge, big.NewRat(100, 1)).FloatString(4)
	p.do("desktop", desktop)
	p.open("/table/tiger", "en")
	p.do("the rules panel", waitJS(`!!document.querySelector('[data-rule-bet="tie"]')`, 15*time.Second))
	var got struct{ Fraction, Edge, Text string }
	p.eval(`(() => { const e = document.querySelector('[data-rule-bet="tie"]');
		return {Fraction: e.dataset.edgeFraction, Edge: e.dataset.edge, Text: e.querySelector('.rule-head').textContent}; })()`, &got)
	if got.Fraction != edge.String() || got.Edge != pct || !strings.Contains(got.Text, pct+"%") || !strings.Contains(got.Text, "8:1") {
		p.t.Errorf("Tie on the page: %+v; the odds engine: %s = %s%% at 8:1", got, edge, pct)
	}
	// Keyboard: Tab reaches the controls and the focused one shows its ring.
	p.do("tab", chromedp.KeyEvent("\t"), chromedp.KeyEvent("\t"), chromedp.KeyEvent("\t"))
	var focus struct {
		Visible bool
		Outline string
	}
	p.eval(`(() => { const e = document.activeElement; return {Visible: e !== document.body && e.matches(':focus-visible'),
		Outline: getComputedStyle(e).outlineStyle}; })()`, &focus)
	if !focus.Visible || focus.Outline == "none" {
		p.t.Errorf("keyboard focus is not visible: %+v", focus)
	}
	p.shot("desktop-rules")
	p.noErrors()
}

func chineseCase(p *pagesCase) {
	p.do("phone", phone)
	p.open("/table/tiger", "zh-CN")
	p.do("the Chinese layout", waitJS(`document.documentElement.lang === 'zh-CN' && !!document.querySelector('[data-bet="tie"] .spot-name') &&
		document.querySelector('#road-strip').textContent.includes('大路')`, 15*time.Second))
	var got struct{ Banker, Player, Tie, Strip, Roads, Lobby string }
	p.eval(`(() => { const n = (b) => document.querySelector('[data-bet="' + b + '"] .spot-name').textContent;
		return {Banker: n('banker'), Player: n('player'), Tie: n('tie'), Strip: document.querySelector('#road-strip').textContent,
			Roads: document.querySelector('#roads').textContent, Lobby: document.querySelector('#back-lobby').textContent}; })()`, &got)
	if got.Banker != "庄" || got.Player != "闲" || got.Tie != "和" {
		p.t.Errorf("bet names %q %q %q, want 庄 闲 和", got.Banker, got.Player, got.Tie)
	}
	for _, road := range []string{"珠盘路", "大路", "大眼仔", "小路", "曱甴路"} {
		if !strings.Contains(got.Strip, road) || !strings.Contains(got.Roads, road) {
			t := p.t
			t.Errorf("road %s missing: strip %q, panel %q", road, got.Strip, got.Roads)
		}
	}
	if !strings.Contains(got.Lobby, "大厅") {
		p.t.Errorf("the way back to the lobby reads %q", got.Lobby)
	}
	p.screen("phone-table-zh-first-screen")
	p.shot("phone-table-zh")
	p.open("/", "zh-CN")
	p.do("the Chinese lobby", waitJS(`document.querySelectorAll('[data-table]').length === 2 && document.querySelector('h1').textContent === '牌桌'`, 15*time.Second),
		waitJS(`[...document.querySelectorAll('.tc-players')].every((e) => /^\d+ 位玩家$/.test(e.textContent))`, 5*time.Second))
	var inView int
	p.eval(`[...document.querySelectorAll('[data-table]')].filter((e) => e.getBoundingClientRect().bottom <= innerHeight).length`, &inView)
	if inView != 2 {
		p.t.Errorf("%d of 2 tables on the phone's first screen", inView)
	}
	p.screen("phone-lobby-zh")
	p.noErrors()
}

func statementCase(p *pagesCase, round uint64) {
	r := p.settledRound(round)
	p.do("desktop", desktop)
	p.open("/account", "en")
	sel := fmt.Sprintf(`#statement li.line-round[data-table="tiger"][data-round="%d"]`, round)
	p.do("the statement", waitJS(`!!document.querySelector('`+sel+`') && !!document.querySelector('[data-total="staked"]').dataset.minor`, 15*time.Second))
	// Clicked by the element, not by its place on the screen: the totals above the statement
	// may still be growing by a line on a loaded machine, and a click by coordinates then
	// lands on the entry above.
	p.do("open the recall", js(`document.querySelector('`+sel+` .line-open').click()`),
		waitJS(fmt.Sprintf(`!!document.querySelector('%s .recall[data-recall="%d"] .recall-settlements li')`, sel, round), 10*time.Second))
	var got struct {
		Cards, Memo, Staked string
		Settlements         []string
	}
	p.eval(fmt.Sprintf(`(() => { const li = document.querySelector('%s');
		return {Cards: li.querySelector('.recall-cards').dataset.recallCards, Memo: li.querySelector('.line-wagers tbody td').textContent,
			Staked: document.querySelector('[data-total="staked"]').dataset.minor,
			Settlements: [...li.querySelectorAll('.recall-settlements li')].map((x) => x.dataset.outcome)}; })()`, sel), &got)
	var cards []string
	for _, e := range r.Events {
		if e.Type == table.EvCardDealt {
			cards = append(cards, e.Card.Card.String())
		}
	}
	if got.Cards != strings.Join(cards, " ") || len(got.Settlements) != 1 || got.Settlements[0] != r.Settlements[0].Outcome.String() {
		p.t.Errorf("recall on the page %+v; the round: cards %v, settlements %+v", got, cards, r.Settlements)
	}
	if !strings.Contains(got.Memo, "Banker") || got.Staked != "2500" {
		p.t.Errorf("statement entry %q, staked %s; want a Banker wager and 2500 staked", got.Memo, got.Staked)
	}
	p.shot("desktop-account")
	p.do("phone", phone)
	p.screen("phone-account")
	p.noErrors()
}

// overlapsJS lists every chip (the tray's and the stacks on the spots) whose box meets a
// spot's name, pays, limits or reason, and says where the roads strip is.
const overlapsJS = `(() => {
	const vis = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 ? r : null; };
	const labels = [...document.querySelectorAll('.spot-name, .spot-pays, .spot-limits, .spot-why')].map((e) => [e, vis(e)]).filter((x) => x[1]);
	const out = [];
	let chips = 0;
	for (const c of document.querySelectorAll('.chip')) {
		const a = vis(c);
		if (!a) continue;
		chips++;
		for (const [l, b] of labels) {
			if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
				out.push((c.closest('[data-bet]') ? c.closest('[data-bet]').dataset.bet : 'tray') + ' chip over ' + l.closest('[data-bet]').dataset.bet + ' ' + l.className);
			}
		}
	}
	const s = document.querySelector('#road-strip').getBoundingClientRect();
	return {Overlaps: out, Chips: chips, StripTop: s.top, StripHeight: s.height, Width: document.documentElement.scrollWidth};
})()`

func phoneCase(p *pagesCase) {
	p.do("phone", phone)
	p.open("/table/tiger", "en")
	p.do("the table", waitJS(`document.querySelector('#conn').dataset.status === 'live' && !!document.querySelector('[data-bet="tie"]')`, 15*time.Second))
	p.bettingFor(2 * time.Second)
	p.do("bets on the phone", waitJS(`!document.querySelector('[data-bet="player"]').disabled`, 10*time.Second),
		chromedp.Click(chromedp.CSS(`[data-chip="500"]`)), chromedp.Click(chromedp.CSS(`[data-bet="player"]`)),
		chromedp.Click(chromedp.CSS(`[data-bet="tie"]`)), chromedp.Click(chromedp.CSS(`[data-bet="tiger"]`)),
		waitJS(`['player', 'tie', 'tiger'].every((b) => document.querySelector('[data-bet="' + b + '"]').dataset.mine === '500')`, 10*time.Second))
	var got struct {
		Overlaps                     []string
		Chips                        int
		StripTop, StripHeight, Width float64
	}
	p.eval(overlapsJS, &got)
	if len(got.Overlaps) > 0 || got.Chips < 9 {
		p.t.Errorf("%d chips on the phone; over a label: %v", got.Chips, got.Overlaps)
	}
	if got.StripTop >= 844 || got.StripHeight < 40 {
		p.t.Errorf("the roads strip starts at %.0f px (height %.0f): not on the phone's first screen of 844", got.StripTop, got.StripHeight)
	}
	if got.Width > 390 {
		p.t.Errorf("the page is %.0f px wide on a 390 px phone", got.Width)
	}
	p.screen("phone-table-first-screen")
	p.shot("phone-table")
	p.noErrors()
}

// pageView and serverView are the parts of the table state a player sees, from the page's
// copy and from the server's snapshot, in one shape.
type stateView struct {
	Seq, Round  uint64
	Phase       string
	BetOpen     bool `json:"bet_open"`
	Cards       []string
	Wagers      []string
	Left        int
	ShoeResults int
	Balance     string
}

const pageStateJS = `(() => { const st = BacTable.S.state;
	return {Seq: st.seq, Round: st.round, Phase: st.phase, bet_open: !!st.bet_open, Left: st.shoe.left,
		Cards: (st.cards || []).map((c) => c.position + ':' + c.card),
		Wagers: (st.wagers || []).map((w) => w.id + ':' + w.bet + ':' + w.stake).sort(),
		ShoeResults: (st.shoe_results || []).length, Balance: document.querySelector('#balance').textContent}; })()`

func (p *pagesCase) serverView() stateView {
	var snap struct {
		State struct {
			Seq, Round uint64
			Phase      string
			BetOpen    bool `json:"bet_open"`
			Cards      []struct{ Card, Position string }
			Wagers     []struct {
				ID    uint64
				Bet   string
				Stake int64
			}
			Shoe        struct{ Left int }
			ShoeResults []json.RawMessage `json:"shoe_results"`
		}
	}
	apiGet(p.t, p.s, p.tok, "/api/tables/tiger", &snap)
	st := snap.State
	v := stateView{Seq: st.Seq, Round: st.Round, Phase: st.Phase, BetOpen: st.BetOpen, Left: st.Shoe.Left,
		ShoeResults: len(st.ShoeResults), Cards: []string{}, Wagers: []string{}, Balance: majorUnits(balanceOf(p.t, p.s))}
	for _, c := range st.Cards {
		v.Cards = append(v.Cards, c.Position+":"+c.Card)
	}
	for _, w := range st.Wagers {
		v.Wagers = append(v.Wagers, fmt.Sprintf("%d:%s:%d", w.ID, w.Bet, w.Stake))
	}
	slices.Sort(v.Wagers)
	return v
}

// The stream is cut from the page (BacTable.dropConnection: the socket closes and every
// reconnect fails for 3 s, as in a tunnel) rather than from the server: the page's whole
// path is the one a real drop takes (onclose, backoff, since=, the snapshot read again), and
// the server needs no test-only switch. What it does not show is the server noticing a dead
// peer, which web/'s stream tests cover.
func connectionCase(p *pagesCase) {
	p.do("desktop", desktop)
	p.open("/table/tiger", "en")
	p.do("the table", waitJS(`document.querySelector('#conn').dataset.status === 'live' && !!document.querySelector('[data-bet="player"]')`, 15*time.Second))
	// A bet from the page. On a loaded machine a round's window can pass between the check and
	// the click: then the bet goes in the next round.
	placed := false
	for try := 0; try < 3 && !placed; try++ {
		p.bettingFor(4 * time.Second)
		placed = chromedp.Do(p.ctx, waitJS(`!document.querySelector('[data-bet="banker"]').disabled`, 10*time.Second),
			chromedp.Click(chromedp.CSS(`[data-chip="100"]`)), chromedp.Click(chromedp.CSS(`[data-bet="banker"]`)),
			waitJS(`document.querySelector('[data-bet="banker"]').dataset.mine === '100'`, 10*time.Second)) == nil
	}
	if !placed {
		p.shot("failed-a-bet")
		p.t.Fatal("a bet from the page was never placed in three rounds")
	}
	p.do("cut the stream", js(`BacTable.dropConnection(3000)`),
		waitJS(`!document.querySelector('#conn-overlay').hidden && [...document.querySelectorAll('[data-bet]')].every((b) => b.disabled) &&
			document.querySelector('#countdown').dataset.paused === 'true'`, 2*time.Second))
	var before, after string
	p.eval(`document.querySelector('#countdown').textContent`, &before)
	p.screen("desktop-offline")
	time.Sleep(1200 * time.Millisecond)
	p.eval(`document.querySelector('#countdown').textContent`, &after)
	if before != after {
		p.t.Errorf("the countdown ran while the stream was down: %q → %q", before, after)
	}
	p.do("reconnect", waitJS(`document.querySelector('#conn-overlay').hidden && document.querySelector('#conn').dataset.status === 'live'`, 20*time.Second))
	// The page's state and the server's, read when neither moved in between.
	var last string
	for try := 0; try < 60; try++ {
		a := p.serverView()
		var page stateView
		p.eval(pageStateJS, &page)
		b := p.serverView()
		if a.Seq == b.Seq && page.Seq == a.Seq && a.Balance == b.Balance {
			if fmt.Sprint(page) == fmt.Sprint(a) {
				p.shot("desktop-reconnected")
				p.noErrors()
				return
			}
			last = fmt.Sprintf("page %+v\nserver %+v", page, a)
		}
		time.Sleep(150 * time.Millisecond)
	}
	p.shot("failed-reconnected")
	p.t.Fatalf("after the reconnect the page's state is not the server's:\n%s", last)
}

// TestPagesTranslationsComplete: every string key the pages use has an English text, and
// the Chinese file has every English key (plural forms by the language's own rules).
func TestPagesTranslationsComplete(t *testing.T) {
	dir := filepath.Join("..", "..", "web", "static")
	load := func(name string) map[string]string {
		b, err := os.ReadFile(filepath.Join(dir, "i18n", name))
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return m
	}
	en, zh := load("en.json"), load("zh-CN.json")
	base := func(k string) string {
		for _, f := range []string{".zero", ".one", ".two", ".few", ".many", ".other"} {
			if strings.HasSuffix(k, f) {
				return strings.TrimSuffix(k, f)
			}
		}
		return k
	}
	bases := func(m map[string]string) map[string]bool {
		out := map[string]bool{}
		for k := range m {
			if !strings.HasPrefix(k, "srv:") {
				out[base(k)] = true
			}
		}
		return out
	}
	eb, zb := bases(en), bases(zh)
	for k := range eb {
		if !zb[k] {
			t.Errorf("zh-CN.json has no %q", k)
		}
	}
	for k := range zb {
		if !eb[k] {
			t.Errorf("zh-CN.json has %q, which en.json does not", k)
		}
	}
	prefixes := map[string]bool{}
	for k := range eb {
		prefixes[strings.SplitN(k, ".", 2)[0]] = true
	}
	keyRe := regexp.MustCompile(`['"]([a-z][a-z0-9_]*\.[a-z0-9_.]*[a-z0-9])['"]`)
	files, _ := filepath.Glob(filepath.Join(dir, "*.js"))
	html, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	for _, f := range append(files, html...) {
		b, _ := os.ReadFile(f)
		for _, m := range keyRe.FindAllStringSubmatch(string(b), -1) {
			k := m[1]
			if !prefixes[strings.SplitN(k, ".", 2)[0]] || strings.HasSuffix(k, ".js") || strings.HasSuffix(k, ".json") {
				continue
			}
			if !eb[k] {
				t.Errorf("%s uses %q, which en.json does not have", filepath.Base(f), k)
			}
		}
	}
}

// peoplePages starts one browser for a test with several people at a table and returns how
// to open a page for one of them: a browser context of their own (their storage, their
// token), recording the page's script errors, at the view's size.
func peoplePages(t *testing.T, s *server, tokens map[string]string) func(who string, view chromedp.Action[chromedp.Void]) *pagesCase {
	t.Helper()
	base := browser(t)
	if err := chromedp.Do(base, chromedp.Navigate("about:blank")); err != nil { // the browser the pages' contexts live in
		t.Fatal(err)
	}
	return func(who string, view chromedp.Action[chromedp.Void]) *pagesCase {
		ctx, cancel := chromedp.NewContext(base, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		p := &pagesCase{t: t, ctx: ctx, s: s, tok: tokens[who]}
		p.do(who+"'s browser", recordErrors(), view)
		return p
	}
}
