package live

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/table"
)

// journalled is an event as the journal holds it, and its bytes.
func journalled(t testing.TB, data string) (*table.Event, []byte) {
	var e table.Event
	if err := json.Unmarshal([]byte(data), &e); err != nil {
		t.Fatal(err)
	}
	return &e, []byte(data)
}

var squeezeEvents = []string{
	`{"seq":7,"type":"card_dealt","round":1,"actor":"dealer","role":"dealer","card":{"card":"3d","position":"B1","left":414,"hidden":true,"for":"op-7731-ann"}}`,
	`{"seq":10,"type":"squeeze_started","round":1,"actor":"dealer","role":"dealer","player":"op-7731-ann","side":"banker"}`,
	`{"seq":11,"type":"squeeze_ended","round":1,"actor":"op-7731-ann","role":"player","player":"op-7731-ann","side":"banker","cards":["3d","3s"]}`,
}

// TestPublicStreamNamesTheSqueezerByHandle: what every watcher of a table gets names the
// player who squeezes by their public handle, with their name, and never by account id;
// only the squeezer's own copy of a face-down card (the card itself) carries their id.
func TestPublicStreamNamesTheSqueezerByHandle(t *testing.T) {
	p := access.NewPeople([]byte("secret"), nil)
	h := p.Handle("op-7731-ann")
	for _, data := range squeezeEvents {
		e, raw := journalled(t, data)
		for _, d := range eventDeliveries(nil, e, raw, context.Background(), p) {
			ids := bytes.Contains(d.Data, []byte("op-7731-ann"))
			switch {
			case d.Player == "":
				if ids || !bytes.Contains(d.Data, []byte(`"`+h+`"`)) || !bytes.Contains(d.Data, []byte(`"names":{"`+h+`":{"number":`)) {
					t.Errorf("%s: everyone's copy %s, want %s with its number and no account id", e.Type, d.Data, h)
				}
			case d.Player != "op-7731-ann" || !ids:
				t.Errorf("%s: a private copy %q %s", e.Type, d.Player, d.Data)
			}
		}
		if e.Type == table.EvCardDealt && e.Card.For != "op-7731-ann" || e.Type != table.EvCardDealt && e.Player() != "op-7731-ann" {
			t.Errorf("%s: the table's own event was changed: %+v", e.Type, e)
		}
	}
}

// BenchmarkPublicEvent: the cost of the public copy on the stream's hot path, once per
// event for every watcher: an event that names no player (a face-up card, nearly all of
// them) and a squeezed card (the handle, and the name read from People's cache).
func BenchmarkPublicEvent(b *testing.B) {
	p := access.NewPeople([]byte("secret"), nil)
	for name, data := range map[string]string{
		"face-up card":  `{"seq":6,"type":"card_dealt","round":1,"actor":"dealer","role":"dealer","card":{"card":"2h","position":"P1","left":415}}`,
		"squeezed card": squeezeEvents[0],
	} {
		e, raw := journalled(b, data)
		for _, people := range []People{nil, p} {
			label := name + "/ids"
			if people != nil {
				label = name + "/handles"
			}
			b.Run(label, func(b *testing.B) {
				b.ReportAllocs()
				var out []Delivery
				for b.Loop() {
					out = eventDeliveries(out[:0], e, raw, context.Background(), people)
				}
			})
		}
	}
}
