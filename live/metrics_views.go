package live

import (
	"context"
	"sort"
	"time"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

// What a host shows a metrics scrape: read from atomics and the store, never by asking a
// table's goroutine, so that a wedged table is still seen (as one that does not move).

// TableProgress is where a table this host runs has got to, for a watcher that judges
// whether it still moves.
type TableProgress struct {
	ID       string
	Game     string
	Currency ledger.Currency
	// Seq is the table's last committed event: every commit moves it on.
	Seq uint64
	// StuckAfter is how long the table may go without an event before it counts as stuck
	// (stuckAfter); 0: no schedule paces it, so it is never judged.
	StuckAfter time.Duration
	// Stopped: the pit paused or closed it, and no round is under way. It stays still on
	// purpose (StuckAfter is 0 then).
	Stopped bool
}

// Progress lists the tables this host runs, by id.
func (h *Host) Progress() []TableProgress {
	h.mu.RLock()
	out := make([]TableProgress, 0, len(h.runners))
	for _, r := range h.runners {
		// r.spec never changes once the runner is made; money's fields are the runner's atomics.
		p := TableProgress{ID: r.spec.ID, Game: r.spec.Config.Game, Currency: r.spec.Currency,
			Seq: r.money.seq.Load(), StuckAfter: r.spec.stuckAfter(), Stopped: r.money.stopped.Load()}
		if p.Stopped {
			p.StuckAfter = 0
		}
		out = append(out, p)
	}
	h.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// stuckAfter is how long a hosted table may go without an event before it is stuck, by the
// rule package verify applies: an automatic table's Schedule.StuckAfter. A dealer's table
// has no such time (0: a dealer sets the pace), nor has a tournament's session table, which
// waits at its gate, idle, for as long as its tournament needs (the tournament's own
// problems say when that is trouble).
func (s Spec) stuckAfter() time.Duration {
	if s.Mode != ModeAuto || s.Tournament != nil {
		return 0
	}
	return s.Schedule.StuckAfter()
}

// OutboxState is the operator wallet's outbox as it stands: the credits and rollbacks
// written and not yet answered (the deliverer sends them until they are), and when the
// oldest of them was written (zero when there is none). A call the operator refused for
// good has left it: it waits for an admin (resolve.go).
type OutboxState struct {
	Calls  int
	Oldest time.Time
}

// Outbox reads the outbox from the store: the deployment's, shared by every server on the
// database. Without the operator's wallet it is empty. It pages through the open calls
// (debits on their way are open too, and not counted), outboxPage at a time.
func (h *Host) Outbox(ctx context.Context) (OutboxState, error) {
	var out OutboxState
	if h.opt.Operator == nil {
		return out, nil
	}
	calls, err := h.calls()
	if err != nil {
		return out, err
	}
	f := journal.CallFilter{Open: true, Limit: outboxPage}
	for {
		page, err := calls.Calls(ctx, f)
		if err != nil {
			return OutboxState{}, err
		}
		for i := range page {
			c := &page[i]
			if !c.Closes() {
				continue
			}
			out.Calls++
			if out.Oldest.IsZero() || c.Created.Before(out.Oldest) {
				out.Oldest = c.Created
			}
		}
		if len(page) < journal.Limit(f.Limit) {
			return out, nil
		}
		f.After = page[len(page)-1].Seq
	}
}

// outboxPage is how many open calls Outbox reads at a time (a test pages with fewer).
var outboxPage = journal.MaxCalls
