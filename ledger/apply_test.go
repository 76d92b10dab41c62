package ledger

import (
	"fmt"
	"testing"

	"github.com/tablehouse/baccarat"
	"pgregory.net/rapid"
)

// commit folds ch into s the way a store writes it.
func commit(s Snapshot, ch Changes) Snapshot {
	for _, a := range ch.Accounts {
		s.Accounts[a.ID] = a.AccountState
	}
	for i, tx := range ch.Applied {
		s.Posted[tx.Key] = ch.Digests[i]
	}
	return s
}

func open(ids ...string) Snapshot {
	s := Snapshot{Accounts: map[string]AccountState{}, Posted: map[string]Digest{}}
	for _, id := range ids {
		s.Accounts[id] = AccountState{}
	}
	return s
}

func TestApplyRules(t *testing.T) {
	w, h, p := Wallet("alice", "EUR"), House("EUR"), InPlay("t1", "EUR")
	deposit := tx("dep", Posting{h, -1000}, Posting{w, 1000})
	cases := []struct {
		name string
		txs  []Transaction
		code baccarat.Code
		want map[string]baccarat.Money
	}{
		{"a deposit lets the house go negative", []Transaction{deposit}, "", map[string]baccarat.Money{h: -1000, w: 1000}},
		{"a wager within the balance is applied", []Transaction{deposit, tx("w1", Posting{w, -1000}, Posting{p, 1000})}, "", map[string]baccarat.Money{w: 0, p: 1000}},
		{"a wallet is never overdrawn", []Transaction{deposit, tx("w1", Posting{w, -1001}, Posting{p, 1001})}, baccarat.CodeInsufficientFunds, nil},
		{"in-play is never overdrawn", []Transaction{tx("x", Posting{p, -1}, Posting{h, 1})}, baccarat.CodeInsufficientFunds, nil},
		{"the same key and postings apply once", []Transaction{deposit, deposit}, "", map[string]baccarat.Money{w: 1000}},
		{"the same key with other postings is a conflict", []Transaction{deposit, tx("dep", Posting{h, -1}, Posting{w, 1})}, baccarat.CodeConflict, nil},
		{"accounts must be open", []Transaction{tx("x", Posting{h, -1}, Posting{Wallet("bob", "EUR"), 1})}, baccarat.CodeNotFound, nil},
		{"a bad transaction refuses the batch", []Transaction{deposit, tx("", Posting{h, -1}, Posting{w, 1})}, baccarat.CodeBadRequest, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := open(w, h, p)
			ch, err := s.Apply(c.txs)
			if got := baccarat.ErrorCode(err); got != c.code {
				t.Fatalf("Apply = %v, want code %q", err, c.code)
			}
			if err != nil {
				if len(ch.Applied)+len(ch.Entries)+len(ch.Accounts) != 0 {
					t.Fatalf("a refused batch must change nothing, got %+v", ch)
				}
				return
			}
			s = commit(s, ch)
			for id, want := range c.want {
				if got := s.Accounts[id].Balance; got != want {
					t.Errorf("%s = %d, want %d", id, got, want)
				}
			}
		})
	}
}

// TestApplyBatchIsSequential is the group-commit property: applying a batch at once gives
// the same books as applying its transactions one by one, and a batch is refused exactly
// when one of its transactions would be, with the same code.
func TestApplyBatchIsSequential(t *testing.T) {
	ids := []string{House("EUR"), Wallet("a", "EUR"), Wallet("b", "EUR"), InPlay("t", "EUR")}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "n")
		var txs []Transaction
		for i := range n {
			from := rapid.SampledFrom(ids).Draw(t, "from")
			to := rapid.SampledFrom(ids).Filter(func(s string) bool { return s != from }).Draw(t, "to")
			amt := baccarat.Money(rapid.Int64Range(1, 50).Draw(t, "amount"))
			key := fmt.Sprintf("k%d", rapid.IntRange(0, i).Draw(t, "key"))
			txs = append(txs, tx(key, Posting{from, -amt}, Posting{to, amt}))
		}
		seq := open(ids...)
		var seqErr error
		for _, x := range txs {
			ch, err := seq.Apply([]Transaction{x})
			if err != nil {
				seqErr = err
				break
			}
			seq = commit(seq, ch)
		}
		batch := open(ids...)
		ch, err := batch.Apply(txs)
		if baccarat.ErrorCode(err) != baccarat.ErrorCode(seqErr) {
			t.Fatalf("batch error %v, sequential error %v", err, seqErr)
		}
		if err != nil {
			return
		}
		batch = commit(batch, ch)
		var sum baccarat.Money
		for _, id := range ids {
			if batch.Accounts[id] != seq.Accounts[id] {
				t.Fatalf("%s: batch %+v, sequential %+v", id, batch.Accounts[id], seq.Accounts[id])
			}
			if a, _ := ParseAccount(id); batch.Accounts[id].Balance < 0 && !a.MayGoNegative() {
				t.Fatalf("%s overdrawn", id)
			}
			sum += batch.Accounts[id].Balance
		}
		if sum != 0 {
			t.Fatalf("balances sum to %d", sum)
		}
		if len(ch.Entries) != 2*len(ch.Applied) || len(ch.Applied)+len(ch.Skipped) != len(txs) {
			t.Fatalf("entries %d applied %d skipped %d of %d", len(ch.Entries), len(ch.Applied), len(ch.Skipped), len(txs))
		}
	})
}

func TestAuditCheck(t *testing.T) {
	ok := []AccountAudit{
		{ID: "house/EUR", Balance: -10, Entries: 1, Sum: -10, Count: 1},
		{ID: "wallet/a/EUR", Balance: 10, Entries: 1, Sum: 10, Count: 1},
	}
	mod := func(f func(a []AccountAudit)) []AccountAudit {
		c := append([]AccountAudit(nil), ok...)
		f(c)
		return c
	}
	cases := []struct {
		name  string
		audit Audit
		code  baccarat.Code
	}{
		{"sound books pass", Audit{Accounts: ok}, ""},
		{"a stored balance equals its entries' sum", Audit{Accounts: mod(func(a []AccountAudit) { a[1].Balance = 11 })}, baccarat.CodeIntegrity},
		{"a stored entry count equals the entries", Audit{Accounts: mod(func(a []AccountAudit) { a[1].Entries = 2 })}, baccarat.CodeIntegrity},
		{"running balances follow", Audit{Accounts: mod(func(a []AccountAudit) { a[1].Breaks = 1 })}, baccarat.CodeIntegrity},
		{"each currency sums to zero", Audit{Accounts: mod(func(a []AccountAudit) { a[1].Balance, a[1].Sum = 9, 9 })}, baccarat.CodeIntegrity},
		{"no wallet is negative", Audit{Accounts: mod(func(a []AccountAudit) { a[0].Balance, a[0].Sum, a[1].Balance, a[1].Sum = 10, 10, -10, -10 })}, baccarat.CodeIntegrity},
		{"every transaction balances", Audit{Accounts: ok, Unbalanced: []string{"k"}}, baccarat.CodeIntegrity},
		{"account ids are well-formed", Audit{Accounts: mod(func(a []AccountAudit) { a[0].ID = "house" })}, baccarat.CodeIntegrity},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := baccarat.ErrorCode(c.audit.Check()); got != c.code {
				t.Fatalf("Check code %q, want %q", got, c.code)
			}
		})
	}
}
