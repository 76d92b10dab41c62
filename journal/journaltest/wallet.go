package journaltest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// WalletStore keeps journals and our side of the operator's wallet, and commits both.
type WalletStore interface {
	journal.Store
	journal.Committer
	journal.WalletCalls
}

// RunWalletCalls runs the wallet-calls suite. open must return a new, empty store for each
// call; subtests run in parallel.
func RunWalletCalls(t *testing.T, open func(t *testing.T) WalletStore) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s WalletStore)
	}{
		{"a debit is begun once per request id and attempt", testBeginDebit},
		{"a placed debit is closed by its settlement's commit, once", testPlaceAndClose},
		{"a commit placing a debit given back writes nothing", testPlaceCancelled},
		{"a debit given back: its rollback is in the outbox, with its amount", testCancelDebit},
		{"the outbox: due calls are claimed once until their claim lapses", testClaim},
		{"racing to place and to give back one debit: exactly one wins", testPlaceCancelRace},
		{"listing calls by time, state and kind", testListCalls},
		{"a refused credit settled by hand: closed once, with who, when and why", testSettleRefused},
		{"a refused credit resent: a new tx carries it on, its debit still closed once", testResendRefused},
		{"only a refused credit or rollback is resolved, and a failed action writes nothing", testResolveRules},
		{"racing to resolve one refused call: exactly one action wins", testResolveRace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

// Debit is a debit of stake for player's request id at table, as the live host begins it.
func Debit(player, requestID, table string, stake baccarat.Money) journal.WalletCall {
	return journal.WalletCall{Tx: "d-" + player + "-" + requestID, Player: player, Currency: "EUR", Amount: stake,
		Table: table, Round: 7, RequestID: requestID, Digest: fmt.Sprintf("%064x", stake), Created: At}
}

func begin(t *testing.T, s WalletStore, c journal.WalletCall, wantCreated bool) journal.WalletCall {
	t.Helper()
	got, created, err := s.BeginDebit(t.Context(), c)
	if err != nil {
		t.Fatalf("BeginDebit(%s): %v", c.Tx, err)
	}
	if created != wantCreated {
		t.Fatalf("BeginDebit(%s): created %v, want %v", c.Tx, created, wantCreated)
	}
	return got
}

func call(t *testing.T, s WalletStore, tx string) journal.WalletCall {
	t.Helper()
	c, err := s.Call(t.Context(), tx)
	if err != nil {
		t.Fatalf("Call(%s): %v", tx, err)
	}
	return c
}

// placeBatch is a wager's commit: a record and the debit it places.
func placeBatch(prev journal.Head, table, debitTx string, wager uint64) (journal.Batch, journal.Head) {
	recs, head := Chain(prev, table, 1)
	bal := baccarat.Money(500)
	return journal.Batch{Records: recs, Placed: []journal.PlacedDebit{{Tx: debitTx, TableWager: wager, Balance: &bal, At: At}}}, head
}

func testBeginDebit(t *testing.T, s WalletStore) {
	d := begin(t, s, Debit("ann", "r1", "t1", 250), true)
	if d.Tx != "d-ann-r1-1" || d.State != journal.CallPending || d.Attempt != 1 || d.Wager == 0 || d.Wager != uint64(d.Seq) ||
		d.Amount != 250 || d.Round != 7 || d.Kind != journal.CallDebit {
		t.Fatalf("begun: %+v", d)
	}
	again := begin(t, s, Debit("ann", "r1", "t1", 250), false)
	if again.Tx != d.Tx || again.Wager != d.Wager {
		t.Fatalf("a retry began %+v, want the first debit %+v", again, d)
	}
	_, _, err := s.BeginDebit(t.Context(), Debit("ann", "r1", "t1", 300))
	WantCode(t, err, baccarat.CodeIdempotencyConflict)
	other := begin(t, s, Debit("bob", "r1", "t1", 250), true)
	if other.Wager == d.Wager {
		t.Fatal("two debits have one wager number")
	}
	// Refused by the operator: the next try of the request is a new attempt.
	ok, err := s.UpdateCall(t.Context(), d.Tx, []journal.CallState{journal.CallPending},
		journal.CallUpdate{State: journal.CallFailed, Error: "insufficient_funds", At: At})
	if err != nil || !ok {
		t.Fatalf("UpdateCall: %v %v", ok, err)
	}
	if ok, _ := s.UpdateCall(t.Context(), d.Tx, []journal.CallState{journal.CallPending}, journal.CallUpdate{State: journal.CallFailed, At: At}); ok {
		t.Fatal("a call moved from a state it was not in")
	}
	second := begin(t, s, Debit("ann", "r1", "t1", 250), true)
	if second.Tx != "d-ann-r1-2" || second.Attempt != 2 {
		t.Fatalf("the next attempt: %+v", second)
	}
	if c := call(t, s, d.Tx); c.State != journal.CallFailed || c.Error != "insufficient_funds" {
		t.Fatalf("the refused debit: %+v", c)
	}
}

func testPlaceAndClose(t *testing.T, s WalletStore) {
	d := begin(t, s, Debit("ann", "r1", "t1", 250), true)
	b, head := placeBatch(journal.Head{}, "t1", d.Tx, 5)
	Commit(t, s, b)
	p := call(t, s, d.Tx)
	if p.State != journal.CallPlaced || p.TableWager != 5 || p.Balance == nil || *p.Balance != 500 {
		t.Fatalf("placed: %+v", p)
	}
	if again := begin(t, s, Debit("ann", "r1", "t1", 250), false); again.Tx != d.Tx {
		t.Fatalf("a placed request began %s", again.Tx)
	}
	// Placing it again (another wager) fails and writes nothing.
	b2, _ := placeBatch(head, "t1", d.Tx, 6)
	WantCode(t, s.Commit(t.Context(), b2), baccarat.CodeWalletUnavailable)
	WantHead(t, s, "t1", head)
	// The settlement names the debit by table and wager; the credit copies its fields.
	recs, head2 := Chain(head, "t1", 1)
	credit := journal.WalletCall{Tx: "c-t1-5", Kind: journal.CallCredit, Amount: 375, Table: "t1", TableWager: 5, Created: At}
	Commit(t, s, journal.Batch{Records: recs, Calls: []journal.WalletCall{credit}})
	c := call(t, s, "c-t1-5")
	if c.State != journal.CallPending || c.DebitTx != d.Tx || c.Player != "ann" || c.Currency != "EUR" || c.Amount != 375 ||
		c.Round != d.Round || c.Wager != d.Wager || c.Table != "t1" || c.TableWager != 5 {
		t.Fatalf("credit: %+v (debit %+v)", c, d)
	}
	// A second closer of the same debit fails the commit: a debit is closed once.
	recs, _ = Chain(head2, "t1", 1)
	again := journal.WalletCall{Tx: "r-t1-5", Kind: journal.CallRollback, Table: "t1", TableWager: 5, Created: At}
	WantCode(t, s.Commit(t.Context(), journal.Batch{Records: recs, Calls: []journal.WalletCall{again}}), baccarat.CodeIntegrity)
	WantHead(t, s, "t1", head2)
	// Closing a wager that has no placed debit fails too.
	none := journal.WalletCall{Tx: "c-t1-9", Kind: journal.CallCredit, Table: "t1", TableWager: 9, Created: At}
	WantCode(t, s.Commit(t.Context(), journal.Batch{Records: recs, Calls: []journal.WalletCall{none}}), baccarat.CodeIntegrity)
	if _, err := s.Call(t.Context(), "c-t1-9"); baccarat.ErrorCode(err) != baccarat.CodeNotFound {
		t.Fatalf("a refused commit wrote its call: %v", err)
	}
}

func testPlaceCancelled(t *testing.T, s WalletStore) {
	d := begin(t, s, Debit("ann", "r1", "t1", 250), true)
	ok, err := s.CancelDebit(t.Context(), d.Tx, "r-"+d.Tx, At)
	if err != nil || !ok {
		t.Fatalf("CancelDebit: %v %v", ok, err)
	}
	b, _ := placeBatch(journal.Head{}, "t1", d.Tx, 5)
	WantCode(t, s.Commit(t.Context(), b), baccarat.CodeWalletUnavailable)
	WantHead(t, s, "t1", journal.Head{})
	if c := call(t, s, d.Tx); c.State != journal.CallCancelled || c.TableWager != 0 {
		t.Fatalf("the debit after a refused commit: %+v", c)
	}
}

func testCancelDebit(t *testing.T, s WalletStore) {
	d := begin(t, s, Debit("ann", "r1", "t1", 250), true)
	ok, err := s.CancelDebit(t.Context(), d.Tx, "r-"+d.Tx, At.Add(time.Second))
	if err != nil || !ok {
		t.Fatalf("CancelDebit: %v %v", ok, err)
	}
	r := call(t, s, "r-"+d.Tx)
	if r.Kind != journal.CallRollback || r.State != journal.CallPending || r.DebitTx != d.Tx || r.Amount != 250 ||
		r.Wager != d.Wager || r.Round != d.Round || r.Player != "ann" {
		t.Fatalf("rollback: %+v", r)
	}
	if ok, err := s.CancelDebit(t.Context(), d.Tx, "r2-"+d.Tx, At); ok || err != nil {
		t.Fatalf("a second CancelDebit: %v %v; want false, nil", ok, err)
	}
	// The request's next try is a new attempt.
	if n := begin(t, s, Debit("ann", "r1", "t1", 250), true); n.Attempt != 2 {
		t.Fatalf("after a given-back debit: %+v", n)
	}
}

func testClaim(t *testing.T, s WalletStore) {
	for i := range 3 {
		d := begin(t, s, Debit("ann", fmt.Sprint("r", i), "t1", 100), true)
		if ok, err := s.CancelDebit(t.Context(), d.Tx, "r-"+d.Tx, At); !ok || err != nil {
			t.Fatal(ok, err)
		}
	}
	got, err := s.ClaimCalls(t.Context(), At, At.Add(time.Minute), 2)
	if err != nil || len(got) != 2 {
		t.Fatalf("ClaimCalls: %d calls, %v", len(got), err)
	}
	rest, err := s.ClaimCalls(t.Context(), At, At.Add(time.Minute), 10)
	if err != nil || len(rest) != 1 || rest[0].Tx == got[0].Tx || rest[0].Tx == got[1].Tx {
		t.Fatalf("the second claim: %+v, %v", rest, err)
	}
	if none, _ := s.ClaimCalls(t.Context(), At.Add(time.Second), At.Add(time.Minute), 10); len(none) != 0 {
		t.Fatalf("claimed calls were claimed again: %d", len(none))
	}
	// An answer: done, with the balance. A failed delivery: tried again later.
	bal := baccarat.Money(900)
	n, err := s.UpdateCalls(t.Context(), []journal.CallChange{
		{Tx: got[0].Tx, CallUpdate: journal.CallUpdate{State: journal.CallDone, Balance: &bal, AddAttempt: true, At: At}},
		{Tx: got[1].Tx, CallUpdate: journal.CallUpdate{Error: "timeout", AddAttempt: true, NextAt: At.Add(2 * time.Second), At: At}},
		{Tx: "no-such-call", CallUpdate: journal.CallUpdate{State: journal.CallDone, At: At}},
	})
	if n != 2 || err != nil {
		t.Fatalf("UpdateCalls: %d changed, %v", n, err)
	}
	again, err := s.ClaimCalls(t.Context(), At.Add(3*time.Second), At.Add(time.Hour), 10)
	if err != nil || len(again) != 1 || again[0].Tx != got[1].Tx || again[0].Attempts != 1 || again[0].Error != "timeout" {
		t.Fatalf("the retry: %+v, %v", again, err)
	}
	if c := call(t, s, got[0].Tx); c.State != journal.CallDone || c.Balance == nil || *c.Balance != 900 || c.Attempts != 1 {
		t.Fatalf("the answered call: %+v", c)
	}
}

func testPlaceCancelRace(t *testing.T, s WalletStore) {
	const n = 8
	heads := make([]journal.Head, n)
	for i := range n {
		d := begin(t, s, Debit("ann", fmt.Sprint("r", i), fmt.Sprint("t", i), 100), true)
		var placed, cancelled bool
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			b, head := placeBatch(journal.Head{}, fmt.Sprint("t", i), d.Tx, 1)
			if s.Commit(t.Context(), b) == nil {
				placed, heads[i] = true, head
			}
		}()
		go func() {
			defer wg.Done()
			ok, err := s.CancelDebit(t.Context(), d.Tx, "r-"+d.Tx, At)
			cancelled = ok && err == nil
		}()
		wg.Wait()
		if placed == cancelled {
			t.Fatalf("debit %d: placed %v, given back %v; want exactly one", i, placed, cancelled)
		}
		WantHead(t, s, fmt.Sprint("t", i), heads[i])
	}
}

func testListCalls(t *testing.T, s WalletStore) {
	for i := range 4 {
		c := Debit("ann", fmt.Sprint("r", i), "t1", 100)
		c.Created = At.Add(time.Duration(i) * time.Hour)
		begin(t, s, c, true)
	}
	first := call(t, s, "d-ann-r0-1")
	if ok, _ := s.CancelDebit(t.Context(), first.Tx, "r-x", At.Add(10*time.Hour)); !ok {
		t.Fatal("CancelDebit")
	}
	all, err := s.Calls(t.Context(), journal.CallFilter{})
	if err != nil || len(all) != 5 {
		t.Fatalf("Calls: %d, %v", len(all), err)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Seq <= all[i-1].Seq {
			t.Fatal("calls out of order")
		}
	}
	period, _ := s.Calls(t.Context(), journal.CallFilter{From: At.Add(time.Hour), To: At.Add(3 * time.Hour)})
	if len(period) != 2 || period[0].Tx != "d-ann-r1-1" || period[1].Tx != "d-ann-r2-1" {
		t.Fatalf("a period: %+v", period)
	}
	open, _ := s.Calls(t.Context(), journal.CallFilter{Open: true, Kind: journal.CallDebit})
	if len(open) != 3 {
		t.Fatalf("open debits: %d, want 3", len(open))
	}
	stale, _ := s.Calls(t.Context(), journal.CallFilter{Kind: journal.CallDebit, StaleBefore: At.Add(90 * time.Minute)})
	if len(stale) != 1 || stale[0].Tx != "d-ann-r1-1" {
		t.Fatalf("stale debits: %+v", stale)
	}
	page, _ := s.Calls(t.Context(), journal.CallFilter{After: all[1].Seq, Limit: 2})
	if len(page) != 2 || page[0].Seq != all[2].Seq {
		t.Fatalf("a page: %+v", page)
	}
}
