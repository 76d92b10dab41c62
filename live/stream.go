package live

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
)

// envelope is one stream message (web/API.md, "The WebSocket").
type envelope struct {
	Type    string           `json:"type"`
	Seq     uint64           `json:"seq,omitempty"`
	Event   *table.Event     `json:"event,omitempty"`
	Round   uint64           `json:"round,omitempty"`
	Totals  map[string]int64 `json:"totals,omitempty"`
	Roads   *roads.View      `json:"roads,omitempty"`
	Balance *int64           `json:"balance,omitempty"`
}

func encode(e envelope) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // plain data: cannot happen
	}
	return b
}

// publish turns committed events into deliveries. Everyone sees the table: cards, phases,
// results. Wagers and settlements are private to their owner, and everyone sees the totals
// on each bet instead: broadcasting every wager to every player would cost the square of
// the players at a busy table.
func (r *runner) publish(staged []staged, balances map[string]int64) {
	seq := r.t.Seq()
	wagersMoved, roadsMoved := false, false
	pub := func(e *table.Event) {
		r.out = append(r.out, Delivery{Seq: e.Seq, Data: encode(envelope{Type: "event", Seq: e.Seq, Event: e})})
	}
	// mineAsIs wraps the journalled bytes of an event that goes out unchanged.
	mineAsIs := func(player string, e *table.Event, data []byte) {
		b := make([]byte, 0, len(data)+48)
		b = append(b, `{"type":"mine","seq":`...)
		b = strconv.AppendUint(b, e.Seq, 10)
		b = append(append(append(b, `,"event":`...), data...), '}')
		r.out = append(r.out, Delivery{Seq: e.Seq, Player: player, Data: b})
	}
	for i := range staged {
		for j := range staged[i].events {
			e := staged[i].events[j]
			switch e.Type {
			case table.EvWagerPlaced:
				mineAsIs(e.Wager.Player, &e, staged[i].data[j])
				wagersMoved = true
			case table.EvWagerWithdrawn:
				mineAsIs(e.Player(), &e, staged[i].data[j])
				wagersMoved = true
			case table.EvFunded:
				mineAsIs(e.Player(), &e, staged[i].data[j])
			case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
				r.publishSettlement(&e, pub)
				roadsMoved = roadsMoved || e.Type != table.EvSessionSettled
			case table.EvShoeStarted:
				p := e.Public()
				pub(&p)
				roadsMoved = true
			case table.EvBettingOpened:
				pub(&e)
				wagersMoved = wagersMoved || e.Betting <= 1 // riding wagers are back on the layout (RWS 3.9)
			default:
				pub(&e)
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
		b := append(strconv.AppendUint([]byte(`{"type":"balance","seq":`), seq, 10), `,"balance":`...)
		b = append(strconv.AppendInt(b, bal, 10), '}')
		r.out = append(r.out, Delivery{Seq: seq, Player: a.Owner, Data: b})
	}
	r.flush()
}

// flush hands the deliveries built so far to the hub in one pass. Everything is encoded
// before any subscriber is woken: a table settling thousands of players would otherwise be
// preempted halfway and wait behind the thousands of writers it had just woken.
func (r *runner) flush() {
	if len(r.out) > 0 {
		r.hub.publishAll(r.out)
		clear(r.out)
		r.out = r.out[:0]
	}
}

// publishSettlement sends the result to everyone and each player their own settlements.
func (r *runner) publishSettlement(e *table.Event, pub func(*table.Event)) {
	public := *e
	public.Settlements = nil
	pub(&public)
	by := map[string][]table.Settlement{}
	var order []string
	for _, s := range e.Settlements {
		if by[s.Player] == nil {
			order = append(order, s.Player)
		}
		by[s.Player] = append(by[s.Player], s)
	}
	// Each player's copy is the public event with their settlements spliced in: the event
	// is encoded once, not once per player (a busy table settles thousands at a time).
	head := encode(envelope{Type: "mine", Seq: e.Seq, Event: &public})
	head = head[:len(head)-2] // drop the closing "}}" of the event and the envelope
	for _, p := range order {
		list, err := json.Marshal(by[p])
		if err != nil {
			panic(err)
		}
		b := make([]byte, 0, len(head)+len(list)+20)
		b = append(append(append(append(b, head...), `,"settlements":`...), list...), "}}"...)
		r.out = append(r.out, Delivery{Seq: e.Seq, Player: p, Data: b})
	}
}

// Subscribe streams a table's messages to a participant ("" watches without a seat). With
// resume, it replays what came after since; when that is no longer at hand, or without
// resume, the subscription starts with a snapshot.
func (h *Host) Subscribe(tableID, player string, since uint64, resume bool) (*Subscription, error) {
	r, err := h.runner(tableID)
	if err != nil {
		return nil, err
	}
	resp, err := r.ask(h.ctx, &request{kind: reqSubscribe, player: player, since: since, resume: resume})
	if err != nil {
		return nil, err
	}
	return resp.sub, nil
}

// Snapshot returns the table as player sees it ("" for the full view: dealer, pit, admin).
func (h *Host) Snapshot(tableID, player string) (*Snapshot, error) {
	r, err := h.runner(tableID)
	if err != nil {
		return nil, err
	}
	resp, err := r.ask(h.ctx, &request{kind: reqSnapshot, player: player})
	if err != nil {
		return nil, err
	}
	return resp.snap, nil
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

func (r *runner) publishTotals() {
	seq := r.t.Seq()
	r.out = append(r.out, Delivery{Seq: seq, Data: encode(envelope{Type: "totals", Seq: seq, Round: r.t.Round(), Totals: r.t.Totals()})})
	r.flush()
	r.totalsDue = r.h.opt.Clock.Now().Add(totalsEvery)
}

// roadsDelay is how long after a result the scoreboards follow it.
const roadsDelay = 200 * time.Millisecond

func (r *runner) publishRoads() {
	seq := r.t.Seq()
	counts := r.t.ShoeCounts()
	v := r.board.View(roads.Settings{}, counts.Total())
	r.out = append(r.out, Delivery{Seq: seq, Data: compactRoads(encode(envelope{Type: "roads", Seq: seq, Roads: &v}))})
	r.flush()
}

// roadDefaults are the members a roads message need not carry: a cell without them has no
// ties, no pairs and no natural. Leaving them out halves a message every player gets after
// every round (web/API.md: absent means false or 0).
var roadDefaults = [][]byte{[]byte(`"ties":0,`), []byte(`,"ties":0`), []byte(`"player_pair":false,`), []byte(`,"player_pair":false`),
	[]byte(`"banker_pair":false,`), []byte(`,"banker_pair":false`), []byte(`"natural":false,`), []byte(`,"natural":false`)}

func compactRoads(b []byte) []byte {
	for _, d := range roadDefaults {
		b = bytes.ReplaceAll(b, d, nil)
	}
	return b
}
