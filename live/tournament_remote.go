package live

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// A tournament runs on one host, its owner (the holder of its journal's lease), as a table
// does. In a cluster every host answers for it all the same: its view and its commands go
// to the owner (Cluster.Tournament, Cluster.TournamentCommand), and a page following it
// from another host asks the owner again every remotePoll. A host that does not run a
// tournament it has in its store (between servers, being taken up) answers 503, not 404.

// remotePoll is how often a long poll on a host that does not run the tournament asks its
// owner again.
const remotePoll = 500 * time.Millisecond

// tourneyMissing is why a tournament does not run here: not_found only when the store has
// no journal of it.
func (h *Host) tourneyMissing(id string) error {
	head, err := h.opt.Store.Head(h.ctx, tabletop.Stream(id))
	switch {
	case err != nil && baccarat.ErrorCode(err) == baccarat.CodeBadRequest:
		return baccarat.Errorf(baccarat.CodeNotFound, "no tournament %q", id)
	case err != nil:
		return baccarat.Errorf(baccarat.CodeUnavailable, "tournament %s cannot be looked up now (%v): try again in a moment", id, err)
	case head.Seq == 0:
		return baccarat.Errorf(baccarat.CodeNotFound, "no tournament %q", id)
	}
	return baccarat.Errorf(baccarat.CodeUnavailable, "tournament %s is between servers (it is being taken up): try again in a moment", id)
}

// remote reports whether a tournament is to be asked of another host: this host does not run
// it and is in a cluster. A tournament the store has no journal of is not asked for (err:
// not_found).
func (h *Host) remote(id string) (bool, error) {
	if h.tourneys.get(id) != nil || h.opt.Cluster == nil {
		return false, nil
	}
	if err := h.tourneyMissing(id); baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		return false, err
	}
	return true, nil
}

// tournamentLocal is Tournament for a tournament this host runs (a cluster's request).
func (h *Host) tournamentLocal(ctx context.Context, id, player string) (*TournamentView, error) {
	tr, err := h.tourney(id)
	if err != nil {
		return nil, err
	}
	v := tr.currentView()
	if player != "" {
		v.Me = h.playerView(ctx, &v, player)
	}
	return &v, nil
}

// tournamentCommandLocal applies a command another host forwarded to a tournament this host
// runs: a player's register, unregister or rebuy, or an admin's cancel.
func (h *Host) tournamentCommandLocal(ctx context.Context, id string, c tournament.Command) error {
	switch c.Type {
	case tournament.CmdRegister, tournament.CmdUnregister, tournament.CmdRebuy:
		return h.askTourney(ctx, id, tournament.Command{Type: c.Type, Player: c.Player})
	case tournament.CmdCancel:
		return h.CancelTournament(ctx, id, c.Reason)
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "a tournament takes no %s from another server", c.Type)
}

// tournamentsLocal lists the tournaments this host runs (a cluster's lobby).
func (h *Host) tournamentsLocal() []TournamentView {
	var out []TournamentView
	for _, tr := range h.tourneys.all() {
		out = append(out, tr.currentView())
	}
	return out
}

// waitRemote is WaitTournament for a tournament another host runs: its owner asked again
// every remotePoll until its seq passes seq or ctx ends.
func (h *Host) waitRemote(ctx context.Context, id string, seq uint64) error {
	for {
		v, err := h.opt.Cluster.Tournament(ctx, id, "")
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if v.Seq > seq || v.Phase == tournament.PhaseFinished || v.Phase == tournament.PhaseCancelled {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(remotePoll):
		}
	}
}
