// Package backofficetest is the conformance suite every backoffice.Store runs on itself: the
// audit trail, the audited writes, the aggregator's folds and the reports read from them,
// checked against the books the same play posted.
package backofficetest

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

// At is the suite's first moment. It has nanoseconds, so that stores must keep times
// exactly; play starts an hour before a UTC midnight, so that a game crosses days.
var At = time.Date(2026, 3, 1, 23, 0, 0, 123456789, time.UTC)

// Full is what the suite needs of a store: the back office's, its journals and books, and
// its accounts.
type Full interface {
	backoffice.Journals
	journal.Store
	journal.Committer
	ledger.Store
	access.Store
}

// Run runs the suite. open must return a new, empty store for each call; subtests run in
// parallel.
func Run(t *testing.T, open func(t *testing.T) Full) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Full)
	}{
		{"the audit trail keeps entries in order and finds them as the filter says", testAuditLog},
		{"an entry that is not one is refused and nothing is written", testAuditRefused},
		{"a credit and its entry land together, and a retry lands neither again", testPostAudited},
		{"an account change and its entry land together, or neither", testAccountsAudited},
		{"accounts are found by id or name", testSearchAccounts},
		{"a day of play folds into summaries that match the books", testFoldMatchesBooks},
		{"a fold applies once: another aggregator's stale fold changes nothing", testFoldOnce},
		{"folding in small batches gives what one batch gives", testFoldBatches},
		{"rounds, wagers, shoes and transactions are found in the index", testLookups},
		{"a tournament's money is folded by day", testTournaments},
		{"templates are kept, listed and removed, each with its entry", testTemplates},
		{"the books' totals balance in every currency", testBookTotals},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func wantCode(t *testing.T, err error, code baccarat.Code) {
	t.Helper()
	if baccarat.ErrorCode(err) != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
}

func entry(actor string, act backoffice.Action, target, reason string, at time.Time) backoffice.Entry {
	return backoffice.Entry{At: at, Actor: actor, Role: "admin", Action: act, Target: target, Reason: reason,
		Detail: json.RawMessage(`{"amount":100}`), Source: backoffice.SourceOffice}
}

func testAuditLog(t *testing.T, s Full) {
	ctx := t.Context()
	in := []backoffice.Entry{
		entry("ann", backoffice.ActWalletCredit, "demo", "Deposit at the cage", At),
		entry("ann", backoffice.ActTableLimit, "tiger-1", "VIP night", At.Add(time.Minute)),
		entry("bob", backoffice.ActTableVoid, "tiger-1", "card on the floor", At.Add(2*time.Minute)),
		entry("bob", backoffice.ActAccountDisable, "demo", "self-exclusion", At.Add(3*time.Minute)),
		entry("ann", backoffice.ActTableDiff, "tiger-2", "", At.Add(4*time.Minute)),
	}
	in[4].Ref = "tiger-2#17"
	var stored []backoffice.Entry
	for _, e := range in {
		got, err := s.RecordAudit(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored) > 0 && got.Seq <= stored[len(stored)-1].Seq {
			t.Fatalf("seq %d after %d: entries are numbered in order", got.Seq, stored[len(stored)-1].Seq)
		}
		stored = append(stored, got)
	}
	filters := []backoffice.Filter{
		{}, {Actor: "ann"}, {Target: "tiger-1"}, {Action: "table."}, {Action: string(backoffice.ActTableVoid)},
		{Text: "vip"}, {Text: "FLOOR"}, {Text: "#17"}, {From: At.Add(time.Minute), To: At.Add(3 * time.Minute)},
		{Before: stored[3].Seq, Limit: 2}, {Actor: "ann", Action: "table."}, {Text: "100%"},
	}
	for _, f := range filters {
		got, err := s.AuditLog(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var want []backoffice.Entry
		for i := len(stored) - 1; i >= 0; i-- {
			if f.Matches(stored[i]) && (f.Limit == 0 || len(want) < f.Limit) {
				want = append(want, stored[i])
			}
		}
		if len(got) != len(want) {
			t.Fatalf("filter %+v: %d entries, want %d", f, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Seq != w.Seq || !g.At.Equal(w.At) || g.Actor != w.Actor || g.Action != w.Action || g.Target != w.Target ||
				g.Reason != w.Reason || g.Ref != w.Ref || g.Source != w.Source || string(g.Detail) != string(w.Detail) {
				t.Fatalf("filter %+v: entry %d is %+v, want %+v", f, i, g, w)
			}
		}
	}
}

func testAuditRefused(t *testing.T, s Full) {
	ctx := t.Context()
	bad := []backoffice.Entry{
		{Actor: "ann", Action: backoffice.ActWalletCredit, Source: backoffice.SourceOffice},                                // no time
		{At: At, Action: backoffice.ActWalletCredit, Source: backoffice.SourceOffice},                                      // no actor
		{At: At, Actor: "ann", Action: "wallet.steal", Source: backoffice.SourceOffice},                                    // unknown action
		{At: At, Actor: "ann", Action: backoffice.ActWalletCredit, Source: "gossip"},                                       // unknown source
		{At: At, Actor: "ann", Action: backoffice.ActWalletCredit, Source: backoffice.SourceOffice, Detail: []byte("[1]")}, // not an object
		{At: At, Actor: "ann", Action: backoffice.ActWalletCredit, Source: backoffice.SourceOffice, Reason: "a\u202eb"},    // direction override
	}
	for _, e := range bad {
		if _, err := s.RecordAudit(ctx, e); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
			t.Errorf("%+v: got %v, want bad_request", e, err)
		}
	}
	got, err := s.AuditLog(ctx, backoffice.Filter{})
	if err != nil || len(got) != 0 {
		t.Fatalf("refused entries were written: %v %v", got, err)
	}
}

func credit(key, player string, amount baccarat.Money) ledger.Transaction {
	return ledger.Transaction{Key: key, Memo: "credit", At: At, Postings: []ledger.Posting{
		{Account: ledger.House("EUR"), Amount: -amount}, {Account: ledger.Wallet(player, "EUR"), Amount: amount}}}
}

func testPostAudited(t *testing.T, s Full) {
	ctx := t.Context()
	for _, a := range []string{ledger.House("EUR"), ledger.Wallet("ann", "EUR")} {
		if err := s.OpenAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	e := entry("cage", backoffice.ActWalletCredit, "ann", "deposit 17", At)
	for range 2 {
		applied, err := s.PostAudited(ctx, credit("credit/ann/17", "ann", 5000), e)
		if err != nil {
			t.Fatal(err)
		}
		_ = applied
	}
	if bal, _ := s.Balance(ctx, ledger.Wallet("ann", "EUR")); bal != 5000 {
		t.Fatalf("balance %d after one credit posted twice, want 5000", bal)
	}
	debit := ledger.Transaction{Key: "debit/ann/1", Memo: "debit", At: At, Postings: []ledger.Posting{
		{Account: ledger.Wallet("ann", "EUR"), Amount: -9000}, {Account: ledger.House("EUR"), Amount: 9000}}}
	_, err := s.PostAudited(ctx, debit, entry("cage", backoffice.ActWalletDebit, "ann", "too much", At))
	wantCode(t, err, baccarat.CodeInsufficientFunds)
	_, err = s.PostAudited(ctx, credit("credit/ann/18", "ann", 1), backoffice.Entry{At: At})
	wantCode(t, err, baccarat.CodeBadRequest)
	if bal, _ := s.Balance(ctx, ledger.Wallet("ann", "EUR")); bal != 5000 {
		t.Fatalf("balance %d after refused writes, want 5000", bal)
	}
	got, err := s.AuditLog(ctx, backoffice.Filter{})
	if err != nil || len(got) != 1 || got[0].Action != backoffice.ActWalletCredit || got[0].Reason != "deposit 17" {
		t.Fatalf("entries %+v (%v): want the one credit's", got, err)
	}
}

func testAccountsAudited(t *testing.T, s Full) {
	ctx := t.Context()
	a := access.Account{ID: "lin", Role: access.RoleDealer, Name: "Lin", Tables: []string{"t1"}, Created: At}
	if err := s.CreateAccountAudited(ctx, a, entry("boss", backoffice.ActAccountCreate, "lin", "new dealer", At)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.CreateAccountAudited(ctx, a, entry("boss", backoffice.ActAccountCreate, "lin", "again", At)), baccarat.CodeConflict)
	_, err := s.UpdateAccountAudited(ctx, "lin", func(a *access.Account) (backoffice.Entry, error) {
		a.Disabled = true
		return backoffice.Entry{}, baccarat.Errorf(baccarat.CodeBadRequest, "changed my mind")
	})
	wantCode(t, err, baccarat.CodeBadRequest)
	_, err = s.UpdateAccountAudited(ctx, "lin", func(a *access.Account) (backoffice.Entry, error) {
		a.Disabled = true
		return backoffice.Entry{}, nil // no entry: refused, nothing written
	})
	wantCode(t, err, baccarat.CodeBadRequest)
	if got, _ := s.Account(ctx, "lin"); got.Disabled {
		t.Fatal("a refused change was written")
	}
	got, err := s.UpdateAccountAudited(ctx, "lin", func(a *access.Account) (backoffice.Entry, error) {
		a.Disabled = true
		return entry("boss", backoffice.ActAccountDisable, a.ID, "left the company", At.Add(time.Hour)), nil
	})
	if err != nil || !got.Disabled {
		t.Fatalf("disable: %+v %v", got, err)
	}
	_, err = s.UpdateAccountAudited(ctx, "nobody", func(a *access.Account) (backoffice.Entry, error) {
		return entry("boss", backoffice.ActAccountDisable, a.ID, "", At), nil
	})
	wantCode(t, err, baccarat.CodeNotFound)
	log, err := s.AuditLog(ctx, backoffice.Filter{Target: "lin"})
	if err != nil || len(log) != 2 || log[0].Action != backoffice.ActAccountDisable || log[1].Action != backoffice.ActAccountCreate {
		t.Fatalf("entries %+v (%v): want the disable, then the create", log, err)
	}
}

func testSearchAccounts(t *testing.T, s Full) {
	ctx := t.Context()
	for _, a := range []access.Account{{ID: "ann-1", Name: "Ann Lee"}, {ID: "bob", Name: "Bob 林"}, {ID: "lee_2", Name: "Carol"}, {ID: "x%y", Name: "Dan"}} {
		a.Role, a.Created = access.RolePlayer, At
		if a.ID == "x%y" {
			continue // not an id; a literal % in the query must not match everything
		}
		if err := s.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	for q, want := range map[string][]string{"lee": {"ann-1", "lee_2"}, "LEE": {"ann-1", "lee_2"}, "林": {"bob"}, "%": {}, "_": {"lee_2"}, "": {"ann-1", "bob", "lee_2"}} {
		got, err := s.SearchAccounts(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, a := range got {
			ids = append(ids, a.ID)
		}
		if !slices.Equal(ids, want) {
			t.Errorf("search %q: %v, want %v", q, ids, want)
		}
	}
}

func testLookups(t *testing.T, s Full) {
	ctx := t.Context()
	g := play(t, s, "look")
	if _, err := backoffice.CatchUp(ctx, s); err != nil {
		t.Fatal(err)
	}
	recs, _ := s.LoadRange(ctx, g.ID, 1, g.Head().Seq)
	for round := uint64(1); round <= 12; round++ {
		r, err := s.Round(ctx, g.ID, round)
		if err != nil {
			t.Fatal(err)
		}
		var first, last uint64
		for _, rec := range recs[1:] {
			var e struct{ Round uint64 }
			_ = json.Unmarshal(rec.Data, &e)
			if e.Round == round {
				if first == 0 {
					first = rec.Seq
				}
				last = rec.Seq
			}
		}
		status := backoffice.RoundSettled
		if round == 8 {
			status = backoffice.RoundVoid
		}
		if r.First != first || r.Last != last || r.Status != status || r.Shoe != 1 || r.Result == "" {
			t.Errorf("round %d: %+v, want records %d–%d, %s, shoe 1", round, r, first, last, status)
		}
	}
	_, err := s.Round(ctx, g.ID, 99)
	wantCode(t, err, baccarat.CodeNotFound)
	w, err := s.Wager(ctx, g.ID, 5)
	if err != nil || w.Round != 2 || w.Player != "ann" || w.Bet != "banker" || w.Stake != 1001 {
		t.Fatalf("wager 5: %+v %v", w, err)
	}
	sh, err := s.Shoe(ctx, g.ID, 1)
	if err != nil || sh.Started < 2 || sh.Ended != 0 {
		t.Fatalf("shoe 1: %+v %v", sh, err)
	}
	// A wager's ledger transaction leads to its round; so does a settlement's.
	table, round, err := s.Transaction(ctx, fmt.Sprintf("%s/%d", g.ID, r5(recs)))
	if err != nil || table != g.ID || round != 2 {
		t.Fatalf("the transaction of wager 5: %s %d %v", table, round, err)
	}
	_, _, err = s.Transaction(ctx, "no-such-key")
	wantCode(t, err, baccarat.CodeNotFound)
	if calls, err := s.WagerCalls(ctx, g.ID, []uint64{1, 2, 99}); err != nil || len(calls) != 0 {
		t.Fatalf("an internal table's wagers have no wallet calls: %+v %v", calls, err)
	}
	sess, err := s.Sessions(ctx, "bob", 10)
	if err != nil || len(sess) != 2 || sess[0].Day != "2026-03-02" || sess[0].Currency != "EUR" || sess[0].Wagers+sess[1].Wagers != 24 {
		t.Fatalf("bob's sessions: %+v %v", sess, err)
	}
	infos, err := s.TableInfos(ctx)
	if err != nil || len(infos) != 1 || infos[0].Game != "mbs-tiger" || infos[0].Currency != "EUR" || !infos[0].Created.Equal(At) {
		t.Fatalf("tables: %+v %v", infos, err)
	}
}
