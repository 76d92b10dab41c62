// Package journaltest is the conformance suite every journal.Store, and every
// journal.Committer that is also a ledger.Store, runs on itself.
package journaltest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// At is the time of the suite's first record; later records are a second apart. It has
// nanoseconds and a zone so that stores must keep times exactly.
var At = time.Date(2025, 3, 1, 20, 0, 0, 123456789, time.FixedZone("CET", 3600))

// Goroutines is how many writers the race tests start at once.
const Goroutines = 16

// Run runs the journal suite. open must return a new, empty store for each call; subtests
// run in parallel.
func Run(t *testing.T, open func(t *testing.T) journal.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s journal.Store)
	}{
		{"an empty store has no tables and zero heads", testEmpty},
		{"records load back byte for byte", testRoundTrip},
		{"an append must extend the head", testAppendRules},
		{"a multi-record append is all or nothing", testAppendAtomic},
		{"two writers racing for one head: exactly one wins", testAppendRace},
		{"a lease is held by one owner until it lapses", testLease},
		{"racing acquirers: exactly one gets the lease", testLeaseRace},
		{"lease calls validate their arguments", testLeaseArgs},
		{"a lease's epoch rises with each new holder and survives a release", testLeaseEpoch},
		{"a lease seized is a new tenure; vacancies are the tables one may take", testSeizeAndVacant},
		{"audit verifies every table", testAudit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

// Chain returns n records of table sealed after prev, a second apart from At, and the new
// head. Data is deliberately not in Go's canonical JSON form, to catch stores that
// re-encode it.
func Chain(prev journal.Head, table string, n int) ([]journal.Record, journal.Head) {
	out := make([]journal.Record, 0, n)
	for range n {
		seq := prev.Seq + 1
		r := journal.Seal(prev, journal.Record{
			Table: table, Type: "wager_placed", At: At.Add(time.Duration(seq) * time.Second),
			Data: json.RawMessage(fmt.Sprintf(`{ "seq" : %d,"note":"é\u00e9" }`, seq)),
		})
		out = append(out, r)
		prev = r.Head()
	}
	return out, prev
}

// Append appends records or fails the test.
func Append(t testing.TB, s journal.Store, recs ...journal.Record) {
	t.Helper()
	if err := s.Append(t.Context(), recs...); err != nil {
		t.Fatalf("Append: %v", err)
	}
}

// WantHead fails unless table's head is want.
func WantHead(t testing.TB, s journal.Store, table string, want journal.Head) {
	t.Helper()
	got, err := s.Head(t.Context(), table)
	if err != nil || got != want {
		t.Fatalf("Head(%s) = %v, %v; want %v", table, got, err, want)
	}
}

// WantCode fails unless err carries code.
func WantCode(t testing.TB, err error, code baccarat.Code) {
	t.Helper()
	if got := baccarat.ErrorCode(err); got != code {
		t.Fatalf("error %v has code %q, want %q", err, got, code)
	}
}

// SameRecords reports whether a and b hold the same records, times compared as instants.
func SameRecords(a, b []journal.Record) bool {
	return slices.EqualFunc(a, b, func(x, y journal.Record) bool {
		return x.Table == y.Table && x.Seq == y.Seq && x.Type == y.Type && string(x.Data) == string(y.Data) &&
			x.At.Equal(y.At) && x.Prev == y.Prev && x.Hash == y.Hash
	})
}

func testEmpty(t *testing.T, s journal.Store) {
	tables, err := s.Tables(t.Context())
	if err != nil || len(tables) != 0 {
		t.Fatalf("Tables = %v, %v; want none", tables, err)
	}
	WantHead(t, s, "t1", journal.Head{})
	recs, err := s.Load(t.Context(), "t1", 1)
	if err != nil || len(recs) != 0 {
		t.Fatalf("Load = %v, %v; want none", recs, err)
	}
	_, err = s.Load(t.Context(), "no/such", 1)
	WantCode(t, err, baccarat.CodeBadRequest)
	_, err = s.Head(t.Context(), "")
	WantCode(t, err, baccarat.CodeBadRequest)
}

func testRoundTrip(t *testing.T, s journal.Store) {
	a, ha := Chain(journal.Head{}, "t2", 5)
	b, hb := Chain(journal.Head{}, "t1", 3)
	Append(t, s, a[:2]...)
	Append(t, s, a[2], b[0], a[3], b[1]) // tables may interleave in one append
	Append(t, s, a[4], b[2])
	got, err := s.Load(t.Context(), "t2", 1)
	if err != nil || !SameRecords(got, a) {
		t.Fatalf("Load(t2, 1) = %v, %v;\nwant %v", got, err, a)
	}
	if err := journal.Verify(got); err != nil {
		t.Fatalf("loaded records do not verify: %v", err)
	}
	for _, from := range []uint64{0, 1, 3, 5, 6, 99} {
		got, err := s.Load(t.Context(), "t2", from)
		want := a[min(max(int(from), 1)-1, len(a)):]
		if err != nil || !SameRecords(got, want) {
			t.Fatalf("Load(t2, %d) = %d records, %v; want %d", from, len(got), err, len(want))
		}
	}
	WantHead(t, s, "t2", ha)
	WantHead(t, s, "t1", hb)
	tables, err := s.Tables(t.Context())
	if err != nil || !slices.Equal(tables, []string{"t1", "t2"}) {
		t.Fatalf("Tables = %v, %v; want [t1 t2]", tables, err)
	}
}

func testAppendRules(t *testing.T, s journal.Store) {
	recs, head := Chain(journal.Head{}, "t1", 3)
	Append(t, s, recs...)
	next, _ := Chain(head, "t1", 2)
	forged := journal.Seal(journal.Head{Seq: head.Seq}, journal.Record{Table: "t1", Type: "x", Data: json.RawMessage(`{}`), At: At})
	unsealed := next[0]
	unsealed.Hash = journal.Hash{}
	cases := []struct {
		name string
		recs []journal.Record
		code baccarat.Code
	}{
		{"a seq past head+1 is a conflict", next[1:], baccarat.CodeConflict},
		{"a seq at the head is a conflict", recs[2:], baccarat.CodeConflict},
		{"a prev that is not the head's hash is a conflict", []journal.Record{forged}, baccarat.CodeConflict},
		{"an unsealed record is refused", []journal.Record{unsealed}, baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			WantCode(t, s.Append(t.Context(), c.recs...), c.code)
			WantHead(t, s, "t1", head)
		})
	}
	if err := s.Append(t.Context()); err != nil {
		t.Fatalf("an empty append must do nothing: %v", err)
	}
	Append(t, s, next...)
}

func testAppendAtomic(t *testing.T, s journal.Store) {
	recs, head := Chain(journal.Head{}, "t1", 3)
	Append(t, s, recs...)
	next, _ := Chain(head, "t1", 4)
	other, _ := Chain(journal.Head{}, "t2", 1)
	WantCode(t, s.Append(t.Context(), other[0], next[0], next[1], next[3]), baccarat.CodeConflict)
	WantHead(t, s, "t1", head)
	WantHead(t, s, "t2", journal.Head{})
	if got, _ := s.Load(t.Context(), "t1", 1); len(got) != 3 {
		t.Fatalf("a refused append wrote records: %d loaded, want 3", len(got))
	}
}

func testAppendRace(t *testing.T, s journal.Store) {
	recs, head := Chain(journal.Head{}, "t1", 2)
	Append(t, s, recs...)
	warm(t, s)
	var mu sync.Mutex
	var wins, conflicts int
	var other []error
	race(Goroutines, func(i int) {
		r := journal.Seal(head, journal.Record{Table: "t1", Type: "server", Data: json.RawMessage(fmt.Sprint(i)), At: At})
		err := s.Append(t.Context(), r)
		mu.Lock()
		defer mu.Unlock()
		switch baccarat.ErrorCode(err) {
		case "":
			wins++
		case baccarat.CodeConflict:
			conflicts++
		default:
			other = append(other, err)
		}
	})
	if wins != 1 || conflicts != Goroutines-1 || len(other) > 0 {
		t.Fatalf("wins %d, conflicts %d, other errors %v; want 1, %d, none", wins, conflicts, other, Goroutines-1)
	}
	got, err := s.Load(t.Context(), "t1", 1)
	if err != nil || len(got) != 3 || journal.Verify(got) != nil {
		t.Fatalf("after the race: %d records, %v", len(got), err)
	}
}

// warm makes concurrent reads so that a store with a connection pool has its connections
// open, and the racing writers that follow really overlap instead of queueing behind dials.
func warm(t *testing.T, s journal.Store) {
	race(Goroutines, func(int) {
		if _, err := s.Head(t.Context(), "warm"); err != nil {
			t.Error(err)
		}
	})
}

// race runs fn(i) for i in [0, n) at once, after all goroutines are ready.
func race(n int, fn func(i int)) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := range n {
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			fn(i)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
}

func testAudit(t *testing.T, s journal.Store) {
	a, _ := Chain(journal.Head{}, "t1", 4)
	b, _ := Chain(journal.Head{}, "t2", 2)
	Append(t, s, a...)
	Append(t, s, b...)
	rep, err := journal.Audit(t.Context(), s, nil)
	if err != nil || rep != (journal.Report{Tables: 2, Records: 6}) {
		t.Fatalf("Audit = %+v, %v", rep, err)
	}
}
