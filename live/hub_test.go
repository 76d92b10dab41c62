package live

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestHubFansOutInOrder: with more subscribers than one fan-out chunk, every subscriber
// gets every public delivery (spread over time or not) and its own private ones, in the
// order they were published,
// while others join and leave mid-way; a subscriber that never reads is dropped, not waited
// for.
func TestHubFansOutInOrder(t *testing.T) {
	defer func(r int) { spreadRate = r }(spreadRate)
	spreadRate = 200000 // every fifth delivery is spread, at a rate a test can wait for
	h := newHub()
	const readers, deliveries = 3*fanChunk + 7, SubscriberBuffer + 100
	subs := make([]*Subscription, readers)
	for i := range subs {
		subs[i], _ = h.add("p"+strconv.Itoa(i), 0, false)
	}
	stuck, _ := h.add("stuck", 0, false) // never reads: dropped when its buffer is full
	var wg sync.WaitGroup
	for i, s := range subs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var public, mine uint64
			for d := range s.C {
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
	for range stuck.C { // what it was sent before it was dropped, then a closed stream
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
