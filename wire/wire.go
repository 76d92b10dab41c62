// Package wire is the table stream's messages (web/API.md, "The WebSocket"): their types and
// their bytes, in one place. A table's runner (package live) makes every message but the
// first, and the web layer makes the first, the snapshot; a page reads them all. Each is a
// JSON object whose "type" says which it is:
//
//   - snapshot: the table as the caller sees it (Snapshot), the stream's first message;
//   - event: a table event as everyone may see it (Event);
//   - mine: a player's own copy of an event: their wager (Mine), their settlements (Settled);
//   - totals: the stakes on every bet (Totals);
//   - roads: the scoreboards after a round (Roads);
//   - balance: a player's balance (Balance);
//   - peel: how far a squeezed card is lifted (Peel).
//
// The bytes are the contract, down to the order of the members and which are left out: the
// golden files in testdata pin every message. The messages every player gets after every
// wager or round (mine, balance, a settlement's copies) are built by appending to bytes
// encoded once, not through encoding/json; the others go through Envelope.
//
// wire knows the game's domain types (table, roads, games, access) and nothing of the host
// or the HTTP layer: live and web both import it.
package wire

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tablejson"
)

// Type is what a stream message is: its "type" member.
type Type string

// The stream's message types (web/API.md, "The WebSocket").
const (
	TypeSnapshot Type = "snapshot"
	TypeEvent    Type = "event"
	TypeMine     Type = "mine"
	TypeTotals   Type = "totals"
	TypeRoads    Type = "roads"
	TypeBalance  Type = "balance"
	TypePeel     Type = "peel"
)

// Names maps players' handles to how they are shown: the "names" a message carries beside
// an event or a snapshot that shows a player (web/API.md, "Display names").
type Names map[string]access.Person

// Envelope is every stream message but the snapshot: its type, the seq of the table event it
// carries or follows, and the members its type fills (the others are left out). The order
// of the fields is the order of the members on the wire.
type Envelope struct {
	Type    Type                      `json:"type"`
	Seq     uint64                    `json:"seq,omitempty"`
	Event   *table.Event              `json:"event,omitempty"`   // event, mine
	Round   uint64                    `json:"round,omitempty"`   // totals
	Totals  map[string]baccarat.Money `json:"totals,omitempty"`  // totals
	Roads   *roads.View               `json:"roads,omitempty"`   // roads
	Balance *baccarat.Money           `json:"balance,omitempty"` // balance
	Peel    *table.PeelView           `json:"peel,omitempty"`    // peel
	// Names: how the players the event shows are shown, by handle.
	Names Names `json:"names,omitempty"`
}

// Encode is the message's bytes: encoding/json's, the slow twin of the appends below.
func (e *Envelope) Encode() []byte {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // plain data: cannot happen
	}
	return b
}

// Event is the "event" message: a table event as everyone may see it, with the names of the
// players it shows. e is the public copy (live.PublicEvent); its seq is the message's.
func Event(e *table.Event, names Names) []byte {
	return (&Envelope{Type: TypeEvent, Seq: e.Seq, Event: e, Names: names}).Encode()
}

// mineHead opens a "mine" message up to its event.
const mineHead = `{"type":"mine","seq":`

// Mine is the "mine" message of an event its owner gets as it is (a wager placed, raised,
// lowered or withdrawn; a squeezed card to its squeezer): data is the event's JSON as
// journalled, spliced in unchanged rather than encoded again.
func Mine(seq uint64, data []byte) []byte {
	b := make([]byte, 0, len(data)+48)
	b = append(b, mineHead...)
	b = strconv.AppendUint(b, seq, 10)
	b = append(append(append(b, `,"event":`...), data...), '}')
	return b
}

// Settled makes each player's "mine" copy of a settlement event (round_settled,
// round_voided, session_settled): the public event with that player's settlements spliced
// in at its end. The event is encoded once, not once per player: a busy table settles
// thousands at a time.
type Settled struct {
	head []byte // the mine message of the public event, without its closing "}}"
}

// NewSettled prepares the copies of public, a settlement event without its settlements.
// (The copies carry no names: the public message carried them, and they follow the event.)
func NewSettled(public *table.Event) Settled {
	head := (&Envelope{Type: TypeMine, Seq: public.Seq, Event: public}).Encode()
	return Settled{head: head[:len(head)-2]} // the closing "}}" of the event and the envelope
}

// For is the copy of a player whose settlements are ss.
func (s Settled) For(ss []table.Settlement) []byte {
	b := make([]byte, 0, len(s.head)+200*len(ss)+20)
	b = append(append(b, s.head...), `,"settlements":`...)
	return append(tablejson.AppendSettlements(b, ss), "}}"...)
}

// Totals is the "totals" message: the stakes on every bet of round.
func Totals(seq, round uint64, totals map[string]baccarat.Money) []byte {
	return (&Envelope{Type: TypeTotals, Seq: seq, Round: round, Totals: totals}).Encode()
}

// Peel is the "peel" message: how far a squeezed card is lifted, never the card.
func Peel(seq uint64, v *table.PeelView) []byte {
	return (&Envelope{Type: TypePeel, Seq: seq, Peel: v}).Encode()
}

// Roads is the "roads" message. Its cells leave out the members that are 0 or false (ties,
// pairs, a natural; web/API.md: absent means false or 0), which halves a message every
// player gets after every round.
func Roads(seq uint64, v *roads.View) []byte {
	b := (&Envelope{Type: TypeRoads, Seq: seq, Roads: v}).Encode()
	for _, d := range roadDefaults {
		b = bytes.ReplaceAll(b, d, nil)
	}
	return b
}

// roadDefaults are the members a roads message need not carry, each with the comma that
// joins it to a neighbour.
var roadDefaults = [][]byte{[]byte(`"ties":0,`), []byte(`,"ties":0`), []byte(`"player_pair":false,`), []byte(`,"player_pair":false`),
	[]byte(`"banker_pair":false,`), []byte(`,"banker_pair":false`), []byte(`"natural":false,`), []byte(`,"natural":false`)}

// balanceHead opens a "balance" message up to its seq.
const balanceHead = `{"type":"balance","seq":`

// balanceLen is the longest "balance" message: both numbers at their longest.
const balanceLen = len(balanceHead) + 20 + len(`,"balance":`) + 20 + 1

// Balance is the "balance" message: a player's balance after the event seq. It is built in
// one allocation of its full length: every player whose balance moved gets one after every
// round.
func Balance(seq uint64, balance baccarat.Money) []byte {
	return AppendBalance(make([]byte, 0, balanceLen), seq, balance)
}

// AppendBalance appends the "balance" message to b.
func AppendBalance(b []byte, seq uint64, balance baccarat.Money) []byte {
	b = strconv.AppendUint(append(b, balanceHead...), seq, 10)
	b = strconv.AppendInt(append(b, `,"balance":`...), int64(balance), 10)
	return append(b, '}')
}
