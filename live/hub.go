package live

import (
	"runtime"
	"sync"
	"time"
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
	// Moment: a public message of the moment that the next of its kind replaces (the bet
	// totals). It is not kept for resumes, and it is paced: see hub.
	Moment bool
	// Spread: a public event that need not reach every player at the same moment (betting
	// is open): a hub hands it out at spreadRate.
	Spread bool
}

// Subscription is a subscriber's stream. C closes when the subscriber falls behind (it is
// dropped, never waited for) or the table stops; reconnect with the last Seq seen.
type Subscription struct {
	C <-chan *Delivery
	// Snapshot is the caller's view of the table when the stream starts, or nil when the
	// stream resumed from a sequence number and replays what was missed instead.
	Snapshot *Snapshot
	h        *hub
	s        *sub
}

// Close ends the subscription.
func (s *Subscription) Close() {
	h, b := s.h, s.s
	h.mu.Lock()
	h.remove(b)
	queued := b.ch == nil
	if queued {
		b.queue, b.dropped = nil, true
	}
	h.mu.Unlock()
	if !queued {
		b.drop()
	}
}

// Notify trades C for a queue that grows only while deliveries wait in it, and a wake-up
// call: a subscriber that runs no goroutine while its table is quiet, and holds no buffer. C
// is nil from now on; the deliveries it held wait in the queue, and the subscriber is
// dropped as it would have been, once SubscriberBuffer deliveries (and those it resumed
// with) wait untaken. wake is called, under the hub's lock (it must not block, nor call the
// subscription back), when a delivery comes to an empty queue after Take has found it empty,
// and when the subscriber is dropped: its caller runs Take until it finds the queue empty.
// Until that first Take, wake is not called.
func (s *Subscription) Notify(wake func()) {
	h, b := s.h, s.s
	h.mu.Lock()
	defer h.mu.Unlock()
	b.limit, b.wake, b.woken = cap(b.ch), wake, true
	for {
		select {
		case d, ok := <-b.ch:
			if ok {
				b.queue = append(b.queue, d)
				continue
			}
			b.dropped = true
		default:
		}
		break
	}
	b.ch, s.C = nil, nil
}

// Take hands over the deliveries waiting, oldest first. buf is storage the caller is done
// with (the deliveries it took last): the queue may reuse it. Take reports !open once the
// subscriber has been dropped and nothing more waits; wake is called again only after Take
// has found the queue empty.
func (s *Subscription) Take(buf []*Delivery) (ds []*Delivery, open bool) {
	h, b := s.h, s.s
	buf = buf[:cap(buf)]
	clear(buf) // a queue at rest holds no delivery
	if cap(buf) > keptQueue {
		buf = nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(b.queue) == 0 {
		b.woken = false
		if b.queue == nil {
			b.queue = buf[:0]
		}
		return nil, !b.dropped
	}
	ds, b.queue = b.queue, buf[:0]
	return ds, true
}

// keptQueue is the most storage, in deliveries, a queue at rest keeps for the next ones: an
// idle stream's queue holds one or two; one that resumed with hundreds lets them go.
const keptQueue = 16

// SubscriberBuffer is how many deliveries a subscriber may lag before it is dropped: a
// minute or more of a busy table (a player gets a message or two a second, and the stream
// writes whatever has queued in one frame). A channel subscriber's buffer is allocated
// whole and read by every garbage collection, so it holds pointers to deliveries shared by
// every subscriber; a queued one (Notify) holds only what waits.
const SubscriberBuffer = 256

const ringSize = 4096

type sub struct {
	player string
	ch     chan *Delivery // a channel subscriber's deliveries; nil once queued (Notify)
	once   sync.Once
	seq    uint64    // the Seq of the last delivery handed to it (under the hub's lock)
	moment *Delivery // the last moment message it was offered (under the hub's lock)

	// A queued subscriber's state, under the hub's lock.
	queue   []*Delivery // delivered, not yet taken, oldest first
	limit   int         // the most that may wait in queue: the capacity of the channel it replaced
	wake    func()      // Notify's
	woken   bool        // wake was called, and Take has not found the queue empty since
	dropped bool        // fell behind, or the table stopped
}

// drop ends a subscriber's stream: a channel subscriber's closes (once), a queued one is
// told (under the hub's lock).
func (s *sub) drop() {
	if s.ch == nil {
		s.dropped = true
		s.notify()
		return
	}
	s.once.Do(func() { close(s.ch) })
}

// notify wakes a queued subscriber unless it is already awake (under the hub's lock).
func (s *sub) notify() {
	if !s.woken {
		s.woken = true
		s.wake()
	}
}

// hub fans deliveries out to a table's subscribers and remembers the recent ones so a
// subscriber that reconnects can resume from a sequence number.
//
// Publishing only records a delivery (in the ring, for resumes) and queues it; a fan-out
// goroutine hands it to the subscribers, a chunk at a time, yielding between chunks. A
// message to thousands of players thus never holds up the table that published it, and
// never makes thousands of stream writers runnable at once ahead of the wagers and
// acknowledgements waiting to run: otherwise the totals, sent every second to every player
// at a crowded table, would make every wager in flight wait for all their writes.
type hub struct {
	mu       sync.Mutex
	public   map[*sub]struct{}
	byPlayer map[string]map[*sub]struct{}
	ring     []*Delivery
	start    int // index of the oldest delivery in ring

	queue    []*Delivery // published, not yet handed to every subscriber, oldest first
	fanning  bool        // a fan-out goroutine is emptying queue
	audience []*sub      // the subscribers of the public delivery being fanned out

	moment   *Delivery // the newest moment message
	pacing   bool      // a pacer goroutine is handing it out
	offering []*sub    // the subscribers of the pacer's sweep

	// A moment message goes to no one before everything published before it has been
	// handed to every subscriber: its seq must not overtake an event's in any stream (a
	// client resuming from the last seq it saw would skip the event).
	published   uint64 // deliveries put in the queue so far
	handed      uint64 // of which the fan-out has handed out
	momentAfter uint64 // published when the newest moment message came
}

// fanChunk is how many subscribers the fan-out hands a public delivery to before it yields.
const fanChunk = 128

// fanRun is how many public deliveries at most the fan-out hands each subscriber at once.
const fanRun = 16

// momentRate is how many moment messages a second a hub hands out. A table's totals go
// out once a second while wagers come in, to every player watching it: at a crowded
// table that would be thousands of writes at once, every second, and every wager in flight
// would wait behind them (README, Speed: the 15,000-player run). Paced, a hub with more
// subscribers than this sends each of them the newest totals less often (5,000 players:
// every 1.7 s or so) and never all at once.
var momentRate = 3000

// spreadRate is how many subscribers a second a hub hands a Spread event to. Every player
// at a table acts on "betting is open" at once: at a crowded table the wagers it set off
// arrived together, in the middle of the thousands of writes telling the others, and
// waited behind them. Spread over up to 0.6 s at 5,000 players a server, the news and the
// wagers arrive as a stream instead; every player still has all but a moment of the
// betting time, which closes at the same time for everyone.
var spreadRate = 8000

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
		if d.Moment && d.Player == "" {
			h.moment, h.momentAfter = d, h.published
			if !h.pacing {
				h.pacing = true
				go h.pace()
			}
			continue
		}
		if len(h.ring) < ringSize {
			h.ring = append(h.ring, d)
		} else {
			h.ring[h.start] = d
			h.start = (h.start + 1) % ringSize
		}
		h.queue = append(h.queue, d)
		h.published++
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
		// A run takes the queue up to its fanRun-th public delivery: a subscriber is sent a
		// whole run at once, and a fan-out that fell behind must not fill its buffer.
		n, public := 0, 0
		for n < len(h.queue) && (h.queue[n].Player != "" || public < fanRun) {
			if h.queue[n].Player == "" {
				public++
			}
			n++
		}
		batch := h.queue[:n:n]
		h.queue = h.queue[n:]
		h.fanBatch(batch)
		h.handed += uint64(len(batch))
		clear(batch)
	}
	h.queue = nil
	h.fanning = false
}

// fanBatch hands a run of deliveries to the subscribers, each subscriber its share in
// order and together: a result, the player's own settlement and their balance reach the
// stream's writer at once and go out in one frame, not three. A run with a public delivery
// goes to every subscriber a chunk at a time, yielding between chunks, so that thousands
// of writers never become runnable at once ahead of the wagers waiting to run; a run of
// Spread events only, at spreadRate.
func (h *hub) fanBatch(batch []*Delivery) {
	var public []int          // indexes in batch of the public deliveries
	own := map[string][]int{} // and of each player's own
	var players []string      // the players with deliveries of their own, in order of the first
	for i, d := range batch {
		if d.Player == "" {
			public = append(public, i)
			continue
		}
		if own[d.Player] == nil {
			players = append(players, d.Player)
		}
		own[d.Player] = append(own[d.Player], i)
	}
	if len(public) == 0 {
		for _, p := range players {
			for s := range h.byPlayer[p] {
				h.sendMerged(s, batch, nil, own[p])
			}
		}
		return
	}
	spread := true // every public delivery of the run may be spread
	for _, i := range public {
		spread = spread && batch[i].Spread
	}
	h.audience = h.audience[:0]
	for s := range h.public {
		h.audience = append(h.audience, s)
	}
	for i := 0; i < len(h.audience); i += fanChunk {
		for _, s := range h.audience[i:min(i+fanChunk, len(h.audience))] {
			if _, ok := h.public[s]; ok { // still subscribed after the last yield
				h.sendMerged(s, batch, public, own[s.player])
			}
		}
		if len(h.audience) > fanChunk {
			h.mu.Unlock()
			if spread {
				time.Sleep(fanChunk * time.Second / time.Duration(spreadRate))
			} else {
				runtime.Gosched() // let the writers just woken, and everyone else waiting, run
			}
			h.mu.Lock()
		}
	}
	clear(h.audience)
}

// sendMerged sends a subscriber its deliveries of a run, the public ones and its own (given
// by their indexes in batch), in the order they were published. It stops at a subscriber
// dropped for falling behind.
func (h *hub) sendMerged(s *sub, batch []*Delivery, public, own []int) {
	i, j := 0, 0
	for i < len(public) || j < len(own) {
		var k int
		if j == len(own) || (i < len(public) && public[i] < own[j]) {
			k, i = public[i], i+1
		} else {
			k, j = own[j], j+1
		}
		if !h.send(s, batch[k]) {
			return
		}
	}
}

// pace hands the newest moment message to every subscriber, a chunk at a time at
// momentRate, and sweeps again while a newer one came during the sweep. A subscriber
// already handed a later delivery is skipped (its stream stays in seq order), as is one
// already offered this message.
func (h *hub) pace() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		start := h.moment
		h.offering = h.offering[:0]
		for s := range h.public {
			if s.moment != start {
				h.offering = append(h.offering, s)
			}
		}
		for i := 0; i < len(h.offering); {
			if h.handed < h.momentAfter { // what came before it is still on its way
				h.mu.Unlock()
				time.Sleep(time.Millisecond)
				h.mu.Lock()
				continue
			}
			m := h.moment // a newer one reaches the rest of this sweep
			chunk := h.offering[i:min(i+fanChunk, len(h.offering))]
			i += len(chunk)
			for _, s := range chunk {
				if _, ok := h.public[s]; ok && s.moment != m && s.seq <= m.Seq {
					s.moment = m
					h.send(s, m)
				}
			}
			h.mu.Unlock()
			time.Sleep(time.Duration(len(chunk)) * time.Second / time.Duration(momentRate))
			h.mu.Lock()
		}
		clear(h.offering)
		if h.moment == start {
			h.pacing = false
			return
		}
	}
}

// send never blocks: a subscriber whose buffer is full is dropped (send reports false).
func (h *hub) send(s *sub, d *Delivery) bool {
	s.seq = max(s.seq, d.Seq)
	if s.ch == nil {
		if len(s.queue) < s.limit {
			s.queue = append(s.queue, d)
			s.notify()
			return true
		}
	} else {
		select {
		case s.ch <- d:
			return true
		default:
		}
	}
	h.remove(s)
	s.drop()
	return false
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
		s.seq = max(s.seq, d.Seq)
	}
	h.public[s] = struct{}{}
	if player != "" {
		if h.byPlayer[player] == nil {
			h.byPlayer[player] = map[*sub]struct{}{}
		}
		h.byPlayer[player][s] = struct{}{}
	}
	return &Subscription{C: s.ch, h: h, s: s}, ok
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
