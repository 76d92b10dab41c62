package ledgertest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// Goroutines is how many writers the concurrency tests start at once.
const Goroutines = 24

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

// warm makes concurrent reads so that a store with a connection pool has its connections
// open, and the racing writers that follow really overlap instead of queueing behind dials.
func warm(t *testing.T, s ledger.Store) {
	race(Goroutines, func(int) {
		if _, err := s.Accounts(t.Context(), "house/"); err != nil {
			t.Error(err)
		}
	})
}

func testConcurrentKey(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 1000)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	tx := Move("wager/dup", w, p, 250)
	warm(t, s)
	var mu sync.Mutex
	applied, errs := 0, []error{}
	race(Goroutines, func(int) {
		ok, err := s.Post(t.Context(), tx)
		mu.Lock()
		defer mu.Unlock()
		if ok {
			applied++
		}
		if err != nil {
			errs = append(errs, err)
		}
	})
	if applied != 1 || len(errs) > 0 {
		t.Fatalf("%d goroutines posting one key: applied %d times, errors %v; want once, none", Goroutines, applied, errs)
	}
	WantBalances(t, s, map[string]baccarat.Money{w: 750, p: 250})
	WantSound(t, s)
}

// testConcurrentKeyDisjoint races one key over postings on disjoint accounts, so no
// account lock orders the writers: only the key's uniqueness can.
func testConcurrentKeyDisjoint(t *testing.T, s ledger.Store) {
	var from, to []string
	for i := range Goroutines {
		from = append(from, Fund(t, s, fmt.Sprintf("p%d", i), "EUR", 100))
		to = append(to, ledger.Wallet(fmt.Sprintf("q%d", i), "EUR"))
		Open(t, s, to[i])
	}
	warm(t, s)
	var mu sync.Mutex
	applied, conflicts := 0, 0
	var other []error
	race(Goroutines, func(i int) {
		ok, err := s.Post(t.Context(), Move("gift", from[i], to[i], 10))
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ok:
			applied++
		case baccarat.ErrorCode(err) == baccarat.CodeConflict:
			conflicts++
		default:
			other = append(other, err)
		}
	})
	if applied != 1 || conflicts != Goroutines-1 || len(other) > 0 {
		t.Fatalf("applied %d, conflicts %d, other %v; want 1, %d, none", applied, conflicts, other, Goroutines-1)
	}
	WantSound(t, s)
}

func testConcurrentOverdraft(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 100)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	var mu sync.Mutex
	applied, refused := 0, 0
	var other []error
	race(Goroutines, func(i int) {
		ok, err := s.Post(t.Context(), Move(fmt.Sprintf("wager/%d", i), w, p, 10))
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ok:
			applied++
		case baccarat.ErrorCode(err) == baccarat.CodeInsufficientFunds:
			refused++
		default:
			other = append(other, err)
		}
	})
	if applied != 10 || refused != Goroutines-10 || len(other) > 0 {
		t.Fatalf("applied %d, refused %d, other errors %v; want 10, %d, none", applied, refused, other, Goroutines-10)
	}
	WantBalances(t, s, map[string]baccarat.Money{w: 0, p: 100})
	WantSound(t, s)
}

func testStatement(t *testing.T, s ledger.Store) {
	w := Fund(t, s, "alice", "EUR", 1000)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	for i := range 24 {
		tx := Move(fmt.Sprintf("w%d", i), w, p, baccarat.Money(i+1))
		tx.Memo, tx.Table, tx.Round = "wager", "t1", i+1
		Post(t, s, tx)
	}
	var all []ledger.Entry
	for after := int64(0); ; {
		page, err := s.Statement(t.Context(), w, ledger.Page{After: after, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 10 {
			t.Fatalf("page of %d entries, limit 10", len(page))
		}
		all = append(all, page...)
		after = page[len(page)-1].Seq
	}
	if len(all) != 25 {
		t.Fatalf("%d entries, want 25 (a deposit and 24 wagers)", len(all))
	}
	want := ledger.Entry{Seq: 1, Key: "deposit/alice/EUR/1000", Amount: 1000, Balance: 1000, At: At}
	if !entryEqual(all[0], want) {
		t.Fatalf("entry 1 = %+v, want %+v", all[0], want)
	}
	bal := baccarat.Money(1000)
	for i, e := range all[1:] {
		bal -= baccarat.Money(i + 1)
		want := ledger.Entry{Seq: int64(i + 2), Key: fmt.Sprintf("w%d", i), Amount: -baccarat.Money(i + 1), Balance: bal,
			Memo: "wager", Table: "t1", Round: i + 1, At: At}
		if !entryEqual(e, want) {
			t.Fatalf("entry %d = %+v, want %+v", i+2, e, want)
		}
	}
	if got, _ := s.Balance(t.Context(), w); got != bal {
		t.Fatalf("balance %d, last running balance %d", got, bal)
	}
	_, err := s.Statement(t.Context(), w, ledger.Page{After: -1})
	WantCode(t, err, baccarat.CodeBadRequest)
}

func entryEqual(a, b ledger.Entry) bool {
	at := a.At.Equal(b.At)
	a.At = b.At
	return at && a == b
}

func testAccounts(t *testing.T, s ledger.Store) {
	ids := []string{ledger.Wallet("bob", "EUR"), ledger.Wallet("alice", "USD"), ledger.House("EUR"),
		ledger.Wallet("alice", "EUR"), ledger.InPlay("t1", "EUR"), ledger.Wallet("alice", ledger.Chips("t1"))}
	Open(t, s, ids...)
	Post(t, s, Move("d", ledger.House("EUR"), ledger.Wallet("alice", "EUR"), 7))
	got, err := s.Accounts(t.Context(), "wallet/alice/")
	if err != nil {
		t.Fatal(err)
	}
	want := []ledger.AccountBalance{{ID: "wallet/alice/CHIPS:t1"}, {ID: "wallet/alice/EUR", Balance: 7}, {ID: "wallet/alice/USD"}}
	if !slices.Equal(got, want) {
		t.Fatalf("Accounts(wallet/alice/) = %v, want %v", got, want)
	}
	all, err := s.Accounts(t.Context(), "")
	if err != nil || len(all) != len(ids) || !slices.IsSortedFunc(all, func(a, b ledger.AccountBalance) int {
		return strings.Compare(a.ID, b.ID)
	}) {
		t.Fatalf("Accounts() = %v, %v; want %d sorted", all, err, len(ids))
	}
	// A prefix is literal text, not a pattern.
	if got, err := s.Accounts(t.Context(), "wallet/_%"); err != nil || len(got) != 0 {
		t.Fatalf("Accounts(wallet/_%%) = %v, %v; want none", got, err)
	}
}

// testRandomWalk posts a seeded random mix of deposits, wagers, settlements, retries,
// conflicts and overdrafts, checking every outcome and every balance against a model.
func testRandomWalk(t *testing.T, s ledger.Store) {
	rng := rand.New(rand.NewPCG(7, 11))
	ids := []string{ledger.House("EUR"), ledger.InPlay("t1", "EUR"), ledger.Wallet("a", "EUR"), ledger.Wallet("b", "EUR"), ledger.Wallet("c", "EUR")}
	Open(t, s, ids...)
	model := map[string]baccarat.Money{}
	var posted []ledger.Transaction
	for i := range 150 {
		var tx ledger.Transaction
		if len(posted) > 0 && rng.IntN(8) == 0 {
			tx = posted[rng.IntN(len(posted))] // a retry
		} else {
			from := ids[rng.IntN(len(ids))]
			to := ids[rng.IntN(len(ids))]
			for to == from {
				to = ids[rng.IntN(len(ids))]
			}
			tx = Move(fmt.Sprintf("k%d", i), from, to, baccarat.Money(rng.Int64N(300)+1))
			if len(posted) > 0 && rng.IntN(10) == 0 {
				tx.Key = posted[rng.IntN(len(posted))].Key // a key reused for other postings
			}
		}
		ch, wantErr := modelApply(model, posted, tx)
		applied, err := s.Post(t.Context(), tx)
		if baccarat.ErrorCode(err) != baccarat.ErrorCode(wantErr) || applied != ch {
			t.Fatalf("step %d: Post(%+v) = %v, %v; model says %v, %v", i, tx, applied, err, ch, wantErr)
		}
		if applied {
			posted = append(posted, tx)
		}
	}
	WantBalances(t, s, model)
	WantSound(t, s)
}

// modelApply is the obviously-correct slow twin of Snapshot.Apply for one transaction.
func modelApply(model map[string]baccarat.Money, posted []ledger.Transaction, tx ledger.Transaction) (bool, error) {
	for _, p := range posted {
		if p.Key == tx.Key {
			if p.Digest() == tx.Digest() {
				return false, nil
			}
			return false, baccarat.Errorf(baccarat.CodeConflict, "")
		}
	}
	for _, p := range tx.Postings {
		a, _ := ledger.ParseAccount(p.Account)
		if model[p.Account]+p.Amount < 0 && !a.MayGoNegative() {
			return false, baccarat.Errorf(baccarat.CodeInsufficientFunds, "")
		}
	}
	for _, p := range tx.Postings {
		model[p.Account] += p.Amount
	}
	return true, nil
}
