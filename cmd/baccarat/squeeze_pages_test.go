package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// The squeeze on the pages (SPEC §4, Tiger 3.8 Method A online) in a real browser: ann, who
// has the highest stake on the Banker, squeezes it on a desktop; bob, who backs it too,
// watches on a phone; the dealer console pauses. Each page runs in a browser context of its
// own: its own localStorage, so its own sign-in. Screenshots: testdata/artifacts/pages-squeeze-*.png.

// startSqueezeServer runs the server with one dealer table that squeezes (the demo dealer is
// assigned to it) and two players with money, ann and bob; it returns their tokens.
func startSqueezeServer(t *testing.T) (*server, map[string]string) {
	t.Helper()
	s := startServerWith(t, "sq", serveConfig{Tables: []live.Spec{{ID: "sq", Name: "Squeeze Tiger", Mode: live.ModeDealer,
		Config: table.Config{Game: "mbs-tiger", Squeeze: true}}}})
	tokens := newPlayers(t, s, 100_000, "ann", "bob")
	tokens["dealer"] = s.links["dealer_token"]
	return s, tokens
}

// startServerWith runs the server on a fresh database with cfg's tables and no demo
// tournaments, stopped when the test ends.
func startServerWith(t *testing.T, name string, cfg serveConfig) *server {
	t.Helper()
	dir := t.TempDir()
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, name+".db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// newPlayers opens a player account for each id, credited with amount; it returns their
// tokens by id.
func newPlayers(t *testing.T, s *server, amount int64, ids ...string) map[string]string {
	t.Helper()
	tokens := map[string]string{}
	for _, id := range ids {
		var acct struct{ Token string }
		if code := postFor(t, s, s.links["admin"], "/api/admin/accounts", map[string]any{"id": id, "role": "player"}, &acct); code != 201 {
			t.Fatalf("creating %s: %d", id, code)
		}
		tokens[id] = acct.Token
		if code := postJSON(t, s, s.links["admin"], "/api/admin/accounts/"+id+"/credit", map[string]any{"amount": amount}); code != 200 {
			t.Fatalf("crediting %s: %d", id, code)
		}
	}
	return tokens
}

// postFor posts body and decodes a successful answer into out.
func postFor(t *testing.T, s *server, token, path string, body, out any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", s.web.URL()+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 300 && out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

// cardsIn is a script giving the cards face up under the selectors (their data-card values,
// in page order).
func cardsIn(sels ...string) string {
	for i, sel := range sels {
		sels[i] = sel + " [data-card]"
	}
	return `[...document.querySelectorAll('` + strings.Join(sels, ", ") + `')].map((e) => e.dataset.card).join(' ')`
}

// TestPagesSqueezeByHighestBettorRevealsExactlyTheDealtCards: Tiger 3.8.2 the highest stake on
// the Banker (ann's 2000 over bob's 1000) squeezes it. ann's page shows her the two Banker
// cards under their backs and lets her peel them with the keys (the betting keys stand
// aside); bob's page never holds them, shows them face down and follows ann's peel; the
// dealer console shows the squeeze pause and a card typed during it is refused. After ann's
// reveal both pages show exactly the dealt cards, and the round goes on to its result.
func TestPagesSqueezeByHighestBettorRevealsExactlyTheDealtCards(t *testing.T) {
	s, tokens := startSqueezeServer(t)
	page := peoplePages(t, s, tokens)
	command := func(cmd map[string]any) {
		t.Helper()
		if code := postJSON(t, s, tokens["dealer"], "/api/tables/sq/commands", cmd); code != 200 {
			t.Fatalf("the dealer's %v: %d", cmd, code)
		}
	}
	command(map[string]any{"cmd": "new_shoe"})
	command(map[string]any{"cmd": "open"})
	for who, stake := range map[string]int{"ann": 2000, "bob": 1000} {
		if code := postJSON(t, s, tokens[who], "/api/tables/sq/wagers", map[string]any{"bet": "banker", "stake": stake, "request_id": "sq-" + who}); code != 200 {
			t.Fatalf("%s's wager: %d", who, code)
		}
	}

	ann, bob, dealer := page("ann", desktop), page("bob", phone), page("dealer", desktop)
	connected := waitJS(`document.querySelector('#conn').dataset.status === 'live'`, 15*time.Second)
	ann.open("/table/sq", "en")
	bob.open("/table/sq", "en")
	dealer.open("/dealer/sq", "en")
	ann.do("ann's table", connected)
	bob.do("bob's table", connected)
	dealer.do("the dealer console", connected)

	command(map[string]any{"cmd": "close"})
	for _, card := range []string{"2h", "3d", "3c", "3s"} { // P 2h 3c (5), B 3d 3s (6)
		command(map[string]any{"cmd": "card", "card": card})
	}

	// Each step needs the one before it: the first that fails ends the test.
	step := func(name string, pages []*pagesCase, fn func(t *testing.T)) { pageStep(t, name, pages, fn) }

	step("ann squeezes the Banker: its cards under their backs, face down on the table", []*pagesCase{ann}, func(t *testing.T) {
		ann.do("ann's squeeze panel", waitJS(`!document.querySelector('#squeeze').hidden && document.querySelector('#squeeze').dataset.mode === 'squeezer' &&
			`+cardsIn(`#squeeze .peel`)+` === '3d 3s'`, 15*time.Second))
		var got struct{ Title, Player, Banker string }
		ann.eval(`({Title: document.querySelector('#squeeze-title').textContent, Player: `+cardsIn(`#player-cards`)+`,
			Banker: document.querySelectorAll('#banker-cards .card-back').length + ' backs, ' + document.querySelectorAll('#banker-cards [data-card]').length + ' faces'})`, &got)
		if got.Title != "Your squeeze: the Banker hand" || got.Player != "2h 3c" || got.Banker != "2 backs, 0 faces" {
			t.Errorf("ann's stage: %+v; want her squeeze of the Banker, the Player's 2h 3c and the Banker face down", got)
		}
		ann.shot("squeeze-desktop-squeezer")
	})

	step("bob watches: the Banker cards face down, never on his page", []*pagesCase{bob}, func(t *testing.T) {
		bob.do("bob's squeeze panel", waitJS(`!document.querySelector('#squeeze').hidden && document.querySelector('#squeeze').dataset.mode === 'watcher' &&
			document.querySelectorAll('#banker-cards .card-back').length === 2`, 15*time.Second))
		var got struct {
			Title, Faces string
			Knows        bool
			Reveal       bool
		}
		bob.eval(`({Title: document.querySelector('#squeeze-title').textContent, Faces: `+cardsIn(`#squeeze`, `#banker-cards`)+`,
			Knows: /"3[ds]"/.test(JSON.stringify(BacTable.S.state)), Reveal: !document.querySelector('#squeeze-reveal').hidden})`, &got)
		if !regexp.MustCompile(`^Player \d{4} is squeezing the Banker hand$`).MatchString(got.Title) || got.Faces != "" || got.Knows || got.Reveal {
			t.Errorf("bob's stage: %+v; want ann squeezing (by her neutral name, never her id), no Banker card on the page and no Reveal", got)
		}
		bob.screen("squeeze-phone-watcher")
	})

	step("ann peels with the keys and bob sees how far", []*pagesCase{ann, bob}, func(t *testing.T) {
		up := kb.ArrowUp + kb.ArrowUp + kb.ArrowUp + kb.ArrowUp
		ann.do("peel: 2 then ↑×4, 1 then W×3", chromedp.KeyEvent("2"+up+"1www"),
			waitJS(`document.querySelector('.peel[data-index="0"]').dataset.lift === '30' && document.querySelector('.peel[data-index="1"]').dataset.lift === '40'`, 5*time.Second))
		var chip string
		ann.eval(`document.querySelector('[aria-pressed="true"][data-chip]').dataset.chip`, &chip)
		if chip != "10000" {
			t.Errorf("the keys 1 and 2 chose chip %s while squeezing: the betting keys must stand aside", chip)
		}
		bob.do("bob follows the peel", waitJS(`document.querySelector('.peel[data-index="0"]').dataset.lift === '30' &&
			document.querySelector('.peel[data-index="1"]').dataset.lift === '40'`, 10*time.Second))
		ann.shot("squeeze-desktop-peeled")
		bob.screen("squeeze-phone-peel")
	})

	step("the dealer console pauses and refuses a card until the reveal", []*pagesCase{dealer}, func(t *testing.T) {
		dealer.do("the squeeze pause", waitJS(`!document.querySelector('#squeeze-pause').hidden &&
			/^Squeeze pause: Player \d{4} is squeezing the Banker hand$/.test(document.querySelector('#squeeze-pause-text').textContent)`, 10*time.Second), // by name, as the stream shows players
			chromedp.SendKeys(chromedp.CSS(`#card-input`), "9d\r"),
			waitJS(`document.querySelector('#card-error').textContent.includes('[extra_card]')`, 10*time.Second))
		dealer.shot("squeeze-dealer-pause")
	})

	step("ann reveals: both pages show exactly the dealt cards", []*pagesCase{ann, bob}, func(t *testing.T) {
		ann.do("reveal with Enter", chromedp.KeyEvent(kb.Enter))
		for _, p := range []*pagesCase{ann, bob} {
			p.do("the revealed Banker", waitJS(`document.querySelector('#squeeze').hidden && `+cardsIn(`#banker-cards`)+` === '3d 3s' &&
				!document.querySelector('#banker-cards .card-back')`, 10*time.Second))
		}
		bob.screen("squeeze-phone-revealed")
	})

	step("the round goes on: the dealer's card is taken after the reveal", []*pagesCase{ann, bob, dealer}, func(t *testing.T) {
		dealer.do("send the card again", waitJS(`document.querySelector('#squeeze-pause').hidden`, 10*time.Second),
			chromedp.SendKeys(chromedp.CSS(`#card-input`), "\r"))
		for _, p := range []*pagesCase{ann, bob} { // P 2h 3c 9d (4), B 3d 3s (6) stands on a third 9
			p.do("the result", waitJS(`document.querySelector('#result').dataset.winner === 'banker' && `+cardsIn(`#player-cards`)+` === '2h 3c 9d' &&
				`+cardsIn(`#banker-cards`)+` === '3d 3s'`, 15*time.Second))
		}
		var snap struct{ State table.State }
		apiGet(t, s, tokens["dealer"], "/api/tables/sq", &snap)
		if snap.State.Phase != table.PhaseSettled || snap.State.Squeeze != nil {
			t.Errorf("the table after the round: phase %s, squeeze %+v", snap.State.Phase, snap.State.Squeeze)
		}
		ann.shot("squeeze-desktop-settled")
		bob.screen("squeeze-phone-settled")
		dealer.shot("squeeze-dealer-settled")
		if log, _ := chromedp.Run(dealer.ctx, chromedp.Text(chromedp.CSS(`#dealer-log`))); !strings.Contains(log, "Banker hand revealed: 3d 3s") {
			t.Errorf("the dealer's log does not show the reveal: %q", log)
		}
	})
}
