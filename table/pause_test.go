package table

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

// The pit's pause, reopening and closing of a table (pause.go), each rule at its edge.

var (
	pit    = Header{Role: RolePit, Actor: "pit-1", Reason: "staff break"}
	dealer = Header{Role: RoleDealer, Actor: "dealer-1", Reason: "staff break"}
)

// settle plays a round of one banker wager to its result: P 2h 3c 9d, B 3d 3s.
func (x *tb) settle() {
	x.t.Helper()
	x.ok(&Open{})
	x.place("ann", "banker", 1000)
	x.ok(&Close{})
	x.cards("2h 3d 3c 3s 9d")
}

// refusedSaying is refused, with words the message must hold.
func (x *tb) refusedSaying(c Command, code baccarat.Code, words string) {
	x.t.Helper()
	x.refused(c, code)
	if _, err := x.Apply(c); !strings.Contains(err.Error(), words) {
		x.t.Fatalf("%s: %q does not say %q", c.Kind(), err, words)
	}
}

// restored is the table a snapshot of x, read back from its JSON, restores.
func restored(x *tb) *Table {
	x.t.Helper()
	snap, ok := x.Snapshot()
	if !ok {
		x.t.Fatal("no snapshot between rounds")
	}
	b, err := json.Marshal(snap)
	if err != nil {
		x.t.Fatal(err)
	}
	var back Snapshot
	if err := json.Unmarshal(b, &back); err != nil {
		x.t.Fatal(err)
	}
	re, err := FromSnapshot(&back)
	if err != nil {
		x.t.Fatal(err)
	}
	return re
}

func TestPauseAndCloseRules(t *testing.T) {
	for _, c := range []struct {
		name string
		game string
		run  func(x *tb)
	}{
		{"a pause mid-round lets the round deal and settle, then no round opens", "mbs-tiger", func(x *tb) {
			x.ok(&Open{})
			x.place("ann", "banker", 1000)
			x.ok(&Pause{Header: pit})
			x.ok(&Close{})
			if s := last(x.cards("2h 3d 3c 3s 9d"), EvRoundSettled); s == nil || settlementOf(s, "banker").Net != 500 { // Tiger 4.1: 1:2 on a six
				x.t.Fatalf("the round under way did not settle: %+v", s)
			}
			x.refusedSaying(&Open{}, baccarat.CodeBadState, "the table is paused by the pit: no new round until it reopens")
		}},
		{"a pause between rounds refuses open and every wager", "mbs-tiger", func(x *tb) {
			x.settle()
			ev := x.ok(&Pause{Header: pit})
			if len(ev) != 1 || ev[0].Type != EvTablePaused || ev[0].Actor != "pit-1" || ev[0].Reason != "staff break" {
				x.t.Fatalf("the pause's event: %+v", ev)
			}
			if st := x.State(); !st.Paused || st.Closed || !x.Status().Stopped() {
				x.t.Fatalf("a paused table's state: paused %v closed %v", st.Paused, st.Closed)
			}
			x.refused(&Open{}, baccarat.CodeBadState)
			x.refused(&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBettingClosed)
		}},
		{"a reopened table opens its next round at once", "mbs-tiger", func(x *tb) {
			x.settle()
			x.ok(&Pause{Header: pit})
			x.ok(&Reopen{Header: Header{Role: RolePit, Actor: "pit-1"}})
			if st := x.Status(); st.Paused || st.Stopped() || !st.Reopened {
				x.t.Fatalf("a reopened table's status: %+v", st)
			}
			x.ok(&Open{})
			if x.Status().Reopened {
				x.t.Fatal("the next round opened, yet the table still says it was just reopened")
			}
		}},
		{"a table reopened before its round ended opens the next one after the result as usual", "mbs-tiger", func(x *tb) {
			x.ok(&Open{})
			x.ok(&Pause{Header: pit})
			x.ok(&Reopen{Header: pit})
			x.ok(&Close{})
			x.cards("2h 3d 3c 3s 9d")
			if x.Status().Reopened {
				x.t.Fatal("reopened mid-round, the table would skip the result's time")
			}
		}},
		{"a pause needs a reason", "mbs-tiger", func(x *tb) {
			x.refused(&Pause{Header: Header{Role: RolePit, Actor: "pit-1"}}, baccarat.CodeBadRequest)
		}},
		{"a paused table is not paused again, an open one not reopened", "mbs-tiger", func(x *tb) {
			x.refusedSaying(&Reopen{Header: pit}, baccarat.CodeBadState, "not paused")
			x.ok(&Pause{Header: pit})
			x.refusedSaying(&Pause{Header: pit}, baccarat.CodeBadState, "already paused")
		}},
		{"only the pit pauses, reopens and closes a table: not its dealer, not a player", "mbs-tiger", func(x *tb) {
			for _, h := range []Header{dealer, {Role: RolePlayer, Actor: "ann", Reason: "x"}} {
				x.refused(&Pause{Header: h}, baccarat.CodeNotAuthorized)
			}
			x.ok(&Pause{Header: pit})
			for _, h := range []Header{dealer, {Role: RolePlayer, Actor: "ann", Reason: "x"}} {
				x.refused(&Reopen{Header: h}, baccarat.CodeNotAuthorized)
				x.refused(&CloseTable{Header: h}, baccarat.CodeNotAuthorized)
			}
		}},
		{"a table closes only once paused", "mbs-tiger", func(x *tb) {
			x.refusedSaying(&CloseTable{Header: pit}, baccarat.CodeBadState, "pause it first")
		}},
		{"a table does not close while its round is under way", "mbs-tiger", func(x *tb) {
			x.ok(&Open{})
			x.ok(&Pause{Header: pit})
			x.refusedSaying(&CloseTable{Header: pit}, baccarat.CodeBadState, "round 1 is still betting")
		}},
		{"a close needs a reason", "mbs-tiger", func(x *tb) {
			x.ok(&Pause{Header: pit})
			x.refused(&CloseTable{Header: Header{Role: RolePit, Actor: "pit-1"}}, baccarat.CodeBadRequest)
		}},
		{"RWS 3.9 a table does not close while a push rides into the next round", "rws-no-commission", func(x *tb) {
			x.ok(&Open{})
			x.place("ann", "banker", 1000)
			x.ok(&Close{})
			x.cards("7h Kd 2c 9s") // a Tie at 9: the banker wager rides
			x.ok(&Pause{Header: pit})
			x.refusedSaying(&CloseTable{Header: pit}, baccarat.CodeBadState, "ride into the next round (RWS 3.9; 1 in play)")
			x.ok(&Reopen{Header: pit})
			x.ok(&Open{})
			x.ok(&Withdraw{Player: "ann"})
			x.ok(&Close{})
			x.cards("2h 3d 3c 3s 9d")
			x.ok(&Pause{Header: pit})
			x.ok(&CloseTable{Header: pit})
		}},
		{"Dragon 3.12 a table does not close while a session holds Dragon bets", "mbs-dragon", func(x *tb) {
			x.ok(&Open{})
			x.place("ann", "banker_dragon", 1000)
			x.ok(&Close{})
			x.cards("2h 3d 3c 3s 9d")
			x.ok(&Pause{Header: pit})
			x.refusedSaying(&CloseTable{Header: pit}, baccarat.CodeBadState, "Dragon session 1 has Dragon bets in play (1)")
			x.ok(&EndSession{Header: Header{Role: RolePit, Actor: "pit-1", Reason: "technical_failure"}})
			x.ok(&CloseTable{Header: pit})
			if avail, held := x.Balance("ann"); held != 0 || avail != 1_000_000 {
				x.t.Fatalf("the voided session's stake is not back: %d available, %d held", avail, held)
			}
		}},
		{"a paused table with nothing in play closes, its shoe ended first", "mbs-tiger", func(x *tb) {
			x.settle()
			x.ok(&Pause{Header: pit})
			ev := x.ok(&CloseTable{Header: Header{Role: RolePit, Actor: "pit-1", Reason: "end of the night"}})
			if len(ev) != 2 || ev[0].Type != EvShoeEnded || ev[1].Type != EvTableClosed || ev[1].Reason != "end of the night" {
				x.t.Fatalf("the close's events: %+v", ev)
			}
			if st := x.State(); !st.Closed || st.Shoe.Active {
				x.t.Fatalf("a closed table's state: closed %v, shoe active %v", st.Closed, st.Shoe.Active)
			}
		}},
		{"a closed table refuses every command", "mbs-tiger", func(x *tb) {
			x.ok(&Pause{Header: pit})
			x.ok(&CloseTable{Header: pit})
			for k := CmdNone + 1; k < commandCount; k++ {
				for _, role := range []Role{RoleNone, RolePit, RoleSystem} {
					c := NewCommand(k)
					c.Head().Role, c.Head().Reason = role, "dealer_error"
					x.refusedSaying(c, baccarat.CodeBadState, "the table is closed")
				}
			}
		}},
		{"Replay and a snapshot restore a pause", "mbs-tiger", func(x *tb) {
			x.settle()
			x.ok(&Pause{Header: pit})
			for _, re := range []*Table{replayed(x), restored(x)} {
				if !reflect.DeepEqual(re.Status(), x.Status()) || !re.State().Paused {
					x.t.Fatalf("restored %+v, the table %+v", re.Status(), x.Status())
				}
				if _, err := re.Apply(&Open{}); baccarat.ErrorCode(err) != baccarat.CodeBadState {
					x.t.Fatalf("the restored table opened a round while paused: %v", err)
				}
			}
			x.ok(&Reopen{Header: pit})
			for _, re := range []*Table{replayed(x), restored(x)} {
				if !re.Status().Reopened {
					x.t.Fatal("the restored table forgot it was just reopened")
				}
			}
		}},
		{"Replay and a snapshot restore a close", "mbs-tiger", func(x *tb) {
			x.ok(&Pause{Header: pit})
			x.ok(&CloseTable{Header: pit})
			for _, re := range []*Table{replayed(x), restored(x)} {
				if !sameJSON(re.State(), x.State()) {
					x.t.Fatalf("restored %s, the table %s", js(re.State()), js(x.State()))
				}
				if _, err := re.Apply(&Reopen{Header: pit}); baccarat.ErrorCode(err) != baccarat.CodeBadState {
					x.t.Fatalf("the restored table took a command after its close: %v", err)
				}
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(newTB(t, Config{Game: c.game, SessionHands: 3}, "ann")) })
	}
}

// TestPauseAndCloseAtAnAutomaticTable: the pit pauses, reopens and closes an automatic
// table as it does a dealer's; the server (the system role) may too.
func TestPauseAndCloseAtAnAutomaticTable(t *testing.T) {
	for _, h := range []Header{pit, {Role: RoleSystem, Actor: "auto", Reason: "maintenance"}} {
		tab, err := New(Config{Game: "mbs-tournament", Mode: ModeAuto})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []Command{&Pause{Header: h}, &Reopen{Header: h}, &Pause{Header: h}, &CloseTable{Header: h}} {
			mustApply(t, tab, c)
		}
		if !tab.Closed() {
			t.Fatalf("%s: the automatic table is not closed", h.Role)
		}
	}
	tab, _ := New(Config{Game: "mbs-tournament", Mode: ModeAuto})
	if _, err := tab.Apply(&Pause{Header: dealer}); baccarat.ErrorCode(err) != baccarat.CodeNotAuthorized {
		t.Fatalf("a dealer paused an automatic table: %v", err)
	}
}

func replayed(x *tb) *Table {
	x.t.Helper()
	re, err := Replay(x.Config(), x.history)
	if err != nil {
		x.t.Fatal(err)
	}
	return re
}
