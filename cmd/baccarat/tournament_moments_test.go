package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// startMomentsServer runs the server with a small fast tournament of its own opening now:
// three house bots and the demo player at one table of four, a first round of two hands of
// which the top two advance, then a final; stakes 1,000 to 50,000 chips a hand.
func startMomentsServer(t *testing.T) *server {
	t.Helper()
	now := time.Now().UTC()
	return startServerWithTournament(t, live.TournamentSpec{Config: tournament.Config{ID: "fast", Name: "Fast Cup", Game: "mbs-tournament", Currency: "XXX",
		EntryFee: 1000, StartingChips: 100_000, MaxEntrants: 4, TableSize: 4,
		RegistrationOpens: now, RegistrationCloses: now.Add(6 * time.Second), Start: now.Add(6 * time.Second),
		Stakes: tournament.Stakes{Min: 1000, Max: 50_000},
		Rounds: []tournament.Round{{Hands: 2, Advance: 2}, {Hands: 2}}, Prizes: []int{7000, 3000}},
		Schedule: live.Schedule{Betting: 2 * time.Second, Card: 100 * time.Millisecond, Result: time.Second},
		Bots:     tabletop.Bots("house-", 3)})
}

// TestBrowserTournamentMomentsChipsFollowStakesAndOutPlayersStayListed: SPEC §5 on a phone.
// The player registers in a small fast tournament with bots (the page shows the starting
// chips before the start, not 0), plays its table to the session's end and sees the moment
// over the table (advanced to the final, or out with the place); the tournament's page keeps
// it, never says "You are in" to one who is out, and its leaderboard keeps the entrants out
// of the tournament, marked out with their places. The table's chips follow its stakes (the
// smallest is the minimum, none above the maximum); the retired table's page says the session
// is over and links to the tournament (not a blank 404); played to its end, the tournament's
// page keeps where the player finished and the prize they won; no page scrolls sideways at 390 px,
// and the tournament panel is one line, leaving the bets on the first screen (the road strip
// below them).
func TestBrowserTournamentMomentsChipsFollowStakesAndOutPlayersStayListed(t *testing.T) {
	s := startMomentsServer(t)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("record script errors", recordErrors(), phone)

	// Before the start: the starting chips, and when play starts.
	p.open("/tournament/fast", "en")
	p.do("register", waitJS(`!document.querySelector('#t-register').hidden`, 15*time.Second),
		chromedp.Click(chromedp.CSS(`#t-register`)), waitJS(`!!document.querySelector('#t-me-registered')`, 10*time.Second))
	if got := p.text(`document.querySelector('#t-me-chips').textContent`); got != "100,000" {
		t.Errorf("before the start the player's chips read %q, want the starting 100,000", got)
	}
	if got := p.text(`(document.querySelector('#t-me-starts') || {}).textContent || ''`); !strings.Contains(got, "Starts") {
		t.Errorf("before the start no start time beside the chips: %q", got)
	}
	p.fits("the tournament page before the start")

	// The table: chips from the stakes, a one-line panel, the bets on the first screen.
	p.do("the tournament starts", waitJS(`!!document.querySelector('#t-my-table')`, 30*time.Second))
	tableURL := p.text(`document.querySelector('#t-my-table').getAttribute('href')`)
	p.open(tableURL, "en")
	p.do("the tournament table", waitJS(`!!document.querySelector('#t-panel') && document.querySelector('#t-hands-left').textContent !== '–' &&
		document.querySelectorAll('#chips [data-chip]').length > 0 && document.querySelector('#chips [data-chip]').dataset.chip === '1000'`, 20*time.Second))
	var chips []int64
	p.eval(`[...document.querySelectorAll('#chips [data-chip]')].map((b) => Number(b.dataset.chip))`, &chips)
	if len(chips) == 0 || chips[0] < 1000 {
		t.Errorf("the chip set %v: its smallest chip is under the table's 1,000 minimum", chips)
	}
	for _, c := range chips {
		if c > 50_000 {
			t.Errorf("the chip set %v: a chip of %d is over the table's 50,000 maximum", chips, c)
		}
	}
	if fmt.Sprint(chips) != "[1000 2000 5000 10000 20000 50000]" {
		t.Errorf("the chip set %v, want 1,000 2,000 5,000 10,000 20,000 50,000", chips)
	}
	var geo struct{ Panel, Bets, Height float64 }
	p.eval(`({ Panel: document.querySelector('#t-panel').getBoundingClientRect().height,
		Bets: document.querySelector('#chips').getBoundingClientRect().bottom + scrollY, Height: innerHeight })`, &geo)
	if geo.Panel > 60 {
		t.Errorf("the tournament panel is %.0f px high on a phone: want one line", geo.Panel)
	}
	if geo.Bets > geo.Height {
		t.Errorf("the bets and chips end %.0f px down the page, below the phone's first screen (%.0f px)", geo.Bets, geo.Height)
	}
	p.fits("the tournament table")
	p.screen("phone-tournament-moments-table")

	// The session's end: the moment over the table, in place.
	p.do("the session's moment", waitJS(`!!document.querySelector('#t-moment') && !document.querySelector('#t-moment').hidden &&
		/^(advanced|out|result)/.test(document.querySelector('#t-moment').dataset.moment)`, 45*time.Second))
	var me struct {
		Me struct {
			Out     bool
			Place   int
			Of      int
			Reached int
		}
	}
	apiGet(t, s, p.tok, "/api/tournaments/fast", &me)
	moment := p.text(`document.querySelector('#t-moment-title').textContent`)
	want := "You advance to the final"
	if me.Me.Out {
		want = fmt.Sprintf("You're out — place %d of 4", me.Me.Place)
	}
	if moment != want {
		t.Errorf("the moment over the table reads %q, want %q (%+v)", moment, want, me.Me)
	}
	if got := p.text(`document.querySelector('#t-moment-link').getAttribute('href')`); got != "/tournament/fast" {
		t.Errorf("the moment's link goes to %q", got)
	}
	p.screen("phone-tournament-moments-moment")

	// The tournament's page keeps it, and lists those out with their places.
	p.open("/tournament/fast", "en")
	p.do("the kept moment", waitJS(`document.querySelectorAll('#t-moments [data-moment]').length > 0 &&
		document.querySelectorAll('#t-leaderboard tbody tr').length === 4`, 15*time.Second))
	if got := p.text(`[...document.querySelectorAll('#t-moments [data-moment]')].map((e) => e.textContent).join('|')`); !strings.Contains(got, want) {
		t.Errorf("the tournament page's moments %q: want %q kept", got, want)
	}
	var out []struct{ Player, Place, Text string }
	p.eval(`[...document.querySelectorAll('#t-leaderboard tr[data-out]')].map((r) => ({ Player: r.dataset.player, Place: r.dataset.place, Text: r.textContent }))`, &out)
	if len(out) != 2 {
		t.Errorf("the leaderboard lists %d entrants out, want the 2 who did not advance: %+v", len(out), out)
	}
	for _, o := range out {
		if o.Place != "3" && o.Place != "4" || !strings.Contains(o.Text, "out · place "+o.Place+" of 4") {
			t.Errorf("an entrant out of the tournament is listed as %+v: want place 3 or 4, marked out", o)
		}
	}
	registered := p.text(`document.querySelector('#t-me-registered') ? 'in' : document.querySelector('#t-me-out') ? document.querySelector('#t-me-out').textContent : ''`)
	if me.Me.Out && registered != want {
		t.Errorf("the player who is out is told %q, want %q", registered, want)
	}
	if !me.Me.Out && registered != "in" {
		t.Errorf("the player in the final is told %q", registered)
	}
	p.fits("the tournament page with a round played")
	p.screen("phone-tournament-moments-page")
	p.shot("phone-tournament-moments-page")

	// The retired session table: the session is over, with the link, not a blank page.
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var e struct{ Code string }
		apiGet(t, s, p.tok, "/api/tables/"+strings.TrimPrefix(tableURL, "/table/"), &e)
		if e.Code != "" { // not_found, or unavailable: it exists and no server runs it
			break
		}
		time.Sleep(300 * time.Millisecond)
	}
	p.open(tableURL, "en")
	p.do("the retired table's page", waitJS(`!!document.querySelector('#t-moment') && !document.querySelector('#t-moment').hidden`, 15*time.Second))
	if got := p.text(`document.querySelector('#t-moment-title').textContent`); got != want {
		t.Errorf("the retired table's page says %q, want %q", got, want)
	}
	p.screen("phone-tournament-moments-retired")

	// Played to its prizes: the final's two hands, then the tournament page keeps where the
	// player finished and, in the prizes, what they won.
	var end struct {
		Phase string
		Me    struct {
			Out    bool
			Result *struct{ Rank, Prize int64 }
		}
		State struct {
			Results []struct{ Rank int64 }
		}
	}
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		apiGet(t, s, p.tok, "/api/tournaments/fast", &end)
		if end.Phase == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament has not finished: %+v", end)
		}
	}
	p.open("/tournament/fast", "en")
	p.do("the finished tournament", waitJS(`document.querySelectorAll('#t-moments [data-moment]').length > 0 &&
		document.querySelectorAll('#t-leaderboard tbody tr').length === 4`, 15*time.Second))
	moments := p.text(`[...document.querySelectorAll('#t-moments [data-moment]')].map((e) => e.textContent).join('|')`)
	if r := end.Me.Result; !end.Me.Out && r != nil {
		if want := fmt.Sprintf("You finished in place %d of 4", r.Rank); !strings.Contains(moments, want) {
			t.Errorf("the finished tournament's moments %q: want %q", moments, want)
		}
		// The pool is the four entry fees, 40.00: 70% to the first, 30% to the second; two
		// finalists level on chips tie for first and share both places, 20.00 each.
		tied := 0
		for _, o := range end.State.Results {
			if o.Rank == r.Rank {
				tied++
			}
		}
		want := map[int64]string{1: "You won 28.00", 2: "You won 12.00"}[r.Rank]
		if tied > 1 {
			want = "You won 20.00"
		}
		if !strings.Contains(moments, want) || r.Prize == 0 {
			t.Errorf("the finished tournament's moments %q (prize %d): want %q", moments, r.Prize, want)
		}
	} else if !strings.Contains(moments, want) {
		t.Errorf("the finished tournament's moments %q: want %q kept", moments, want)
	}
	p.fits("the finished tournament's page")
	p.screen("phone-tournament-moments-finished")
	p.noErrors()
}
