package ledger

import (
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
)

// Limits on a transaction. They keep every sum inside one transaction far from int64
// overflow (MaxPostings·MaxAmount < 2^63), so Validate can add plainly, and they bound what a
// store is asked to write for one key.
const (
	MaxAmount   = baccarat.MaxAmount // 10^15 minor units in one posting
	MaxPostings = 64
	MaxKeyLen   = 200
	MaxMemoLen  = 500
)

// Posting adds Amount to the balance of Account: positive credits, negative debits.
type Posting struct {
	Account string         `json:"account"`
	Amount  baccarat.Money `json:"amount"`
}

// Transaction is one movement of money: postings that sum to zero, in one currency, under
// an idempotency key. The key is what makes retries safe: a client, a host or a whole server
// that is unsure whether a transaction landed posts it again with the same key, and it is
// applied at most once.
type Transaction struct {
	Key      string    `json:"key"`
	Postings []Posting `json:"postings"`
	Memo     string    `json:"memo,omitempty"`
	Table    string    `json:"table,omitempty"` // the table whose round caused it, if any
	Round    int       `json:"round,omitempty"`
	At       time.Time `json:"at"` // passed in by the caller: the ledger reads no clock
}

// Validate checks everything about tx that does not depend on the books: a key, at least
// two postings on distinct well-formed accounts, no zero amounts, a zero sum, one currency.
// It returns the currency. Errors are bad_request and name the first rule broken.
func (tx Transaction) Validate() (Currency, error) {
	accts, err := tx.accounts()
	if err != nil {
		return "", err
	}
	return accts[0].Currency, nil
}

// accounts validates tx and returns its postings' accounts parsed, in posting order.
func (tx Transaction) accounts() ([]Account, error) {
	if err := validKey(tx.Key); err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) ([]Account, error) {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "transaction %q: "+format, append([]any{tx.Key}, args...)...)
	}
	switch {
	case len(tx.Postings) < 2:
		return bad("needs at least two postings, has %d", len(tx.Postings))
	case len(tx.Postings) > MaxPostings:
		return bad("has %d postings, at most %d allowed", len(tx.Postings), MaxPostings)
	case len(tx.Memo) > MaxMemoLen || !utf8.ValidString(tx.Memo) || strings.ContainsRune(tx.Memo, 0):
		return bad("memo must be UTF-8 of at most %d bytes without NUL", MaxMemoLen)
	case tx.Table != "" && !baccarat.ValidStoredID(tx.Table):
		return bad("table %q is not a table id", tx.Table)
	case tx.Round < 0:
		return bad("round %d is negative", tx.Round)
	case !StorableTime(tx.At):
		return bad("time %v is missing or outside the years 1678–2262", tx.At)
	}
	var sum baccarat.Money
	accts := make([]Account, len(tx.Postings))
	for i, p := range tx.Postings {
		a, err := ParseAccount(p.Account)
		if err != nil {
			return bad("posting %d: %v", i+1, err)
		}
		switch {
		case slices.ContainsFunc(accts[:i], func(b Account) bool { return b.ID == p.Account }):
			return bad("account %s appears twice: merge its postings", p.Account)
		case p.Amount == 0:
			return bad("posting %d to %s has a zero amount", i+1, p.Account)
		case p.Amount > MaxAmount || p.Amount < -MaxAmount:
			return bad("posting %d to %s: %d is beyond ±%d", i+1, p.Account, p.Amount, MaxAmount)
		case i > 0 && a.Currency != accts[0].Currency:
			return bad("mixes currencies %s and %s: one currency per transaction (chips are never money)",
				accts[0].Currency, a.Currency)
		}
		accts[i] = a
		sum += p.Amount
	}
	if sum != 0 {
		return bad("postings sum to %d, not zero", sum)
	}
	return accts, nil
}

func validKey(k string) error {
	if k == "" || len(k) > MaxKeyLen || !utf8.ValidString(k) || strings.ContainsFunc(k, unicode.IsControl) {
		return baccarat.Errorf(baccarat.CodeBadRequest,
			"idempotency key %q: want 1 to %d bytes of printable UTF-8", k, MaxKeyLen)
	}
	return nil
}

// StorableTime reports whether t is set and survives a round trip through int64 Unix
// nanoseconds, the form every store keeps times in so they come back exactly.
func StorableTime(t time.Time) bool {
	return !t.IsZero() && time.Unix(0, t.UnixNano()).Equal(t)
}

// Digest identifies a transaction's postings for idempotency.
type Digest [sha256.Size]byte

// Digest is the SHA-256 of the postings sorted by account, one "account amount\n" line
// each. Two posts under one key are the same transaction when their digests match; memo,
// table, round and time are left out on purpose, since a retry legitimately carries a new
// time.
func (tx Transaction) Digest() Digest {
	ps := slices.Clone(tx.Postings)
	slices.SortFunc(ps, func(a, b Posting) int { return strings.Compare(a.Account, b.Account) })
	var b []byte
	for _, p := range ps {
		b = append(b, p.Account...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(p.Amount), 10)
		b = append(b, '\n')
	}
	return sha256.Sum256(b)
}
