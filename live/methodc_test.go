package live

import (
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// TestMethodCScheduleWaitsForTheHolderThenDraws (Tiger 3.11): at an automatic Method C table
// each card waits draw_seconds from the last event for the player holding the shoe, then
// the schedule draws it; a card nobody holds the shoe for comes at the usual pace.
func TestMethodCScheduleWaitsForTheHolderThenDraws(t *testing.T) {
	tab, err := table.New(table.Config{Game: "mbs-tiger", Mode: table.ModeAuto, ShoeToPlayer: true, DrawSeconds: 7})
	if err != nil {
		t.Fatal(err)
	}
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(3))
	sys := table.Header{Role: table.RoleSystem, At: schedT0}
	mustDo(t, tab, &table.NewShoe{Header: sys, Order: s.Order(), Salt: "00"}, &table.Open{Header: sys})
	// Nobody wagers: nobody holds the shoe, and the card comes after the card pause.
	mustDo(t, tab, &table.Close{Header: sys})
	sched := DefaultSchedule
	if cmd, at := sched.next(tab.Status(), schedT0, schedT0); cmd != nil || !at.Equal(schedT0.Add(sched.Card)) {
		t.Fatalf("nobody holds the shoe: the card comes at the usual pace, got %v at %s", cmd, at)
	}
	for tab.Phase() == table.PhaseClosed || tab.Phase() == table.PhaseDealing {
		mustDo(t, tab, &table.Deal{Header: sys})
	}
	// ann wagers and takes the shoe: the card waits for her draw, 7 s.
	mustDo(t, tab, &table.Open{Header: sys},
		&table.Place{Player: "ann", Bet: "banker", Stake: 1000, Available: 100_000}, &table.Close{Header: sys})
	if tab.ShoeHolder() != "ann" {
		t.Fatalf("ann holds the shoe: %q", tab.ShoeHolder())
	}
	for _, c := range []struct {
		name string
		now  time.Time
		deal bool
	}{
		{"Tiger 3.11.1 within the window the card waits for the holder", schedT0.Add(6 * time.Second), false},
		{"past the window the table draws it", schedT0.Add(7 * time.Second), true},
	} {
		cmd, at := sched.next(tab.Status(), schedT0, c.now)
		if _, ok := cmd.(*table.Deal); ok != c.deal || (!c.deal && !at.Equal(schedT0.Add(7*time.Second))) {
			t.Errorf("%s: got %v at %s", c.name, cmd, at)
		}
	}
}
