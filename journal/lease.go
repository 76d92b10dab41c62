package journal

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// Lease says which server hosts a table until when. A table lives on one server at a time
// (ARCHITECTURE, Scaling out): the owner renews well before Expires; if it dies, the lease
// lapses and another server may take the table and replay its journal. The lease only
// decides who should write; the journal's chain check is what makes a stale writer fail.
//
// The zero Lease is a table nobody holds.
type Lease struct {
	Table   string    `json:"table"`
	Owner   string    `json:"owner,omitempty"`
	Expires time.Time `json:"expires"`
}

// Held reports whether someone holds l at now. A lease expires at Expires exactly.
func (l Lease) Held(now time.Time) bool { return l.Owner != "" && now.Before(l.Expires) }

// Acquire grants l to owner for ttl from now if nobody else holds it; ok is false, and l is
// returned unchanged, when another owner's lease has not lapsed. Acquiring a lease one
// already holds extends it.
func (l Lease) Acquire(owner string, ttl time.Duration, now time.Time) (next Lease, ok bool) {
	if l.Owner != owner && l.Held(now) {
		return l, false
	}
	return Lease{Table: l.Table, Owner: owner, Expires: now.Add(ttl)}, true
}

// Renew extends owner's lease to now+ttl. It is a conflict if owner no longer holds the
// lease: released, or lapsed and taken by another server, which is then the table's host
// and this server must stop writing it. A lapsed lease nobody took is renewed: no one else
// can have written meanwhile.
func (l Lease) Renew(owner string, ttl time.Duration, now time.Time) (Lease, error) {
	if l.Owner != owner {
		return l, baccarat.Errorf(baccarat.CodeConflict, "lease on table %s: held by %q, not %q", l.Table, l.Owner, owner)
	}
	return Lease{Table: l.Table, Owner: owner, Expires: now.Add(ttl)}, nil
}

// Release ends owner's lease so another server may take the table at once (a clean
// shutdown). Releasing a lease one does not hold changes nothing, so it is safe to repeat.
func (l Lease) Release(owner string) Lease {
	if l.Owner != owner {
		return l
	}
	return Lease{Table: l.Table}
}

// CheckLeaseArgs validates the arguments of a lease call: a table id, an owner id (the
// server's name), a positive ttl and a storable time.
func CheckLeaseArgs(table, owner string, ttl time.Duration, now time.Time) error {
	switch {
	case !ledger.IsID(table):
		return baccarat.Errorf(baccarat.CodeBadRequest, "lease: %q is not a table id", table)
	case !ledger.IsID(owner):
		return baccarat.Errorf(baccarat.CodeBadRequest, "lease: owner %q is not an id", owner)
	case ttl <= 0:
		return baccarat.Errorf(baccarat.CodeBadRequest, "lease: ttl %v must be positive", ttl)
	case !ledger.StorableTime(now) || !ledger.StorableTime(now.Add(ttl)):
		return baccarat.Errorf(baccarat.CodeBadRequest, "lease: time %v (+%v) is not storable", now, ttl)
	}
	return nil
}

// Decider is how a store applies a lease decision: read the table's lease, let decide choose
// the next, write it, all in one database transaction.
type Decider func(ctx context.Context, table string, decide func(Lease) (Lease, error)) error

// AcquireWith implements Store.Acquire on a store's Decider.
func AcquireWith(ctx context.Context, d Decider, table, owner string, ttl time.Duration, now time.Time) (bool, error) {
	if err := CheckLeaseArgs(table, owner, ttl, now); err != nil {
		return false, err
	}
	ok := false
	err := d(ctx, table, func(l Lease) (Lease, error) {
		next, got := l.Acquire(owner, ttl, now)
		ok = got
		return next, nil
	})
	return ok, err
}

// RenewWith implements Store.Renew on a store's Decider.
func RenewWith(ctx context.Context, d Decider, table, owner string, ttl time.Duration, now time.Time) error {
	if err := CheckLeaseArgs(table, owner, ttl, now); err != nil {
		return err
	}
	return d(ctx, table, func(l Lease) (Lease, error) { return l.Renew(owner, ttl, now) })
}

// ReleaseWith implements Store.Release on a store's Decider.
func ReleaseWith(ctx context.Context, d Decider, table, owner string) error {
	if err := CheckLeaseArgs(table, owner, time.Second, time.Unix(0, 0)); err != nil {
		return err
	}
	return d(ctx, table, func(l Lease) (Lease, error) { return l.Release(owner), nil })
}
