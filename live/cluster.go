package live

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// Cluster joins the hosts that share a database into one server (package cluster does it
// over NATS). Each table still lives on one host, its owner (the lease holder); the
// cluster carries commands to the owner, the owner's messages to every host, and word of
// every wallet that moved. A host without a Cluster is a server alone.
type Cluster interface {
	// Forward sends a command for a table another host runs to that host.
	Forward(ctx context.Context, tableID string, cmd table.Command) (*Result, error)
	// Snapshot and Rounds ask a table's owner for a view of it.
	Snapshot(ctx context.Context, tableID, viewer string) (*Snapshot, error)
	Rounds(ctx context.Context, tableID, viewer string, n int) ([]Round, error)
	// Publish sends an owned table's messages to every host, this one included.
	Publish(tableID string, ds []Delivery)
	// WalletsChanged tells every other host which wallets' balances moved.
	WalletsChanged(wallets []string)
	// Tables lists the tables every host runs, with their owners.
	Tables(ctx context.Context) ([]TableInfo, error)
	// Tournament and TournamentCommand ask a tournament's owner for its view (as player
	// sees it) and to apply a player's or an admin's command (register, unregister, rebuy,
	// cancel), as Forward does for a table.
	Tournament(ctx context.Context, id, player string) (*TournamentView, error)
	TournamentCommand(ctx context.Context, id string, cmd tournament.Command) error
	// Tournaments lists the tournaments the other hosts run.
	Tournaments(ctx context.Context) []TournamentView
}

// mirror is a table's messages as this host receives them from the cluster: every local
// stream of the table reads from it, whichever host owns the table now, so that a stream
// outlives a takeover. It remembers the last event it saw and fills a gap (messages the
// old owner committed but never sent) from the journal.
type mirror struct {
	mu   sync.Mutex
	hub  *hub
	last uint64
}

func (h *Host) mirrorOf(tableID string) *mirror {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.mirrors[tableID]
	if m == nil {
		m = &mirror{hub: newHub()}
		h.mirrors[tableID] = m
	}
	return m
}

// mirrorIn takes a table's messages from the cluster and streams them to this host's
// subscribers, filling a gap in the table's events from the journal first. The messages
// go to the hub together, so that each subscriber's share of them goes out in one frame.
func (h *Host) mirrorIn(tableID string, ds []Delivery) {
	m := h.mirrorOf(tableID)
	m.mu.Lock()
	defer m.mu.Unlock()
	run := make([]Delivery, 0, len(ds))
	for _, d := range ds {
		if d.Event {
			if d.Seq < m.last {
				continue // an old owner's late message: already had it
			}
			if m.last > 0 && d.Seq > m.last+1 {
				m.hub.publishAll(run)
				run = run[:0]
				h.fillGap(tableID, m, d.Seq)
			}
			m.last = d.Seq
		}
		run = append(run, d)
	}
	m.hub.publishAll(run)
}

// fillGap streams the events between the mirror's last and seq from the journal: the
// messages of a host that died between its commit and its publish.
func (h *Host) fillGap(tableID string, m *mirror, seq uint64) {
	recs, err := h.opt.Store.Load(h.ctx, tableID, m.last+2) // record = event seq + 1 (the spec is record 1)
	if err != nil {
		h.opt.Logger.Warn("filling a stream gap from the journal", "table", tableID, "err", err)
		return
	}
	var ds []Delivery
	for _, rec := range recs {
		var e table.Event
		if json.Unmarshal(rec.Data, &e) != nil || e.Seq >= seq {
			break
		}
		ds = eventDeliveries(ds, &e, rec.Data, h.ctx, h.opt.People)
	}
	h.opt.Logger.Info("stream gap filled from the journal", "table", tableID, "from", m.last+1, "to", seq-1, "messages", len(ds))
	m.hub.publishAll(ds)
	m.last = seq - 1
}

// LocalTables lists the tables this host runs (Tables lists the cluster's).
func (h *Host) LocalTables(ctx context.Context) []TableInfo { return h.localTables(ctx) }

// errNotHere answers a cluster request for a table this host does not run (any more): the
// caller tries again, and reaches the new owner.
func errNotHere(tableID string) error {
	return baccarat.Errorf(baccarat.CodeBusy, "table %s is moving between servers: try again in a moment", tableID)
}
