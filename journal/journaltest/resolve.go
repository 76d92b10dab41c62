package journaltest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// refusedCredit places a debit for wager 5 at table, settles it with a credit of 375 and
// records the operator's definite refusal of the credit; it returns the credit.
func refusedCredit(t *testing.T, s WalletStore, table string) journal.WalletCall {
	t.Helper()
	d := begin(t, s, Debit("ann", "r-"+table, table, 250), true)
	b, head := placeBatch(journal.Head{}, table, d.Tx, 5)
	Commit(t, s, b)
	recs, _ := Chain(head, table, 1)
	credit := journal.WalletCall{Tx: "c-" + table + "-5", Kind: journal.CallCredit, Amount: 375, Table: table, TableWager: 5, Created: At}
	Commit(t, s, journal.Batch{Records: recs, Calls: []journal.WalletCall{credit}})
	ok, err := s.UpdateCalls(t.Context(), []journal.CallChange{{Tx: credit.Tx, CallUpdate: journal.CallUpdate{
		State: journal.CallFailed, Error: "unknown_player: account locked", AddAttempt: true, At: At}}})
	if err != nil || ok != 1 {
		t.Fatalf("refusing the credit: %d %v", ok, err)
	}
	return call(t, s, credit.Tx)
}

func resolution(action journal.CallAction, reason, resentAs string) journal.Resolution {
	return journal.Resolution{Action: action, By: "admin", At: At.Add(time.Hour), Reason: reason, ResentAs: resentAs}
}

func wantResolution(t *testing.T, c journal.WalletCall, want journal.Resolution) {
	t.Helper()
	r := c.Resolution
	if r == nil || r.Action != want.Action || r.By != want.By || !r.At.Equal(want.At) || r.Reason != want.Reason || r.ResentAs != want.ResentAs {
		t.Fatalf("call %s's resolution: %+v, want %+v", c.Tx, r, want)
	}
}

// claimable reports whether the outbox would send tx now.
func claimable(t *testing.T, s WalletStore, tx string) bool {
	t.Helper()
	due, err := s.ClaimCalls(t.Context(), At.Add(48*time.Hour), At.Add(48*time.Hour), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range due {
		if c.Tx == tx {
			return true
		}
	}
	return false
}

func testSettleRefused(t *testing.T, s WalletStore) {
	c := refusedCredit(t, s, "t1")
	if c.State != journal.CallFailed || !c.Refused() || c.Resolution != nil || claimable(t, s, c.Tx) {
		t.Fatalf("the refused credit: %+v", c)
	}
	_, err := s.ResolveCall(t.Context(), c.Tx, resolution(journal.ActionSettle, "", ""))
	WantCode(t, err, baccarat.CodeBadRequest)
	r := resolution(journal.ActionSettle, "paid by bank transfer, ticket 77", "")
	got, err := s.ResolveCall(t.Context(), c.Tx, r)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != journal.CallSettled || got.Refused() || got.Amount != 375 || got.Error != c.Error || !got.Updated.Equal(r.At) {
		t.Fatalf("settled: %+v", got)
	}
	wantResolution(t, got, r)
	wantResolution(t, call(t, s, c.Tx), r)
	_, err = s.ResolveCall(t.Context(), c.Tx, resolution(journal.ActionSettle, "again", ""))
	WantCode(t, err, baccarat.CodeBadState)
	_, err = s.ResolveCall(t.Context(), c.Tx, resolution(journal.ActionResend, "", "c-t1-5-again"))
	WantCode(t, err, baccarat.CodeBadState)
	if claimable(t, s, c.Tx) {
		t.Fatal("a call settled by hand is sent again")
	}
	if n, _ := s.UpdateCalls(t.Context(), []journal.CallChange{{Tx: c.Tx, CallUpdate: journal.CallUpdate{State: journal.CallDone, At: At}}}); n != 0 {
		t.Fatal("a deliverer's answer changed a settled call")
	}
	wantResolution(t, call(t, s, c.Tx), r)
}

func testResendRefused(t *testing.T, s WalletStore) {
	c := refusedCredit(t, s, "t1")
	r := resolution(journal.ActionResend, "the operator unlocked the account", "c-t1-5-b")
	got, err := s.ResolveCall(t.Context(), c.Tx, r)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != journal.CallResent || got.Refused() {
		t.Fatalf("resent: %+v", got)
	}
	wantResolution(t, got, r)
	n := call(t, s, "c-t1-5-b")
	if n.State != journal.CallPending || n.Kind != c.Kind || n.DebitTx != c.DebitTx || n.Player != c.Player || n.Currency != c.Currency ||
		n.Amount != c.Amount || n.Table != c.Table || n.Round != c.Round || n.Wager != c.Wager || n.TableWager != c.TableWager ||
		n.Replaces != c.Tx || n.Attempts != 0 || n.Error != "" || n.Resolution != nil || !n.Created.Equal(r.At) || !n.NextAt.Equal(r.At) {
		t.Fatalf("the resent call: %+v (refused %+v)", n, c)
	}
	if claimable(t, s, c.Tx) || !claimable(t, s, n.Tx) {
		t.Fatal("the outbox sends the refused call, or not the one that carries it on")
	}
	// The debit is still closed once: no other closer may be written for it.
	recs, _ := Chain(journal.Head{}, "t1-other", 1)
	again := journal.WalletCall{Tx: "r-t1-5", Kind: journal.CallRollback, DebitTx: c.DebitTx, Created: At}
	WantCode(t, s.Commit(t.Context(), journal.Batch{Records: recs, Calls: []journal.WalletCall{again}}), baccarat.CodeIntegrity)
	// Refused again, it is resent again: a chain, each link with its own audit.
	if k, err := s.UpdateCalls(t.Context(), []journal.CallChange{{Tx: n.Tx, CallUpdate: journal.CallUpdate{State: journal.CallFailed,
		Error: "debit_mismatch: x", At: At}}}); k != 1 || err != nil {
		t.Fatalf("refusing the resent call: %d %v", k, err)
	}
	r2 := resolution(journal.ActionResend, "", "c-t1-5-c")
	if _, err := s.ResolveCall(t.Context(), n.Tx, r2); err != nil {
		t.Fatal(err)
	}
	if third := call(t, s, "c-t1-5-c"); third.Replaces != n.Tx || third.State != journal.CallPending {
		t.Fatalf("the second resend: %+v", third)
	}
	wantResolution(t, call(t, s, c.Tx), r)
	wantResolution(t, call(t, s, n.Tx), r2)
}

func testResolveRules(t *testing.T, s WalletStore) {
	c := refusedCredit(t, s, "t1")
	d := call(t, s, c.DebitTx)
	pending := refusedCredit(t, s, "t2")
	if k, _ := s.UpdateCalls(t.Context(), nil); k != 0 {
		t.Fatal("no change changed something")
	}
	for _, tc := range []struct {
		name string
		tx   string
		r    journal.Resolution
		code baccarat.Code
	}{
		{"a debit is not resolved", d.Tx, resolution(journal.ActionSettle, "x", ""), baccarat.CodeBadState},
		{"an unknown call", "c-none", resolution(journal.ActionSettle, "x", ""), baccarat.CodeNotFound},
		{"an unknown action", c.Tx, resolution("forgive", "x", ""), baccarat.CodeBadRequest},
		{"a resend names its new tx", c.Tx, resolution(journal.ActionResend, "", ""), baccarat.CodeBadRequest},
		{"a resend's new tx is an id", c.Tx, resolution(journal.ActionResend, "", "c t1"), baccarat.CodeBadRequest},
		{"a resend's new tx is not taken", c.Tx, resolution(journal.ActionResend, "", pending.Tx), baccarat.CodeConflict},
		{"a settlement is not resent", c.Tx, resolution(journal.ActionSettle, "x", "c-t1-5-b"), baccarat.CodeBadRequest},
		{"who resolves is named", c.Tx, journal.Resolution{Action: journal.ActionSettle, At: At, Reason: "x"}, baccarat.CodeBadRequest},
		{"a reason is printable", c.Tx, resolution(journal.ActionSettle, "paid\x00", ""), baccarat.CodeBadRequest},
		{"a reason is short", c.Tx, resolution(journal.ActionSettle, fmt.Sprintf("%0501d", 0), ""), baccarat.CodeBadRequest},
	} {
		_, err := s.ResolveCall(t.Context(), tc.tx, tc.r)
		if baccarat.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	if got := call(t, s, c.Tx); got.State != journal.CallFailed || got.Resolution != nil {
		t.Fatalf("a refused action changed the call: %+v", got)
	}
	if got := call(t, s, pending.Tx); got.State != journal.CallFailed || got.Resolution != nil {
		t.Fatalf("a refused action changed another call: %+v", got)
	}
	// A credit not yet answered is the deliverer's: an admin cannot settle it under it.
	d3 := begin(t, s, Debit("ann", "r-t3", "t3", 100), true)
	b, head := placeBatch(journal.Head{}, "t3", d3.Tx, 1)
	Commit(t, s, b)
	recs, _ := Chain(head, "t3", 1)
	Commit(t, s, journal.Batch{Records: recs, Calls: []journal.WalletCall{{Tx: "c-t3-1", Kind: journal.CallCredit, Amount: 100,
		Table: "t3", TableWager: 1, Created: At}}})
	_, err := s.ResolveCall(t.Context(), "c-t3-1", resolution(journal.ActionSettle, "x", ""))
	WantCode(t, err, baccarat.CodeBadState)
	if got := call(t, s, "c-t3-1"); got.State != journal.CallPending {
		t.Fatalf("a pending credit after a refused settlement: %+v", got)
	}
}

func testResolveRace(t *testing.T, s WalletStore) {
	c := refusedCredit(t, s, "t1")
	const n = 6
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := resolution(journal.ActionSettle, fmt.Sprint("admin ", i), "")
			if i%2 == 1 {
				r = resolution(journal.ActionResend, "", fmt.Sprint("c-t1-5-r", i))
			}
			_, errs[i] = s.ResolveCall(t.Context(), c.Tx, r)
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case baccarat.ErrorCode(err) != baccarat.CodeBadState:
			t.Errorf("admin %d: %v, want bad_state", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d actions won, want 1", won)
	}
	all, err := s.Calls(t.Context(), journal.CallFilter{Kind: journal.CallCredit})
	if err != nil {
		t.Fatal(err)
	}
	open := 0
	for _, x := range all {
		if x.State == journal.CallPending {
			open++
		}
	}
	if got := call(t, s, c.Tx); (got.State == journal.CallResent) != (open == 1) || open > 1 {
		t.Fatalf("after the race the call is %s with %d resent calls pending", got.State, open)
	}
}
