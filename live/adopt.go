package live

// How a host comes to run tables: at start and every few seconds it adopts the tables no
// live owner holds, taking each one's lease and loading it from its journal.

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
)

// Open recovers every table in the store that this host can lease, and keeps trying to take
// over the others (a lapsed lease means their host died).
func (h *Host) Open(ctx context.Context) error {
	if err := h.adoptAll(ctx); err != nil {
		return err
	}
	h.wg.Add(1)
	go h.adoptLoop()
	h.startDelivery()
	return nil
}

func (h *Host) adoptLoop() {
	defer h.wg.Done()
	every := h.opt.LeaseTTL / 2
	if _, ok := h.opt.Store.(journal.Vacancies); ok {
		every = min(every, time.Second) // one query a second finds a table released or lapsed
	}
	for {
		select {
		case <-h.ctx.Done():
			return
		case <-h.opt.Clock.After(every):
			if err := h.adoptAll(h.ctx); err != nil && h.ctx.Err() == nil {
				h.opt.Logger.Warn("adopting tables", "err", err)
			}
			h.pruneRequests()
		}
	}
}

// pruneRequests forgets, once an hour, the wager request ids older than twice
// journal.RequestTTL: a retry is honoured for at least the TTL and the table stays small.
func (h *Host) pruneRequests() {
	now := h.opt.Clock.Now()
	if now.Sub(h.pruned) < time.Hour {
		return
	}
	h.pruned = now
	if n, err := h.opt.Store.PruneRequests(h.ctx, now.Add(-2*journal.RequestTTL)); err != nil {
		h.opt.Logger.Warn("pruning request ids", "err", err)
	} else if n > 0 {
		h.opt.Logger.Info("pruned request ids", "count", n)
	}
}

func (h *Host) adoptAll(ctx context.Context) error {
	ids, err := h.adoptable(ctx)
	if err != nil {
		return err
	}
	ids = h.adoptTournaments(ctx, ids) // first: a tournament adopts its own tables
	for _, id := range ids {
		h.mu.RLock()
		_, running := h.runners[id]
		h.mu.RUnlock()
		if running {
			continue
		}
		if err := h.adopt(ctx, id); err != nil {
			h.opt.Logger.Warn("recovering table", "table", id, "err", err)
		}
	}
	return nil
}

// adoptable is what adoptAll tries: every table of the store for a host that alone writes
// it (it seizes them) or that cannot ask for less; else only the ones nobody holds now.
func (h *Host) adoptable(ctx context.Context) ([]string, error) {
	if v, ok := h.opt.Store.(journal.Vacancies); ok && !h.opt.Exclusive {
		return v.Vacant(ctx, h.opt.Owner, h.opt.Clock.Now())
	}
	return h.opt.Store.Tables(ctx)
}

// take takes a table's (or a tournament's) lease for this host: seized when the host alone
// writes the store (Options.Exclusive), else acquired if nobody else holds it.
func (h *Host) take(ctx context.Context, id string) (bool, error) {
	if s, ok := h.opt.Store.(journal.Seizer); ok && h.opt.Exclusive {
		return true, s.Seize(ctx, id, h.opt.Owner, h.opt.LeaseTTL, h.opt.Clock.Now())
	}
	return h.opt.Store.Acquire(ctx, id, h.opt.Owner, h.opt.LeaseTTL, h.opt.Clock.Now())
}

// adopt leases a table, rebuilds it from its journal and starts it.
func (h *Host) adopt(ctx context.Context, id string) error {
	var r *runner
	ok, err := h.takeUp(ctx, id, func() (*tenure, error) {
		var err error
		r, err = h.load(ctx, id)
		if err != nil {
			return nil, err
		}
		return &r.lease, nil
	})
	if err != nil || !ok {
		return err
	}
	h.opt.Logger.Info("table recovered", "table", id, "seq", r.head.Seq, "phase", r.t.Phase())
	h.start(r) // from here on only the runner's goroutine touches r
	return nil
}

// load rebuilds a table: from its latest snapshot and the records after it where the store
// keeps snapshots (snapshots.go), else from its whole journal.
func (h *Host) load(ctx context.Context, id string) (*runner, error) {
	if r, ok, err := h.loadFromSnapshot(ctx, id); ok || err != nil {
		return r, err
	}
	recs, err := h.opt.Store.Load(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	spec, err := specOf(id, recs)
	if err != nil {
		return nil, err
	}
	events, err := decodeEvents(id, recs[1:])
	if err != nil {
		return nil, err
	}
	t, err := table.Replay(spec.Config, events)
	if err != nil {
		return nil, err
	}
	r := newRunner(h, spec, t, recs[len(recs)-1].Head())
	r.recovered = true
	for i := range events {
		r.observe(&events[i])
		r.remember(&events[i])
	}
	return r, nil
}
