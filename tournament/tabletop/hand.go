package tabletop

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/table"
)

// BotHand is what a bot sees at a session's table as betting opens: the table's state, its
// chips and its net on its last hand.
func (s *Session) BotHand(g *games.Game, st *table.State, player string, chips, lastNet baccarat.Money) Hand {
	h := Hand{Game: g, Stakes: s.Stakes, Chips: chips, LastNet: lastNet, Results: Results(st),
		Dragon: s.Dragon && g.Rules.DragonSessions && st.Session.Hands == 0}
	for _, w := range st.Wagers {
		if w.Player == player && w.Riding {
			h.Riding = true
		}
	}
	return h
}

// Results are the session's results so far: the Dragon session's, or (other games) the
// shoe's, which at a table of its own for the session are the session's since its shoe
// started.
func Results(st *table.State) []baccarat.Winner {
	var out []baccarat.Winner
	if st.Session.Length > 0 {
		for _, c := range st.Session.Results {
			if w, err := baccarat.ParseWinner(string(c)); err == nil {
				out = append(out, w)
			}
		}
		return out
	}
	for _, r := range st.ShoeResults {
		out = append(out, r.Winner)
	}
	return out
}
