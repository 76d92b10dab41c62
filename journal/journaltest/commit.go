package journaltest

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
)

// CommitStore is a store that keeps journals and books and commits both at once: what the
// live host needs.
type CommitStore interface {
	journal.Store
	journal.Committer
	ledger.Store
}

// RunCommitter runs the atomic-commit suite. open must return a new, empty store for each
// call; subtests run in parallel.
func RunCommitter(t *testing.T, open func(t *testing.T) CommitStore) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s CommitStore)
	}{
		{"a batch writes its records and postings together", testCommit},
		{"a batch with one overdrawing posting writes nothing", testCommitOverdraft},
		{"a batch whose records conflict writes no posting", testCommitChainConflict},
		{"transactions already applied are skipped inside a batch", testCommitSkips},
		{"a refused batch changes nothing", testCommitRefused},
		{"concurrent commits on one head: one wins and its money moves once", testCommitRace},
		{"a batch commits only under the lease it was decided under", testCommitFenced},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

// Wagers is a group commit of n wagers at table: for each, a record and a transaction
// moving stake from the wallet to the table's in-play account, keyed keyPrefix/i. It
// returns the batch and the table's new head. Benchmarks use it too.
func Wagers(prev journal.Head, table, wallet string, stake baccarat.Money, keyPrefix string, n int) (journal.Batch, journal.Head) {
	a, _ := ledger.ParseAccount(wallet)
	inplay := ledger.InPlay(table, a.Currency)
	b := journal.Batch{Records: make([]journal.Record, 0, n), Transactions: make([]ledger.Transaction, 0, n)}
	for i := range n {
		key := fmt.Sprintf("%s/%d", keyPrefix, i)
		r := journal.Seal(prev, journal.Record{Table: table, Type: "wager_placed", At: At,
			Data: json.RawMessage(fmt.Sprintf(`{"key":%q,"account":%q,"bet":"banker","stake":%d}`, key, wallet, stake))})
		prev = r.Head()
		b.Records = append(b.Records, r)
		tx := ledgertest.Move(key, wallet, inplay, stake)
		tx.Table, tx.Round, tx.Memo = table, 1, "wager"
		b.Transactions = append(b.Transactions, tx)
	}
	return b, prev
}

// Commit commits b or fails the test.
func Commit(t testing.TB, s journal.Committer, b journal.Batch) {
	t.Helper()
	if err := s.Commit(t.Context(), b); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

// wantUnchanged fails unless table's head and wallet's balance are as given and the store
// audits clean.
func wantUnchanged(t *testing.T, s CommitStore, table string, head journal.Head, wallet string, bal baccarat.Money) {
	t.Helper()
	WantHead(t, s, table, head)
	ledgertest.WantBalances(t, s, map[string]baccarat.Money{wallet: bal})
	if _, err := journal.Audit(t.Context(), s, s); err != nil {
		t.Fatalf("Audit: %v", err)
	}
}

func setup(t *testing.T, s CommitStore, funds baccarat.Money) string {
	w := ledgertest.Fund(t, s, "alice", "EUR", funds)
	ledgertest.Open(t, s, ledger.InPlay("t1", "EUR"))
	return w
}

func testCommit(t *testing.T, s CommitStore) {
	w := setup(t, s, 100_000)
	b, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 64)
	Commit(t, s, b)
	b2, head2 := Wagers(head, "t1", w, 50, "r2", 10)
	Commit(t, s, b2)
	wantUnchanged(t, s, "t1", head2, w, 100_000-64*100-10*50)
	ledgertest.WantBalances(t, s, map[string]baccarat.Money{ledger.InPlay("t1", "EUR"): 64*100 + 10*50})
	recs, err := s.Load(t.Context(), "t1", 1)
	if err != nil || !SameRecords(recs, append(b.Records, b2.Records...)) {
		t.Fatalf("Load: %d records, %v", len(recs), err)
	}
	Commit(t, s, journal.Batch{}) // an empty batch does nothing
	only, _ := Chain(head2, "t1", 1)
	Commit(t, s, journal.Batch{Records: only}) // records alone
	Commit(t, s, journal.Batch{Transactions: []ledger.Transaction{ledgertest.Move("alone", w, ledger.InPlay("t1", "EUR"), 1)}})
	ledgertest.WantBalances(t, s, map[string]baccarat.Money{w: 100_000 - 64*100 - 10*50 - 1})
	rep, err := journal.Audit(t.Context(), s, s)
	if err != nil || rep.Records != 75 || !rep.Ledger {
		t.Fatalf("Audit = %+v, %v", rep, err)
	}
}

func testCommitOverdraft(t *testing.T, s CommitStore) {
	w := setup(t, s, 1000)
	first, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 3)
	Commit(t, s, first)
	b, _ := Wagers(head, "t1", w, 100, "r2", 8) // the eighth wager would take the wallet to -100
	WantCode(t, s.Commit(t.Context(), b), baccarat.CodeInsufficientFunds)
	wantUnchanged(t, s, "t1", head, w, 700)
	b.Records, b.Transactions = b.Records[:7], b.Transactions[:7] // without it the batch fits
	Commit(t, s, b)
	ledgertest.WantBalances(t, s, map[string]baccarat.Money{w: 0})
}

func testCommitChainConflict(t *testing.T, s CommitStore) {
	w := setup(t, s, 1000)
	first, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 2)
	Commit(t, s, first)
	stale, _ := Wagers(first.Records[0].Head(), "t1", w, 100, "stale", 2) // a server that missed record 2
	WantCode(t, s.Commit(t.Context(), stale), baccarat.CodeConflict)
	wantUnchanged(t, s, "t1", head, w, 800)
	if _, err := s.Post(t.Context(), stale.Transactions[0]); err != nil {
		t.Fatalf("a refused batch used up a key: %v", err)
	}
}

func testCommitSkips(t *testing.T, s CommitStore) {
	w := setup(t, s, 1000)
	b, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 3)
	Commit(t, s, b)
	// The host crashed before acknowledging and resends the wagers with a new record.
	retry, head2 := Chain(head, "t1", 1)
	Commit(t, s, journal.Batch{Records: retry, Transactions: append(b.Transactions, b.Transactions[1])})
	wantUnchanged(t, s, "t1", head2, w, 700)
	// The same key twice in one new batch also applies once.
	tx := ledgertest.Move("twice", w, ledger.InPlay("t1", "EUR"), 50)
	Commit(t, s, journal.Batch{Transactions: []ledger.Transaction{tx, tx}})
	ledgertest.WantBalances(t, s, map[string]baccarat.Money{w: 650})
}

func testCommitRefused(t *testing.T, s CommitStore) {
	w := setup(t, s, 1000)
	first, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 1)
	Commit(t, s, first)
	next := func() journal.Batch { b, _ := Wagers(head, "t1", w, 10, "r2", 3); return b }
	cases := []struct {
		name string
		edit func(b *journal.Batch)
		code baccarat.Code
	}{
		{"a key reused for other postings is a conflict", func(b *journal.Batch) {
			b.Transactions[2] = ledgertest.Move("r1/0", w, ledger.InPlay("t1", "EUR"), 999)
		}, baccarat.CodeConflict},
		{"an account that is not open is not found", func(b *journal.Batch) {
			b.Transactions[2] = ledgertest.Move("x", w, ledger.InPlay("t9", "EUR"), 1)
		}, baccarat.CodeNotFound},
		{"a malformed transaction is a bad request", func(b *journal.Batch) { b.Transactions[2].Postings[0].Amount = -11 }, baccarat.CodeBadRequest},
		{"an unsealed record is a bad request", func(b *journal.Batch) { b.Records[2].Data = json.RawMessage(`{}`) }, baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := next()
			c.edit(&b)
			WantCode(t, s.Commit(t.Context(), b), c.code)
			wantUnchanged(t, s, "t1", head, w, 900)
		})
	}
}

func testCommitRace(t *testing.T, s CommitStore) {
	w := setup(t, s, 10_000)
	warm(t, s)
	var mu sync.Mutex
	var wins, conflicts int
	var other []error
	race(Goroutines, func(i int) {
		b, _ := Wagers(journal.Head{}, "t1", w, 100, fmt.Sprintf("server-%d", i), 2)
		err := s.Commit(t.Context(), b)
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
	head, err := s.Head(t.Context(), "t1")
	if err != nil || head.Seq != 2 {
		t.Fatalf("Head = %v, %v", head, err)
	}
	wantUnchanged(t, s, "t1", head, w, 10_000-200)
}

// RequestStore is a committing store that also keeps request ids.
type RequestStore interface {
	CommitStore
	journal.Requests
}

// RunRequests runs the request-id suite: ids written with their wager, found again, unique
// per player, pruned by age.
func RunRequests(t *testing.T, open func(t *testing.T) RequestStore) {
	t.Run("a request id is written with its wager and found again", func(t *testing.T) {
		t.Parallel()
		testRequests(t, open(t))
	})
	t.Run("a request id already written refuses the whole batch", func(t *testing.T) {
		t.Parallel()
		testRequestDuplicate(t, open(t))
	})
	t.Run("many request ids read at once are what one by one finds", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		many, ok := s.(journal.ManyRequests)
		if !ok {
			t.Skip("the store reads request ids one by one")
		}
		testManyRequests(t, s, many)
	})
}

func testManyRequests(t *testing.T, s RequestStore, many journal.ManyRequests) {
	w := setup(t, s, 100_000)
	b, _ := Wagers(journal.Head{}, "t1", w, 100, "r1", 2)
	b.Requests = []journal.Request{request("alice", "req-1", "t1", At), request("bob", "req-1", "t1", At.Add(time.Second))}
	Commit(t, s, b)
	keys := []journal.RequestKey{{Player: "bob", ID: "req-1"}, {Player: "carol", ID: "req-1"}, {Player: "alice", ID: "req-1"},
		{Player: "alice", ID: "req-9"}, {Player: "bob", ID: "req-1"}}
	got, err := many.RequestsOf(t.Context(), keys)
	if err != nil || len(got) != len(keys) {
		t.Fatalf("RequestsOf = %d requests, %v", len(got), err)
	}
	for i, k := range keys {
		one, ok, err := s.Request(t.Context(), k.Player, k.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (got[i].Table != "") || got[i].Player != one.Player || got[i].ID != one.ID || got[i].Table != one.Table ||
			got[i].Digest != one.Digest || string(got[i].Wager) != string(one.Wager) || !got[i].At.Equal(one.At) {
			t.Errorf("key %d %v: many %+v, one by one %+v (%v)", i, k, got[i], one, ok)
		}
	}
	if got, err := many.RequestsOf(t.Context(), nil); err != nil || len(got) != 0 {
		t.Errorf("no keys: %v, %v", got, err)
	}
}

func request(player, id, table string, at time.Time) journal.Request {
	return journal.Request{Player: player, ID: id, Table: table, Digest: strings.Repeat("ab", 32),
		Wager: json.RawMessage(`{"id":1,"bet":"banker","stake":100}`), At: at}
}

func testRequests(t *testing.T, s RequestStore) {
	w := setup(t, s, 100_000)
	b, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 1)
	b.Requests = []journal.Request{request("alice", "req-1", "t1", At)}
	Commit(t, s, b)
	got, ok, err := s.Request(t.Context(), "alice", "req-1")
	if err != nil || !ok || got.Table != "t1" || got.Digest != b.Requests[0].Digest || !got.At.Equal(At) ||
		string(got.Wager) != string(b.Requests[0].Wager) {
		t.Fatalf("Request = %+v, %v, %v", got, ok, err)
	}
	if _, ok, err := s.Request(t.Context(), "bob", "req-1"); ok || err != nil {
		t.Fatalf("another player's id: %v %v", ok, err)
	}
	b2, _ := Wagers(head, "t1", w, 100, "r2", 1)
	b2.Requests = []journal.Request{request("alice", "req-2", "t1", At.Add(48*time.Hour))}
	Commit(t, s, b2)
	n, err := s.PruneRequests(t.Context(), At.Add(time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("PruneRequests = %d, %v", n, err)
	}
	if _, ok, _ := s.Request(t.Context(), "alice", "req-1"); ok {
		t.Fatal("a pruned request id is still found")
	}
	if _, ok, _ := s.Request(t.Context(), "alice", "req-2"); !ok {
		t.Fatal("a recent request id was pruned")
	}
}

func testRequestDuplicate(t *testing.T, s RequestStore) {
	w := setup(t, s, 100_000)
	b, head := Wagers(journal.Head{}, "t1", w, 100, "r1", 1)
	b.Requests = []journal.Request{request("alice", "same", "t1", At)}
	Commit(t, s, b)
	b2, _ := Wagers(head, "t1", w, 100, "r2", 1)
	b2.Requests = []journal.Request{request("alice", "same", "t2", At)}
	WantCode(t, s.Commit(t.Context(), b2), baccarat.CodeIdempotencyConflict)
	wantUnchanged(t, s, "t1", head, w, 100_000-100)
}
