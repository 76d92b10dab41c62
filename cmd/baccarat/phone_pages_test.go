package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// The player's pages in every language at two phone sizes and a desktop: nothing scrolls
// sideways or sticks out of the window, every tap target is at least 44×44 px on a phone,
// no key or English text shows where the language has its words, and a table's first phone
// screen holds its name, the balance, the cards, the countdown, the spots, the chips and the
// round's total. One server, one browser tab, every page opened in turn.

// sweepCheck runs in the page and reports what is wrong with it. phone: check tap targets;
// table: check the table's first screen. It reads the translations the page reads (en.json
// and the page's language) to tell a key or an English text shown on a translated page.
const sweepCheck = `((phone, table) => {
  const W = innerWidth, H = innerHeight, out = { Overflow: [], Small: [], Untranslated: [], Below: [], Clipped: [] };
  const label = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\s+/).join('.') : '') +
    (e.dataset && e.dataset.bet ? '[data-bet=' + e.dataset.bet + ']' : '') + (e.dataset && e.dataset.chip ? '[data-chip=' + e.dataset.chip + ']' : '');
  const shown = (e) => { const r = e.getBoundingClientRect(); if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(e); return cs.visibility !== 'hidden' && Number(cs.opacity) > 0; };
  // Inside a box that scrolls or clips sideways (a road, a wide table): it may pass its box.
  const clipped = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    const ox = getComputedStyle(p).overflowX; if (ox !== 'visible') return p.getBoundingClientRect().right <= W + 1; } return false; };
  if (document.documentElement.scrollWidth > W) out.Overflow.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.right <= W + 1 || e.closest('.offscreen, .skip, svg, option, #toasts') || !shown(e)) continue;
    if (!clipped(e)) out.Overflow.push(label(e) + ' ends at ' + Math.round(r.right));
  }
  if (phone) {
    const taps = 'button, select, input:not([type=hidden]), summary, a.btn, a.nav-link, a.brand, h2 > a, [role=tab], [role=button], .chip[data-chip], .spot';
    for (const x of document.querySelectorAll(taps)) {
      // a radio button or a check box is tapped by its label
      const e = /^(radio|checkbox)$/.test(x.type) && x.closest('label') ? x.closest('label') : x;
      if (e.closest('.offscreen, .skip') || !shown(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 43.5 || r.height < 43.5) out.Small.push(label(e) + ' ' + Math.round(r.width) + '×' + Math.round(r.height) + ' "' + (e.textContent || e.value || '').trim().slice(0, 20) + '"');
    }
  }
  // A label cut by its own box: a chip's face, an action, a spot's name, the balance.
  for (const e of document.querySelectorAll('.chip[data-chip], .chip-stack .chip, .actions .btn, .spot-name, #balance, .wallet .amount')) {
    if (shown(e) && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)) out.Clipped.push(label(e) + ' "' + e.textContent.trim() + '" needs ' + e.scrollWidth + '×' + e.scrollHeight + ' in ' + e.clientWidth + '×' + e.clientHeight);
  }
  const lang = document.documentElement.lang || 'en';
  const get = (l) => { const x = new XMLHttpRequest(); x.open('GET', '/static/i18n/' + l + '.json', false); x.send(); return JSON.parse(x.responseText); };
  // read once a page: the same page is checked at each size
  if (!window.__sweepWords) window.__sweepWords = { en: get('en'), dict: lang === 'en' ? null : get(lang) };
  const en = window.__sweepWords.en, dict = window.__sweepWords.dict || en;
  const english = new Map();
  for (const [k, v] of Object.entries(en)) if (lang !== 'en' && dict[k] !== undefined && dict[k] !== v && /[A-Za-z]{2}/.test(v) && !/\{/.test(v)) english.set(v.trim(), k);
  for (const [k, v] of Object.entries(dict)) if (k.startsWith('srv:') && v !== k.slice(4)) english.set(k.slice(4), k);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const s = n.textContent.trim(), e = n.parentElement;
    // Names are the operator's (a table's or tournament's "names" give them per language; a
    // demo one is its game's English name), not the pages' words.
    if (!s || !e) continue;
    const own = dict[s] !== undefined ? dict[s] : en[s];
    const key = Object.prototype.hasOwnProperty.call(en, s) && own !== s;
    if (!key && !english.has(s)) continue;
    if (e.closest('script, style, option, .offscreen, #table-name, .tc-name, #t-name, .t-title b, .tl-name') || !shown(e)) continue;
    out.Untranslated.push(key ? 'key ' + s : 'English "' + s + '" (' + english.get(s) + ') in ' + label(e));
  }
  if (table && phone) {
    const want = ['#table-name', '#balance', '#player-cards', '#banker-cards', '#countdown', '#round-total', '#chips [data-chip]', '#layout [data-bet]'];
    for (const sel of want) {
      const list = [...document.querySelectorAll(sel)];
      if (!list.length) out.Below.push(sel + ' missing');
      for (const e of list) { const r = e.getBoundingClientRect();
        if (r.width < 1 || r.height < 1 || r.top < 0 || r.bottom > H + 0.5 || r.left < 0 || r.right > W + 0.5) out.Below.push(label(e) + ' at ' + Math.round(r.left) + ',' + Math.round(r.top) + '–' + Math.round(r.right) + ',' + Math.round(r.bottom)); }
    }
    // Dragon bets go only before a session's first hand: while open, right under the bets.
    const dragon = document.querySelector('#dragon-panel.dragon-open'), strip = document.querySelector('#road-strip-panel');
    if (dragon && strip && shown(strip) && dragon.getBoundingClientRect().top > strip.getBoundingClientRect().top) out.Below.push('the open Dragon bets below the road strip');
  }
  return out;
})`

type sweepResult struct {
	Overflow, Small, Untranslated, Below, Clipped []string
}

// TestPhonePagesFitEveryLanguageAndSize: the lobby, a table of each game, the tournaments,
// a tournament and the account page, in the six languages at 390×844, 360×740 and 1280×900.
func TestPhonePagesFitEveryLanguageAndSize(t *testing.T) {
	dir := t.TempDir()
	// The tabs open one table after another faster than a closed stream may be counted out.
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "phone.db"), Betting: 30 * time.Second, Streams: web.StreamLimits{PerToken: 64}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	// The tournament games' tables play in tournaments; a cash table of each is shown here too.
	for _, g := range []struct{ id, name string }{{"rws-no-commission", "RWS No Commission"}, {"mbs-dragon", "Dragon"}} {
		spec := live.Spec{ID: g.id, Name: g.name, Config: table.Config{Game: g.id, Cash: true}, Schedule: live.Schedule{Betting: s.Betting}}
		if err := s.host.Create(context.Background(), spec); err != nil {
			t.Fatal(err)
		}
	}
	tok := s.links["player_token"]
	var tours []struct{ ID string }
	apiGet(t, s, tok, "/api/tournaments", &tours)
	if len(tours) == 0 {
		t.Fatal("the demo server runs no tournament")
	}
	type page struct{ name, path, ready string }
	tableReady := `document.querySelectorAll('#layout [data-bet]').length > 0 && document.querySelectorAll('#chips [data-chip]').length > 0 &&
		document.querySelector('#balance').textContent !== '—' && !!document.querySelector('#rules .rule-bet') && document.querySelector('#phase').dataset.phase !== '' &&
		document.querySelector('#conn').dataset.status === 'live'`
	pages := []page{
		{"lobby", "/", `document.querySelectorAll('#tables [data-table]').length >= 5 && document.querySelector('#balance').textContent !== '—'`},
		{"lobby-tournaments", "/?view=tournaments", `document.querySelectorAll('#lobby-t-cards [data-tournament]').length > 0 && !document.querySelector('#lobby-tournaments').hidden`},
		{"punto-banco", "/table/punto-banco", tableReady},
		{"rws", "/table/rws-no-commission", tableReady},
		{"tiger", "/table/mbs-tiger", tableReady},
		{"dragon", "/table/mbs-dragon", tableReady},
		{"bob", "/table/bet-on-baccarat", tableReady},
		{"tournaments", "/tournaments", `document.querySelectorAll('#t-cards > *').length > 0`},
		{"tournament", "/tournament/" + tours[0].ID, `document.querySelector('#t-phase').textContent.trim() !== ''`},
		{"account", "/account", `document.querySelectorAll('#statement li').length > 0 && document.querySelector('#balance').textContent !== '—'`},
	}
	sizes := []struct {
		name  string
		w, h  int64
		phone bool
	}{{"390", 390, 844, true}, {"360", 360, 740, true}, {"1280", 1280, 900, false}}
	langs := []string{"en", "zh-CN", "zh-TW", "ko", "th", "vi"}

	base := longBrowser(t, 4*time.Minute)
	if err := chromedp.Do(base, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	size := func(i int) chromedp.Action[chromedp.Void] {
		if sizes[i].phone {
			return chromedp.EmulateViewport(sizes[i].w, sizes[i].h, chromedp.EmulateMobile, chromedp.EmulatePortrait)
		}
		return chromedp.EmulateViewport(sizes[i].w, sizes[i].h)
	}
	// One language's pages in one tab: each page is opened once and looked at in each size (a
	// window's size changes the layout, not what the page loaded). Errors only: it runs beside
	// the other tabs.
	sweep := func(ctx context.Context, lang string) {
		for _, pg := range pages {
			what := pg.name + " " + lang
			sep := "?"
			if strings.Contains(pg.path, "?") {
				sep = "&"
			}
			url := s.web.URL() + pg.path + sep + "lang=" + lang + "&token=" + tok
			opened := time.Now()
			open := func() error {
				return chromedp.Do(ctx, size(0), chromedp.Navigate(url),
					waitJS(`document.documentElement.lang === `+fmt.Sprintf("%q", lang)+` && (`+pg.ready+`)`, 20*time.Second))
			}
			// Opened once more when the browser lost the page's context mid-check ("Cannot find
			// context with specified id"): the browser's race with a document it is replacing, not the page's.
			err := open()
			if err != nil && strings.Contains(err.Error(), "Cannot find context") {
				err = open()
			}
			if err != nil {
				screenshot(t, ctx, "phone-"+pg.name+"-"+lang+"-failed")
				t.Errorf("%s: the page never got ready: %v", what, err)
				continue
			}
			ready := time.Now()
			table := strings.HasPrefix(pg.path, "/table/")
			for i, sz := range sizes {
				what := what + " at " + sz.name
				if i > 0 {
					if err := chromedp.Do(ctx, size(i), chromedp.Sleep(50*time.Millisecond)); err != nil {
						t.Errorf("%s: %v", what, err)
						continue
					}
				}
				raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](fmt.Sprintf(`%s(%v, %v)`, sweepCheck, sz.phone, table)))
				var r sweepResult
				if err == nil {
					err = json.Unmarshal(raw, &r)
				}
				if err != nil {
					t.Errorf("%s: checking the page: %v", what, err)
					continue
				}
				bad := false
				report := func(kind string, list []string) {
					if len(list) > 0 {
						bad = true
						if len(list) > 8 {
							list = append(list[:8], fmt.Sprintf("and %d more", len(list)-8))
						}
						t.Errorf("%s: %s: %s", what, kind, strings.Join(list, "; "))
					}
				}
				report("passes the window's right edge", r.Overflow)
				report("tap targets under 44×44 px", r.Small)
				report("untranslated", r.Untranslated)
				report("not on the first screen", r.Below)
				report("cut by its box", r.Clipped)
				// Screenshots cost: every page on an English phone, the Chinese tables at 360 px,
				// the English tables on a desktop, and whatever failed.
				if bad || lang == "en" && sz.name == "390" || table && (lang == "zh-CN" && sz.name == "360" || lang == "en" && !sz.phone) {
					screenshot(t, ctx, "phone-"+pg.name+"-"+lang+"-"+sz.name)
				}
			}
			if testing.Verbose() {
				t.Logf("%s: open %v, checks %v", what, ready.Sub(opened).Round(time.Millisecond), time.Since(ready).Round(time.Millisecond))
			}
			if errs, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__errors || []`)); err == nil && len(errs) > 0 {
				t.Errorf("%s: script errors: %q", what, errs)
			}
		}
	}
	// Three tabs, two languages each.
	queue := make(chan string, len(langs))
	for _, l := range langs {
		queue <- l
	}
	close(queue)
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		ctx, cancel := chromedp.NewContext(base, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		if err := chromedp.Do(ctx, recordErrors()); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lang := range queue {
				sweep(ctx, lang)
			}
		}()
	}
	wg.Wait()
	t.Logf("%d pages checked in %v", len(sizes)*len(langs)*len(pages), time.Since(start).Round(time.Second))
}

// longBrowser is browser() with room for a sweep of many pages.
func longBrowser(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)),
		chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("no-first-run", true), chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, d)
	t.Cleanup(cancel3)
	return ctx
}

// TestPhoneUndoTakesBackTheLastChipAndTheRoundTotalFollows: on a phone, two chips on Player
// make a round total of both; Undo takes back the last chip (the spot and the total drop by
// one chip, the balance is back by one), then the first, and is disabled with nothing left to
// undo, whether the server raised one wager or placed two. Once the round settles the spot
// says how it went. At RWS, whose wagers may not be withdrawn while betting, there is no Undo.
func TestPhoneUndoTakesBackTheLastChipAndTheRoundTotalFollows(t *testing.T) {
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{
		{ID: "tiger", Name: "Tiger", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"},
			Schedule: live.Schedule{Betting: 10 * time.Second, Card: 100 * time.Millisecond, Result: 4 * time.Second}},
		{ID: "rws", Name: "RWS", Mode: live.ModeAuto, Config: table.Config{Game: "rws-no-commission", Cash: true},
			Schedule: live.Schedule{Betting: 10 * time.Second}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "undo.db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("a phone", recordErrors(), phone)
	before := balanceOf(t, s)
	p.open("/table/tiger", "en")
	mine := `(document.querySelector('[data-bet="player"]').dataset.mine || '')`
	total := `document.querySelector('#round-total').dataset.minor`
	p.do("two chips on Player",
		waitJS(`document.querySelector('#phase').dataset.phase === 'betting' && parseInt(document.querySelector('#countdown').textContent || '0') >= 6 &&
			document.querySelector('#conn').dataset.status === 'live' && document.querySelector('#balance').textContent !== '—'`, 30*time.Second),
		chromedp.Click(chromedp.CSS(`[data-chip="100"]`)),
		chromedp.Click(chromedp.CSS(`[data-bet="player"]`)),
		waitJS(mine+` === '100'`, 5*time.Second),
		chromedp.Click(chromedp.CSS(`[data-bet="player"]`)),
		waitJS(mine+` === '200' && `+total+` === '200' && !document.querySelector('#undo').disabled`, 5*time.Second))
	if got := p.text(`document.querySelector('#round-total').textContent`); got != "2.00" {
		t.Errorf("the round's total reads %q after two chips of 1.00, want 2.00", got)
	}
	if got := balanceOf(t, s); got != before-200 {
		t.Fatalf("two chips held: balance %d, want %d", got, before-200)
	}
	p.do("undo the second chip", chromedp.Click(chromedp.CSS(`#undo`)),
		waitJS(mine+` === '100' && `+total+` === '100'`, 5*time.Second))
	if got := balanceOf(t, s); got != before-100 {
		t.Errorf("after one undo: balance %d, want %d", got, before-100)
	}
	p.do("undo the first chip", waitJS(`!document.querySelector('#undo').disabled`, 5*time.Second), chromedp.Click(chromedp.CSS(`#undo`)),
		waitJS(mine+` === '' && `+total+` === '0' && document.querySelector('#undo').disabled`, 5*time.Second))
	if got := balanceOf(t, s); got != before {
		t.Errorf("after undoing both chips: balance %d, want %d", got, before)
	}
	p.screen("phone-undo")

	// A chip on Banker that plays: the spot says how the round went once it is settled.
	p.do("a chip on Banker",
		waitJS(`document.querySelector('#phase').dataset.phase === 'betting' && parseInt(document.querySelector('#countdown').textContent || '0') >= 3`, 30*time.Second),
		chromedp.Click(chromedp.CSS(`[data-bet="banker"]`)),
		waitJS(`document.querySelector('[data-bet="banker"]').dataset.mine === '100'`, 5*time.Second),
		waitJS(`!!document.querySelector('[data-bet="banker"]').dataset.outcome`, 40*time.Second))
	var rounds []live.Round
	apiGet(t, s, p.tok, "/api/tables/tiger/rounds?limit=1", &rounds)
	if len(rounds) != 1 || len(rounds[0].Settlements) != 1 {
		t.Fatalf("the round with the Banker chip: %+v", rounds)
	}
	st := rounds[0].Settlements[0]
	if got := p.text(`document.querySelector('[data-bet="banker"]').dataset.outcome`); got != st.Outcome.String() {
		t.Errorf("the Banker spot says %q, the round settled it %q", got, st.Outcome)
	}
	p.screen("phone-settled-spot")

	// RWS: no withdrawal while betting, so no Undo.
	p.open("/table/rws", "en")
	p.do("RWS's table", waitJS(`!!document.querySelector('#rules .rule-bet') && document.querySelectorAll('#layout [data-bet]').length > 0`, 20*time.Second),
		waitJS(`document.querySelector('#undo').hidden`, 5*time.Second))
	p.noErrors()
}
