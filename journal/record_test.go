package journal

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

var t0 = time.Date(2025, 3, 1, 20, 0, 0, 123456789, time.UTC)

func chain(table string, n int) []Record {
	var out []Record
	var h Head
	for i := range n {
		r := Seal(h, Record{Table: table, Type: "wager", Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), At: t0.Add(time.Duration(i) * time.Second)})
		out = append(out, r)
		h = r.Head()
	}
	return out
}

// TestSumEncoding pins the documented canonical encoding by building it by hand: changing
// the encoding breaks every stored journal, so it must be deliberate.
func TestSumEncoding(t *testing.T) {
	r := Record{Table: "t1", Seq: 2, Type: "dealt", Data: json.RawMessage(`{"c":"Ah"}`), At: time.Unix(0, 258)}
	r.Prev[0], r.Prev[31] = 0xAB, 0xCD
	want := "baccarat/journal/v1\x00" + string(r.Prev[:]) +
		"\x00\x02t1" + "\x00\x00\x00\x00\x00\x00\x00\x02" + "\x00\x05dealt" +
		"\x00\x00\x00\x00\x00\x00\x01\x02" + "\x00\x00\x00\x0a" + `{"c":"Ah"}`
	if got, w := r.Sum(), Hash(sha256.Sum256([]byte(want))); got != w {
		t.Fatalf("Sum = %s, want %s", got, w)
	}
	// The same vector computed outside Go (Python's hashlib over the bytes above).
	if got := r.Sum().String(); got != "fd588b7fa06ebdd6f5fd8ae4295abc044f26670a5c909cf4abdf251938b8b2ca" {
		t.Fatalf("Sum = %s, want the published vector", got)
	}
	loc := r
	loc.At = r.At.In(time.FixedZone("X", 3600))
	if loc.Sum() != r.Sum() {
		t.Error("the hash must not depend on the time zone of At")
	}
}

func TestVerifyDetectsEveryEditedByte(t *testing.T) {
	recs := chain("t1", 5)
	if err := Verify(recs); err != nil {
		t.Fatalf("a sealed chain must verify: %v", err)
	}
	edits := []struct {
		name string
		edit func(r *Record)
	}{
		{"an edited data byte", func(r *Record) { r.Data = json.RawMessage(strings.Replace(string(r.Data), "2", "7", 1)) }},
		{"an edited type", func(r *Record) { r.Type = "wagers" }},
		{"an edited table", func(r *Record) { r.Table = "t2" }},
		{"an edited time", func(r *Record) { r.At = r.At.Add(time.Nanosecond) }},
		{"an edited prev", func(r *Record) { r.Prev[7] ^= 1 }},
		{"an edited hash", func(r *Record) { r.Hash[0] ^= 1 }},
		{"a resealed forgery breaks the next link", func(r *Record) { r.Data = json.RawMessage(`{"n":99}`); r.Hash = r.Sum() }},
	}
	for _, e := range edits {
		t.Run(e.name+" is detected", func(t *testing.T) {
			bad := append([]Record(nil), recs...)
			e.edit(&bad[2])
			err := Verify(bad)
			if baccarat.ErrorCode(err) != baccarat.CodeIntegrity {
				t.Fatalf("Verify = %v, want integrity error", err)
			}
			if !strings.Contains(err.Error(), "record 3:") && !strings.Contains(err.Error(), "record 4:") {
				t.Fatalf("error %q does not name the first bad seq", err)
			}
		})
	}
	t.Run("a dropped record is detected", func(t *testing.T) {
		bad := append(append([]Record(nil), recs[:2]...), recs[3:]...)
		if err := Verify(bad); err == nil || !strings.Contains(err.Error(), "record 3 is missing") {
			t.Fatalf("Verify = %v", err)
		}
	})
	t.Run("a stretch from the middle verifies", func(t *testing.T) {
		if err := Verify(recs[2:]); err != nil {
			t.Fatal(err)
		}
	})
}

func TestValidate(t *testing.T) {
	good := chain("t1", 1)[0]
	cases := []struct {
		name string
		edit func(r *Record)
		code baccarat.Code
	}{
		{"a sealed record is valid", func(r *Record) {}, ""},
		{"the table is an id", func(r *Record) { r.Table = "t 1" }, baccarat.CodeBadRequest},
		{"the type is an id", func(r *Record) { r.Type = "" }, baccarat.CodeBadRequest},
		{"data is JSON", func(r *Record) { r.Data = json.RawMessage("{") }, baccarat.CodeBadRequest},
		{"a time is required", func(r *Record) { r.At = time.Time{} }, baccarat.CodeBadRequest},
		{"seq starts at 1", func(r *Record) { r.Seq = 0 }, baccarat.CodeBadRequest},
		{"an unsealed record is refused", func(r *Record) { r.Hash = Hash{} }, baccarat.CodeBadRequest},
		{"the first record starts from the zero hash", func(r *Record) { r.Prev[0] = 1; r.Hash = r.Sum() }, baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := good
			c.edit(&r)
			if got := baccarat.ErrorCode(r.Validate()); got != c.code {
				t.Fatalf("Validate code %q, want %q", got, c.code)
			}
		})
	}
}

func TestAdvance(t *testing.T) {
	a, b := chain("a", 3), chain("b", 2)
	heads := map[string]Head{"a": a[0].Head()}
	cases := []struct {
		name string
		recs []Record
		code baccarat.Code
	}{
		{"records extend their heads", []Record{a[1], b[0], a[2], b[1]}, ""},
		{"a seq that skips the head is a conflict", []Record{a[2]}, baccarat.CodeConflict},
		{"a seq at or below the head is a conflict", []Record{a[0]}, baccarat.CodeConflict},
		{"a prev that is not the head's hash is a conflict", []Record{Seal(Head{Seq: 1}, Record{Table: "a", Type: "x", Data: json.RawMessage("1"), At: t0})}, baccarat.CodeConflict},
		{"an unsealed record is malformed", []Record{func() Record { r := a[1]; r.Hash = Hash{}; return r }()}, baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			next, err := Advance(heads, c.recs)
			if got := baccarat.ErrorCode(err); got != c.code {
				t.Fatalf("Advance = %v, want code %q", err, c.code)
			}
			if err == nil && (next["a"] != a[2].Head() || next["b"] != b[1].Head()) {
				t.Fatalf("new heads %v", next)
			}
			if heads["a"] != a[0].Head() || len(heads) != 1 {
				t.Fatal("Advance modified its input")
			}
		})
	}
}

func TestLease(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	held := Lease{Table: "t1", Owner: "s1", Expires: now.Add(10 * time.Second)}
	cases := []struct {
		name   string
		l      Lease
		owner  string
		at     time.Time
		wantOK bool
	}{
		{"a free table can be taken", Lease{Table: "t1"}, "s1", now, true},
		{"the owner re-acquires to extend", held, "s1", now, true},
		{"another server is refused while the lease runs", held, "s2", now.Add(9 * time.Second), false},
		{"another server takes a lapsed lease", held, "s2", now.Add(10 * time.Second), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := c.l.Acquire(c.owner, 5*time.Second, c.at)
			if ok != c.wantOK {
				t.Fatalf("Acquire ok = %v, want %v", ok, c.wantOK)
			}
			if ok && (got.Owner != c.owner || !got.Expires.Equal(c.at.Add(5*time.Second))) {
				t.Fatalf("Acquire = %+v", got)
			}
			if !ok && got != c.l {
				t.Fatal("a refused Acquire must not change the lease")
			}
		})
	}
	if _, err := held.Renew("s2", time.Second, now); baccarat.ErrorCode(err) != baccarat.CodeConflict {
		t.Errorf("renewing another's lease: %v, want conflict", err)
	}
	if l, err := held.Renew("s1", time.Second, now.Add(time.Hour)); err != nil || !l.Expires.Equal(now.Add(time.Hour+time.Second)) {
		t.Errorf("a lapsed lease nobody took renews: %+v %v", l, err)
	}
	if l := held.Release("s2"); l != held {
		t.Error("releasing another's lease must change nothing")
	}
	if l := held.Release("s1"); l.Held(now) || l.Table != "t1" {
		t.Errorf("Release = %+v", l)
	}
}
