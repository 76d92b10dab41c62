package live

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/wire"
)

// The stream's messages are package wire's: what goes out and its bytes. This file decides
// which go out, to whom, and when.

// publish turns committed events into deliveries. Everyone sees the table: cards, phases,
// results. Wagers and settlements are private to their owner, and everyone sees the totals
// on each bet instead: broadcasting every wager to every player would cost the square of
// the players at a busy table.
func (r *runner) publish(staged []staged, balances map[string]baccarat.Money) {
	seq := r.t.Seq()
	wagersMoved, roadsMoved := false, false
	for i := range staged {
		for j := range staged[i].events {
			e := &staged[i].events[j]
			r.out = eventDeliveries(r.out, e, staged[i].data[j], r.h.ctx, r.h.opt.People)
			switch e.Type {
			case table.EvWagerPlaced, table.EvWagerWithdrawn, table.EvWagerRaised, table.EvWagerLowered:
				wagersMoved = true
			case table.EvRoundSettled, table.EvRoundVoided, table.EvShoeStarted:
				roadsMoved = true
			case table.EvBettingOpened:
				wagersMoved = wagersMoved || e.Betting <= 1 // riding wagers are back on the layout (RWS 3.9)
			}
		}
	}
	if wagersMoved {
		r.scheduleTotals()
	}
	if roadsMoved {
		r.rebuildBoard()
		if r.roadsWake == nil {
			// The roads follow the result a moment later: the result reaches every player
			// first in a small frame, the larger scoreboard after it.
			r.roadsWake = r.h.opt.Clock.After(roadsDelay)
		}
	}
	for wallet, bal := range balances {
		a, err := ledger.ParseAccount(wallet)
		if err != nil || a.Kind != ledger.KindWallet {
			continue
		}
		r.out = append(r.out, Delivery{Seq: seq, Player: a.Owner, Data: wire.Balance(seq, bal)})
	}
	r.flush()
}

// flush hands the deliveries built so far to the hub in one pass. Everything is encoded
// before any subscriber is woken: a table settling thousands of players would otherwise be
// preempted halfway and wait behind the thousands of writers it had just woken.
func (r *runner) flush() {
	if len(r.out) > 0 {
		if c := r.h.opt.Cluster; c != nil {
			c.Publish(r.spec.ID, r.out) // every host's streams read the table from the cluster
		} else {
			r.hub.publishAll(r.out)
		}
		clear(r.out)
		r.out = r.out[:0]
	}
}

// eventDeliveries appends the messages one committed event makes: the event for everyone,
// or for its owner only (a wager, a withdrawal), a settlement's result for everyone and
// each player's own settlements to them. data is the event's JSON as journalled. The owner
// of a table and, after a gap, every other server of a cluster build them alike. What
// everyone gets names players by their public handles (people.go).
func eventDeliveries(out []Delivery, e *table.Event, data []byte, ctx context.Context, people People) []Delivery {
	pub := func(e *table.Event) []Delivery {
		pe, names := PublicEvent(ctx, people, e)
		return append(out, Delivery{Seq: e.Seq, Event: true, Data: wire.Event(pe, names)})
	}
	switch e.Type {
	case table.EvWagerPlaced, table.EvWagerWithdrawn, table.EvFunded, table.EvWagerRaised, table.EvWagerLowered:
		// The journalled bytes of an event that goes out to its owner unchanged.
		return append(out, Delivery{Seq: e.Seq, Event: true, Player: e.Owner(), Data: wire.Mine(e.Seq, data)})
	case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
		return settlementDeliveries(out, e, ctx, people)
	case table.EvShoeStarted:
		p := e.Public()
		return pub(&p)
	case table.EvCardDealt:
		if e.Card.Hidden { // squeezed: face down to all, the card to its squeezer alone
			p := e.Public()
			out = pub(&p)
			return append(out, Delivery{Seq: e.Seq, Event: true, Player: e.Card.For, Data: wire.Mine(e.Seq, data)})
		}
	}
	if e.Type == table.EvBettingOpened {
		pe, names := PublicEvent(ctx, people, e)
		return append(out, Delivery{Seq: e.Seq, Event: true, Spread: true, Data: wire.Event(pe, names)})
	}
	return pub(e)
}

// settlementDeliveries sends the result to everyone and each player their own settlements.
func settlementDeliveries(out []Delivery, e *table.Event, ctx context.Context, people People) []Delivery {
	pe, names := PublicEvent(ctx, people, e)
	public := *pe
	public.Settlements = nil
	out = append(out, Delivery{Seq: e.Seq, Event: true, Data: wire.Event(&public, names)})
	// A player's settlements are usually together in the event; they are gathered where
	// they are not.
	by := make(map[string][]table.Settlement, len(e.Settlements))
	var order []string
	for i := 0; i < len(e.Settlements); {
		p := e.Settlements[i].Player
		j := i + 1
		for j < len(e.Settlements) && e.Settlements[j].Player == p {
			j++
		}
		if by[p] == nil {
			order = append(order, p)
			by[p] = e.Settlements[i:j:j]
		} else {
			by[p] = append(by[p], e.Settlements[i:j]...)
		}
		i = j
	}
	// Each player's copy is the public event with their settlements spliced in (wire.Settled).
	mine := wire.NewSettled(&public)
	for _, p := range order {
		out = append(out, Delivery{Seq: e.Seq, Event: true, Player: p, Data: mine.For(by[p])})
	}
	return out
}

// Subscribe streams a table's messages to a participant ("" watches without a seat). With
// resume, it replays what came after since; when that is no longer at hand, or without
// resume, the subscription starts with a snapshot. In a cluster every stream reads the
// table's messages as this host receives them, whichever host runs the table.
func (h *Host) Subscribe(tableID, player string, since uint64, resume bool) (*Subscription, error) {
	if h.opt.Cluster != nil {
		return h.subscribeMirror(tableID, player, since, resume)
	}
	r, err := h.runner(tableID)
	if err != nil {
		return nil, err
	}
	return r.subscribe(h.ctx, player, since, resume)
}

func (h *Host) subscribeMirror(tableID, player string, since uint64, resume bool) (*Subscription, error) {
	m := h.mirrorOf(tableID)
	if resume {
		// What the stream missed is at hand: no snapshot, so no question to the table's
		// owner, which thousands of streams resuming at once (their server stopped) would
		// otherwise all ask.
		m.mu.Lock()
		sub, ok := m.hub.add(player, since, true)
		m.mu.Unlock()
		if ok {
			return sub, nil
		}
		sub.Close()
	}
	snap, err := h.Snapshot(tableID, player) // also tells a table that does not exist
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	sub, ok := m.hub.add(player, since, resume)
	m.mu.Unlock()
	if !ok {
		// Messages after the snapshot may also be in the stream: the client keeps what it
		// has not seen by seq (web/API.md).
		sub.Snapshot = snap
	}
	return sub, nil
}

// Snapshot returns the table as player sees it ("" for the full view: dealer, pit, admin).
func (h *Host) Snapshot(tableID, player string) (*Snapshot, error) {
	if r := h.local(tableID); r != nil {
		return r.snapshotOf(h.ctx, player)
	}
	if h.opt.Cluster != nil {
		return h.opt.Cluster.Snapshot(h.ctx, tableID, player)
	}
	return nil, h.missing(tableID)
}

// scheduleTotals publishes the totals now if the last were sent long enough ago, or else
// arranges for them to go when they may.
func (r *runner) scheduleTotals() {
	now := r.h.opt.Clock.Now()
	if !now.Before(r.totalsDue) {
		r.publishTotals()
		return
	}
	if r.totalsWake == nil {
		r.totalsWake = r.h.opt.Clock.After(r.totalsDue.Sub(now))
	}
}

// peeled shows everyone watching how far the squeezer has lifted a card: a message of the
// moment, like the totals, that a stream resumed later does not replay.
func (r *runner) peeled(p *table.Peel) {
	seq := r.t.Seq()
	v := r.t.PeelOf(p)
	if pp := r.h.opt.People; pp != nil {
		v.Squeezer = pp.Handle(v.Squeezer) // the squeeze_started event named them
	}
	r.out = append(r.out, Delivery{Seq: seq, Data: wire.Peel(seq, &v)})
}

func (r *runner) publishTotals() {
	seq := r.t.Seq()
	r.out = append(r.out, Delivery{Seq: seq, Moment: true, Data: wire.Totals(seq, r.t.Round(), r.t.Totals())})
	r.flush()
	r.totalsDue = r.h.opt.Clock.Now().Add(totalsEvery)
}

// roadsDelay is how long after a result the scoreboards follow it: once the result has
// reached every player. At a crowded table that takes a good part of a second (README,
// Speed), and scoreboards sent sooner are written to players in the middle of it, in its
// way: the result is what a player waits for.
const roadsDelay = time.Second

func (r *runner) publishRoads() {
	seq := r.t.Seq()
	counts := r.t.ShoeCounts()
	v := r.board.View(roads.Settings{}, counts.Total())
	r.out = append(r.out, Delivery{Seq: seq, Data: wire.Roads(seq, &v)})
	r.flush()
}
