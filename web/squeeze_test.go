package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestSqueezeThroughTheAPI (SPEC §4, Tiger 3.8 Method A online): at a dealer table that
// squeezes, the highest bettor on the Banker sees its cards, everyone else sees them face
// down; the squeezer's peel reaches the others without the card; only the squeezer
// reveals, and the reveal shows exactly the dealt cards.
func TestSqueezeThroughTheAPI(t *testing.T) {
	f := newFixture(t)
	f.create(live.Spec{ID: "sq", Name: "Squeeze", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger", Squeeze: true}})
	f.command("sq", map[string]any{"cmd": "new_shoe"})
	f.command("sq", map[string]any{"cmd": "open"})
	if code := f.do("ann", "POST", "/api/tables/sq/wagers", map[string]any{"bet": "banker", "stake": 2000}, nil); code != 200 {
		t.Fatalf("ann's wager: %d", code)
	}
	if code := f.do("bob", "POST", "/api/tables/sq/wagers", map[string]any{"bet": "banker", "stake": 1000}, nil); code != 200 {
		t.Fatalf("bob's wager: %d", code)
	}
	f.command("sq", map[string]any{"cmd": "close"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := strings.Replace(f.srv.URL(), "http", "ws", 1) + "/api/tables/sq/stream?token=" + f.tokens["bob"]
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	for _, card := range []string{"2h", "3d", "3c", "3s"} { // P 2h 3c, B 3d 3s
		f.command("sq", map[string]any{"cmd": "card", "card": card})
	}
	faceUp := func(who string) int {
		var v struct{ State table.State }
		f.do(who, "GET", "/api/tables/sq", nil, &v)
		if v.State.Squeeze == nil || v.State.Squeeze.Squeezer != "ann" || v.State.Squeeze.Side != "banker" {
			t.Fatalf("Tiger 3.8.2 the highest stake on the Banker squeezes it: %+v", v.State.Squeeze)
		}
		n := 0
		for _, c := range v.State.Cards {
			if c.Hidden && c.Card.Valid() {
				n++
			}
		}
		return n
	}
	if up := faceUp("bob"); up != 0 {
		t.Fatalf("bob sees %d of ann's squeezed cards", up)
	}
	if up := faceUp("ann"); up != 2 {
		t.Fatalf("ann, the squeezer, sees %d of her 2 cards", up)
	}
	var e apiError
	if code := f.do("bob", "POST", "/api/tables/sq/peel", map[string]any{"card": 0, "lift": 30}, &e); code != 403 || e.Code != "not_authorized" {
		t.Fatalf("bob peels ann's hand: %d %+v", code, e)
	}
	if code := f.do("ann", "POST", "/api/tables/sq/peel", map[string]any{"card": 1, "lift": 250}, &e); code != 400 || e.Code != "bad_request" {
		t.Fatalf("a lift of 250: %d %+v", code, e)
	}
	if code := f.do("ann", "POST", "/api/tables/sq/peel", map[string]any{"card": 1, "lift": 45}, nil); code != 204 {
		t.Fatalf("ann's peel: %d", code)
	}
	if code := f.do("bob", "POST", "/api/tables/sq/reveal", nil, &e); code != 403 || e.Code != "not_authorized" {
		t.Fatalf("bob reveals ann's hand: %d %+v", code, e)
	}
	var revealed struct{ Events []table.Event }
	if code := f.do("ann", "POST", "/api/tables/sq/reveal", nil, &revealed); code != 200 {
		t.Fatalf("ann's reveal: %d", code)
	}
	var cards []string
	for _, ev := range revealed.Events {
		if ev.Type == table.EvSqueezeEnded {
			for _, c := range ev.Cards() {
				cards = append(cards, c.String())
			}
		}
	}
	if strings.Join(cards, " ") != "3d 3s" {
		t.Fatalf("the reveal shows exactly the Banker's dealt cards 3d 3s: %v", cards)
	}
	// bob's stream: the cards face down, ann's peel (how far, never the card), the reveal.
	var peel map[string]any
	down := 0
	for peel == nil || down < 2 {
		for _, m := range readFrame(t, ctx, c) {
			if m["type"] == "peel" {
				peel, _ = m["peel"].(map[string]any)
			}
			if ev, ok := m["event"].(map[string]any); ok && ev["type"] == "card_dealt" {
				if card, _ := ev["card"].(map[string]any); card["hidden"] == true {
					if _, shown := card["card"]; shown {
						t.Fatalf("bob's stream shows a squeezed card: %v", card)
					}
					down++
				}
			}
		}
	}
	if peel["squeezer"] != "ann" || peel["side"] != "banker" || peel["card"] != 1.0 || peel["lift"] != 45.0 || len(peel) != 4 {
		t.Fatalf("the peel as watchers see it: %v", peel)
	}
}
