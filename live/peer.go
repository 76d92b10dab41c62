package live

import (
	"context"

	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// Peer is the host as the other servers of its cluster reach it (package cluster): the
// commands and questions they forward to the tables and tournaments this host runs, and the
// news they send it. It is apart from Host so that the host's own surface is what a server
// and its pages use.
type Peer struct{ h *Host }

// Peer returns the host's side for its cluster.
func (h *Host) Peer() Peer { return Peer{h} }

// Submit is Host.Submit for a table this host runs; another host's request for a table
// this one does not run (any more) is answered so that the caller asks the new owner.
func (p Peer) Submit(ctx context.Context, tableID string, cmd table.Command) (*Result, error) {
	r := p.h.local(tableID)
	if r == nil {
		return nil, errNotHere(tableID)
	}
	return p.h.submit(ctx, r, tableID, cmd)
}

// Snapshot is Host.Snapshot for a table this host runs.
func (p Peer) Snapshot(tableID, viewer string) (*Snapshot, error) {
	r := p.h.local(tableID)
	if r == nil {
		return nil, errNotHere(tableID)
	}
	return r.snapshotOf(p.h.ctx, viewer)
}

// Rounds is Host.Rounds for a table this host runs.
func (p Peer) Rounds(tableID, viewer string, n int) ([]Round, error) {
	r := p.h.local(tableID)
	if r == nil {
		return nil, errNotHere(tableID)
	}
	return r.rounds(p.h.ctx, viewer, n)
}

// Tables lists the tables this host runs (a cluster's lobby).
func (p Peer) Tables(ctx context.Context) []TableInfo { return p.h.localTables(ctx) }

// Deliver streams a table's messages, as its owner published them, to this host's
// subscribers (see Host.mirrorIn).
func (p Peer) Deliver(tableID string, ds []Delivery) { p.h.mirrorIn(tableID, ds) }

// ForgetWallets drops this host's cached balances of wallets another host moved.
func (p Peer) ForgetWallets(wallets []string) { p.h.bank.forget(wallets...) }

// Tournament is Host.Tournament for a tournament this host runs.
func (p Peer) Tournament(ctx context.Context, id, player string) (*TournamentView, error) {
	return p.h.tournamentLocal(ctx, id, player)
}

// TournamentCommand applies a command another host forwarded to a tournament this host runs:
// a player's register, unregister or rebuy, or an admin's cancel.
func (p Peer) TournamentCommand(ctx context.Context, id string, c tournament.Command) error {
	return p.h.tournamentCommandLocal(ctx, id, c)
}

// Tournaments lists the tournaments this host runs (a cluster's lobby).
func (p Peer) Tournaments() []TournamentView { return p.h.tournamentsLocal() }
