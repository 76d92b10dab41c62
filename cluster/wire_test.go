package cluster

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tablehouse/baccarat/live"
)

func settlementDeliveries(n int) []live.Delivery {
	ds := []live.Delivery{{Seq: 9, Event: true, Data: []byte(`{"type":"event","seq":9}`)}}
	for i := range n {
		data := fmt.Sprintf(`{"type":"mine","seq":9,"event":{"settlements":[{"wager":%d,"player":"%064d","net":-1000000000000000}]}}`, i, i)
		ds = append(ds, live.Delivery{Seq: 9, Player: fmt.Sprintf("%064d", i), Event: true, Data: []byte(data)})
	}
	return append(ds, live.Delivery{Seq: 9, Moment: true, Data: []byte(`{"type":"totals","seq":9}`)},
		live.Delivery{Seq: 10, Event: true, Spread: true, Data: []byte(`{"type":"event","seq":10}`)})
}

func sameDeliveries(a, b []live.Delivery) bool {
	return slices.EqualFunc(a, b, func(x, y live.Delivery) bool {
		return x.Seq == y.Seq && x.Player == y.Player && x.Event == y.Event && x.Moment == y.Moment && x.Spread == y.Spread &&
			string(x.Data) == string(y.Data)
	})
}

// TestMessagesFitOneClusterMessage: a settlement's thousands of deliveries go out in frames,
// each within what one NATS message carries, and come back whole, in their order, with
// every field.
func TestMessagesFitOneClusterMessage(t *testing.T) {
	ds := settlementDeliveries(5000)
	const limit = 64 << 10
	frames := encodeFrames("srv-a", 7, ds, limit)
	if len(frames) < 2 {
		t.Fatalf("%d frames, want several", len(frames))
	}
	var a assembler
	var got []live.Delivery
	for i, f := range frames {
		if len(f) > limit {
			t.Fatalf("frame %d is %d bytes, over %d", i, len(f), limit)
		}
		h, part, err := decodeFrame(f)
		if err != nil {
			t.Fatal(err)
		}
		if h.From != "srv-a" || h.Batch != 7 || h.Part != uint64(i) || h.Parts != uint64(len(frames)) {
			t.Fatalf("frame %d: header %+v", i, h)
		}
		ready := a.add("t1", h, part)
		if i < len(frames)-1 && len(ready) > 0 {
			t.Fatalf("frame %d of %d: %d deliveries handed on before the batch was whole", i+1, len(frames), len(ready))
		}
		got = append(got, ready...)
	}
	if !sameDeliveries(got, ds) {
		t.Fatalf("%d deliveries came back, want the %d sent, in order", len(got), len(ds))
	}
	if f := encodeFrames("srv-a", 8, ds[1:2], 10); len(f) != 1 {
		t.Fatalf("a delivery over the limit goes alone in one frame: %d frames", len(f))
	}
}

// TestAnUnfinishedBatchIsDeliveredAsFarAsItCame: when a publisher dies between the parts of
// a batch, or a part is lost, what came of the batch still reaches the streams, before the
// table's next messages, which come whole.
func TestAnUnfinishedBatchIsDeliveredAsFarAsItCame(t *testing.T) {
	ds := settlementDeliveries(3000)
	frames := encodeFrames("old-owner", 1, ds, 64<<10)
	var a assembler
	var got []live.Delivery
	take := func(f []byte) {
		h, part, err := decodeFrame(f)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.add("t1", h, part)...)
	}
	take(frames[0])
	take(frames[1]) // the old owner dies here
	if len(got) != 0 {
		t.Fatalf("%d delivered before the batch showed it would not be finished", len(got))
	}
	next := []live.Delivery{{Seq: 10, Event: true, Data: []byte(`{"seq":10}`)}}
	take(encodeFrames("new-owner", 1, next, 64<<10)[0])
	_, p0, _ := decodeFrame(frames[0])
	_, p1, _ := decodeFrame(frames[1])
	want := append(append(append([]live.Delivery{}, p0...), p1...), next...)
	if !sameDeliveries(got, want) {
		t.Fatalf("got %d deliveries, want the %d of the first two parts and then the new owner's", len(got), len(want))
	}
	// A batch whose first part was lost: the parts that come go on as they come.
	got = nil
	take(frames[2])
	if len(got) == 0 {
		t.Fatal("a part whose batch's beginning was lost was held back")
	}
}

// TestMalformedFramesAreRefused: a frame cut short, with a length past its end, an unknown
// version or unknown flags decodes to an error, never a panic or a delivery.
func TestMalformedFramesAreRefused(t *testing.T) {
	good := encodeFrames("a", 1, settlementDeliveries(2), 1<<20)[0]
	head := []byte{wireVersion, 1, 'a', 1, 0, 1} // from "a", batch 1, part 0 of 1
	cases := map[string][]byte{
		"empty":           nil,
		"unknown version": append([]byte{9}, good[1:]...),
		"cut short":       good[:len(good)-3],
		"part past parts": {wireVersion, 1, 'a', 1, 2, 2},
		"unknown flags":   append(slices.Clone(head), 9, 0x80, 0, 2, '{', '}'),
		"unknown flag 8":  append(slices.Clone(head), 9, 0x08, 0, 2, '{', '}'),
		"length past end": append(slices.Clone(head), 9, flagEvent, 0, 200, '{'),
		"empty data":      append(slices.Clone(head), 9, flagEvent, 0, 0),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			if _, ds, err := decodeFrame(b); err == nil {
				t.Fatalf("decoded %d deliveries from a malformed frame", len(ds))
			}
		})
	}
}

// FuzzDecodeFrame: whatever arrives on a table's subject, decoding never panics, and what
// decodes encodes back to the same deliveries.
func FuzzDecodeFrame(f *testing.F) {
	f.Add(encodeFrames("srv", 3, settlementDeliveries(3), 1<<20)[0])
	f.Add([]byte{wireVersion, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, ds, err := decodeFrame(b)
		if err != nil {
			return
		}
		again := encodeFrames(h.From, h.Batch, ds, 1<<30)
		if len(again) != 1 {
			t.Fatalf("%d frames", len(again))
		}
		_, ds2, err := decodeFrame(again[0])
		if err != nil || !sameDeliveries(ds, ds2) {
			t.Fatalf("re-encoded frame differs: %v", err)
		}
	})
}
