package wire_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tablejson"
	"github.com/tablehouse/baccarat/wire"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the messages built now")

// The events the golden messages carry, as the journal writes them (web/API.md's examples).
const (
	cardDealt = `{"seq":58,"type":"card_dealt","round":12,"phase":"dealing","card":{"card":"7h","position":"P1","left":379}}`
	squeezed  = `{"seq":40,"type":"squeeze_started","round":12,"phase":"dealing","until":"2025-01-02T03:04:05Z","side":"banker","player":"hq4k8m2xz7ab3"}`
	placed    = `{"seq":57,"type":"wager_placed","at":"2025-01-02T03:04:00Z","round":12,"actor":"demo","role":"player","phase":"betting",` +
		`"wager":{"id":5,"round":12,"player":"demo","seat":"demo","bet":"banker","stake":1000,"request_id":"b7f"}}`
	settled = `{"seq":61,"type":"round_settled","round":12,"phase":"settled",` +
		`"result":{"coup":"P 7h 2c | B Kd 9s","winner":"tie","player_total":9,"banker_total":9,"natural":true,"cards":4},"settlements":[` +
		`{"wager":5,"player":"demo","bet":"banker","stake":1000,"outcome":"push","net":0,"returned":1000},` +
		`{"wager":6,"player":"ann","bet":"tie","stake":100,"outcome":"win","pays":"8:1","net":800,"returned":900},` +
		`{"wager":7,"player":"demo","bet":"tie","stake":200,"outcome":"win","pays":"8:1","net":1600,"returned":1800}]}`
	handle = "hq4k8m2xz7ab3"
)

func event(t testing.TB, s string) *table.Event {
	t.Helper()
	var e table.Event
	if err := json.Unmarshal([]byte(s), &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

// publicSettled is the settlement event as everyone sees it: without its settlements.
func publicSettled(t testing.TB) *table.Event {
	e := event(t, settled)
	e.Settlements = nil
	return e
}

func roadsView(t testing.TB) *roads.View {
	rs, err := roads.ParseRounds("B P Tp Bn Pb B P P")
	if err != nil {
		t.Fatal(err)
	}
	b, err := roads.New(rs)
	if err != nil {
		t.Fatal(err)
	}
	v := b.View(roads.Settings{}, 300)
	return &v
}

// lobbyEntry stands in for the web layer's description of a table in a snapshot.
type lobbyEntry struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

func snapshot(t testing.TB) wire.Snapshot[lobbyEntry] {
	var st table.State
	if err := json.Unmarshal([]byte(`{"game":"rws","seq":61,"round":12,"phase":"settled","squeeze":{"side":"banker","squeezer":"`+handle+`"}}`), &st); err != nil {
		t.Fatal(err)
	}
	return wire.Snapshot[lobbyEntry]{Table: lobbyEntry{ID: "t1", Name: "Table 1"}, State: st, Roads: *roadsView(t),
		ServerTime: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Names: wire.Names{handle: {Name: "Lin"}}}
}

// TestGolden pins every message's bytes: the files were written by the code that built the
// messages before this package did, and a page reads exactly these.
func TestGolden(t *testing.T) {
	lin := wire.Names{handle: access.Person{Name: "Lin"}}
	cases := []struct {
		name, golden string
		msg          func(t *testing.T) []byte
	}{
		{"an event everyone sees carries no names when it shows nobody", "event", func(t *testing.T) []byte {
			return wire.Event(event(t, cardDealt), nil)
		}},
		{"an event that shows a player carries their name by handle", "event_names", func(t *testing.T) []byte {
			return wire.Event(event(t, squeezed), lin)
		}},
		{"a wager goes to its owner as journalled", "mine", func(t *testing.T) []byte {
			data, err := tablejson.AppendEvent(nil, event(t, placed))
			if err != nil {
				t.Fatal(err)
			}
			return wire.Mine(57, data)
		}},
		{"a settlement goes to everyone without settlements", "settled_public", func(t *testing.T) []byte {
			return wire.Event(publicSettled(t), nil)
		}},
		{"a player's copy of a settlement holds their settlements alone", "settled_demo", func(t *testing.T) []byte {
			ss := event(t, settled).Settlements
			return wire.NewSettled(publicSettled(t)).For([]table.Settlement{ss[0], ss[2]})
		}},
		{"each player's copy splices in their own settlements", "settled_ann", func(t *testing.T) []byte {
			return wire.NewSettled(publicSettled(t)).For(event(t, settled).Settlements[1:2])
		}},
		{"totals list the bets in order", "totals", func(t *testing.T) []byte {
			return wire.Totals(57, 12, map[string]baccarat.Money{"player": 50000, "banker": 123000})
		}},
		{"roads leave out the cells' zero ties, pairs and naturals", "roads", func(t *testing.T) []byte {
			return wire.Roads(61, roadsView(t))
		}},
		{"a balance follows the event seq", "balance", func(t *testing.T) []byte {
			return wire.Balance(61, 99990000)
		}},
		{"a balance before any event has seq 0 and may be negative", "balance_negative", func(t *testing.T) []byte {
			return wire.Balance(0, -5)
		}},
		{"a peel shows the lift, never the card", "peel", func(t *testing.T) []byte {
			return wire.Peel(41, &table.PeelView{Side: "banker", Squeezer: handle, Card: 1, Lift: 40})
		}},
		{"a snapshot on the stream says its type", "snapshot", func(t *testing.T) []byte {
			return snapshot(t).Message()
		}},
		{"a snapshot over HTTP has no type", "snapshot_http", func(t *testing.T) []byte {
			b, err := json.Marshal(snapshot(t))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.msg(t)
			path := filepath.Join("testdata", c.golden+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestFastPathsMatchEnvelope compares the messages built by appending with encoding/json's
// bytes of the same envelope: byte for byte where the bytes are the same, and as decoded
// where a settlement's copy puts its settlements last.
func TestFastPathsMatchEnvelope(t *testing.T) {
	for _, c := range []struct {
		name    string
		seq     uint64
		balance baccarat.Money
		want    string // when the bytes differ from encoding/json's
	}{
		{"a balance of zero is sent, not left out", 1, 0, ""},
		{"a negative balance keeps its sign", 7, -123456, ""},
		{"the largest numbers fit the balance's one allocation", 1<<64 - 1, -1 << 63, ""},
		{"seq 0 is written, where encoding/json leaves it out (a page reads both as 0)", 0, 42, `{"type":"balance","seq":0,"balance":42}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := wire.Balance(c.seq, c.balance)
			want := (&wire.Envelope{Type: wire.TypeBalance, Seq: c.seq, Balance: &c.balance}).Encode()
			if c.want != "" {
				want = []byte(c.want)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
	t.Run("a wager's journalled bytes are its envelope's", func(t *testing.T) {
		e := event(t, placed)
		data, _ := tablejson.AppendEvent(nil, e)
		got, want := wire.Mine(e.Seq, data), (&wire.Envelope{Type: wire.TypeMine, Seq: e.Seq, Event: e}).Encode()
		if !bytes.Equal(got, want) {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	t.Run("a settlement's copy decodes as the event with the player's settlements", func(t *testing.T) {
		e := event(t, settled)
		mine := *e
		mine.Settlements = e.Settlements[1:2]
		var got, want any
		_ = json.Unmarshal(wire.NewSettled(publicSettled(t)).For(mine.Settlements), &got)
		_ = json.Unmarshal((&wire.Envelope{Type: wire.TypeMine, Seq: e.Seq, Event: &mine}).Encode(), &want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	})
}

// TestBalanceAllocations holds the balance message to its budget: every player whose
// balance moved gets one after every round.
func TestBalanceAllocations(t *testing.T) {
	buf := make([]byte, 0, 128)
	for _, c := range []struct {
		name string
		run  func()
		max  float64
	}{
		{"a balance message is one allocation", func() { _ = wire.Balance(1<<64-1, -1<<63) }, 1},
		{"appending to room enough allocates nothing", func() { buf = wire.AppendBalance(buf[:0], 61, 99990000) }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := testing.AllocsPerRun(100, c.run); n > c.max {
				t.Errorf("%v allocations, want at most %v", n, c.max)
			}
		})
	}
}
