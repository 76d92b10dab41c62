package table

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

// methodC is a Tiger table playing Method C from an RNG shoe whose first cards are coups,
// the rest of its eight decks after them in any order.
func newMethodC(t *testing.T, cfg Config, coups string, players ...string) *tb {
	t.Helper()
	cfg.Game, cfg.ShoeToPlayer = "mbs-tiger", true
	x := newTB(t, cfg, players...)
	x.ok(&EndShoe{})
	x.ok(&NewShoe{Order: orderStarting(coups), Salt: "00"})
	return x
}

// orderStarting is an eight-deck shoe order that deals the cards given first.
func orderStarting(first string) []baccarat.Card {
	counts := baccarat.NewCounts(8)
	var order []baccarat.Card
	for _, f := range strings.Fields(first) {
		k := baccarat.MustParseCard(f)
		_ = counts.Remove(k)
		order = append(order, k)
	}
	for k := baccarat.Card(0); k < baccarat.NumCards; k++ {
		for counts.Has(k) {
			_ = counts.Remove(k)
			order = append(order, k)
		}
	}
	return order
}

func drawBy(p string) *Draw { return &Draw{Header: Header{Actor: p, Role: RolePlayer}} }

var pitHands = Header{Actor: "pit-1", Role: RolePit}

// draws has the holder draw until the round ends, checking that each card is theirs.
func (x *tb) draws(holder string) []Event {
	x.t.Helper()
	var out []Event
	for x.Phase() == PhaseClosed || x.Phase() == PhaseDealing {
		ev := x.ok(drawBy(holder))
		if c := last(ev, EvCardDealt); c == nil || c.Actor != holder || c.Role != RolePlayer || c.Card.Hidden {
			x.t.Fatalf("Tiger 3.11.1 %s draws the card, face up: %+v", holder, c)
		}
		out = append(out, ev...)
	}
	return out
}

func passed(ev []Event) *Event { return last(ev, EvShoePassed) }

// TestMethodCShoeGoesToHighestStake (Tiger 3.11, 3.9.2–3.9.4): at "No more bets" the shoe
// nobody holds passes to the highest stake this round, the first placed among equals.
func TestMethodCShoeGoesToHighestStake(t *testing.T) {
	type wager struct {
		who, bet string
		stake    baccarat.Money
	}
	for _, c := range []struct {
		name   string
		wagers []wager
		want   string
	}{
		{"Tiger 3.9.2 the highest stake holds the shoe", []wager{{"ann", "banker", 1000}, {"bob", "player", 3000}}, "bob"},
		{"Tiger 3.9.4 equal stakes: the one who placed first", []wager{{"ann", "banker", 2000}, {"bob", "player", 2000}}, "ann"},
		{"a player's stakes this round add up", []wager{{"ann", "banker", 2000}, {"bob", "player", 1500}, {"bob", "tie", 1000}}, "bob"},
		{"nobody wagers: nobody holds it, the table draws", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := newMethodC(t, Config{}, "", "ann", "bob")
			x.ok(&Open{})
			for _, w := range c.wagers {
				x.place(w.who, w.bet, w.stake)
			}
			ev := x.ok(&Close{})
			p := passed(ev)
			switch {
			case c.want == "" && p != nil:
				t.Fatalf("nobody wagered, yet the shoe passed: %+v", p)
			case c.want != "" && (p == nil || p.Player() != c.want || p.Reason != PassHighestStake):
				t.Fatalf("the shoe passes to %s: %+v", c.want, p)
			}
			if v := x.State().MethodC; v == nil || v.Holder != c.want || v.Due != (c.want != "") || v.DrawSeconds != DefaultDrawSeconds {
				t.Fatalf("the state shows %q holding the shoe: %+v", c.want, v)
			}
		})
	}
	// The pit hands it to another player instead (Tiger 3.9.4.1), who then draws.
	x := newMethodC(t, Config{}, "", "ann", "bob")
	x.ok(&Open{})
	x.place("ann", "banker", 5000)
	x.place("bob", "player", 100)
	x.ok(&Close{})
	if p := passed(x.ok(&HandShoe{Header: pitHands, Player: "bob"})); p == nil || p.Player() != "bob" || p.Reason != PassHanded || p.Actor != "pit-1" {
		t.Fatalf("the pit hands the shoe to bob: %+v", p)
	}
	x.refused(drawBy("ann"), baccarat.CodeNotAuthorized)
	x.draws("bob")
}

// TestMethodCHolderKeepsShoeUntilTheirWagerLoses (Tiger 3.11.8.2): the holder keeps the shoe
// round after round, whoever stakes more, until a round their wagers lose on balance; then
// the next "No more bets" passes it by that round's stakes.
func TestMethodCHolderKeepsShoeUntilTheirWagerLoses(t *testing.T) {
	const (
		bankerSix = "2h 3d 3c 3s 9d" // P 2h 3c 9d (4), B 3d 3s (6): the Banker wins
		player9   = "9h Kc Kd 2s"    // P 9h Kd natural 9, B Kc 2s (2): the Player wins
	)
	x := newMethodC(t, Config{}, bankerSix+" "+player9+" "+bankerSix, "ann", "bob")
	round := func(ann, bob baccarat.Money, annTie bool) []Event {
		x.ok(&Open{})
		x.place("ann", "banker", ann)
		if annTie {
			x.place("ann", "tie", 100)
		}
		x.place("bob", "player", bob)
		return x.ok(&Close{})
	}
	if p := passed(round(2000, 1000, true)); p == nil || p.Player() != "ann" {
		t.Fatalf("ann, the highest stake, takes the shoe: %+v", p)
	}
	ev := x.draws("ann")
	if p := passed(ev); p != nil {
		t.Fatalf("Tiger 3.11.8.2 ann's Banker won more than her Tie lost: she keeps the shoe: %+v", p)
	}
	if p := passed(round(2000, 3000, false)); p != nil {
		t.Fatalf("ann holds the shoe into the next round, though bob stakes more: %+v", p)
	}
	ev = x.draws("ann")
	if p := passed(ev); p == nil || p.Player() != "" || p.Reason != PassWagerLost || ev[len(ev)-1].Type != EvShoePassed {
		t.Fatalf("Tiger 3.11.8.2 ann's Banker lost: the shoe leaves her after the result: %+v", p)
	}
	if x.ShoeHolder() != "" {
		t.Fatalf("between rounds nobody holds it: %q", x.ShoeHolder())
	}
	if p := passed(round(2000, 3000, false)); p == nil || p.Player() != "bob" || p.Reason != PassHighestStake {
		t.Fatalf("the next No more bets passes it to bob, now the highest: %+v", p)
	}
	x.draws("bob")
	assertReplays(t, x)
}

// TestMethodCHolderMayGiveUpShoe (Tiger 3.11.8.1): the holder gives the shoe up; after No
// more bets it passes at once to the next highest stake, before it to the highest at the
// next No more bets, passing over the player who gave it up (Tiger 3.9.3).
func TestMethodCHolderMayGiveUpShoe(t *testing.T) {
	for _, c := range []struct {
		name     string
		afterBet bool
		want     string
	}{
		{"Tiger 3.11.8.1 given up while a card is due: the next highest stake draws", true, "bob"},
		{"Tiger 3.11.8.1 given up between rounds: the next No more bets passes the giver over", false, "bob"},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := newMethodC(t, Config{}, "", "ann", "bob")
			x.ok(&Open{})
			x.place("ann", "banker", 2000)
			x.place("bob", "player", 1000)
			x.ok(&Close{})
			if !c.afterBet {
				x.draws("ann")
				if x.ShoeHolder() != "ann" {
					x.ok(&HandShoe{Header: pitHands, Player: "ann"})
				}
				x.ok(&Open{})
				x.place("ann", "banker", 2000)
				x.place("bob", "player", 1000)
			}
			ev := x.ok(&GiveUpShoe{Header: Header{Actor: "ann", Role: RolePlayer}})
			p := passed(ev)
			if p == nil || p.Reason != PassGivenUp || p.Actor != "ann" {
				t.Fatalf("ann gives the shoe up: %+v", p)
			}
			if !c.afterBet {
				if p.Player() != "" {
					t.Fatalf("during betting nobody takes it yet: %+v", p)
				}
				p = passed(x.ok(&Close{}))
			}
			if p == nil || p.Player() != c.want {
				t.Fatalf("the shoe passes to %s: %+v", c.want, p)
			}
			x.refused(drawBy("ann"), baccarat.CodeNotAuthorized)
			x.draws(c.want)
			assertReplays(t, x)
		})
	}
}

// TestMethodCTableDrawsWhenTheHolderWaits: while a card waits for the holder the state says
// so, and until when (the last event's time and the draw window); the host's own Deal then
// draws it, as at any automatic table.
func TestMethodCTableDrawsWhenTheHolderWaits(t *testing.T) {
	x := newMethodC(t, Config{DrawSeconds: 5}, "", "ann")
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	x.ok(&Open{Header: Header{At: at}})
	x.place("ann", "banker", 1000)
	x.ok(&Close{Header: Header{At: at.Add(time.Second)}})
	v := x.Status().MethodC
	if v == nil || v.Holder != "ann" || !v.Due || !v.Until.Equal(at.Add(6*time.Second)) {
		t.Fatalf("the first card waits for ann until 5 s after No more bets: %+v", v)
	}
	ev := x.ok(&Deal{Header: Header{At: at.Add(6 * time.Second)}})
	if c := last(ev, EvCardDealt); c == nil || c.Actor == "ann" {
		t.Fatalf("the table draws the card itself: %+v", c)
	}
	if v := x.Status().MethodC; !v.Due || !v.Until.Equal(at.Add(11*time.Second)) || x.ShoeHolder() != "ann" {
		t.Fatalf("the next card waits for ann again, and she keeps the shoe: %+v", v)
	}
	x.ok(drawBy("ann"))
	assertReplays(t, x)
}

// TestMethodCDrawOutOfTurnRefused: only the holder draws, only while a card is due; only the
// holder gives the shoe up, only staff hand it on; each refusal changes nothing.
func TestMethodCDrawOutOfTurnRefused(t *testing.T) {
	x := newMethodC(t, Config{}, "", "ann", "bob")
	x.refused(&HandShoe{Header: pitHands, Player: "ann"}, baccarat.CodeBadState) // Tiger 3.11.2: no wager
	x.ok(&Open{})
	x.refused(drawBy("ann"), baccarat.CodeNotAuthorized) // nobody holds it yet
	x.place("ann", "banker", 2000)
	x.place("bob", "player", 1000)
	x.ok(&HandShoe{Header: pitHands, Player: "ann"}) // during betting, to a player with a wager
	for _, c := range []struct {
		name string
		cmd  Command
		code baccarat.Code
	}{
		{"a draw while betting is open: no card is due", drawBy("ann"), baccarat.CodeExtraCard},
		{"Tiger 3.11.1 a player not holding the shoe draws", drawBy("bob"), baccarat.CodeNotAuthorized},
		{"a dealer draws for the holder", &Draw{Header: Header{Actor: "d", Role: RoleDealer}}, baccarat.CodeNotAuthorized},
		{"Tiger 3.11.8.1 only the holder gives it up", &GiveUpShoe{Header: Header{Actor: "bob", Role: RolePlayer}}, baccarat.CodeNotAuthorized},
		{"a player hands the shoe on", &HandShoe{Header: Header{Actor: "ann", Role: RolePlayer}, Player: "bob"}, baccarat.CodeNotAuthorized},
		{"the pit hands it to its holder", &HandShoe{Header: pitHands, Player: "ann"}, baccarat.CodeBadState},
		{"the pit hands it to nobody", &HandShoe{Header: pitHands}, baccarat.CodeBadRequest},
		{"Tiger 3.11.2 the pit hands it to a player without a wager", &HandShoe{Header: pitHands, Player: "cat"}, baccarat.CodeBadState},
	} {
		t.Run(c.name, func(t *testing.T) { x.t = t; x.refused(c.cmd, c.code) })
	}
	x.t = t
	x.ok(&Close{})
	x.draws("ann")
	x.refused(drawBy("ann"), baccarat.CodeExtraCard) // the coup is complete
	// A table without Method C has no shoe to hold.
	y := newTB(t, Config{Game: "mbs-tiger"}, "ann")
	y.refused(drawBy("ann"), baccarat.CodeBadRequest)
	y.refused(&HandShoe{Header: pitHands, Player: "ann"}, baccarat.CodeBadRequest)
	// Tiger 3.11.2 at the Assistant Casino Manager's discretion: a player without a wager.
	z := newMethodC(t, Config{ShoeWithoutWager: true}, "", "ann", "bob")
	z.ok(&HandShoe{Header: pitHands, Player: "cat"})
	z.ok(&Open{})
	z.place("ann", "banker", 2000)
	if p := passed(z.ok(&Close{})); p != nil || z.ShoeHolder() != "cat" {
		t.Fatalf("Tiger 3.11.2 cat keeps the shoe without a wager: %+v", p)
	}
	z.draws("cat")
}

// TestMethodCOnlyAtTigerTables (Tiger 3.8.2, 3.11): Method C is Tiger's, never with the
// squeeze, on an automatic table, with a draw window of 1 to 60 seconds.
func TestMethodCOnlyAtTigerTables(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		words string // "" for a table that plays it
	}{
		{"Tiger 3.11 a Tiger table plays Method C", Config{Game: "mbs-tiger", Mode: ModeAuto, ShoeToPlayer: true}, ""},
		{"Method C is Tiger's: not at Punto Banco", Config{Game: "punto-banco", Mode: ModeAuto, ShoeToPlayer: true}, "Tiger 3.11"},
		{"Method C is Tiger's: not at the MBS tournament", Config{Game: "mbs-tournament", Mode: ModeAuto, ShoeToPlayer: true}, "Tiger 3.11"},
		{"Tiger 3.8 Method C or the squeeze, not both", Config{Game: "mbs-tiger", Mode: ModeAuto, ShoeToPlayer: true, Squeeze: true}, "not both"},
		{"the server's shoe: not at a dealer's table", Config{Game: "mbs-tiger", Mode: ModeDealer, ShoeToPlayer: true}, "automatic"},
		{"a draw window over a minute", Config{Game: "mbs-tiger", Mode: ModeAuto, ShoeToPlayer: true, DrawSeconds: 61}, "draw_seconds is 61: give 1 to 60"},
		{"a negative draw window", Config{Game: "mbs-tiger", Mode: ModeAuto, ShoeToPlayer: true, DrawSeconds: -1}, "draw_seconds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.Check()
			if c.words == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				tab, _ := New(c.cfg)
				if tab.Config().DrawSeconds != DefaultDrawSeconds {
					t.Fatalf("draw_seconds defaults to %d: %d", DefaultDrawSeconds, tab.Config().DrawSeconds)
				}
				return
			}
			if baccarat.ErrorCode(err) != baccarat.CodeBadRequest || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("got %v, want a bad_request saying %q", err, c.words)
			}
		})
	}
}

// assertReplays checks that the table's history rebuilds it (Replay), and that a snapshot
// between rounds and the events after it do too (ReplayFrom), the holder included.
func assertReplays(t *testing.T, x *tb) {
	t.Helper()
	re, err := Replay(x.Config(), x.history)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(re.State(), x.State()) || re.ShoeHolder() != x.ShoeHolder() || re.mc.declined != x.mc.declined {
		t.Fatalf("the replay differs:\n%s\n%s", js(re.State()), js(x.State()))
	}
	fresh, _ := New(x.Config())
	for i := range x.history {
		if err := fresh.Restore(&x.history[i]); err != nil {
			t.Fatal(err)
		}
		if snap, ok := fresh.Snapshot(); ok && fresh.ShoeHolder() != "" {
			from, err := ReplayFrom(snap, x.history[i+1:])
			if err != nil {
				t.Fatal(err)
			}
			if !sameJSON(from.State(), x.State()) || from.mc.holder != x.mc.holder || from.mc.declined != x.mc.declined {
				t.Fatalf("restored from the snapshot after event %d:\n%s\n%s", i+1, js(from.State()), js(x.State()))
			}
		}
	}
}
