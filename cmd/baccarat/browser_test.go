package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// The browser tests drive Debian's Chromium (installed by .ci/run) against the real server,
// started as a user starts it, on 127.0.0.1:0 with a temporary database. Screenshots are
// saved under testdata/artifacts/.

func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium: install Debian's chromium package (bash .ci/run does)")
	return ""
}

func startServer(t *testing.T) *server {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 10_000_000, Tables: []live.Spec{
		{ID: "tiger", Name: "Tiger", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"},
			Schedule: live.Schedule{Betting: 6 * time.Second, Card: 150 * time.Millisecond, Result: 2 * time.Second}},
		{ID: "live", Name: "Live Tiger", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}},
	}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "b.db"), Config: path}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func browser(t *testing.T) context.Context {
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
	ctx, cancel3 := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancel3)
	return ctx
}

// waitJS waits until a JavaScript expression is true.
func waitJS(expr string, timeout time.Duration) chromedp.Action[chromedp.Void] {
	poll := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(timeout))
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := poll(ctx, t)
		return chromedp.Void{}, err
	}
}

func screenshot(t *testing.T, ctx context.Context, name string) {
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	dir := filepath.Join("testdata", "artifacts")
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
}

// apiGet reads an API path with a token into out.
func apiGet(t *testing.T, s *server, token, path string, out any) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.web.URL()+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

func balanceOf(t *testing.T, s *server) baccarat.Money {
	var me struct{ Balance baccarat.Money }
	apiGet(t, s, s.links["player_token"], "/api/me", &me)
	return me.Balance
}

func majorUnits(minor baccarat.Money) string {
	whole, cents := minor/100, minor%100
	str := strconv.FormatInt(int64(whole), 10)
	for i := len(str) - 3; i > 0; i -= 3 {
		str = str[:i] + "," + str[i:]
	}
	return fmt.Sprintf("%s.%02d", str, cents)
}

// TestBrowserPlayerBetsAndIsPaidExactly: open the player's page, place a chip on Player
// during betting, wait for the settlement, and check the balance on the page moved by
// exactly what the round paid.
func TestBrowserPlayerBetsAndIsPaidExactly(t *testing.T) {
	s := startServer(t)
	ctx := browser(t)
	before := balanceOf(t, s)
	url := s.web.URL() + "/table/tiger?token=" + s.links["player_token"]
	err := chromedp.Do(ctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(`#balance`)),
		waitJS(`document.querySelector('#balance').textContent.trim() === `+strconv.Quote(majorUnits(before)), 20*time.Second),
		// wait for a betting window with time left to bet
		waitJS(`document.querySelector('#phase').dataset.phase === 'betting' && parseInt(document.querySelector('#countdown').textContent||'0') >= 2`, 30*time.Second),
		chromedp.Click(chromedp.CSS(`[data-chip="100"]`)),
		chromedp.Click(chromedp.CSS(`[data-bet="player"]`)),
		waitJS(`(document.querySelector('[data-bet="player"]').dataset.mine||'') === '100'`, 10*time.Second),
	)
	if err != nil {
		screenshot(t, ctx, "player-failed")
		t.Fatalf("placing a bet in the browser: %v", err)
	}
	screenshot(t, ctx, "player-bet")
	if got := balanceOf(t, s); got != before-100 {
		t.Fatalf("the stake is held: balance %d, want %d", got, before-100)
	}
	// Wait for the round to settle, then for the page to show the new balance.
	var rounds []live.Round
	deadline := time.Now().Add(40 * time.Second)
	for time.Now().Before(deadline) {
		apiGet(t, s, s.links["player_token"], "/api/tables/tiger/rounds?limit=10", &rounds)
		if len(rounds) > 0 && len(rounds[0].Settlements) > 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if len(rounds) == 0 || len(rounds[0].Settlements) != 1 {
		t.Fatalf("no settlement of the wager: %+v", rounds)
	}
	net := rounds[0].Settlements[0].Net
	want := before + net
	if err := chromedp.Do(ctx, waitJS(`document.querySelector('#balance').textContent.trim() === `+strconv.Quote(majorUnits(want)), 15*time.Second)); err != nil {
		shown, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#balance`)))
		screenshot(t, ctx, "player-failed")
		t.Fatalf("the page shows %q after a net of %d; want %s", shown, net, majorUnits(want))
	}
	if got := balanceOf(t, s); got != want {
		t.Fatalf("balance %d, want %d (net %d)", got, want, net)
	}
	screenshot(t, ctx, "player-settled")
}

// TestBrowserDealerDealsARoundByKeyboard: the dealer console opens betting, closes it and
// deals a coup typed on the keyboard (or a scanner), and the table settles.
func TestBrowserDealerDealsARoundByKeyboard(t *testing.T) {
	s := startServer(t)
	ctx := browser(t)
	url := s.web.URL() + "/dealer/live?token=" + s.links["dealer_token"]
	phase := func(p string) string {
		return `(function(){const e=document.querySelector('#dealer-phase');return !!e && e.textContent.toLowerCase().includes('` + p + `')})()`
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`#card-input`))); err != nil {
		t.Fatal(err)
	}
	state := func() table.State {
		var snap struct{ State table.State }
		apiGet(t, s, s.links["dealer_token"], "/api/tables/live", &snap)
		return snap.State
	}
	// until retries an action (a click or a key) until the table shows what it should:
	// a loaded machine may take a moment to connect the console.
	until := func(what string, act chromedp.Action[chromedp.Void], ok func(table.State) bool) {
		t.Helper()
		for try := 0; try < 5; try++ {
			if err := chromedp.Do(ctx, act); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 30; i++ {
				if ok(state()) {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}
		screenshot(t, ctx, "dealer-failed")
		t.Fatalf("the dealer console never managed to %s", what)
	}
	newShoe := chromedp.Click(chromedp.CSS(`[data-cmd="new_shoe"]`)) // asks for a second press to confirm
	until("start a shoe", chromedp.Steps(newShoe, chromedp.Sleep(200*time.Millisecond), newShoe),
		func(st table.State) bool { return st.Shoe.Active })
	key := func(k string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(chromedp.Focus(chromedp.CSS(`#card-input`)), chromedp.SendKeys(chromedp.CSS(`#card-input`), k))
	}
	until("open betting with O", key("o"), func(st table.State) bool { return st.Phase == table.PhaseBetting })
	until("close betting with C", key("c"), func(st table.State) bool { return st.Phase == table.PhaseClosed })
	waitState := func(want table.Phase) error {
		for i := 0; i < 100; i++ {
			if state().Phase == want {
				return nil
			}
			time.Sleep(100 * time.Millisecond)
		}
		return fmt.Errorf("the table never reached %s", want)
	}
	for _, card := range []string{"9h", "Kd", "Qc", "2s"} { // Player natural 9
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`#card-input`), card+"\r")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
	}
	if err := waitState(table.PhaseSettled); err != nil {
		screenshot(t, ctx, "dealer-failed")
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, waitJS(phase("settled")+` || `+phase("result")+` || `+phase("player"), 5*time.Second)); err != nil {
		text, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#dealer-phase`)))
		t.Logf("dealer phase shows %q", text)
	}
	log, _ := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#dealer-log`)))
	if !strings.Contains(strings.ToLower(log), "9h") {
		t.Errorf("the dealer log does not show the cards: %q", log)
	}
	screenshot(t, ctx, "dealer-settled")
}

// TestBrowserEveryGameHasItsTable opens the player's page of every game of the default
// server and checks that every bet of the game has its spot, and the lobby lists them all.
func TestBrowserEveryGameHasItsTable(t *testing.T) {
	dir := t.TempDir()
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "g.db"), Betting: 5 * time.Second}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	for _, g := range games.All() { // the tournament games run in tournaments: a cash table of one says so
		if g.Rules.Tournament {
			spec := live.Spec{ID: g.ID, Name: g.Name, Config: table.Config{Game: g.ID, Cash: true}, Schedule: live.Schedule{Betting: s.Betting}}
			if err := s.host.Create(context.Background(), spec); err != nil {
				t.Fatal(err)
			}
		}
	}
	ctx := browser(t)
	tok := s.links["player_token"]
	if err := chromedp.Do(ctx, chromedp.Navigate(s.web.URL()+"/?token="+tok),
		waitJS(`document.querySelectorAll('[data-table]').length === 7`, 20*time.Second)); err != nil {
		screenshot(t, ctx, "lobby-failed")
		t.Fatalf("the lobby does not list the seven default tables: %v", err)
	}
	screenshot(t, ctx, "lobby")
	for _, g := range games.All() {
		want := len(g.Bets)
		err := chromedp.Do(ctx, chromedp.Navigate(s.web.URL()+"/table/"+g.ID),
			waitJS(fmt.Sprintf(`document.querySelectorAll('[data-bet]').length >= %d`, want), 20*time.Second))
		if err != nil {
			n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[data-bet]').length`))
			screenshot(t, ctx, "table-"+g.ID+"-failed")
			t.Fatalf("%s: %d bet spots on the page, want %d: %v", g.ID, n, want, err)
		}
		for _, b := range g.Bets {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.querySelector('[data-bet=%q]')`, b.ID)))
			if err != nil || !ok {
				t.Errorf("%s: no spot for %s", g.ID, b.ID)
			}
		}
		screenshot(t, ctx, "table-"+g.ID)
	}
}
