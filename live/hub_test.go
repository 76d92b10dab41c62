package live

import (
	"strconv"
	"sync"
	"testing"
)

// TestHubFansOutInOrder: with more subscribers than one fan-out chunk, every subscriber
// gets every public delivery and its own private ones, in the order they were published,
// while others join and leave mid-way; a subscriber that never reads is dropped, not waited
// for.
func TestHubFansOutInOrder(t *testing.T) {
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
		ds := []Delivery{{Seq: seq, Event: true, Data: []byte("{}")}}
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
