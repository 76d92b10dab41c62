package table

import (
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
)

// TestSqueezeStagesTheRevealOnly (SPEC §4, Tiger 3.8 Method A online): the highest stake on
// each hand squeezes its first two cards; they are face down to everyone else until the
// squeezer reveals them, and what is revealed is exactly what was dealt.
func TestSqueezeStagesTheRevealOnly(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tiger", Squeeze: true}, "ann", "bob", "cat")
	x.ok(&Open{})
	x.place("ann", "banker", 1000)
	x.place("bob", "banker", 1000) // as much as ann, placed later: ann squeezes
	x.place("cat", "player", 300)
	x.place("bob", "tie", 5000) // a side bet does not back a hand
	x.ok(&Close{})
	dealt := "2h 3d 3c 3s" // P 2h 3c, B 3d 3s
	var cards []Event
	for _, f := range []string{"2h", "3d", "3c", "3s"} {
		cards = append(cards, x.cards(f)...)
	}
	for _, e := range cards {
		if e.Type != EvCardDealt {
			continue
		}
		want := "ann"
		if e.Card.Position.Player() {
			want = "cat"
		}
		if !e.Card.Hidden || e.Card.For != want {
			t.Fatalf("Tiger 3.8 the %s card goes face down to %s: %+v", e.Card.Position, want, e.Card)
		}
		if p := e.Public(); p.Card.Card.Valid() {
			t.Fatalf("the public copy shows a squeezed card: %+v", p.Card)
		}
	}
	if st := x.State(); st.Squeeze == nil || st.Squeeze.Side != "player" || st.Squeeze.Squeezer != "cat" {
		t.Fatalf("after the fourth card the Player hand is squeezed by cat: %+v", st.Squeeze)
	}
	x.refused(&Card{Card: card("9d")}, baccarat.CodeExtraCard)
	x.refused(&Reveal{Header: Header{Actor: "ann", Role: RolePlayer}}, baccarat.CodeNotAuthorized)
	// The peel: only the squeezer lifts a corner, and a peel records nothing.
	x.refused(&Peel{Header: Header{Actor: "ann", Role: RolePlayer}, Card: 0, Lift: 30}, baccarat.CodeNotAuthorized)
	x.refused(&Peel{Header: Header{Actor: "cat", Role: RolePlayer}, Card: 2, Lift: 30}, baccarat.CodeBadRequest)
	x.refused(&Peel{Header: Header{Actor: "cat", Role: RolePlayer}, Card: 0, Lift: -1}, baccarat.CodeBadRequest)
	x.refused(&Peel{Header: Header{Role: RoleDealer}, Card: 0, Lift: 30}, baccarat.CodeNotAuthorized)
	if ev := x.ok(&Peel{Header: Header{Actor: "cat", Role: RolePlayer}, Card: 1, Lift: MaxLift}); len(ev) != 0 {
		t.Fatalf("a peel records nothing: %+v", ev)
	}
	if v := x.PeelOf(&Peel{Card: 1, Lift: 60}); v != (PeelView{Side: "player", Squeezer: "cat", Card: 1, Lift: 60}) {
		t.Fatalf("the watchers see whose hand and how far, never the card: %+v", v)
	}
	ev := x.ok(&Reveal{Header: Header{Actor: "cat", Role: RolePlayer}})
	ended, next := last(ev, EvSqueezeEnded), last(ev, EvSqueezeStarted)
	if ended == nil || !slices.Equal(ended.Cards(), []baccarat.Card{*card("2h"), *card("3c")}) {
		t.Fatalf("the Player reveal shows exactly the Player's cards of %s: %+v", dealt, ended)
	}
	if next == nil || next.Player() != "ann" || next.detail().Side != "banker" {
		t.Fatalf("then the Banker hand, squeezed by ann: %+v", next)
	}
	ev = x.ok(&Reveal{Header: Header{Actor: "ann", Role: RolePlayer}})
	ended = last(ev, EvSqueezeEnded)
	if ended == nil || !slices.Equal(ended.Cards(), []baccarat.Card{*card("3d"), *card("3s")}) {
		t.Fatalf("the Banker reveal shows exactly the Banker's cards: %+v", ended)
	}
	// Player 5 draws; the third cards are exposed as they come.
	ev = x.cards("9d")
	if c := last(ev, EvCardDealt); c == nil || c.Card.Hidden {
		t.Fatalf("a third card is exposed: %+v", c)
	}
	if s := last(ev, EvRoundSettled); s == nil {
		t.Fatal("P 2h 3c 9d (4) against B 3d 3s (6): the Banker stands and wins")
	}
	re, err := Replay(x.Config(), x.history)
	if err != nil || re.State().Phase != PhaseSettled {
		t.Fatalf("replay: %v", err)
	}
}

// TestSqueezeSkipsAHandNobodyBacks: with wagers only on the Banker, only the Banker hand is
// squeezed; the Player's cards are dealt face up.
func TestSqueezeSkipsAHandNobodyBacks(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament", Squeeze: true}, "ann")
	x.ok(&Open{})
	x.place("ann", "banker", 100)
	x.ok(&Close{})
	ev := x.cards("9h")
	if c := last(ev, EvCardDealt); c.Card.Hidden {
		t.Fatal("nobody backs the Player: its cards are face up")
	}
	ev = x.cards("Kd Qc 2s") // P 9h Qc natural 9
	if s := last(ev, EvSqueezeStarted); s == nil || s.detail().Side != "banker" {
		t.Fatalf("the Banker hand is squeezed even with the result known: %+v", ev)
	}
	if last(ev, EvRoundSettled) != nil {
		t.Fatal("the round settles only after the reveal")
	}
	ev = x.ok(&Reveal{Header: Header{Role: RoleDealer, Actor: "d"}}) // a dealer may reveal for the squeezer
	if last(ev, EvRoundSettled) == nil {
		t.Fatal("after the reveal the natural settles")
	}
}

func TestBetOnBaccaratHasNoSqueeze(t *testing.T) {
	if _, err := New(Config{Game: "bet-on-baccarat", Squeeze: true}); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Fatalf("Bet on Baccarat with a squeeze: %v", err)
	}
}
