package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// startTournamentServer runs the server with one cash table and a tournament of its own
// opening now: three house bots fill it, it starts in 8 s, sessions of three hands.
func startTournamentServer(t *testing.T) *server {
	t.Helper()
	return startTournamentServerOpenFor(t, 8*time.Second)
}

// startTournamentServerOpenFor is startTournamentServer with registration open for the
// given time: a test that reads several pages before it registers needs longer on a loaded
// machine.
func startTournamentServerOpenFor(t *testing.T, open time.Duration) *server {
	t.Helper()
	now := time.Now().UTC()
	return startServerWithTournament(t, live.TournamentSpec{Config: tournament.Config{ID: "cup", Name: "Browser Cup", Game: "mbs-tournament", Currency: "XXX",
		EntryFee: 1000, StartingChips: 10_000, MaxEntrants: 8, TableSize: 4,
		RegistrationOpens: now, RegistrationCloses: now.Add(open), Start: now.Add(open),
		Stakes: tournament.Stakes{Min: 100, Max: 2000, Required: true},
		Rounds: []tournament.Round{{Hands: 3, Advance: 2}, {Hands: 3}}, Prizes: []int{7000, 3000}},
		Schedule: live.Schedule{Betting: 7 * time.Second, Card: 150 * time.Millisecond, Result: 2 * time.Second},
		Bots:     tabletop.Bots("house-", 3)})
}

// startServerWithTournament runs the server (no demo tournaments) with one cash table, the
// automatic Tiger table, and creates spec's tournament on it.
func startServerWithTournament(t *testing.T, spec live.TournamentSpec) *server {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{{ID: "tiger", Name: "Tiger", Mode: live.ModeAuto,
		Config: table.Config{Game: "mbs-tiger"}}}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "t.db"), Config: path, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if err := s.host.CreateTournament(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBrowserTournamentRegisterPlayAHandAndTheLeaderboardMoves: the demo player registers on
// the tournament's page (the fee leaves their balance), opens their table from it when the
// tournament starts, plays a hand in chips, and sees the leaderboard move by exactly what the
// hand paid, on the table's page and on the tournament's.
func TestBrowserTournamentRegisterPlayAHandAndTheLeaderboardMoves(t *testing.T) {
	s := startTournamentServer(t)
	ctx := browser(t)
	tok := s.links["player_token"]
	before := balanceOf(t, s)
	err := chromedp.Do(ctx,
		chromedp.Navigate(s.web.URL()+"/tournament/cup?token="+tok),
		waitJS(`!document.querySelector('#t-register').hidden`, 20*time.Second),
		chromedp.Click(chromedp.CSS(`#t-register`)),
		waitJS(`!!document.querySelector('#t-me-registered')`, 10*time.Second),
		waitJS(`document.querySelectorAll('.badge-bot').length >= 3`, 10*time.Second),
	)
	if err != nil {
		screenshot(t, ctx, "tournament-register-failed")
		t.Fatalf("registering on the tournament's page: %v", err)
	}
	if got := balanceOf(t, s); got != before-1000 {
		t.Fatalf("SPEC 5 the entry fee comes from the wallet: balance %d, want %d", got, before-1000)
	}
	screenshot(t, ctx, "tournament-registered")
	err = chromedp.Do(ctx, waitJS(`!!document.querySelector('#t-my-table')`, 30*time.Second))
	var tableURL string
	if err == nil {
		tableURL, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#t-my-table').getAttribute('href')`))
	}
	if err != nil {
		screenshot(t, ctx, "tournament-start-failed")
		t.Fatalf("no link to the player's table once the tournament started: %v", err)
	}
	screenshot(t, ctx, "tournament-running")
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.web.URL()+tableURL),
		waitJS(`!!document.querySelector('#t-panel') && document.querySelector('#t-hands-left').textContent !== '–'`, 20*time.Second),
		waitJS(`document.querySelector('#wallet .label').textContent === 'Chips'`, 10*time.Second),
		waitJS(`document.querySelector('#phase').dataset.phase === 'betting' && parseInt(document.querySelector('#countdown').textContent||'0') >= 2`, 40*time.Second),
		chromedp.Click(chromedp.CSS(`[data-chip="100"]`)),
		chromedp.Click(chromedp.CSS(`[data-bet="banker"]`)),
		waitJS(`(document.querySelector('[data-bet="banker"]').dataset.mine||'') === '100'`, 10*time.Second),
	)
	if err != nil {
		screenshot(t, ctx, "tournament-table-failed")
		t.Fatalf("betting at the tournament table: %v", err)
	}
	screenshot(t, ctx, "tournament-table-bet")
	// Wait for the hand to be reported: the player's chips in the tournament move off the
	// starting 10,000 by the hand's net (a Tie pushes a Banker bet: then wait for the next).
	var me struct {
		Me struct {
			Chips int64 `json:"chips"`
			Rank  int   `json:"rank"`
		} `json:"me"`
		Bots []string `json:"bots"`
	}
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		apiGet(t, s, tok, "/api/tournaments/cup", &me)
		if me.Me.Chips != 10_000 && me.Me.Chips != 0 {
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	if me.Me.Chips == 10_000 || me.Me.Chips == 0 {
		t.Fatalf("the player's chips never moved: %+v", me)
	}
	row := `document.querySelector('#t-standings tr.me')` // the demo's row: players are named by handle, not id
	if err := chromedp.Do(ctx, waitJS(fmt.Sprintf(`!!%s && %s.dataset.chips === '%d'`, row, row, me.Me.Chips), 15*time.Second)); err != nil {
		screenshot(t, ctx, "tournament-table-standings-failed")
		t.Fatalf("the table page's standings do not show the player's %d chips: %v", me.Me.Chips, err)
	}
	screenshot(t, ctx, "tournament-table-moved")
	lb := `document.querySelector('#t-leaderboard tr.me')`
	err = chromedp.Do(ctx,
		chromedp.Navigate(s.web.URL()+"/tournament/cup"),
		waitJS(fmt.Sprintf(`!!%s && Number(%s.dataset.chips) !== 10000`, lb, lb), 15*time.Second),
		waitJS(`document.querySelectorAll('#t-leaderboard .badge-bot').length >= 3`, 5*time.Second))
	if err != nil {
		screenshot(t, ctx, "tournament-leaderboard-failed")
		t.Fatalf("the tournament's leaderboard did not move: %v", err)
	}
	screenshot(t, ctx, "tournament-leaderboard")
}

// TestBrowserLobbyListsTheDemoTournaments: baccarat serve's defaults run a demo tournament
// of each tournament game, listed above the lobby's tables, and no cash table of them.
func TestBrowserLobbyListsTheDemoTournaments(t *testing.T) {
	dir := t.TempDir()
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "d.db"), Betting: 5 * time.Second, Demo: demoTournaments{Bots: 2}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ctx := browser(t)
	err := chromedp.Do(ctx, chromedp.Navigate(s.web.URL()+"/?token="+s.links["player_token"]),
		waitJS(`document.querySelectorAll('#lobby-tournaments [data-tournament]').length === 3`, 20*time.Second),
		waitJS(`document.querySelectorAll('[data-table]').length === 4`, 20*time.Second))
	if err != nil {
		screenshot(t, ctx, "lobby-tournaments-failed")
		t.Fatalf("the lobby: %v", err)
	}
	for _, game := range tournament.Games {
		ok, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector('[data-table=%q]')`, game)))
		if ok {
			t.Errorf("SPEC 5 the default tables include a cash table of %s", game)
		}
	}
	screenshot(t, ctx, "lobby-tournaments")
	if err := chromedp.Do(ctx, chromedp.Navigate(s.web.URL()+"/tournaments"),
		waitJS(`document.querySelectorAll('#t-cards [data-tournament]').length === 3`, 10*time.Second)); err != nil {
		t.Fatalf("/tournaments: %v", err)
	}
	screenshot(t, ctx, "tournaments")
}
