package live

import (
	"slices"

	"github.com/tablehouse/baccarat/table"
)

// RecallRounds is how many finished rounds a table keeps at hand for players to recall.
const RecallRounds = 10

// Round is one round as a player recalls it: every step, and their own wagers.
type Round struct {
	Round       uint64             `json:"round"`
	Result      *table.RoundResult `json:"result,omitempty"`
	Void        string             `json:"void,omitempty"` // the reason, for a void round
	Events      []table.Event      `json:"events"`
	Wagers      []table.Wager      `json:"wagers"`
	Settlements []table.Settlement `json:"settlements"`
}

// remember files an event under its round. Rounds older than the last RecallRounds+1 go.
func (r *runner) remember(e *table.Event) {
	if e.Round == 0 {
		return
	}
	if n := len(r.recent); n == 0 || r.recent[n-1].Round != e.Round {
		r.recent = append(r.recent, Round{Round: e.Round})
		if len(r.recent) > RecallRounds+1 {
			r.recent = append(r.recent[:0], r.recent[len(r.recent)-RecallRounds-1:]...)
		}
	}
	cur := &r.recent[len(r.recent)-1]
	cur.Events = append(cur.Events, *e)
	switch e.Type {
	case table.EvRoundSettled:
		res := e.Result
		cur.Result = &res
	case table.EvRoundVoided:
		cur.Void = e.Reason
	}
}

// recall returns the last n finished rounds, newest first, as player may see them: every
// public step, and their own wagers and settlements ("" sees everyone's).
func (r *runner) recall(player string, n int) []Round {
	if n <= 0 || n > RecallRounds {
		n = RecallRounds
	}
	out := []Round{}
	for i := len(r.recent) - 1; i >= 0 && len(out) < n; i-- {
		src := r.recent[i]
		if src.Result == nil && src.Void == "" {
			continue // still under way
		}
		out = append(out, filterRound(src, player))
	}
	return out
}

func filterRound(src Round, player string) Round {
	rd := Round{Round: src.Round, Result: src.Result, Void: src.Void, Wagers: []table.Wager{}, Settlements: []table.Settlement{}}
	for _, e := range src.Events {
		switch e.Type {
		case table.EvWagerPlaced:
			if player == "" || e.Wager.Player == player {
				rd.Wagers = append(rd.Wagers, *e.Wager)
				rd.Events = append(rd.Events, e)
			}
			continue
		case table.EvWagerRaised, table.EvWagerLowered: // the round's one wager on the spot, at its new total
			if player == "" || e.Wager.Player == player {
				rd.Events = append(rd.Events, e)
				for i := range rd.Wagers {
					if rd.Wagers[i].ID == e.Wager.ID {
						rd.Wagers[i].Stake = e.Wager.Stake
					}
				}
			}
			continue
		case table.EvWagerWithdrawn:
			if player == "" || e.Player() == player {
				rd.Events = append(rd.Events, e)
				for _, w := range e.Withdrawn() { // a withdrawn wager is no longer the round's
					rd.Wagers = slices.DeleteFunc(rd.Wagers, func(x table.Wager) bool { return x.ID == w.ID })
				}
			}
			continue
		case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
			var mine []table.Settlement
			for _, s := range e.Settlements {
				if player == "" || s.Player == player {
					mine = append(mine, s)
				}
			}
			rd.Settlements = append(rd.Settlements, mine...)
			e.Settlements = mine
		case table.EvFunded:
			continue
		case table.EvShoeStarted:
			e = e.Public()
		}
		rd.Events = append(rd.Events, e)
	}
	return rd
}

// Rounds recalls the last finished rounds of a table as player sees them, newest first.
func (h *Host) Rounds(tableID, player string, n int) ([]Round, error) {
	if r := h.local(tableID); r != nil {
		return r.rounds(h.ctx, player, n)
	}
	if h.opt.Cluster != nil {
		return h.opt.Cluster.Rounds(h.ctx, tableID, player, n)
	}
	return nil, h.missing(tableID)
}
