package live

import (
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// The schedule of an automatic table the pit pauses, reopens and closes, with fixed times:
// next is a pure function of the table's status, its last event's time and now.

var (
	schedPit = table.Header{Role: table.RolePit, Actor: "pit", Reason: "staff break"}
	schedT0  = time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)
)

// autoTable is an automatic table with a seeded shoe, driven by commands the test gives.
func autoTable(t *testing.T) *table.Table {
	t.Helper()
	tab, err := table.New(table.Config{Game: "mbs-tournament", Mode: table.ModeAuto})
	if err != nil {
		t.Fatal(err)
	}
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(11))
	mustDo(t, tab, &table.NewShoe{Header: table.Header{Role: table.RoleSystem}, Order: s.Order(), Salt: "00"})
	return tab
}

func mustDo(t *testing.T, tab *table.Table, cmds ...table.Command) {
	t.Helper()
	for _, c := range cmds {
		if _, err := tab.Apply(c); err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
	}
}

// playRound runs a round as the schedule would, to its result.
func playRound(t *testing.T, tab *table.Table) {
	t.Helper()
	sys := table.Header{Role: table.RoleSystem}
	mustDo(t, tab, &table.Open{Header: sys}, &table.Close{Header: sys})
	for tab.Phase() == table.PhaseClosed || tab.Phase() == table.PhaseDealing {
		mustDo(t, tab, &table.Deal{Header: sys})
	}
}

func TestScheduleOfAPausedTable(t *testing.T) {
	s := DefaultSchedule
	now := schedT0.Add(time.Hour) // long after the last event
	for _, c := range []struct {
		name string
		set  func(t *testing.T, tab *table.Table)
		want string // the command next sends now, "" for none
		at   time.Time
	}{
		{"a running table opens its next round once the result has been shown", func(t *testing.T, tab *table.Table) {
			playRound(t, tab)
		}, "", schedT0.Add(s.Result)},
		{"a table paused mid-round plays the round under way: betting closes when due", func(t *testing.T, tab *table.Table) {
			mustDo(t, tab, &table.Open{Header: table.Header{Role: table.RoleSystem}}, &table.Pause{Header: schedPit})
		}, "", schedT0.Add(s.Betting)},
		{"a table paused mid-round deals the round under way", func(t *testing.T, tab *table.Table) {
			sys := table.Header{Role: table.RoleSystem}
			mustDo(t, tab, &table.Open{Header: sys}, &table.Pause{Header: schedPit}, &table.Close{Header: sys})
		}, "", schedT0.Add(s.Card)},
		{"a table paused between rounds sends nothing and waits for nothing", func(t *testing.T, tab *table.Table) {
			playRound(t, tab)
			mustDo(t, tab, &table.Pause{Header: schedPit})
		}, "", time.Time{}},
		{"a paused table starts no shoe", func(t *testing.T, tab *table.Table) {
			mustDo(t, tab, &table.Pause{Header: schedPit}, &table.EndShoe{Header: table.Header{Role: table.RoleSystem}})
		}, "", time.Time{}},
		{"a closed table sends nothing", func(t *testing.T, tab *table.Table) {
			mustDo(t, tab, &table.Pause{Header: schedPit}, &table.CloseTable{Header: schedPit})
		}, "", time.Time{}},
		{"a reopened table opens its next round at once", func(t *testing.T, tab *table.Table) {
			playRound(t, tab)
			mustDo(t, tab, &table.Pause{Header: schedPit}, &table.Reopen{Header: schedPit})
		}, "open", time.Time{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tab := autoTable(t)
			c.set(t, tab)
			// The last event was a moment ago: whatever waits for the result waits still.
			cmd, at := s.next(tab.Status(), schedT0, schedT0)
			got := ""
			if cmd != nil {
				got = cmd.Kind().String()
			}
			if got != c.want || !at.Equal(c.at) {
				t.Fatalf("next: %q at %v, want %q at %v", got, at, c.want, c.at)
			}
			if c.want == "" && c.at.IsZero() {
				if cmd, at := s.next(tab.Status(), schedT0, now); cmd != nil || !at.IsZero() {
					t.Fatalf("an hour on, next: %v at %v", cmd, at)
				}
			}
		})
	}
}

// TestAPausedTableIsNotStuck: a paused automatic table does not move, on purpose: Progress
// says it is stopped and judges it never (verify's rule passes it over too: its own test).
func TestAPausedTableIsNotStuck(t *testing.T) {
	tab := autoTable(t)
	playRound(t, tab)
	mustDo(t, tab, &table.Pause{Header: schedPit})
	var m runnerMoney
	m.note(tab)
	if !m.stopped.Load() {
		t.Fatal("the runner does not note the pause")
	}
}
