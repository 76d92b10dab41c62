package tournament

import (
	"reflect"
	"testing"

	"github.com/tablehouse/baccarat"
)

func TestHandReports(t *testing.T) {
	t.Run("a voided hand does not count toward the session's hands", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", 100), ch("bob", -100)))
		mustApply(t, tr, Command{Type: CmdReportHand, Table: 1, Void: true})
		evs := mustApply(t, tr, hand(1, ch("ann", -50)))
		if hasEvent(evs, EvSessionEnded) {
			t.Fatal("the session ended after two counted hands of three")
		}
		evs = mustApply(t, tr, hand(1))
		if !hasEvent(evs, EvSessionEnded) || tr.Phase() != PhaseFinished {
			t.Fatalf("the third counted hand did not end the session: %v", types(evs))
		}
		rec := tr.Sessions()[0]
		if rec.Hands != 3 || rec.Voided != 1 || rec.Reason != "hands" {
			t.Errorf("record %+v", rec)
		}
	})
	t.Run("a report already applied is refused as a conflict, so it counts once", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob")
		mustApply(t, tr, startSession(1))
		c := hand(1, ch("ann", 100))
		c.Hand = 1
		mustApply(t, tr, c)
		_, err := tr.Apply(&c)
		wantCode(t, err, baccarat.CodeConflict)
		if chips(tr, "ann") != 10_100 {
			t.Errorf("ann has %d", chips(tr, "ann"))
		}
	})
	t.Run("the hand reported is numbered among the session's reports", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, Command{Type: CmdReportHand, Table: 1, Void: true})
		evs := mustApply(t, tr, hand(1))
		if evs[0].Hand != 2 || evs[0].Counted != 1 {
			t.Errorf("hand %d counted %d", evs[0].Hand, evs[0].Counted)
		}
	})
}

func TestReportRefusals(t *testing.T) {
	c := baseConfig()
	c.Stakes = Stakes{Min: 100, Max: 6000}
	cases := []struct {
		name string
		cmd  Command
		code baccarat.Code
	}{
		{"a player not at the table is refused", hand(1, ch("zed", 10)), CodeNotAtTable},
		{"a table that does not exist is not found", hand(2, ch("ann", 10)), baccarat.CodeNotFound},
		{"one change per player", hand(1, ch("ann", 10), ch("ann", 10)), baccarat.CodeBadRequest},
		{"a loss above the maximum stake is refused", hand(1, ch("ann", -6001)), baccarat.CodeAboveMaximum},
		{"a loss beyond the player's chips is refused", hand(1, ch("bob", -4001)), baccarat.CodeInsufficientFunds},
		{"a voided hand changes no chips", Command{Type: CmdReportHand, Table: 1, Void: true, Changes: []ChipChange{ch("ann", 5)}}, baccarat.CodeBadRequest},
		{"a hand out of order is a conflict", Command{Type: CmdReportHand, Table: 1, Hand: 5}, baccarat.CodeConflict},
		{"a win beyond the books is refused", hand(1, ch("ann", baccarat.MaxAmount)), baccarat.CodeBadRequest},
		{"an eliminated player has no more hands", hand(1, ch("cat", 10)), CodeEliminated},
		{"a session already playing cannot start again", startSession(1), baccarat.CodeBadState},
		{"only a Dragon tournament's session ends with chip changes", Command{Type: CmdEndSession, Table: 1, Changes: []ChipChange{ch("ann", 5)}}, baccarat.CodeBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := started(t, c, "ann", "bob", "cat")
			mustApply(t, tr, startSession(1))
			mustApply(t, tr, hand(1, ch("bob", -6000), ch("cat", -6000)))
			mustApply(t, tr, hand(1, ch("cat", -3950))) // cat: 50 chips, eliminated
			before := stateJSON(t, tr)
			_, err := tr.Apply(&tc.cmd)
			wantCode(t, err, tc.code)
			if stateJSON(t, tr) != before {
				t.Error("a refused report changed the tournament")
			}
		})
	}
	t.Run("a hand before the session starts is refused", func(t *testing.T) {
		tr := started(t, c, "ann", "bob")
		_, err := tr.Apply(&Command{Type: CmdReportHand, Table: 1})
		wantCode(t, err, baccarat.CodeBadState)
	})
	t.Run("nothing is reported before the start", func(t *testing.T) {
		tr := registered(t, c, "ann", "bob")
		_, err := tr.Apply(&Command{Type: CmdReportHand, Table: 1})
		wantCode(t, err, baccarat.CodeBadState)
	})
}

func TestLeaderboard(t *testing.T) {
	t.Run("players rank by chips after every hand, equal chips sharing a rank in registration order", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob", "cat", "dan")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("dan", 500), ch("cat", 200), ch("bob", 200)))
		got := tr.Leaderboard()
		want := []struct {
			player string
			chips  baccarat.Money
			rank   int
		}{{"dan", 10_500, 1}, {"bob", 10_200, 2}, {"cat", 10_200, 2}, {"ann", 10_000, 4}}
		for i, w := range want {
			if got[i].Player != w.player || got[i].Chips != w.chips || got[i].Rank != w.rank || got[i].Table != 1 {
				t.Errorf("place %d: %+v, want %+v", i+1, got[i], w)
			}
		}
	})
	t.Run("nobody advances from the final", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob")
		for _, s := range tr.Leaderboard() {
			if s.Advances {
				t.Errorf("%+v", s)
			}
		}
	})
	t.Run("no leaderboard before the start", func(t *testing.T) {
		if got := registered(t, baseConfig(), "ann").Leaderboard(); got != nil {
			t.Errorf("%v", got)
		}
	})
}

func TestSessionAccounting(t *testing.T) {
	t.Run("chips at the start and rebought equal chips at the end and the house's net", func(t *testing.T) {
		c := baseConfig()
		c.Stakes = Stakes{Min: 100, Max: 10_000}
		c.Rebuy = &Rebuy{Max: 2, Price: 500, Chips: 8000, Until: Point{Round: 1, Session: 1, Hand: 3}}
		tr := started(t, c, "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -10_000), ch("bob", 3000), ch("cat", -700)))
		mustApply(t, tr, Command{Type: CmdRebuy, Player: "ann"})
		mustApply(t, tr, hand(1, ch("ann", 1600), ch("bob", -5000)))
		mustApply(t, tr, hand(1, ch("cat", 2200)))
		a := tr.Sessions()[0].Accounting()
		want := Accounting{ChipsStart: 30_000, RebuyChips: 8000, ChipsEnd: 29_100, HouseNet: 8900, Balanced: true}
		if a != want {
			t.Errorf("accounting %+v, want %+v", a, want)
		}
	})
	t.Run("a session still in play is not balanced yet", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob")
		mustApply(t, tr, startSession(1))
		if tr.Sessions()[0].Accounting().Balanced {
			t.Error("balanced before its end")
		}
	})
	t.Run("an end count that differs from the hands shows as unbalanced", func(t *testing.T) {
		rec := SessionRecord{Ended: true, Seats: []SessionSeat{{Player: "ann", Start: 100, Net: 50, End: 140}}}
		if rec.Accounting().Balanced {
			t.Error("a planted fault of 10 chips passed")
		}
	})
}

func TestTimedSessions(t *testing.T) {
	c := baseConfig()
	c.Game, c.Dragon = "mbs-dragon", true
	c.Rounds = []Round{{Sessions: []Session{{Duration: Duration(20 * 60e9)}}}}
	t.Run("a Dragon tournament's timed session ends with its Dragon settlement", func(t *testing.T) {
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -100)))
		evs := mustApply(t, tr, Command{Type: CmdEndSession, Table: 1, Changes: []ChipChange{ch("ann", 400), ch("bob", -300)}})
		if got := types(evs)[:3]; !reflect.DeepEqual(got, []EventType{EvDragonSettled, EvSessionEnded, EvTableFinished}) {
			t.Fatalf("events %v", types(evs))
		}
		rec := tr.Sessions()[0]
		if rec.Reason != "time" || !rec.Accounting().Balanced || chips(tr, "ann") != 10_300 {
			t.Errorf("record %+v, ann %d", rec, chips(tr, "ann"))
		}
	})
}
