package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
)

// refusedCredits writes a database holding two credits the operator refused for good.
func refusedCredits(t *testing.T, path string) []string {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var txs []string
	for _, stream := range []string{"t1", "t2"} {
		d, _, err := db.BeginDebit(ctx, journaltest.Debit("ann", "r-"+stream, stream, 250))
		if err != nil {
			t.Fatal(err)
		}
		recs, head := journaltest.Chain(journal.Head{}, stream, 1)
		journaltest.Commit(t, db, journal.Batch{Records: recs, Placed: []journal.PlacedDebit{{Tx: d.Tx, TableWager: 1, At: journaltest.At}}})
		recs, _ = journaltest.Chain(head, stream, 1)
		tx := "c-" + stream
		journaltest.Commit(t, db, journal.Batch{Records: recs, Calls: []journal.WalletCall{{Tx: tx, Kind: journal.CallCredit, Amount: 375,
			Table: stream, TableWager: 1, Created: journaltest.At}}})
		if n, err := db.UpdateCalls(ctx, []journal.CallChange{{Tx: tx, CallUpdate: journal.CallUpdate{State: journal.CallFailed,
			Error: "unknown_player: gone", At: journaltest.At}}}); n != 1 || err != nil {
			t.Fatalf("refusing %s: %d %v", tx, n, err)
		}
		txs = append(txs, tx)
	}
	return txs
}

func TestReconcileResendsAndSettlesRefusedCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	txs := refusedCredits(t, path)
	from := "--from=2020-01-01"
	out, _, code := runCmd(t, "reconcile", "--db", path, from)
	if code != 0 || !strings.Contains(out, "REFUSED by the operator, owed to players") || !strings.Contains(out, txs[0]) {
		t.Fatalf("reconcile: %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"--settle", txs[0]},                     // no reason
		{"--resend", txs[0], "--settle", txs[1]}, // two actions
		{"--reason", "why"},                      // no call
	} {
		if _, errs, code := runCmd(t, append([]string{"reconcile", "--db", path}, args...)...); code != 2 {
			t.Errorf("reconcile %q: exit %d (%s), want 2", args, code, errs)
		}
	}
	out, errs, code := runCmd(t, "reconcile", "--db", path, "--resend", txs[0], "--reason", "the account is open again", "--by", "cli:ops")
	if code != 0 || !strings.Contains(out, "resent as") || !strings.Contains(out, "by cli:ops") || !strings.Contains(out, "sent again as:") {
		t.Fatalf("resend: %d %s %s", code, out, errs)
	}
	out, errs, code = runCmd(t, "reconcile", "--db", path, "--settle", txs[1], "--reason", "paid in the cage")
	if code != 0 || !strings.Contains(out, "settled by hand by cli:") || !strings.Contains(out, "paid in the cage") {
		t.Fatalf("settle: %d %s %s", code, out, errs)
	}
	if _, errs, code := runCmd(t, "reconcile", "--db", path, "--settle", txs[1], "--reason", "again"); code != 1 || !strings.Contains(errs, "bad_state") {
		t.Fatalf("settling again: exit %d %s", code, errs)
	}
	out, _, code = runCmd(t, "reconcile", "--db", path, from)
	if code != 0 || strings.Contains(out, "REFUSED") || !strings.Contains(out, "resolved by an admin in the period: 2") ||
		!strings.Contains(out, "undelivered (any time): 1") {
		t.Fatalf("reconcile after: %d\n%s", code, out)
	}
	db, err := sqlite.OpenReadOnly(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	next, err := db.Call(context.Background(), live.ResendTx(journal.WalletCall{Kind: journal.CallCredit, Tx: txs[0]}))
	if err != nil || next.State != journal.CallPending || next.Replaces != txs[0] {
		t.Fatalf("the resent call: %+v, %v", next, err)
	}
}
