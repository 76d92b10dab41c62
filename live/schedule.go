package live

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"

	"github.com/tablehouse/baccarat/table"
)

// Schedule is the pace of an automatic table: how long betting stays open, how long between
// cards, how long a result stays on screen, how long a withdrawal window lasts after an
// interruption.
type Schedule struct {
	Betting  time.Duration // "Place your bets" to "No more bets"
	BoBRound time.Duration // Bet on Baccarat's second and third betting rounds
	Card     time.Duration // between cards, so players see them arrive
	Result   time.Duration // from the result to the next round
	Window   time.Duration // withdrawal window after an interruption
}

// DefaultSchedule: 15 s to bet, 8 s for Bet on Baccarat's later rounds, a card every
// 0.8 s, 4 s on the result, 10 s to withdraw after an interruption.
var DefaultSchedule = Schedule{Betting: 15 * time.Second, BoBRound: 8 * time.Second,
	Card: 800 * time.Millisecond, Result: 4 * time.Second, Window: 10 * time.Second}

func (s Schedule) withDefaults() Schedule {
	d := DefaultSchedule
	if s.Betting > 0 {
		d.Betting = s.Betting
	}
	if s.BoBRound > 0 {
		d.BoBRound = s.BoBRound
	}
	if s.Card > 0 {
		d.Card = s.Card
	}
	if s.Result > 0 {
		d.Result = s.Result
	}
	if s.Window > 0 {
		d.Window = s.Window
	}
	return d
}

// stuckGrace is added to a schedule's longest step before a hosted table counts as stuck:
// a lease renewal, a slow commit, a clock a little off.
const stuckGrace = 30 * time.Second

// StuckAfter is how long an automatic table on this schedule may go without an event before
// it is stuck: its longest step (0 takes DefaultSchedule's) and a grace. It is the one line
// both judges draw: the host's stalled-table gauge (Spec.stuckAfter) and package verify,
// which reports a hosted table idle for longer.
func (s Schedule) StuckAfter() time.Duration {
	sc := s.withDefaults()
	return max(sc.Betting, sc.BoBRound, sc.Card, sc.Result, sc.Window) + stuckGrace
}

// The range of each time of a Schedule (0 takes DefaultSchedule's). Below a millisecond a
// table would deal as fast as its journal commits; above an hour its players' stakes would
// wait longer than any table is paced, so a slip such as "15h" for "15s" is caught.
const (
	MinScheduleTime = time.Millisecond
	MaxScheduleTime = time.Hour
)

// Check refuses a time out of its range, naming it: what a new table's schedule must pass.
func (s Schedule) Check() error {
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"betting", s.Betting}, {"bob_round", s.BoBRound}, {"card", s.Card}, {"result", s.Result}, {"window", s.Window}} {
		if f.d != 0 && (f.d < MinScheduleTime || f.d > MaxScheduleTime) {
			return baccarat.Errorf(baccarat.CodeBadRequest, "schedule: %s is %s: give %s to %s (0 or none: the default)", f.name, f.d, MinScheduleTime, MaxScheduleTime)
		}
	}
	return nil
}

// next decides what an automatic table does next, as a pure function of its state, the
// time of its last event and now: a command to send now (nil if none), and otherwise when
// to look again (zero: nothing to wait for). A new shoe's order comes from the caller. A
// table the pit paused deals the round under way to its end, then waits for nothing: it
// sends no command, not even a new shoe, until the pit reopens it, and then opens the next
// round at once (its last result has been shown for as long as the pause lasted).
func (s Schedule) next(st table.Status, last, now time.Time) (table.Command, time.Time) {
	due := func(at time.Time, c table.Command) (table.Command, time.Time) {
		if !now.Before(at) {
			return c, time.Time{}
		}
		return nil, at
	}
	system := table.Header{Role: table.RoleSystem, Actor: "auto", At: now}
	switch {
	case st.Stopped():
		return nil, time.Time{}
	case st.Squeeze != nil && !st.Interrupted:
		// A hand is being squeezed: its squeezer reveals it, or the window does.
		until := st.Squeeze.Until
		if until.IsZero() {
			until = last.Add(s.Window)
		}
		return due(until, &table.Reveal{Header: system})
	case st.Interrupted && st.BetOpen:
		// Betting was under way: it reopens at once with a fresh window (SPEC §4).
		resume := &table.Resume{Header: system, Until: now.Add(s.Betting)}
		if st.Betting > 1 {
			resume.Until = now.Add(s.BoBRound)
		}
		return resume, time.Time{}
	case st.Interrupted || st.Window && st.Phase != table.PhaseBetting:
		return due(last.Add(s.Window), &table.Resume{Header: system})
	case st.Phase == table.PhaseIdle || st.Phase == table.PhaseSettled || st.Phase == table.PhaseVoid:
		if !st.ShoeActive {
			return &table.NewShoe{Header: system}, time.Time{}
		}
		wait := s.Result
		if st.Phase == table.PhaseIdle || st.Reopened {
			wait = 0
		}
		return due(last.Add(wait), &table.Open{Header: system, Until: now.Add(s.Betting)})
	case st.BetOpen:
		until := st.Until
		if until.IsZero() {
			until = last.Add(s.Betting)
		}
		return due(until, &table.Close{Header: system})
	case st.Phase == table.PhaseClosed || st.Phase == table.PhaseDealing:
		wait := s.Card
		if st.MethodC != nil && st.MethodC.Due {
			// Method C (Tiger 3.11): the card waits for its holder's draw, then the table
			// draws it. A draw is an event, so the wait starts again from it.
			wait = time.Duration(st.MethodC.DrawSeconds) * time.Second
		}
		// Until: if this card opens a Bet on Baccarat betting round, when it closes.
		return due(last.Add(wait), &table.Deal{Header: system, Until: now.Add(s.BoBRound)})
	}
	return nil, time.Time{}
}

// scheduleJSON is a Schedule as people write it: durations as "15s", "800ms" (a number is
// read as nanoseconds, as Go writes a time.Duration).
type scheduleJSON struct {
	Betting  json.RawMessage `json:"betting,omitempty"`
	BoBRound json.RawMessage `json:"bob_round,omitempty"`
	Card     json.RawMessage `json:"card,omitempty"`
	Result   json.RawMessage `json:"result,omitempty"`
	Window   json.RawMessage `json:"window,omitempty"`
}

// MarshalJSON writes the durations as strings such as "15s".
func (s Schedule) MarshalJSON() ([]byte, error) {
	str := func(d time.Duration) json.RawMessage {
		if d == 0 {
			return nil
		}
		b, _ := json.Marshal(d.String())
		return b
	}
	return json.Marshal(scheduleJSON{str(s.Betting), str(s.BoBRound), str(s.Card), str(s.Result), str(s.Window)})
}

// UnmarshalJSON reads durations as strings ("15s") or nanoseconds.
func (s *Schedule) UnmarshalJSON(b []byte) error {
	var j scheduleJSON
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	var out Schedule
	for _, f := range []struct {
		raw json.RawMessage
		dst *time.Duration
	}{{j.Betting, &out.Betting}, {j.BoBRound, &out.BoBRound}, {j.Card, &out.Card}, {j.Result, &out.Result}, {j.Window, &out.Window}} {
		if len(f.raw) == 0 {
			continue
		}
		var str string
		if json.Unmarshal(f.raw, &str) == nil {
			d, err := time.ParseDuration(str)
			if err != nil || d < 0 {
				return baccarat.Errorf(baccarat.CodeBadRequest, "schedule: %q is not a duration such as \"15s\"", str)
			}
			*f.dst = d
			continue
		}
		var ns int64
		if err := json.Unmarshal(f.raw, &ns); err != nil || ns < 0 {
			return baccarat.Errorf(baccarat.CodeBadRequest, "schedule: %s is not a duration such as \"15s\"", f.raw)
		}
		*f.dst = time.Duration(ns)
	}
	*s = out
	return nil
}
