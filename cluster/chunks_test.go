package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestMessagesFitOneClusterMessage: a settlement's thousands of deliveries go out in parts,
// each within what one NATS message carries, in their order and none left out.
func TestMessagesFitOneClusterMessage(t *testing.T) {
	var w []deliveryWire
	for i := range 5000 {
		data := fmt.Sprintf(`{"type":"mine","seq":9,"event":{"settlements":[{"wager":%d,"player":"%064d","net":-1000000000000000}]}}`, i, i)
		w = append(w, deliveryWire{Seq: 9, Player: fmt.Sprintf("%064d", i), Event: true, Data: json.RawMessage(data)})
	}
	const limit = 64 << 10
	parts := chunks(w, limit)
	var all []deliveryWire
	for _, p := range parts {
		b, _ := json.Marshal(p)
		if len(b) > limit {
			t.Fatalf("a part of %d deliveries is %d bytes, over %d", len(p), len(b), limit)
		}
		all = append(all, p...)
	}
	if len(parts) < 2 || !slices.EqualFunc(all, w, func(a, b deliveryWire) bool { return a.Player == b.Player && string(a.Data) == string(b.Data) }) {
		t.Fatalf("%d parts holding %d deliveries, want all %d in order", len(parts), len(all), len(w))
	}
	if got := chunks(w[:1], 10); len(got) != 1 || len(got[0]) != 1 {
		t.Fatalf("a delivery over the limit goes alone: %v", got)
	}
}
