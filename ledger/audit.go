package ledger

import (
	"math/big"
	"slices"

	"github.com/tablehouse/baccarat"
)

// AccountAudit is what a store reads back about one account for an audit: what it stores
// (Balance, Entries) beside what its entry rows add up to (Sum, Count), and Breaks, the
// number of entries whose running balance is not the previous one plus the amount or whose
// number is not the previous one plus one.
type AccountAudit struct {
	ID      string
	Balance baccarat.Money
	Entries int64
	Sum     baccarat.Money
	Count   int64
	Breaks  int64
}

// Audit is a store's raw read of its books; Check judges it. Stores only gather the
// figures, so what "sound books" means is written once, here.
type Audit struct {
	Accounts []AccountAudit
	// Unbalanced lists the keys of transactions whose own entries do not sum to zero,
	// number fewer than two, name missing accounts or span currencies, and describes
	// entries that belong to no transaction.
	Unbalanced []string
}

// Check returns an integrity error naming the first fault, or nil when: every account id
// is well-formed; every stored balance and entry count equals what its entries add up to
// and every running balance follows; no account but the house is below zero; every
// transaction balances; and the balances of each currency sum to zero (double entry: money
// is only ever moved, never made).
func (a Audit) Check() error {
	if len(a.Unbalanced) > 0 {
		return integrity("transaction %q does not balance (or is a stray entry)", a.Unbalanced[0])
	}
	totals := make(map[Currency]*big.Int)
	for _, x := range a.Accounts {
		acct, err := ParseAccount(x.ID)
		if err != nil {
			return integrity("ledger holds a malformed account id %q", x.ID)
		}
		switch {
		case x.Balance != x.Sum:
			return integrity("account %s stores balance %d but its entries sum to %d", x.ID, x.Balance, x.Sum)
		case x.Entries != x.Count:
			return integrity("account %s stores %d entries but has %d", x.ID, x.Entries, x.Count)
		case x.Breaks != 0:
			return integrity("account %s has %d entries whose running balance or number does not follow", x.ID, x.Breaks)
		case x.Balance < 0 && !acct.MayGoNegative():
			return integrity("account %s is overdrawn: %d", x.ID, x.Balance)
		}
		t := totals[acct.Currency]
		if t == nil {
			t = new(big.Int)
			totals[acct.Currency] = t
		}
		t.Add(t, big.NewInt(int64(x.Sum)))
	}
	curs := make([]Currency, 0, len(totals))
	for c := range totals {
		curs = append(curs, c)
	}
	slices.Sort(curs)
	for _, c := range curs {
		if totals[c].Sign() != 0 {
			return integrity("the balances in %s sum to %s, not zero", c, totals[c])
		}
	}
	return nil
}

func integrity(format string, args ...any) error {
	return baccarat.Errorf(baccarat.CodeIntegrity, "ledger: "+format, args...)
}
