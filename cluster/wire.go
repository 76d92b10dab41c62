package cluster

import (
	"encoding/binary"
	"errors"

	"github.com/tablehouse/baccarat/live"
)

// A table's stream messages travel between servers in frames of a small binary format, not
// JSON: a settlement carries a message for each of thousands of players, each message is
// JSON already, and encoding/json spent its time checking those bytes again, on the owner
// and on every server.
//
// A frame is
//
//	version (1 byte, 1)
//	from    (uvarint length, bytes): the server that published it
//	batch   (uvarint): the publisher's count of its Publish calls
//	part    (uvarint), parts (uvarint): a batch too large for one NATS message goes in parts
//	then deliveries to the end, each:
//	  seq (uvarint), flags (1 byte: 1 event, 2 moment),
//	  player (uvarint length, bytes), data (uvarint length, bytes)
//
// A receiver hands a batch to its streams whole, once every part is in: a result, a
// player's own settlement and their balance then reach that player's stream together.
const wireVersion = 1

const (
	flagEvent  = 1
	flagMoment = 2
	flagSpread = 4
)

var errFrame = errors.New("cluster: a malformed message frame")

// frameHeader is what precedes a frame's deliveries.
type frameHeader struct {
	From        string
	Batch       uint64
	Part, Parts uint64
}

// deliverySize bounds one delivery's encoded size.
func deliverySize(d *live.Delivery) int {
	return 3*binary.MaxVarintLen64 + 1 + len(d.Player) + len(d.Data)
}

// encodeFrames splits ds, in order, into frames of at most limit bytes (a delivery larger
// than that goes alone in its frame).
func encodeFrames(from string, batch uint64, ds []live.Delivery, limit int) [][]byte {
	headSize := 1 + 4*binary.MaxVarintLen64 + len(from)
	var parts [][]live.Delivery
	for start := 0; start < len(ds) || len(parts) == 0; {
		end, size := start, headSize
		for end < len(ds) && (end == start || size+deliverySize(&ds[end]) <= limit) {
			size += deliverySize(&ds[end])
			end++
		}
		parts = append(parts, ds[start:end])
		start = end
	}
	frames := make([][]byte, len(parts))
	for i, part := range parts {
		size := headSize
		for j := range part {
			size += deliverySize(&part[j])
		}
		b := make([]byte, 0, size)
		b = append(b, wireVersion)
		b = binary.AppendUvarint(b, uint64(len(from)))
		b = append(b, from...)
		b = binary.AppendUvarint(b, batch)
		b = binary.AppendUvarint(b, uint64(i))
		b = binary.AppendUvarint(b, uint64(len(parts)))
		for j := range part {
			d := &part[j]
			b = binary.AppendUvarint(b, d.Seq)
			var flags byte
			if d.Event {
				flags |= flagEvent
			}
			if d.Moment {
				flags |= flagMoment
			}
			if d.Spread {
				flags |= flagSpread
			}
			b = append(b, flags)
			b = binary.AppendUvarint(b, uint64(len(d.Player)))
			b = append(b, d.Player...)
			b = binary.AppendUvarint(b, uint64(len(d.Data)))
			b = append(b, d.Data...)
		}
		frames[i] = b
	}
	return frames
}

// decodeFrame reads a frame. The deliveries' data are slices of b, which the caller gives
// up.
func decodeFrame(b []byte) (frameHeader, []live.Delivery, error) {
	var h frameHeader
	r := reader{b: b}
	if v := r.byte(); v != wireVersion {
		return h, nil, errFrame
	}
	h.From = string(r.bytes())
	h.Batch, h.Part, h.Parts = r.uvarint(), r.uvarint(), r.uvarint()
	if r.bad || h.Part >= h.Parts {
		return h, nil, errFrame
	}
	var ds []live.Delivery
	for !r.bad && len(r.b) > 0 {
		var d live.Delivery
		d.Seq = r.uvarint()
		flags := r.byte()
		d.Event, d.Moment, d.Spread = flags&flagEvent != 0, flags&flagMoment != 0, flags&flagSpread != 0
		d.Player = string(r.bytes())
		d.Data = r.bytes()
		if flags&^(flagEvent|flagMoment|flagSpread) != 0 || len(d.Data) == 0 {
			r.bad = true
		}
		ds = append(ds, d)
	}
	if r.bad {
		return h, nil, errFrame
	}
	return h, ds, nil
}

// reader reads a frame's fields; a read past the end or a malformed number marks it bad
// and reads zeros.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) byte() byte {
	if len(r.b) == 0 {
		r.bad = true
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes() []byte {
	n := r.uvarint()
	if r.bad || n > uint64(len(r.b)) {
		r.bad = true
		return nil
	}
	out := r.b[:n:n]
	r.b = r.b[n:]
	return out
}

// assembler puts a table's batches back together from their frames. One runs per
// subscription (NATS hands a subscription its messages one at a time, in each publisher's
// order), so it needs no lock.
type assembler struct {
	pending map[string]*partial // by table
}

type partial struct {
	from  string
	batch uint64
	next  uint64 // the part expected next
	ds    []live.Delivery
}

// add takes a table's frame and returns the deliveries now ready, in order: a whole batch
// once its last part is in. A batch left incomplete (its publisher died mid-way, or a part
// was lost) goes out as far as it came when the table's next frame shows it will not be
// finished; a gap in the events is then filled from the journal.
func (a *assembler) add(tableID string, h frameHeader, ds []live.Delivery) []live.Delivery {
	if a.pending == nil {
		a.pending = map[string]*partial{}
	}
	var out []live.Delivery
	p := a.pending[tableID]
	if p != nil && (p.from != h.From || p.batch != h.Batch || p.next != h.Part) {
		out = p.ds // not to be finished: what came of it goes first
		delete(a.pending, tableID)
		p = nil
	}
	if p == nil {
		if h.Part != 0 {
			return append(out, ds...) // its first parts are lost: this one alone
		}
		if h.Parts == 1 {
			return append(out, ds...)
		}
		p = &partial{from: h.From, batch: h.Batch}
		a.pending[tableID] = p
	}
	p.ds = append(p.ds, ds...)
	p.next++
	if p.next == h.Parts {
		delete(a.pending, tableID)
		return append(out, p.ds...)
	}
	return out
}
