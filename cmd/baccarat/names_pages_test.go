package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// Display names on the pages: other players see a player by the name they chose (or a
// neutral "Player 4821"), never by their account id. Screenshots:
// testdata/artifacts/pages-names-*.png.

// putJSON sends a PUT with body as token's holder and returns the status.
func putJSON(t *testing.T, s *server, token, path string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("PUT", s.web.URL()+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// typeName types name into the account page's name field and saves it.
func typeName(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(waitJS(`(document.querySelector('#name-input').value = '') === ''`, time.Second), // empty first
		chromedp.Focus(chromedp.CSS(`#name-input`)),
		chromedp.SendKeys(chromedp.CSS(`#name-input`), name), chromedp.Click(chromedp.CSS(`#name-save`)))
}

// TestPagesNamesTheSqueezerByTheNameTheyChose: ann chooses her name on her account page (a
// name that passes for the dealer is refused first, and says why); when she squeezes the
// Banker (the highest stake on it, Tiger 3.8.2), bob's page says "Lin Wei is squeezing",
// never "ann", and holds her account id nowhere; her own page still knows the squeeze is hers.
func TestPagesNamesTheSqueezerByTheNameTheyChose(t *testing.T) {
	s, tokens := startSqueezeServer(t)
	page := peoplePages(t, s, tokens)
	ann, bob := page("ann", desktop), page("bob", phone)
	step := func(name string, pages []*pagesCase, fn func(t *testing.T)) { pageStep(t, name, pages, fn) }

	step("ann chooses her name on her account page", []*pagesCase{ann}, func(t *testing.T) {
		ann.open("/account", "en")
		ann.do("the name form", waitJS(`!document.querySelector('#name-panel').hidden && /^Other players see you as Player \d{4}\.$/.test(document.querySelector('#name-current').textContent)`, 15*time.Second))
		ann.do("a name that passes for the dealer", typeName("Dealer"),
			waitJS(`document.querySelector('#name-status').dataset.error === 'invalid_name'`, 10*time.Second))
		ann.do("her name", typeName("  Lin Wei "),
			waitJS(`document.querySelector('#name-status').textContent === 'Saved: other players now see you as Lin Wei.' && !document.querySelector('#name-status').dataset.error`, 10*time.Second))
		ann.shot("names-account")
	})

	command := func(cmd map[string]any) {
		t.Helper()
		if code := postJSON(t, s, tokens["dealer"], "/api/tables/sq/commands", cmd); code != 200 {
			t.Fatalf("the dealer's %v: %d", cmd, code)
		}
	}
	command(map[string]any{"cmd": "new_shoe"})
	command(map[string]any{"cmd": "open"})
	for who, stake := range map[string]int{"ann": 2000, "bob": 1000} {
		if code := postJSON(t, s, tokens[who], "/api/tables/sq/wagers", map[string]any{"bet": "banker", "stake": stake, "request_id": "nm-" + who}); code != 200 {
			t.Fatalf("%s's wager: %d", who, code)
		}
	}
	connected := waitJS(`document.querySelector('#conn').dataset.status === 'live'`, 15*time.Second)
	ann.open("/table/sq", "en")
	bob.open("/table/sq", "en")
	ann.do("ann's table", connected)
	bob.do("bob's table", connected)
	command(map[string]any{"cmd": "close"})
	for _, card := range []string{"2h", "3d", "3c", "3s"} {
		command(map[string]any{"cmd": "card", "card": card})
	}

	step("bob sees Lin Wei squeeze, never ann's account id", []*pagesCase{bob}, func(t *testing.T) {
		bob.do("bob's squeeze panel", waitJS(`!document.querySelector('#squeeze').hidden && document.querySelector('#squeeze').dataset.mode === 'watcher'`, 15*time.Second))
		var got struct {
			Title  string
			HasID  bool
			Events string
		}
		bob.eval(`({Title: document.querySelector('#squeeze-title').textContent,
			HasID: JSON.stringify(BacTable.S.state).includes('"ann"') || document.body.textContent.includes('ann ')})`, &got)
		if got.Title != "Lin Wei is squeezing the Banker hand" || got.HasID {
			t.Errorf("bob's squeeze: %+v; want Lin Wei by name and ann's id nowhere on the page", got)
		}
		bob.screen("names-squeeze-watcher")
	})
	step("ann's own page still knows the squeeze is hers", []*pagesCase{ann}, func(t *testing.T) {
		ann.do("ann's squeeze panel", waitJS(`document.querySelector('#squeeze').dataset.mode === 'squeezer' &&
			document.querySelector('#squeeze-title').textContent === 'Your squeeze: the Banker hand'`, 15*time.Second))
	})
}

// TestPagesNamesTheTournamentLeaderboard: on a tournament's page the leaderboard shows the
// demo player by the name they chose and the house bots by their names marked as bots; no
// row shows an account id or a bot's id.
func TestPagesNamesTheTournamentLeaderboard(t *testing.T) {
	now := time.Now().UTC()
	s := startServerWithTournament(t, live.TournamentSpec{Config: tournament.Config{ID: "cup", Name: "Names Cup", Game: "mbs-tournament", Currency: "XXX",
		EntryFee: 1000, StartingChips: 10_000, MaxEntrants: 4, TableSize: 4,
		RegistrationOpens: now, RegistrationCloses: now.Add(4 * time.Second), Start: now.Add(4 * time.Second),
		Stakes: tournament.Stakes{Min: 100, Max: 2000}, Rounds: []tournament.Round{{Hands: 30}}, Prizes: []int{10000}},
		Schedule: live.Schedule{Betting: 5 * time.Second, Card: 150 * time.Millisecond, Result: 2 * time.Second},
		Bots:     tabletop.Bots("house-", 3)})
	tok := s.links["player_token"]
	if code := putJSON(t, s, tok, "/api/me/name", map[string]any{"name": "梅 Mei"}); code != 200 {
		t.Fatalf("the demo player names themselves: %d", code)
	}
	deadline := time.Now().Add(10 * time.Second)
	for code := 0; code != 200; {
		if code = postJSON(t, s, tok, "/api/tournaments/cup/register", nil); code != 200 && time.Now().After(deadline) {
			t.Fatalf("registering: %d", code)
		}
		time.Sleep(100 * time.Millisecond)
	}
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: tok}
	p.do("the page", recordErrors(), desktop)
	p.open("/tournament/cup", "en")
	p.do("the leaderboard", waitJS(`document.querySelectorAll('#t-leaderboard tbody tr').length === 4`, 30*time.Second))
	var rows []struct {
		Name string
		Bot  bool
		Me   bool
	}
	p.eval(`[...document.querySelectorAll('#t-leaderboard tbody tr')].map((r) => ({Name: r.querySelector('.player').textContent,
		Bot: !!r.querySelector('.badge-bot'), Me: r.classList.contains('me')}))`, &rows)
	bots, mine := 0, 0
	for _, r := range rows {
		switch {
		case r.Me && r.Name == "梅 Mei" && !r.Bot:
			mine++
		case r.Bot && len(r.Name) == len("house-1") && r.Name[:6] == "house-":
			bots++
		default:
			t.Errorf("a leaderboard row %+v: want the player's chosen name or a bot's name marked as a bot", r)
		}
	}
	if mine != 1 || bots != 3 {
		t.Errorf("the leaderboard %+v: want 梅 Mei once and 3 bots", rows)
	}
	if got := p.text(`document.querySelector('#t-leaderboard').textContent`); bytes.Contains([]byte(got), []byte("demo")) || bytes.Contains([]byte(got), []byte("bot.")) {
		t.Errorf("the leaderboard shows an id: %q", got)
	}
	p.shot("names-leaderboard")
	p.noErrors()
}
