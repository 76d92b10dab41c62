package live

import (
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
	C <-chan Delivery
	// Snapshot is the caller's view of the table when the stream starts, or nil when the
	// stream resumed from a sequence number and replays what was missed instead.
	Snapshot *Snapshot
	close    func()
}

// Close ends the subscription.
func (s *Subscription) Close() { s.close() }

// SubscriberBuffer is how many deliveries a subscriber may lag before it is dropped.
const SubscriberBuffer = 1024

const ringSize = 4096

type sub struct {
	player string
	ch     chan Delivery
	once   sync.Once
}

func (s *sub) drop() { s.once.Do(func() { close(s.ch) }) }

// hub fans deliveries out to a table's subscribers and remembers the recent ones so a
// subscriber that reconnects can resume from a sequence number.
type hub struct {
	mu       sync.Mutex
	public   map[*sub]struct{}
	byPlayer map[string]map[*sub]struct{}
	ring     []Delivery
	start    int // index of the oldest delivery in ring
}

func newHub() *hub {
	return &hub{public: map[*sub]struct{}{}, byPlayer: map[string]map[*sub]struct{}{}}
}

// publishAll delivers in order, under one lock.
func (h *hub) publishAll(ds []Delivery) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, d := range ds {
		h.deliver(d)
	}
}

func (h *hub) deliver(d Delivery) {
	if len(h.ring) < ringSize {
		h.ring = append(h.ring, d)
	} else {
		h.ring[h.start] = d
		h.start = (h.start + 1) % ringSize
	}
	if d.Player == "" {
		for s := range h.public {
			h.send(s, d)
		}
		return
	}
	for s := range h.byPlayer[d.Player] {
		h.send(s, d)
	}
}

// send never blocks: a subscriber whose buffer is full is dropped.
func (h *hub) send(s *sub, d Delivery) {
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
	var missed []Delivery
	ok := false
	if resume {
		missed, ok = h.since(player, since)
	}
	s.ch = make(chan Delivery, SubscriberBuffer+len(missed))
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

func (h *hub) since(player string, seq uint64) ([]Delivery, bool) {
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
	var out []Delivery
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
