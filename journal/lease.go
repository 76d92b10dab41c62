package journal

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// Lease says which server hosts a table until when. A table lives on one server at a time
// (ARCHITECTURE, Scaling out): the owner renews well before Expires; if it dies, the lease
// lapses and another server may take the table and replay its journal.
//
// Epoch fences the writers: it rises each time the lease passes to a server that did not
// hold it (a takeover, or a release and a new acquire), never otherwise, and a store keeps
// it when the lease is released. A commit carries the Fence it was decided under and the
// store checks it inside the commit's transaction, so a server that lost its lease (paused
// past it, or cut off) can never write again, whatever it still believes; the journal's
// chain check stays as a second line.
//
// The zero Lease is a table nobody ever held.
type Lease struct {
	Table   string    `json:"table"`
	Owner   string    `json:"owner,omitempty"`
	Expires time.Time `json:"expires"`
	Epoch   uint64    `json:"epoch,omitempty"`
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
	epoch := l.Epoch + 1 // a new tenure: whoever wrote before is fenced off
	if l.Owner == owner && l.Held(now) {
		epoch = l.Epoch // extending one's own lease
	}
	return Lease{Table: l.Table, Owner: owner, Expires: now.Add(ttl), Epoch: epoch}, true
}

// Seize grants l to owner for ttl from now whoever holds it: for a server that knows every
// other holder is gone (it holds the SQLite database's process lock, so no other process can
// be writing), which need not wait for their leases to lapse. A new tenure, as Acquire's.
func (l Lease) Seize(owner string, ttl time.Duration, now time.Time) Lease {
	epoch := l.Epoch + 1
	if l.Owner == owner && l.Held(now) {
		epoch = l.Epoch
	}
	return Lease{Table: l.Table, Owner: owner, Expires: now.Add(ttl), Epoch: epoch}
}

// Renew extends owner's lease to now+ttl. It is a conflict if owner no longer holds the
// lease: released, or lapsed and taken by another server, which is then the table's host
// and this server must stop writing it. A lapsed lease nobody took is renewed: no one else
// can have written meanwhile.
func (l Lease) Renew(owner string, ttl time.Duration, now time.Time) (Lease, error) {
	if l.Owner != owner {
		return l, baccarat.Errorf(baccarat.CodeConflict, "lease on table %s: held by %q, not %q", l.Table, l.Owner, owner)
	}
	return Lease{Table: l.Table, Owner: owner, Expires: now.Add(ttl), Epoch: l.Epoch}, nil
}

// Release ends owner's lease so another server may take the table at once (a clean
// shutdown). Releasing a lease one does not hold changes nothing, so it is safe to repeat.
func (l Lease) Release(owner string) Lease {
	if l.Owner != owner {
		return l
	}
	return Lease{Table: l.Table, Epoch: l.Epoch}
}

// Fence is the lease a commit was decided under: the table's owner and its epoch (Now, the
// time of the commit, is for the message).
type Fence struct {
	Table string
	Owner string
	Epoch uint64
	Now   time.Time
}

// Check refuses a commit under f unless l, the table's lease as the store holds it inside
// the commit's transaction, is still f's: the same owner and the same epoch. A lease that
// lapsed without anyone taking it is still f's: nobody else can have written meanwhile, and
// any other server must take it (a new epoch) before it writes, which fences f off. (A
// store's commit holds the lease row against a takeover until it ends, so a takeover loads
// the journal with the commit in it.)
func (f Fence) Check(l Lease) error {
	if l.Owner != f.Owner || l.Epoch != f.Epoch {
		return baccarat.Errorf(baccarat.CodeLeaseLost, "table %s: this server's lease (epoch %d) is gone (now %q, epoch %d, until %s): nothing was written; the table goes on at its new server, try again",
			f.Table, f.Epoch, l.Owner, l.Epoch, l.Expires.Format(time.RFC3339Nano))
	}
	return nil
}

// CheckLeaseArgs validates the arguments of a lease call: a table id, an owner id (the
// server's name), a positive ttl and a storable time.
func CheckLeaseArgs(table, owner string, ttl time.Duration, now time.Time) error {
	switch {
	case !baccarat.ValidStoredID(table):
		return baccarat.Errorf(baccarat.CodeBadRequest, "lease: %q is not a table id", table)
	case !baccarat.ValidStoredID(owner):
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

// SeizeWith implements Seizer.Seize on a store's Decider.
func SeizeWith(ctx context.Context, d Decider, table, owner string, ttl time.Duration, now time.Time) error {
	if err := CheckLeaseArgs(table, owner, ttl, now); err != nil {
		return err
	}
	return d(ctx, table, func(l Lease) (Lease, error) { return l.Seize(owner, ttl, now), nil })
}

// Seizer is a store whose leases a server may take whoever holds them (Lease.Seize).
type Seizer interface {
	Seize(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) error
}

// Vacancies is a store that lists the tables (and tournaments) with records that owner may
// take at now: nobody holds them (a lease released, lapsed or never taken) or owner does
// (a restarted process of the same name). A server polls it to take such a table up within
// a second, instead of trying every table of the store.
type Vacancies interface {
	Vacant(ctx context.Context, owner string, now time.Time) ([]string, error)
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
