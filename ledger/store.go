package ledger

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
)

// Store keeps the books. Every implementation runs ledgertest.Run, so the rules below hold
// for SQLite and PostgreSQL alike. All errors are *baccarat.Error with a stable code.
type Store interface {
	// OpenAccount opens an account with a zero balance; opening an open account does
	// nothing. Posting requires open accounts, so a mistyped player id is refused instead of
	// silently creating a wallet holding money.
	OpenAccount(ctx context.Context, id string) error

	// Post applies tx atomically (Snapshot.Apply's rules). If tx.Key was already posted with
	// identical postings it changes nothing and reports applied == false; with different
	// postings it is a conflict. A refused transaction changes nothing and does not use up
	// its key.
	Post(ctx context.Context, tx Transaction) (applied bool, err error)

	// Balance is an open account's balance (not_found otherwise).
	Balance(ctx context.Context, id string) (baccarat.Money, error)

	// Statement lists an account's entries oldest first with their running balances.
	Statement(ctx context.Context, id string, page Page) ([]Entry, error)

	// Accounts lists the open accounts whose ids start with prefix ("" for all, "wallet/alice/"
	// for one player's wallets), sorted by id.
	Accounts(ctx context.Context, prefix string) ([]AccountBalance, error)

	// Check audits the books (see Audit.Check) and returns an integrity error describing
	// the first fault found, nil if the books are sound.
	Check(ctx context.Context) error
}

// Page selects a slice of a statement: the entries numbered after After, at most Limit of
// them (DefaultLimit when 0, capped at MaxLimit). The next page starts after the last
// entry's Seq, so pages stay exact while entries are appended.
type Page struct {
	After int64
	Limit int
}

// Statement page sizes.
const (
	DefaultLimit = 100
	MaxLimit     = 1000
)

// Norm checks p and fills in the default limit.
func (p Page) Norm() (Page, error) {
	switch {
	case p.After < 0 || p.Limit < 0:
		return p, baccarat.Errorf(baccarat.CodeBadRequest, "statement page after %d limit %d: want non-negative numbers", p.After, p.Limit)
	case p.Limit == 0:
		p.Limit = DefaultLimit
	case p.Limit > MaxLimit:
		p.Limit = MaxLimit
	}
	return p, nil
}

// Entry is one line of a statement: a posting to the account, the transaction it belongs
// to, and the balance after it.
type Entry struct {
	Seq     int64          `json:"seq"` // 1-based, consecutive per account
	Key     string         `json:"key"`
	Amount  baccarat.Money `json:"amount"`
	Balance baccarat.Money `json:"balance"`
	Memo    string         `json:"memo,omitempty"`
	Table   string         `json:"table,omitempty"`
	Round   int            `json:"round,omitempty"`
	At      time.Time      `json:"at"`
}

// AccountBalance is an account id with its balance.
type AccountBalance struct {
	ID      string         `json:"id"`
	Balance baccarat.Money `json:"balance"`
}

// NotOpen is the error for an account that is not open.
func NotOpen(id string) error {
	return baccarat.Errorf(baccarat.CodeNotFound, "account %s is not open", id)
}
