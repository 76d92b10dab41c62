package journal

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
)

// Store keeps the journals of all tables and their leases. Every implementation runs
// journaltest.Run. All errors are *baccarat.Error with a stable code.
type Store interface {
	// Append writes sealed records atomically: all of them or none. A record that does not
	// extend its table's head (Advance) is a conflict and nothing is written.
	Append(ctx context.Context, records ...Record) error

	// Load returns a table's records from fromSeq (1 for all) to the head, in order; none
	// for an unknown table.
	Load(ctx context.Context, table string, fromSeq uint64) ([]Record, error)

	// Tables lists the tables that have records, sorted.
	Tables(ctx context.Context) ([]string, error)

	// Head is the table's head, the zero Head for a table with no records.
	Head(ctx context.Context, table string) (Head, error)

	// Acquire takes table for owner until now+ttl unless another owner holds an unexpired
	// lease (then false, nil). See Lease.Acquire.
	Acquire(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) (bool, error)

	// Renew extends owner's lease, or fails with a conflict if owner lost it. See
	// Lease.Renew.
	Renew(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) error

	// Release gives the table up if owner holds it. See Lease.Release.
	Release(ctx context.Context, table, owner string) error

	// Lease reads a table's lease as stored (the zero Lease, with Table set, when nobody
	// holds it): who hosts the table, for the lobby and for audits.
	Lease(ctx context.Context, table string) (Lease, error)
}

// Batch is what one Commit writes: events of one or more tables, the money they move, and
// the request ids of the wagers among them. Where the money is the operator's (a seamless
// wallet, wallet.go), Placed marks the debits that paid for the wagers of the batch and
// Calls are the credits and rollbacks its settlements owe, to be delivered.
type Batch struct {
	// Fence, when set, is the lease the batch was decided under: the store commits nothing
	// unless the lease is still that (Fence.Check, inside the commit's transaction).
	Fence *Fence
	// Snapshot, when set, is written with the batch: a table's state as of one of its records
	// (a record of this batch or before it), which recovery may start from (Snapshots).
	Snapshot     *Snapshot
	Records      []Record
	Transactions []ledger.Transaction
	Requests     []Request
	Placed       []PlacedDebit
	Calls        []WalletCall
	// Plays are the batch's wagers placed and settled as responsible gaming counts them: the
	// store runs responsible.Book over them inside the commit, and a wager that would break a
	// player's limit fails the whole commit with its refusal.
	Plays []responsible.Play
}

// Empty reports whether the batch writes nothing.
func (b Batch) Empty() bool {
	return len(b.Records) == 0 && len(b.Transactions) == 0 && len(b.Requests) == 0 && len(b.Placed) == 0 && len(b.Calls) == 0 && len(b.Plays) == 0 &&
		b.Snapshot == nil
}

// Validate checks every record and transaction on its own (bad_request); what depends on
// the stored state (heads, balances, keys) is checked by Advance and Snapshot.Apply inside
// the store's database transaction.
func (b Batch) Validate() error {
	for _, r := range b.Records {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	for _, tx := range b.Transactions {
		if _, err := tx.Validate(); err != nil {
			return err
		}
	}
	for _, r := range b.Requests {
		if err := r.Validate(); err != nil {
			return err
		}
	}
	for i := range b.Calls {
		if !b.Calls[i].Closes() {
			return baccarat.Errorf(baccarat.CodeBadRequest, "wallet call %s: a commit writes credits and rollbacks only", b.Calls[i].Tx)
		}
		if err := b.Calls[i].Validate(); err != nil {
			return err
		}
	}
	for _, p := range b.Placed {
		if err := baccarat.CheckID("placed debit", p.Tx); err != nil {
			return err
		}
	}
	if b.Snapshot != nil {
		return b.Snapshot.Validate()
	}
	return nil
}

// Committer writes a Batch in one database transaction: the journal records and the ledger
// transactions land together or not at all. It is the one write of the wager data flow
// (ARCHITECTURE): the live host applies many commands in memory, commits their events and
// postings in one Batch (group commit), and only then acknowledges them.
//
// Commit fails, writing nothing, when a record does not extend its head (conflict), a
// transaction would overdraw an account (insufficient_funds), touches an account that is
// not open (not_found), reuses a key for different postings (conflict), writes a request
// id already written (idempotency_conflict, DuplicateRequest), marks placed a debit that is
// not pending (wallet_unavailable), closes a debit that is not placed (integrity), or
// anything is malformed (bad_request). A transaction whose key was already applied with identical
// postings is skipped and the rest of the batch is written. An empty batch does nothing.
type Committer interface {
	Commit(ctx context.Context, b Batch) error
}

// BalanceCommitter is a Committer that also tells, from inside the commit's own database
// transaction, the balance after it of every account the batch changed. A host caching
// balances sets them from here rather than adding postings to a cache another server may
// have made stale.
type BalanceCommitter interface {
	CommitBalances(ctx context.Context, b Batch) (map[string]baccarat.Money, error)
}
