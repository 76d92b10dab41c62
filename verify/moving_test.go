package verify

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
)

var movingT0 = time.Date(2026, 3, 1, 20, 0, 0, 0, time.UTC)

// The host's stalled-table gauge judges by Schedule.StuckAfter (live's own test holds it
// there); verify judges by checkMoving. The two must draw the line at the same instant: a
// hosted table idle for exactly StuckAfter is not stuck for verify either, and one a
// nanosecond longer is.
func TestStuckAfterIsVerifysRule(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "moving.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, spec := range []live.Spec{
		{ID: "auto-default", Mode: live.ModeAuto},
		{ID: "auto-slow-betting", Mode: live.ModeAuto, Schedule: live.Schedule{Betting: 2 * time.Minute}},
		{ID: "auto-long-window", Mode: live.ModeAuto, Schedule: live.Schedule{Betting: time.Second, Window: 90 * time.Second}},
		{ID: "auto-long-result", Mode: live.ModeAuto, Schedule: live.Schedule{Result: time.Hour}},
	} {
		t.Run(spec.ID, func(t *testing.T) {
			if ok, err := db.Acquire(ctx, spec.ID, "us", 24*time.Hour, movingT0); !ok || err != nil {
				t.Fatalf("lease: %v %v", ok, err)
			}
			d := spec.Schedule.StuckAfter()
			for _, c := range []struct {
				idle  time.Duration
				stuck bool
			}{{d, false}, {d + time.Nanosecond, true}} {
				var rep Report
				if err := checkMoving(ctx, db, spec, table.Status{}, movingT0, movingT0.Add(c.idle), &rep); err != nil {
					t.Fatal(err)
				}
				if got := len(rep.Problems) == 1; got != c.stuck {
					t.Errorf("idle %s (StuckAfter %s): verify says stuck %v (%v), want %v", c.idle, d, got, rep.Problems, c.stuck)
				}
			}
		})
	}
}

// TestAPausedTableIsNotStuck: a paused automatic table does not move, on purpose: verify's
// rule passes it over however long it stays paused (the host's gauge does too: live's test).
func TestAPausedTableIsNotStuck(t *testing.T) {
	tab, err := table.New(table.Config{Game: "mbs-tournament", Mode: table.ModeAuto})
	if err != nil {
		t.Fatal(err)
	}
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(11))
	sys := table.Header{Role: table.RoleSystem}
	do := func(cmds ...table.Command) {
		t.Helper()
		for _, c := range cmds {
			if _, err := tab.Apply(c); err != nil {
				t.Fatalf("%s: %v", c.Kind(), err)
			}
		}
	}
	do(&table.NewShoe{Header: sys, Order: s.Order(), Salt: "00"}, &table.Open{Header: sys}, &table.Close{Header: sys})
	for tab.Phase() == table.PhaseClosed || tab.Phase() == table.PhaseDealing {
		do(&table.Deal{Header: sys})
	}
	do(&table.Pause{Header: table.Header{Role: table.RolePit, Actor: "pit", Reason: "staff break"}})

	rep := &Report{}
	spec := live.Spec{ID: "t1", Mode: live.ModeAuto}
	if err := checkMoving(context.Background(), nil, spec, tab.Status(), movingT0, movingT0.Add(24*time.Hour), rep); err != nil || len(rep.Problems) > 0 {
		t.Fatalf("a paused table a day still: %v %v", err, rep.Problems)
	}
}
