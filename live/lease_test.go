package live

import (
	"slices"
	"testing"
	"time"
)

// loopLog is a leased loop's work that only notes what the loop asks of it: it is due for
// as many turns as it is given, and takes its inbox's requests as they come.
type loopLog struct {
	turns int // due answers true this many times, then false (the work is over)
	taken [][]int
	ends  []bool // each stop, lost or not
}

func (w *loopLog) due() bool {
	w.turns--
	return w.turns >= 0
}
func (w *loopLog) take(batch []int)  { w.taken = append(w.taken, slices.Clone(batch)) }
func (w *loopLog) wakes() wakes      { return wakes{} }
func (w *loopLog) woke(int)          {}
func (w *loopLog) stopped(lost bool) { w.ends = append(w.ends, lost) }

// TestLeasedLoop: the loop a table and a tournament share, with a lease that never comes up
// for renewal (a fake clock that does not move).
func TestLeasedLoop(t *testing.T) {
	cases := []struct {
		name     string
		inbox    []int
		batch    int
		turns    int
		lost     bool
		stop     bool
		taken    [][]int
		stopped  []bool
		leftover int
	}{
		{name: "requests waiting are taken together, at most a batch at a time",
			inbox: []int{1, 2, 3, 4, 5}, batch: 2, turns: 3,
			taken: [][]int{{1, 2}, {3, 4}, {5}}, stopped: []bool{false}},
		{name: "a batch of one takes each request on its own",
			inbox: []int{1, 2}, batch: 1, turns: 2,
			taken: [][]int{{1}, {2}}, stopped: []bool{false}},
		{name: "a lost lease ends the loop before anything more is done",
			inbox: []int{1, 2}, batch: 2, turns: 5, lost: true,
			stopped: []bool{true}, leftover: 2},
		{name: "work that is over ends the loop as if it were told to stop",
			inbox: []int{1}, batch: 2, turns: 0,
			stopped: []bool{false}, leftover: 1},
		{name: "a loop told to stop stops",
			batch: 2, turns: 5, stop: true,
			stopped: []bool{false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &Host{opt: Options{Clock: NewFakeClock(time.Unix(0, 0)), LeaseTTL: time.Minute}}
			inbox := make(chan int, len(c.inbox))
			for _, v := range c.inbox {
				inbox <- v
			}
			stop := make(chan struct{})
			if c.stop {
				close(stop)
			}
			lease := &tenure{lost: c.lost}
			w := &loopLog{turns: c.turns}
			newLeased(h, "s1", lease, inbox, c.batch, stop).run(w)
			if !slices.EqualFunc(w.taken, c.taken, slices.Equal[[]int]) {
				t.Errorf("taken %v, want %v", w.taken, c.taken)
			}
			if !slices.Equal(w.ends, c.stopped) {
				t.Errorf("stopped %v, want %v", w.ends, c.stopped)
			}
			if len(inbox) != c.leftover {
				t.Errorf("%d requests left in the inbox, want %d", len(inbox), c.leftover)
			}
		})
	}
}
