package web_test

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/verify"
)

// refusedCredit writes, past the host, a wager's placed debit at stream and its credit of
// 375, which the operator refused for good; it returns the credit's tx.
func (f *fixture) refusedCredit(stream string) string {
	f.t.Helper()
	ctx := context.Background()
	d, _, err := f.db.BeginDebit(ctx, journaltest.Debit("ann", "r-"+stream, stream, 250))
	if err != nil {
		f.t.Fatal(err)
	}
	recs, head := journaltest.Chain(journal.Head{}, stream, 1)
	bal := baccarat.Money(500)
	journaltest.Commit(f.t, f.db, journal.Batch{Records: recs, Placed: []journal.PlacedDebit{{Tx: d.Tx, TableWager: 1, Balance: &bal, At: journaltest.At}}})
	recs, _ = journaltest.Chain(head, stream, 1)
	tx := "c-" + stream
	journaltest.Commit(f.t, f.db, journal.Batch{Records: recs, Calls: []journal.WalletCall{{Tx: tx, Kind: journal.CallCredit, Amount: 375,
		Table: stream, TableWager: 1, Created: journaltest.At}}})
	if n, err := f.db.UpdateCalls(ctx, []journal.CallChange{{Tx: tx, CallUpdate: journal.CallUpdate{State: journal.CallFailed,
		Error: "unknown_player: no such player", At: journaltest.At}}}); n != 1 || err != nil {
		f.t.Fatalf("refusing %s: %d %v", tx, n, err)
	}
	return tx
}

func TestAdminResendsOrSettlesARefusedCall(t *testing.T) {
	f := newFixture(t)
	one, two := f.refusedCredit("refused-1"), f.refusedCredit("refused-2")
	path := func(tx, action string) string { return "/api/admin/reconciliation/calls/" + tx + "/" + action }
	var e apiError
	for _, c := range []struct {
		name, who, path string
		body            any
		status          int
		code            baccarat.Code
	}{
		{"a player may not", "ann", path(one, "resend"), nil, 403, "not_authorized"},
		{"a pit boss may not", "pit", path(one, "settle"), map[string]string{"reason": "x"}, 403, "not_authorized"},
		{"settling needs a reason", "admin", path(one, "settle"), nil, 400, "bad_request"},
		{"settling needs a reason, not an empty one", "admin", path(one, "settle"), map[string]string{"reason": ""}, 400, "bad_request"},
		{"a body takes only a reason", "admin", path(one, "resend"), map[string]any{"reason": "x", "amount": 1}, 400, "bad_request"},
		{"an unknown call", "admin", path("c-none", "resend"), nil, 404, "not_found"},
		{"a tx is an id", "admin", path("c%20x", "resend"), nil, 400, "bad_request"},
	} {
		e = apiError{}
		if got := f.do(c.who, "POST", c.path, c.body, &e); got != c.status || e.Code != c.code {
			t.Errorf("%s: %d %+v, want %d %s", c.name, got, e, c.status, c.code)
		}
	}
	var resent live.Resolved
	if got := f.do("admin", "POST", path(one, "resend"), nil, &resent); got != 200 || resent.Call.State != journal.CallResent ||
		resent.Resent == nil || resent.Resent.State != journal.CallPending || resent.Resent.Replaces != one ||
		resent.Call.Resolution == nil || resent.Call.Resolution.By != "admin" || resent.Call.Resolution.ResentAs != resent.Resent.Tx {
		t.Fatalf("resend: %d %+v", got, resent)
	}
	if got := f.do("admin", "POST", path(one, "settle"), map[string]string{"reason": "paid"}, &e); got != 409 || e.Code != "bad_state" {
		t.Fatalf("settling a call resent: %d %+v", got, e)
	}
	var settled live.Resolved
	if got := f.do("admin", "POST", path(two, "settle"), map[string]string{"reason": "paid in the cage"}, &settled); got != 200 ||
		settled.Call.State != journal.CallSettled || settled.Resent != nil || settled.Call.Resolution.Reason != "paid in the cage" {
		t.Fatalf("settle: %d %+v", got, settled)
	}
	if got := f.do("admin", "POST", path(two, "resend"), nil, &e); got != 409 || e.Code != "bad_state" {
		t.Fatalf("resending a call settled: %d %+v", got, e)
	}
	var rep verify.Reconciliation
	if got := f.do("admin", "GET", "/api/admin/reconciliation", nil, &rep); got != 200 || len(rep.Failed) != 0 || len(rep.Resolved) != 2 {
		t.Fatalf("reconciliation: %d, failed %d, resolved %+v", got, len(rep.Failed), rep.Resolved)
	}
	for _, c := range rep.Resolved {
		if c.Resolution == nil || c.Resolution.By != "admin" || c.Resolution.At.IsZero() {
			t.Errorf("resolved call %s without its audit: %+v", c.Tx, c.Resolution)
		}
	}
	if len(rep.Open) != 1 || rep.Open[0].Tx != resent.Resent.Tx {
		t.Fatalf("undelivered: %+v, want the resent call", rep.Open)
	}
}
