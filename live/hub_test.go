package live

import (
	"iter"
	"strconv"
	"sync"
	"testing"
	"time"
)

// received is what a subscriber reads: C, or, queued (queued is true), what Take hands over
// each time wake is called. It ends when the subscriber is dropped.
func received(s *Subscription, queued bool) iter.Seq[*Delivery] {
	if !queued {
		return func(yield func(*Delivery) bool) {
			for d := range s.C {
				if !yield(d) {
					return
				}
			}
		}
	}
	wake := make(chan struct{}, 1)
	s.Notify(func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	return func(yield func(*Delivery) bool) {
		var ds []*Delivery
		for {
			var open bool
			ds, open = s.Take(ds)
			for _, d := range ds {
				if !yield(d) {
					return
				}
			}
			if len(ds) == 0 {
				if !open {
					return
				}
				<-wake
			}
		}
	}
}

// TestHubFansOutInOrder: with more subscribers than one fan-out chunk, every subscriber
// gets every public delivery (spread over time or not) and its own private ones, in the
// order they were published,
// while others join and leave mid-way; a subscriber that never reads is dropped, not waited
// for. A queued subscriber (Notify) is served alike.
func TestHubFansOutInOrder(t *testing.T) {
	t.Run("channel subscribers", func(t *testing.T) { testHubFansOutInOrder(t, false) })
	t.Run("queued subscribers", func(t *testing.T) { testHubFansOutInOrder(t, true) })
}

func testHubFansOutInOrder(t *testing.T, queued bool) {
	defer func(r int) { spreadRate = r }(spreadRate)
	spreadRate = 200000 // every fifth delivery is spread, at a rate a test can wait for
	h := newHub()
	const readers, deliveries = 3*fanChunk + 7, SubscriberBuffer + 100
	subs := make([]*Subscription, readers)
	for i := range subs {
		subs[i], _ = h.add("p"+strconv.Itoa(i), 0, false)
	}
	stuck, _ := h.add("stuck", 0, false) // never reads: dropped when its buffer is full
	stuckReceived := received(stuck, queued)
	var wg sync.WaitGroup
	for i, s := range subs {
		wg.Add(1)
		ds := received(s, queued)
		go func() {
			defer wg.Done()
			var public, mine uint64
			for d := range ds {
				switch d.Player {
				case "":
					if d.Seq != public+1 {
						t.Errorf("subscriber %d: public delivery %d after %d", i, d.Seq, public)
						return
					}
					public = d.Seq
				case "p" + strconv.Itoa(i):
					if d.Seq <= mine || d.Seq > public+1 {
						t.Errorf("subscriber %d: private delivery %d after %d (public at %d)", i, d.Seq, mine, public)
						return
					}
					mine = d.Seq
				default:
					t.Errorf("subscriber %d got %s's delivery", i, d.Player)
					return
				}
				if public == deliveries {
					return
				}
			}
			t.Errorf("subscriber %d: the stream ended at %d of %d", i, public, deliveries)
		}()
	}
	var churn sync.WaitGroup
	churn.Add(1)
	go func() { // others come and go while the fan-out runs
		defer churn.Done()
		for range 200 {
			s, _ := h.add("visitor", 0, false)
			s.Close()
		}
	}()
	for seq := uint64(1); seq <= deliveries; seq++ {
		ds := []Delivery{{Seq: seq, Event: true, Spread: seq%5 == 0, Data: []byte("{}")}}
		if seq%3 == 0 {
			ds = append(ds, Delivery{Seq: seq, Player: "p" + strconv.Itoa(int(seq)%readers), Data: []byte("{}")})
		}
		h.publishAll(ds)
	}
	wg.Wait()
	churn.Wait()
	n := 0
	for range stuckReceived { // what it was sent before it was dropped, then a closed stream
		n++
	}
	if n != SubscriberBuffer {
		t.Errorf("a subscriber that never read was sent %d deliveries before it was dropped, want its buffer's %d", n, SubscriberBuffer)
	}
	for _, s := range subs {
		s.Close()
	}
}

// TestTotalsReachEverySubscriberNewestLast: the bet totals, a message of the moment, reach
// every subscriber however many there are; a subscriber that was handed a later event is not
// sent older totals after it (its stream stays in seq order); and the last totals each one
// gets are the newest.
func TestTotalsReachEverySubscriberNewestLast(t *testing.T) {
	defer func(r int) { momentRate = r }(momentRate)
	momentRate = 20000 // a sweep of a few chunks, each a few milliseconds apart
	h := newHub()
	const readers = 3*fanChunk + 7
	subs := make([]*Subscription, readers)
	for i := range subs {
		subs[i], _ = h.add("p"+strconv.Itoa(i), 0, false)
	}
	totals := func(seq uint64) Delivery {
		return Delivery{Seq: seq, Moment: true, Data: []byte(`{"type":"totals","seq":` + strconv.FormatUint(seq, 10) + `}`)}
	}
	h.publishAll([]Delivery{totals(1)})
	h.publishAll([]Delivery{totals(2)})                                               // supersedes 1 during its sweep
	h.publishAll([]Delivery{{Seq: 3, Player: "p0", Event: true, Data: []byte(`{}`)}}) // p0 sees seq 3 first
	h.publishAll([]Delivery{totals(2)})                                               // a repeat at seq 2: not for p0 any more
	h.publishAll([]Delivery{{Seq: 4, Event: true, Data: []byte(`{}`)}, totals(4)})
	deadline := time.After(5 * time.Second)
	for i, s := range subs {
		var last uint64
		for last != 4 {
			select {
			case d := <-s.C:
				if d.Seq < last {
					t.Fatalf("subscriber %d: delivery at seq %d after seq %d", i, d.Seq, last)
				}
				last = d.Seq
			case <-deadline:
				t.Fatalf("subscriber %d: no totals at seq 4 (last seq %d)", i, last)
			}
		}
	}
	// The sweeps end, and nothing older follows.
	for pacing := true; pacing; {
		select {
		case <-deadline:
			t.Fatal("the pacer still runs with nothing new to send")
		case <-time.After(5 * time.Millisecond):
		}
		h.mu.Lock()
		pacing = h.pacing
		h.mu.Unlock()
	}
	for i, s := range subs {
		for len(s.C) > 0 {
			if d := <-s.C; d.Seq < 4 {
				t.Fatalf("subscriber %d: a delivery at seq %d after the newest", i, d.Seq)
			}
		}
	}
}

// TestTotalsAreNotReplayedOnResume: a stream resumed from a seq gets the events it missed,
// not the totals of that time (the next totals will do).
func TestTotalsAreNotReplayedOnResume(t *testing.T) {
	h := newHub()
	h.publishAll([]Delivery{{Seq: 1, Event: true, Data: []byte(`{}`)}})
	h.publishAll([]Delivery{{Seq: 2, Event: true, Data: []byte(`{}`)}})
	h.publishAll([]Delivery{{Seq: 2, Moment: true, Data: []byte(`{"type":"totals"}`)}})
	h.publishAll([]Delivery{{Seq: 3, Event: true, Data: []byte(`{}`)}})
	s, ok := h.add("p", 2, true)
	if !ok {
		t.Fatal("the resume was refused")
	}
	defer s.Close()
	if n := len(s.C); n != 2 {
		t.Fatalf("%d deliveries replayed, want the 2 events from seq 2", n)
	}
	for range 2 {
		if d := <-s.C; d.Moment {
			t.Fatal("totals replayed")
		}
	}
}

// TestQueuedSubscriberIsWokenOnce: a queued subscriber is woken when a delivery comes to the
// queue it found empty, or when it is dropped, and not again until it has found the queue
// empty; the deliveries its channel held when it was queued come first; the queue it leaves
// at rest holds no delivery.
func TestQueuedSubscriberIsWokenOnce(t *testing.T) {
	h := newHub()
	pub := func(seq uint64) { h.publishAll([]Delivery{{Seq: seq, Event: true, Data: []byte(`{}`)}}) }
	s, _ := h.add("p", 0, false)
	pub(1) // in the channel when it is traded for a queue
	wakes := 0
	s.Notify(func() { wakes++ }) // called under the hub's lock
	woken := func() int {
		h.mu.Lock()
		defer h.mu.Unlock()
		return wakes
	}
	wait := func(n int) {
		for deadline := time.Now().Add(5 * time.Second); woken() != n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("woken %d times, want %d", woken(), n)
			}
		}
	}
	pub(2)
	time.Sleep(20 * time.Millisecond) // the fan-out runs in a goroutine of its own
	if woken() != 0 {
		t.Fatal("woken before its first Take")
	}
	var got []uint64
	take := func() bool {
		ds, open := s.Take(nil)
		for _, d := range ds {
			got = append(got, d.Seq)
		}
		return open
	}
	for len(got) < 2 {
		take()
	}
	if !take() || got[0] != 1 || got[1] != 2 || len(got) != 2 {
		t.Fatalf("took %v, want 1 then 2 and an open subscription", got)
	}
	pub(3)
	wait(1)
	pub(4)
	pub(5)
	time.Sleep(20 * time.Millisecond)
	wait(1) // still awake: not woken again
	for len(got) < 5 {
		take()
	}
	h.mu.Lock()
	if q := s.s.queue; len(q) != 0 || len(q[:cap(q)]) > 0 && q[:cap(q)][0] != nil {
		t.Errorf("a queue at rest holds %v", q[:cap(q)])
	}
	h.mu.Unlock()
	if !take() {
		t.Fatal("closed")
	}
	h.closeAll() // the table stopped
	wait(2)
	if take() {
		t.Fatal("a dropped subscription still open")
	}
	if want := []uint64{1, 2, 3, 4, 5}; len(got) != len(want) {
		t.Fatalf("took %v, want %v", got, want)
	}
}

// TestQueuedSubscriberKeepsItsResume: a subscription queued after a resume keeps the
// replayed deliveries, and may lag SubscriberBuffer more before it is dropped, as its
// channel would have.
func TestQueuedSubscriberKeepsItsResume(t *testing.T) {
	h := newHub()
	for seq := uint64(1); seq <= 10; seq++ {
		h.publishAll([]Delivery{{Seq: seq, Event: true, Data: []byte(`{}`)}})
	}
	waitFanned(h)
	s, ok := h.add("p", 3, true)
	if !ok {
		t.Fatal("the resume was refused")
	}
	s.Notify(func() {})
	for seq := uint64(11); seq <= 10+SubscriberBuffer+1; seq++ {
		h.publishAll([]Delivery{{Seq: seq, Event: true, Data: []byte(`{}`)}})
	}
	waitFanned(h)
	var got []*Delivery
	for {
		ds, open := s.Take(nil)
		got = append(got, ds...)
		if !open {
			break
		}
		if len(ds) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if want := 8 + SubscriberBuffer; len(got) != want || got[0].Seq != 3 || got[len(got)-1].Seq != 10+SubscriberBuffer {
		t.Fatalf("took %d deliveries (seq %d to %d), want %d: seq 3 to %d, then dropped", len(got), got[0].Seq, got[len(got)-1].Seq, want, 10+SubscriberBuffer)
	}
}

// waitFanned waits until the hub's fan-out, which runs on a goroutine of its own, has handed
// every delivery published so far to the subscribers.
func waitFanned(h *hub) {
	for {
		h.mu.Lock()
		fanned := h.handed == h.published
		h.mu.Unlock()
		if fanned {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
