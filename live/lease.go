package live

import (
	"context"
	"encoding/json"
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

// takeUp takes an existing stream's lease (Host.take) and rebuilds what writes it (load, a
// table's runner or a tournament's goroutine state), whose tenure then starts; false, nil
// when another server holds the lease. The lease is given back if the rebuilding fails.
func (h *Host) takeUp(ctx context.Context, id string, load func() (*tenure, error)) (bool, error) {
	ok, err := h.take(ctx, id)
	if err != nil || !ok {
		return false, err
	}
	l, err := load()
	if err == nil {
		err = l.start(h, id, h.opt.Clock.Now())
	}
	if err != nil {
		_ = h.opt.Store.Release(ctx, id, h.opt.Owner)
		return false, err
	}
	return true, nil
}

// found begins a new stream (a table, a tournament: name is how errors call it): refused
// conflict if it exists or another server holds its lease; otherwise its lease is taken,
// prepare (if any) runs, and its first record (typ, the spec as JSON) is written under the
// new tenure, which it returns with the stream's head.
func (h *Host) found(ctx context.Context, id, name, typ string, spec any, prepare func() error) (tenure, journal.Head, error) {
	var ten tenure
	head, err := h.opt.Store.Head(ctx, id)
	if err != nil {
		return ten, head, err
	}
	if head.Seq != 0 {
		return ten, head, baccarat.Errorf(baccarat.CodeConflict, "%s already exists", name)
	}
	if ok, err := h.opt.Store.Acquire(ctx, id, h.opt.Owner, h.opt.LeaseTTL, h.opt.Clock.Now()); err != nil {
		return ten, head, err
	} else if !ok {
		return ten, head, baccarat.Errorf(baccarat.CodeConflict, "%s is run by another server", name)
	}
	if prepare != nil {
		if err := prepare(); err != nil {
			return ten, head, err
		}
	}
	if err := ten.start(h, id, h.opt.Clock.Now()); err != nil {
		return ten, head, err
	}
	data, _ := json.Marshal(spec)
	rec := journal.Seal(journal.Head{}, journal.Record{Table: id, Seq: 1, Type: typ, Data: data, At: h.opt.Clock.Now()})
	if err := h.opt.Store.Commit(ctx, journal.Batch{Fence: ten.fence(h, id), Records: []journal.Record{rec}}); err != nil {
		return ten, head, err
	}
	return ten, rec.Head(), nil
}

// release gives the lease up as the goroutine stops, so that another server may take the
// stream at once; not when the host is abandoned (as in a crash), whose leases run out.
func (l *tenure) release(h *Host, id string) {
	h.mu.RLock()
	abandoned := h.abandoned
	h.mu.RUnlock()
	if !abandoned {
		_ = h.opt.Store.Release(context.Background(), id, h.opt.Owner)
	}
}

// leased is the loop of a goroutine that writes a stream under its lease (a table's, a
// tournament's), written once so that both keep the lease the same way: it renews the lease
// on the host's clock, a third of its time after the last renewal (sooner while a renewal
// the store could not take is retried: tenure.renew); it ends for good as soon as the lease
// is lost, before anything more is done (another server writes the stream from then on), or
// when it is told to stop; in between it takes its inbox's requests in batches and wakes
// on its owner's timers. What it does at each of these is its owner's (leasedWork).
type leased[R any] struct {
	h      *Host
	stream string
	lease  *tenure
	inbox  <-chan R
	batch  int             // the most requests taken from the inbox at once
	stop   <-chan struct{} // closed when the goroutine is to stop
	renew  <-chan time.Time
	buf    []R // the batch being taken, reused: no batch outlives its take
}

// leasedWork is what a leased loop's owner does.
type leasedWork[R any] interface {
	// due does what is due before the loop waits again and sets the owner's timers; false
	// ends the loop as if it were told to stop (the work is over).
	due() bool
	// take handles a batch of requests from the inbox, in the order they came; it keeps
	// none of the batch's slice.
	take(batch []R)
	// wakes is what the loop waits on besides its inbox, its lease and its stop.
	wakes() wakes
	// woke runs what a wake is for: the index of the timer that fired, or poked.
	woke(i int)
	// stopped ends the work, the lease lost or not. The loop ends with it.
	stopped(lost bool)
}

// wakes are up to three timers and a poke; a nil one never fires.
type wakes struct {
	timer [3]<-chan time.Time
	poke  <-chan struct{}
}

// poked is what woke is told when the poke, not a timer, woke the loop.
const poked = -1

// newLeased starts the lease's renewals on the host's clock, from now: before the owner's
// first work (a recovery, a resume), which may take a while.
func newLeased[R any](h *Host, stream string, lease *tenure, inbox <-chan R, batch int, stop <-chan struct{}) *leased[R] {
	return &leased[R]{h: h, stream: stream, lease: lease, inbox: inbox, batch: batch, stop: stop,
		renew: h.opt.Clock.After(h.opt.LeaseTTL / 3)}
}

// run is the loop, until the lease is lost, the work is over or the goroutine is told to stop.
func (l *leased[R]) run(w leasedWork[R]) {
	for {
		if l.lease.lost {
			w.stopped(true) // never written again from here
			return
		}
		if !w.due() {
			w.stopped(false)
			return
		}
		ws := w.wakes()
		select {
		case req := <-l.inbox:
			w.take(l.drain(req))
			clear(l.buf)
		case <-ws.timer[0]:
			w.woke(0)
		case <-ws.timer[1]:
			w.woke(1)
		case <-ws.timer[2]:
			w.woke(2)
		case <-ws.poke:
			w.woke(poked)
		case <-l.renew:
			l.renew = l.h.opt.Clock.After(l.lease.renew(l.h, l.stream))
		case <-l.stop:
			w.stopped(false)
			return
		}
	}
}

// drain is a batch: first, and what else waits in the inbox, up to the batch's size.
func (l *leased[R]) drain(first R) []R {
	l.buf = append(l.buf[:0], first)
	for len(l.buf) < l.batch {
		select {
		case more := <-l.inbox:
			l.buf = append(l.buf, more)
			continue
		default:
		}
		break
	}
	return l.buf
}
