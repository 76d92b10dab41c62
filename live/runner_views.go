package live

// What a runner shows: a player's or a watcher's snapshot of its table, and the board of
// roads its shoe results make.

import (
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
)

// snapshot is the table as player sees it: their own wagers and funds only ("" sees all).
func (r *runner) snapshot(player string) Snapshot {
	var st table.State
	if player == "" {
		st = r.t.State()
	} else {
		st = ForPlayer(r.t.StateFor(player), player)
	}
	return Snapshot{Spec: r.spec, State: st, Roads: r.board.View(roads.Settings{}, st.Shoe.Left), At: r.h.opt.Clock.Now()}
}

// ForPlayer keeps only the player's own wagers and funds, and turns face down every card
// being squeezed by someone else: a squeezed card is seen by its squeezer alone until revealed.
func ForPlayer(st table.State, player string) table.State {
	for i, c := range st.Cards {
		if c.Hidden && c.For != player {
			st.Cards[i] = c.FaceDown()
		}
	}
	mine := func(ws []table.Wager) []table.Wager {
		out := []table.Wager{}
		for _, w := range ws {
			if w.Player == player {
				out = append(out, w)
			}
		}
		return out
	}
	st.Wagers, st.Riding, st.Dragon = mine(st.Wagers), mine(st.Riding), mine(st.Dragon)
	f := st.Funds[player]
	st.Funds = map[string]table.Funds{player: f}
	return st
}

func (r *runner) rebuildBoard() {
	st := r.t.State()
	r.board.Reset()
	for _, sr := range st.ShoeResults {
		_ = r.board.Append(RoadRound(sr))
	}
}

// playerOf is whose money a command moves, for the balance returned with it.
func playerOf(c table.Command) string {
	switch c := c.(type) {
	case *table.Place:
		return placer(c)
	case *table.Withdraw:
		if c.Player != "" {
			return c.Player
		}
		return c.Actor
	}
	return ""
}

// RoadRound is a settled round of a shoe as the scoreboards read it.
func RoadRound(sr table.ShoeResult) roads.Round {
	return roads.Round{Winner: sr.Winner, PlayerPair: sr.PlayerPair, BankerPair: sr.BankerPair, Natural: sr.Natural}
}
