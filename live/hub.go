package live

import (
	"runtime"
	"sync"
)

// Delivery is one message for subscribers, encoded once: public (Player "") or for one
// player. Seq is the last table event it follows.
type Delivery struct {
	Seq    uint64
	Player string
	Data   []byte
	// Event: the message carries table event Seq itself (other messages, totals, roads and
	// balances, follow the event Seq). A cluster's servers tell a gap by these.
	Event bool
}

// Subscription is a subscriber's stream. C closes when the subscriber falls behind (it is
// dropped, never waited for) or the table stops; reconnect with the last Seq seen.
type Subscription struct {
	C <-chan *Delivery
	// Snapshot is the caller's view of the table when the stream starts, or nil when the
	// stream resumed from a sequence number and replays what was missed instead.
	Snapshot *Snapshot
	close    func()
}

// Close ends the subscription.
func (s *Subscription) Close() { s.close() }

// SubscriberBuffer is how many deliveries a subscriber may lag before it is dropped: a
// minute or more of a busy table (a player gets a message or two a second, and the stream
// writes whatever has queued in one frame). A stream's buffer is allocated whole and read
// by every garbage collection, so it holds pointers to deliveries shared by every
// subscriber: buffers of 1,024 deliveries by value made 290 MB of a 400 MB heap with 5,000
// players, and each collection's marking took 150-400 ms of a core.
const SubscriberBuffer = 256

const ringSize = 4096

type sub struct {
	player string
	ch     chan *Delivery
	once   sync.Once
}

func (s *sub) drop() { s.once.Do(func() { close(s.ch) }) }

// hub fans deliveries out to a table's subscribers and remembers the recent ones so a
// subscriber that reconnects can resume from a sequence number.
//
// Publishing only records a delivery (in the ring, for resumes) and queues it; a fan-out
// goroutine hands it to the subscribers, a chunk at a time, yielding between chunks. A
// message to thousands of players thus never holds up the table that published it, and
// never makes thousands of stream writers runnable at once ahead of the wagers and
// acknowledgements waiting to run: with 5,000 players the totals, sent every second, made
// every wager in flight wait for all 5,000 writes (client-measured p99 150 ms).
type hub struct {
	mu       sync.Mutex
	public   map[*sub]struct{}
	byPlayer map[string]map[*sub]struct{}
	ring     []*Delivery
	start    int // index of the oldest delivery in ring

	queue    []*Delivery // published, not yet handed to every subscriber, oldest first
	fanning  bool        // a fan-out goroutine is emptying queue
	audience []*sub      // the subscribers of the public delivery being fanned out
}

// fanChunk is how many subscribers the fan-out hands a public delivery to before it yields.
const fanChunk = 128

func newHub() *hub {
	return &hub{public: map[*sub]struct{}{}, byPlayer: map[string]map[*sub]struct{}{}}
}

// publishAll records deliveries in order and has them fanned out in that order.
func (h *hub) publishAll(ds []Delivery) {
	h.mu.Lock()
	defer h.mu.Unlock()
	own := append([]Delivery(nil), ds...) // the caller reuses ds; subscribers share these
	for i := range own {
		d := &own[i]
		if len(h.ring) < ringSize {
			h.ring = append(h.ring, d)
		} else {
			h.ring[h.start] = d
			h.start = (h.start + 1) % ringSize
		}
		h.queue = append(h.queue, d)
	}
	if !h.fanning && len(h.queue) > 0 {
		h.fanning = true
		go h.fanOut()
	}
}

// fanOut hands queued deliveries to subscribers until the queue is empty. One runs at a
// time, so every subscriber gets the deliveries in the order they were published. A
// subscriber that joins while a delivery is under way may miss it: its snapshot, or its
// replay from the ring, already holds it.
func (h *hub) fanOut() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for len(h.queue) > 0 {
		d := h.queue[0]
		h.queue[0] = nil
		h.queue = h.queue[1:]
		if d.Player != "" {
			for s := range h.byPlayer[d.Player] {
				h.send(s, d)
			}
			continue
		}
		if len(h.public) <= fanChunk {
			for s := range h.public {
				h.send(s, d)
			}
			continue
		}
		h.audience = h.audience[:0]
		for s := range h.public {
			h.audience = append(h.audience, s)
		}
		for i := 0; i < len(h.audience); i += fanChunk {
			for _, s := range h.audience[i:min(i+fanChunk, len(h.audience))] {
				if _, ok := h.public[s]; ok { // still subscribed after the last yield
					h.send(s, d)
				}
			}
			h.mu.Unlock()
			runtime.Gosched() // let the writers just woken, and everyone else waiting, run
			h.mu.Lock()
		}
		clear(h.audience)
	}
	h.queue = h.queue[:0]
	h.fanning = false
}

// send never blocks: a subscriber whose buffer is full is dropped.
func (h *hub) send(s *sub, d *Delivery) {
	select {
	case s.ch <- d:
	default:
		h.remove(s)
		s.drop()
	}
}

// add subscribes player; with resume it first replays the deliveries from since on, and
// reports false when the ring no longer reaches back that far.
func (h *hub) add(player string, since uint64, resume bool) (*Subscription, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := &sub{player: player}
	var missed []*Delivery
	ok := false
	if resume {
		missed, ok = h.since(player, since)
	}
	s.ch = make(chan *Delivery, SubscriberBuffer+len(missed))
	for _, d := range missed {
		s.ch <- d
	}
	h.public[s] = struct{}{}
	if player != "" {
		if h.byPlayer[player] == nil {
			h.byPlayer[player] = map[*sub]struct{}{}
		}
		h.byPlayer[player][s] = struct{}{}
	}
	return &Subscription{C: s.ch, close: func() {
		h.mu.Lock()
		h.remove(s)
		h.mu.Unlock()
		s.drop()
	}}, ok
}

func (h *hub) since(player string, seq uint64) ([]*Delivery, bool) {
	n := len(h.ring)
	if n == 0 {
		return nil, false
	}
	// Several deliveries share an event's seq (the public result and each player's own
	// copy), so a resume replays from seq itself and the client drops what it has already
	// seen. Nothing from seq on can have been evicted if the ring still holds a delivery
	// before seq, or holds nothing from it on.
	oldest, newest := h.ring[h.start].Seq, h.ring[(h.start+n-1)%n].Seq
	if oldest >= seq && newest >= seq {
		return nil, false
	}
	var out []*Delivery
	for i := 0; i < n; i++ {
		d := h.ring[(h.start+i)%n]
		if d.Seq >= seq && (d.Player == "" || d.Player == player) {
			out = append(out, d)
		}
	}
	return out, true
}

func (h *hub) remove(s *sub) {
	delete(h.public, s)
	if m := h.byPlayer[s.player]; m != nil {
		delete(m, s)
		if len(m) == 0 {
			delete(h.byPlayer, s.player)
		}
	}
}

// closeAll drops every subscriber (the table stopped).
func (h *hub) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.public {
		h.remove(s)
		s.drop()
	}
}
