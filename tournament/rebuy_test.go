package tournament

import (
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

// bustConfig: one table, 4 hands, stakes 100 to 10,000 so one hand can bust a player.
func bustConfig(rb *Rebuy) Config {
	c := baseConfig()
	c.Stakes = Stakes{Min: 100, Max: 10_000}
	c.Rounds = []Round{{Hands: 4}}
	c.Rebuy = rb
	return c
}

func eliminated(tr *Tournament, id string) bool { return tr.lookup(id).eliminated }

func TestElimination(t *testing.T) {
	t.Run("a player who cannot make the minimum is eliminated at the hand's end", func(t *testing.T) {
		tr := started(t, bustConfig(nil), "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		evs := mustApply(t, tr, hand(1, ch("ann", -9901)))
		if !hasEvent(evs, EvEliminated) || !eliminated(tr, "ann") || evs[1].Amount != 99 {
			t.Errorf("ann with 99 chips, minimum 100: %+v", evs)
		}
	})
	t.Run("a player left with exactly the minimum plays on", func(t *testing.T) {
		tr := started(t, bustConfig(nil), "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -9900)))
		if eliminated(tr, "ann") {
			t.Error("ann with 100 chips, minimum 100, was eliminated")
		}
	})
	t.Run("a busted player with a rebuy left stays in until the window closes", func(t *testing.T) {
		tr := started(t, bustConfig(&Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 2}}), "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -10_000)))
		if eliminated(tr, "ann") {
			t.Fatal("ann was eliminated with a rebuy open")
		}
		if s := tr.TableStandings(1)[2]; s.Player != "ann" || !s.Busted || !s.CanRebuy || s.Eliminated {
			t.Errorf("ann's standing %+v", s)
		}
		evs := mustApply(t, tr, hand(1))
		if !hasEvent(evs, EvEliminated) || !eliminated(tr, "ann") {
			t.Error("ann was not eliminated when the window closed at the end of hand 2")
		}
	})
	t.Run("a player busted by the window's last hand is eliminated", func(t *testing.T) {
		tr := started(t, bustConfig(&Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 1}}), "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -10_000)))
		if !eliminated(tr, "ann") {
			t.Error("ann busted on hand 1, the window's last, and was not eliminated")
		}
	})
	t.Run("when everyone at the final is eliminated the tournament finishes", func(t *testing.T) {
		tr := started(t, bustConfig(nil), "ann", "bob")
		mustApply(t, tr, startSession(1))
		evs := mustApply(t, tr, hand(1, ch("ann", -10_000), ch("bob", -9950)))
		if tr.Phase() != PhaseFinished || tr.Sessions()[0].Reason != "no_players" {
			t.Fatalf("events %v", types(evs))
		}
		if r := tr.Results(); r[0].Player != "bob" || r[0].Prize != 1250 || r[1].Prize != 750 {
			t.Errorf("results %+v", r)
		}
	})
	t.Run("a bust at the round's end is eliminated even with the window open", func(t *testing.T) {
		c := twoRounds(true, 2)
		c.Stakes = Stakes{Min: 100, Max: 10_000}
		c.Rebuy = &Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 2, Session: 1, Hand: 2}}
		tr := started(t, c, "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1))
		mustApply(t, tr, hand(1, ch("ann", -10_000)))
		if !eliminated(tr, "ann") || tr.Round() != 2 || tableOfPlayer(tr, "ann") != 0 {
			t.Errorf("ann eliminated %v, round %d", eliminated(tr, "ann"), tr.Round())
		}
	})
}

func TestDragonBusts(t *testing.T) {
	c := bustConfig(nil)
	c.Game, c.Dragon = "mbs-dragon", true
	t.Run("in a Dragon tournament a bust waits for the session's end", func(t *testing.T) {
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -9950)))
		if eliminated(tr, "ann") {
			t.Fatal("ann eliminated before her Dragon bets settled")
		}
		mustApply(t, tr, hand(1))
		mustApply(t, tr, hand(1))
		mustApply(t, tr, hand(1, ch("bob", -100)))
		if !eliminated(tr, "ann") {
			t.Error("ann still busted at the session's end and not eliminated")
		}
	})
	t.Run("a Dragon settlement on the last hand can save a busted player", func(t *testing.T) {
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -9950)))
		mustApply(t, tr, hand(1))
		mustApply(t, tr, hand(1))
		mustApply(t, tr, hand(1, ch("ann", 400), ch("bob", -10_000))) // bob's Dragon bets lose: above the hand maximum
		if eliminated(tr, "ann") || chips(tr, "ann") != 450 || !eliminated(tr, "bob") {
			t.Errorf("ann %d chips eliminated %v; bob eliminated %v", chips(tr, "ann"), eliminated(tr, "ann"), eliminated(tr, "bob"))
		}
	})
	t.Run("before the last hand a loss is capped at the maximum stake", func(t *testing.T) {
		c := c
		c.Stakes.Max = 5000
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		_, err := tr.Apply(&Command{Type: CmdReportHand, Table: 1, Changes: []ChipChange{ch("ann", -5001)}})
		wantCode(t, err, baccarat.CodeAboveMaximum)
	})
	t.Run("a Dragon rebuy is refused once the window has closed", func(t *testing.T) {
		c := c
		c.Rebuy = &Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 1}}
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1))
		mustApply(t, tr, hand(1, ch("ann", -9950)))
		_, err := tr.Apply(&Command{Type: CmdRebuy, Player: "ann", At: tr.cfg.Start})
		wantCode(t, err, CodeRebuyClosed)
	})
}

func TestRebuys(t *testing.T) {
	rb := &Rebuy{Max: 2, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 3}}
	t.Run("a rebuy adds its chips, counts, and pays its price into the pool", func(t *testing.T) {
		tr := started(t, bustConfig(rb), "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -9990)))
		evs := mustApply(t, tr, Command{Type: CmdRebuy, Player: "ann"})
		e := evs[0]
		if e.Type != EvRebought || e.Amount != 500 || e.Chips != 5000 || e.Count != 1 || e.Session != 1 || e.Hand != 1 {
			t.Errorf("rebought %+v", e)
		}
		if chips(tr, "ann") != 5010 || tr.Pool().Collected != 2500 {
			t.Errorf("ann %d chips, pool %+v", chips(tr, "ann"), tr.Pool())
		}
	})
	dragonNoRebuy := bustConfig(nil) // busted and not yet eliminated: busts wait for the session's end
	dragonNoRebuy.Game, dragonNoRebuy.Dragon = "mbs-dragon", true
	cases := []struct {
		name  string
		cfg   Config
		setup []Command
		code  baccarat.Code
	}{
		{"a player who can make the minimum cannot rebuy", bustConfig(rb), nil, CodeNotBusted},
		{"a tournament without rebuys refuses them", bustConfig(nil), []Command{hand(1, ch("ann", -9950))}, CodeEliminated},
		{"a tournament without rebuys says so", dragonNoRebuy, []Command{hand(1, ch("ann", -9950))}, CodeNoRebuysLeft},
		{"rebuys are limited per player", bustConfig(&Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 4}}),
			[]Command{hand(1, ch("ann", -10_000)), {Type: CmdRebuy, Player: "ann"}, hand(1, ch("ann", -4950))}, CodeEliminated},
		{"someone not registered cannot rebuy", bustConfig(rb), nil, CodeNotRegistered},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := started(t, tc.cfg, "ann", "bob")
			mustApply(t, tr, startSession(1))
			for _, c := range tc.setup {
				mustApply(t, tr, c)
			}
			who := "ann"
			if tc.code == CodeNotRegistered {
				who = "zed"
			}
			before := stateJSON(t, tr)
			_, err := tr.Apply(&Command{Type: CmdRebuy, Player: who, At: tr.cfg.Start})
			wantCode(t, err, tc.code)
			if stateJSON(t, tr) != before {
				t.Error("a refused rebuy changed the tournament")
			}
		})
	}
	t.Run("the last rebuy used, the next bust eliminates at once", func(t *testing.T) {
		tr := started(t, bustConfig(&Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 4}}), "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -10_000)))
		mustApply(t, tr, Command{Type: CmdRebuy, Player: "ann"})
		_, err := tr.Apply(&Command{Type: CmdRebuy, Player: "ann", At: tr.cfg.Start})
		wantCode(t, err, CodeNoRebuysLeft)
		evs := mustApply(t, tr, hand(1, ch("ann", -4950)))
		if !hasEvent(evs, EvEliminated) {
			t.Errorf("events %v", types(evs))
		}
	})
	t.Run("a bust at a session's end can rebuy before the next session when the window covers it", func(t *testing.T) {
		c := bustConfig(&Rebuy{Max: 1, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 2, Hand: 1}})
		c.Rounds = []Round{{Sessions: []Session{{Hands: 1}, {Hands: 1}}}}
		c.Break = Duration(time.Minute)
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -10_000)))
		if eliminated(tr, "ann") {
			t.Fatal("ann eliminated with a rebuy possible before session 2")
		}
		mustApply(t, tr, Command{Type: CmdRebuy, Player: "ann"})
		mustApply(t, tr, startSession(1))
		rec := tr.Sessions()[1]
		if rec.Seats[0].Player != tr.Tables()[0][0] || rec.seat("ann").Start != 5000 || rec.seat("ann").Rebuys != 0 {
			t.Errorf("session 2 seats %+v", rec.Seats)
		}
		if !tr.Sessions()[0].Accounting().Balanced {
			t.Error("session 1 does not balance")
		}
	})
}
