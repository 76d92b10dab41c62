package ledger

import (
	"math"
	"slices"
	"strings"

	"github.com/tablehouse/baccarat"
)

// AccountState is an account as a store holds it: its balance and how many entries it has
// (the number of the last one, since entries are numbered 1, 2, 3 … per account).
type AccountState struct {
	Balance baccarat.Money
	Entries int64
}

// Snapshot is the part of the books that some transactions touch, as a store read it under
// lock: the open accounts among those the transactions post to, and the digests of those of
// their keys that were already posted. Touched names what to read.
//
// The money rules live in Apply, not in the stores: a store reads a Snapshot, calls Apply,
// and writes the Changes, all in one database transaction.
type Snapshot struct {
	Accounts map[string]AccountState
	Posted   map[string]Digest
}

// Touched returns the accounts and the keys of txs, each sorted and without repeats. Sorted
// account ids are the order in which a store locks rows, so two batches cannot deadlock.
func Touched(txs []Transaction) (accounts, keys []string) {
	for _, tx := range txs {
		keys = append(keys, tx.Key)
		for _, p := range tx.Postings {
			accounts = append(accounts, p.Account)
		}
	}
	slices.Sort(accounts)
	slices.Sort(keys)
	return slices.Compact(accounts), slices.Compact(keys)
}

// Entry to write: one posting of an applied transaction with its place in its account.
type PlannedEntry struct {
	Tx      int // index into Changes.Applied
	Account string
	Seq     int64 // 1-based number of this entry in its account
	Amount  baccarat.Money
	Balance baccarat.Money // the account's balance after this entry
}

// AccountUpdate is an account's state after a batch.
type AccountUpdate struct {
	ID string
	AccountState
}

// Changes is what a store writes for a batch of transactions.
type Changes struct {
	Applied    []Transaction // the transactions to write, in order
	Digests    []Digest      // Digests[i] is Applied[i].Digest()
	Currencies []Currency    // Currencies[i] is Applied[i]'s currency
	Skipped    []string      // keys already posted with identical postings
	Entries    []PlannedEntry
	Accounts   []AccountUpdate // every account that changed, sorted by id
}

// Apply posts txs, in order, to the snapshot and returns what to write. It validates
// everything before the caller mutates anything: if any transaction is malformed
// (bad_request), reuses a key with different postings (conflict), touches an account that
// is not open (not_found) or would take a non-house account below zero
// (insufficient_funds), Apply returns that error and the store writes nothing at all.
//
// A key already posted, in the snapshot or earlier in txs, with identical postings is
// skipped: that is idempotency. Apply does not modify s.
func (s Snapshot) Apply(txs []Transaction) (Changes, error) {
	var ch Changes
	state := make(map[string]AccountState)
	posted := make(map[string]Digest)
	for _, tx := range txs {
		accts, err := tx.accounts()
		if err != nil {
			return Changes{}, err
		}
		d := tx.Digest()
		prev, done := posted[tx.Key]
		if !done {
			prev, done = s.Posted[tx.Key]
		}
		if done {
			if prev != d {
				return Changes{}, baccarat.Errorf(baccarat.CodeConflict,
					"idempotency key %q was already used for different postings", tx.Key)
			}
			ch.Skipped = append(ch.Skipped, tx.Key)
			continue
		}
		after, err := s.balancesAfter(tx, accts, state)
		if err != nil {
			return Changes{}, err
		}
		for i, p := range tx.Postings {
			st := after[i]
			state[p.Account] = st
			ch.Entries = append(ch.Entries, PlannedEntry{
				Tx: len(ch.Applied), Account: p.Account, Seq: st.Entries, Amount: p.Amount, Balance: st.Balance,
			})
		}
		posted[tx.Key] = d
		ch.Applied = append(ch.Applied, tx)
		ch.Digests = append(ch.Digests, d)
		ch.Currencies = append(ch.Currencies, accts[0].Currency)
	}
	for id, st := range state {
		ch.Accounts = append(ch.Accounts, AccountUpdate{ID: id, AccountState: st})
	}
	slices.SortFunc(ch.Accounts, func(a, b AccountUpdate) int { return strings.Compare(a.ID, b.ID) })
	return ch, nil
}

// balancesAfter computes, without changing anything, each posted account's state after tx.
func (s Snapshot) balancesAfter(tx Transaction, accts []Account, state map[string]AccountState) ([]AccountState, error) {
	after := make([]AccountState, len(tx.Postings))
	for i, p := range tx.Postings {
		st, ok := state[p.Account]
		if !ok {
			st, ok = s.Accounts[p.Account]
		}
		if !ok {
			return nil, baccarat.Errorf(baccarat.CodeNotFound, "transaction %q: account %s is not open", tx.Key, p.Account)
		}
		if (p.Amount > 0 && st.Balance > math.MaxInt64-p.Amount) || (p.Amount < 0 && st.Balance < math.MinInt64-p.Amount) {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest,
				"transaction %q: the balance of %s would overflow", tx.Key, p.Account)
		}
		nb := st.Balance + p.Amount
		if nb < 0 && !accts[i].MayGoNegative() {
			return nil, baccarat.Errorf(baccarat.CodeInsufficientFunds,
				"transaction %q: %s holds %d and cannot pay %d", tx.Key, p.Account, st.Balance, -p.Amount)
		}
		after[i] = AccountState{Balance: nb, Entries: st.Entries + 1}
	}
	return after, nil
}
