package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Method C on the pages (Tiger 3.11) in a real browser: at an automatic Tiger table where a
// player draws the cards, ann stakes more than bob and takes the shoe; her page gives her a
// big Draw button with the seconds left, and she draws every card of the round with it, while
// bob's page (a phone) shows who holds the shoe. When her wager loses, the shoe leaves her;
// bob, staking more the next round, takes it, and when he waits the table draws the card
// itself. Screenshots: testdata/artifacts/pages-methodc-*.png.

// methodCDraw is the table's draw window here: short, so that the table's own draw is seen
// soon, long enough for a page to draw a card many times over.
const methodCDraw = 4

// startMethodCServer runs the server with one automatic Method C Tiger table and two players
// with money, ann and bob; it returns their tokens (and the admin's, who acts as the pit).
func startMethodCServer(t *testing.T) (*server, map[string]string) {
	t.Helper()
	s := startServerWith(t, "mc", serveConfig{Tables: []live.Spec{{ID: "mc", Name: "Method C Tiger", Mode: live.ModeAuto,
		Config:   table.Config{Game: "mbs-tiger", ShoeToPlayer: true, DrawSeconds: methodCDraw},
		Schedule: live.Schedule{Betting: 3 * time.Second, Card: 100 * time.Millisecond, Result: 1500 * time.Millisecond}}}})
	tokens := newPlayers(t, s, 1_000_000, "ann", "bob")
	tokens["admin"] = s.links["admin"]
	return s, tokens
}

// mcState is the Method C table as the admin reads it.
type mcState struct {
	Round   uint64
	Phase   string
	BetOpen bool `json:"bet_open"`
	Cards   []json.RawMessage
	MethodC struct {
		Holder string
		Due    bool
	} `json:"method_c"`
}

func readMC(t *testing.T, s *server, token string) mcState {
	t.Helper()
	var snap struct{ State mcState }
	apiGet(t, s, token, "/api/tables/mc", &snap)
	return snap.State
}

// TestPagesMethodCPlayerDrawsTheCards (Tiger 3.11, 3.11.8.2): the highest stake holds the
// shoe and draws each card from the page; the other page shows who holds it; a losing
// wager passes it on; a holder who waits has the table draw the card.
func TestPagesMethodCPlayerDrawsTheCards(t *testing.T) {
	s, tokens := startMethodCServer(t)
	page := peoplePages(t, s, tokens)
	state := func() mcState { return readMC(t, s, tokens["admin"]) }
	// The table names players by their public handle, staff's view too (web/API.md).
	handle := func(who string) string {
		var me struct{ Public *struct{ Handle string } }
		apiGet(t, s, tokens[who], "/api/me", &me)
		if me.Public == nil {
			return who
		}
		return me.Public.Handle
	}
	annH, bobH := handle("ann"), handle("bob")
	// bet waits for a round's betting with time to spare, and places the two wagers.
	bet := func(t *testing.T, wagers map[string][2]any) uint64 {
		t.Helper()
		for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			st := state()
			if !st.BetOpen {
				continue
			}
			for who, w := range wagers {
				if code := postJSON(t, s, tokens[who], "/api/tables/mc/wagers", map[string]any{"bet": w[0], "stake": w[1]}); code != 200 {
					t.Fatalf("%s's wager %v: %d", who, w, code)
				}
			}
			return st.Round
		}
		t.Fatal("the table never opened betting")
		return 0
	}
	// closed waits for No more bets of round and returns who holds the shoe then.
	closed := func(t *testing.T, round uint64) mcState {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if st := state(); st.Round == round && st.Phase != "betting" {
				return st
			}
		}
		t.Fatalf("round %d never closed", round)
		return mcState{}
	}

	ann, bob := page("ann", desktop), page("bob", phone)
	connected := waitJS(`document.querySelector('#conn').dataset.status === 'live'`, 15*time.Second)
	ann.open("/table/mc", "en")
	bob.open("/table/mc", "en")
	ann.do("ann's table", connected)
	bob.do("bob's table", connected)
	step := func(name string, pages []*pagesCase, fn func(t *testing.T)) { pageStep(t, name, pages, fn) }

	// ann stakes 2000 on the Tie, bob 1000 on the Banker: ann holds the shoe, and her wager
	// loses unless the round is a Tie (about 9 rounds in 10); a Tie keeps it with her, and the
	// round is played again.
	var lost bool
	for try := 1; try <= 3 && !lost; try++ {
		step("Tiger 3.11 ann, the highest stake, holds the shoe and draws every card", []*pagesCase{ann, bob}, func(t *testing.T) {
			round := bet(t, map[string][2]any{"ann": {"tie", 2000}, "bob": {"banker", 1000}})
			if st := closed(t, round); st.MethodC.Holder != annH {
				t.Fatalf("ann (%s, bob %s) holds the shoe: %+v", annH, bobH, st.MethodC)
			}
			ann.do("ann's Draw button", waitJS(`document.querySelector('#shoe-panel').dataset.holder === 'me' &&
				!document.querySelector('#shoe-draw').hidden`, 10*time.Second))
			var holder struct{ Mode, Text string }
			bob.do("bob's shoe panel", waitJS(`document.querySelector('#shoe-panel').dataset.holder === 'other'`, 10*time.Second))
			bob.eval(`({Mode: document.querySelector('#shoe-panel').dataset.holder, Text: document.querySelector('#shoe-holder').textContent})`, &holder)
			if holder.Text == "" || holder.Text == "You hold the shoe" {
				t.Fatalf("bob's page names who holds the shoe: %+v", holder)
			}
			if try == 1 {
				ann.shot("methodc-desktop-holder")
				bob.shot("methodc-phone-watcher")
			}
			clicks := 0
			for st := state(); st.Round == round && (st.Phase == "closed" || st.Phase == "dealing"); st = state() {
				ann.do("ann's turn", waitJS(`(() => { const b = document.querySelector('#shoe-draw');
					const st = window.BacTable.S.state;
					return (!b.hidden && !b.disabled) || !['closed', 'dealing'].includes(st.phase); })()`, 10*time.Second))
				var ready bool
				ann.eval(`!document.querySelector('#shoe-draw').hidden && !document.querySelector('#shoe-draw').disabled`, &ready)
				if !ready {
					break
				}
				before := len(state().Cards)
				ann.do("ann draws", chromedp.Click(chromedp.CSS("#shoe-draw")))
				clicks++
				for end := time.Now().Add(5 * time.Second); len(state().Cards) == before && time.Now().Before(end); {
					time.Sleep(30 * time.Millisecond)
				}
			}
			st := state()
			if st.Round != round || (st.Phase != "settled" && st.Phase != "void") {
				t.Fatalf("round %d ends on ann's draws: %+v", round, st)
			}
			if clicks != len(st.Cards) || clicks < 4 {
				t.Fatalf("Tiger 3.11.1 ann drew each of the %d cards herself: %d draws", len(st.Cards), clicks)
			}
			lost = st.MethodC.Holder == ""
		})
	}
	if !lost {
		t.Skip("three Ties in a row: ann's wager never lost")
	}

	step("Tiger 3.11.8.2 ann's wager lost: the shoe left her, and both pages say so", []*pagesCase{ann, bob}, func(t *testing.T) {
		for _, p := range []*pagesCase{ann, bob} {
			p.do("nobody holds the shoe", waitJS(`document.querySelector('#shoe-panel').dataset.holder === 'none'`, 10*time.Second))
		}
	})

	step("bob, now the highest stake, takes the shoe; when he waits the table draws the card", []*pagesCase{ann, bob}, func(t *testing.T) {
		round := bet(t, map[string][2]any{"ann": {"player", 100}, "bob": {"banker", 3000}})
		if st := closed(t, round); st.MethodC.Holder != bobH {
			t.Fatalf("bob holds the shoe: %+v", st.MethodC)
		}
		start := time.Now()
		bob.do("bob's Draw button", waitJS(`document.querySelector('#shoe-panel').dataset.holder === 'me' &&
			!document.querySelector('#shoe-draw').hidden && document.querySelector('#shoe-clock').textContent !== ''`, 10*time.Second))
		ann.do("ann sees bob's draw awaited", waitJS(`document.querySelector('#shoe-panel').dataset.holder === 'other' &&
			document.querySelector('#shoe-note').textContent !== ''`, 10*time.Second))
		bob.shot("methodc-phone-holder")
		for len(state().Cards) == 0 && time.Since(start) < (methodCDraw+5)*time.Second {
			time.Sleep(50 * time.Millisecond)
		}
		if n, waited := len(state().Cards), time.Since(start); n == 0 || waited < (methodCDraw-1)*time.Second {
			t.Fatalf("the table draws the first card itself after about %d s: %d cards after %s", methodCDraw, n, waited)
		}
		if st := state(); st.MethodC.Holder != bobH {
			t.Fatalf("bob keeps the shoe while the table draws for him: %+v", st.MethodC)
		}
	})
}
