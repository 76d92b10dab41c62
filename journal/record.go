// Package journal is each table's append-only event log: the durable record a table is
// rebuilt from after a crash and audited from afterwards. Records are hash-chained, so an
// edited, dropped or reordered record is detected by Verify; appends must extend the head
// exactly, which is what stops two servers from writing one table. Like ledger it is pure:
// stores persist, this package decides.
package journal

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// Limits on a record.
const (
	MaxTypeLen = 64
	// MaxDataLen bounds one event's JSON. The largest are a round's settlement and a void,
	// which list every wager of the round: table.MaxWagersPerRound keeps them well under it.
	MaxDataLen = 16 << 20
)

// Hash is a SHA-256 digest of a record.
type Hash [sha256.Size]byte

// String is the hash in lower-case hex.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// MarshalText writes the hash in hex.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads a hash in hex.
func (h *Hash) UnmarshalText(b []byte) error {
	n, err := hex.Decode(h[:], b)
	if err != nil || n != len(h) || len(b) != 2*len(h) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a SHA-256 hash: want 64 hex digits", b)
	}
	return nil
}

// Record is one event of one table.
type Record struct {
	Table string          `json:"table"`
	Seq   uint64          `json:"seq"` // 1-based and consecutive per table
	Type  string          `json:"type"`
	Data  json.RawMessage `json:"data"` // kept byte for byte: the hash covers these exact bytes
	At    time.Time       `json:"at"`
	Prev  Hash            `json:"prev"` // the previous record's Hash; zero for Seq 1
	Hash  Hash            `json:"hash"` // Sum() of this record
}

// Head is where a table's journal ends: its last Seq and Hash, zero for an empty journal.
type Head struct {
	Seq  uint64 `json:"seq"`
	Hash Hash   `json:"hash"`
}

// Head is the head of a journal that ends with r.
func (r Record) Head() Head { return Head{Seq: r.Seq, Hash: r.Hash} }

// hashDomain starts every hashed encoding so a record hash can never be mistaken for the
// hash of anything else the platform signs (shoe commitments, ledger digests).
const hashDomain = "baccarat/journal/v1\x00"

// Sum is the record's hash: SHA-256 over this canonical encoding of its fields, every
// integer big-endian and every string or byte field preceded by its length so no two
// records encode alike:
//
//	"baccarat/journal/v1" 0x00
//	Prev                  32 bytes
//	len(Table) uint16,    Table
//	Seq                   uint64
//	len(Type) uint16,     Type
//	At                    int64 Unix nanoseconds (time zone and monotonic reading ignored)
//	len(Data) uint32,     Data (the JSON bytes as given, not re-encoded)
//
// Every field a replay depends on is covered, so editing any byte of a stored record,
// or moving it, breaks either its own hash or the next record's Prev.
func (r Record) Sum() Hash {
	b := make([]byte, 0, len(hashDomain)+32+2+len(r.Table)+8+2+len(r.Type)+8+4+len(r.Data))
	b = append(b, hashDomain...)
	b = append(b, r.Prev[:]...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(r.Table)))
	b = append(b, r.Table...)
	b = binary.BigEndian.AppendUint64(b, r.Seq)
	b = binary.BigEndian.AppendUint16(b, uint16(len(r.Type)))
	b = append(b, r.Type...)
	b = binary.BigEndian.AppendUint64(b, uint64(r.At.UnixNano()))
	b = binary.BigEndian.AppendUint32(b, uint32(len(r.Data)))
	b = append(b, r.Data...)
	return sha256.Sum256(b)
}

// Seal makes r the record after prev: it sets Seq to prev.Seq+1, Prev to prev.Hash and Hash
// to the record's Sum. Start a table's journal with Seal(Head{}, r).
func Seal(prev Head, r Record) Record {
	r.Seq = prev.Seq + 1
	r.Prev = prev.Hash
	r.Hash = r.Sum()
	return r
}

// Validate checks that r is well-formed and sealed: a table id, a Seq from 1, a type, a
// storable time, JSON data, and a Hash equal to its Sum. Errors are bad_request.
func (r Record) Validate() error {
	bad := func(format string, args ...any) error {
		return baccarat.Errorf(baccarat.CodeBadRequest, "journal %s record %d: "+format, append([]any{r.Table, r.Seq}, args...)...)
	}
	switch {
	case !baccarat.ValidStoredID(r.Table):
		return bad("%q is not a table id", r.Table)
	case r.Seq == 0 || r.Seq > math.MaxInt64:
		return bad("seq must be from 1 to 2^63-1")
	case !baccarat.ValidStoredID(r.Type) || len(r.Type) > MaxTypeLen:
		return bad("type %q: want an id of at most %d bytes", r.Type, MaxTypeLen)
	case !ledger.StorableTime(r.At):
		return bad("time %v is missing or outside the years 1678–2262", r.At)
	case len(r.Data) > MaxDataLen:
		return bad("data is %d bytes, at most %d allowed", len(r.Data), MaxDataLen)
	case !json.Valid(r.Data):
		return bad("data is not a JSON document")
	case r.Seq == 1 && r.Prev != Hash{}:
		return bad("the first record's prev must be zero")
	case r.Hash != r.Sum():
		return bad("hash does not match the record: seal it with Seal")
	}
	return nil
}

// Verify checks that records are one unbroken stretch of one table's chain: each record's
// Hash matches its contents, seqs are consecutive, each Prev is the previous Hash, and a
// chain starting at Seq 1 starts from the zero hash. It returns an integrity error naming
// the table and the first bad seq, nil for a sound (or empty) stretch.
func Verify(records []Record) error {
	var prev Record
	for i, r := range records {
		bad := func(why string) error {
			return baccarat.Errorf(baccarat.CodeIntegrity, "journal %s: record %d: %s", r.Table, r.Seq, why)
		}
		switch {
		case i > 0 && r.Table != prev.Table:
			return bad("belongs to another table than record " + prev.Table)
		case i == 0 && r.Seq == 0:
			return bad("seq 0: records are numbered from 1")
		case i > 0 && r.Seq != prev.Seq+1:
			return baccarat.Errorf(baccarat.CodeIntegrity, "journal %s: record %d: follows record %d; record %d is missing or moved",
				r.Table, r.Seq, prev.Seq, prev.Seq+1)
		case r.Hash != r.Sum():
			return bad("its contents do not match its hash")
		case i == 0 && r.Seq == 1 && r.Prev != Hash{}:
			return bad("the first record does not start from the zero hash")
		case i > 0 && r.Prev != prev.Hash:
			return bad("does not chain to the record before it")
		}
		prev = r
	}
	return nil
}
