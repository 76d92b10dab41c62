package live

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// tenure is a table's (or a tournament's) hold on its lease on this host: the epoch it writes
// under (every commit carries it as a journal.Fence, which the store checks inside the
// commit's transaction) and how long the lease surely runs, as of its last acquire or
// renewal. A renewal the store refuses (another server holds the lease) ends the tenure at
// once; one the store cannot take (out of reach, disk full) is tried again each second for
// as long as the lease is still surely ours, and ends the tenure only when it is not.
type tenure struct {
	epoch uint64
	until time.Time
	lost  bool
}

// renewRetry is how soon a renewal the store could not take is tried again.
const renewRetry = time.Second

// start begins a tenure just acquired at now: its epoch as the store holds it.
func (l *tenure) start(h *Host, id string, now time.Time) error {
	lease, err := h.opt.Store.Lease(h.ctx, id)
	if err != nil {
		return err
	}
	if lease.Owner != h.opt.Owner {
		return baccarat.Errorf(baccarat.CodeLeaseLost, "%s: the lease just taken is %q's", id, lease.Owner)
	}
	l.epoch, l.until, l.lost = lease.Epoch, now.Add(h.opt.LeaseTTL), false
	return nil
}

// fence is the lease a commit is decided under, at the time of the commit.
func (l *tenure) fence(h *Host, id string) *journal.Fence {
	return &journal.Fence{Table: id, Owner: h.opt.Owner, Epoch: l.epoch, Now: h.opt.Clock.Now()}
}

// renew extends the lease and returns when to renew next; it ends the tenure (lost) when the
// lease is another's, or could not be renewed before it might run out.
func (l *tenure) renew(h *Host, id string) time.Duration {
	now := h.opt.Clock.Now()
	err := h.opt.Store.Renew(h.ctx, id, h.opt.Owner, h.opt.LeaseTTL, now)
	switch {
	case err == nil:
		l.until = now.Add(h.opt.LeaseTTL)
		return h.opt.LeaseTTL / 3
	case isCode(err, baccarat.CodeConflict) || isCode(err, baccarat.CodeLeaseLost):
		h.opt.Logger.Error("lease lost: stopping", "stream", id, "err", err)
	case now.Add(renewRetry + min(time.Second, h.opt.LeaseTTL/10)).Before(l.until):
		h.opt.Logger.Warn("the lease could not be renewed; trying again while it still runs", "stream", id,
			"until", l.until, "err", err)
		return renewRetry
	default:
		h.opt.Logger.Error("the lease could not be renewed before it runs out: stopping", "stream", id, "err", err)
	}
	l.lost = true
	return h.opt.LeaseTTL / 3
}
