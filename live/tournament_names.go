package live

import (
	"context"
	"slices"
)

// Public is the view as the players and the public see it: every player, in the state,
// the tables, the leaderboard, the results and the player's own place, by their public
// handle (a house bot by its id, which is nobody's secret), and Names saying how each is
// shown. The view's slices are shared with the tournament's (currentView): each one
// rewritten is a copy. Without People, the view is returned unchanged.
func (v TournamentView) Public(ctx context.Context, p People) TournamentView {
	if p == nil {
		return v
	}
	names := Names{}
	handle := func(id string) string {
		h := p.Handle(id)
		if _, ok := names[h]; !ok {
			ctx, cancel := context.WithTimeout(ctx, personWait)
			names[h] = p.Person(ctx, id)
			cancel()
		}
		return h
	}
	handles := func(ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = handle(id)
		}
		return out
	}
	st := &v.State
	st.Entrants = slices.Clone(st.Entrants)
	for i := range st.Entrants {
		st.Entrants[i].Player = handle(st.Entrants[i].Player)
	}
	st.Tables = slices.Clone(st.Tables)
	for i := range st.Tables {
		st.Tables[i].Players = handles(st.Tables[i].Players)
	}
	st.Leaderboard = slices.Clone(st.Leaderboard)
	for i := range st.Leaderboard {
		st.Leaderboard[i].Player = handle(st.Leaderboard[i].Player)
	}
	st.Sessions = slices.Clone(st.Sessions)
	for i := range st.Sessions {
		st.Sessions[i].Seats = slices.Clone(st.Sessions[i].Seats)
		for j := range st.Sessions[i].Seats {
			st.Sessions[i].Seats[j].Player = handle(st.Sessions[i].Seats[j].Player)
		}
	}
	st.Results = slices.Clone(st.Results)
	for i := range st.Results {
		st.Results[i].Player = handle(st.Results[i].Player)
	}
	v.Tables = slices.Clone(v.Tables)
	for i := range v.Tables {
		v.Tables[i].Players = handles(v.Tables[i].Players)
	}
	v.Bots = handles(v.Bots)
	v.Out = slices.Clone(v.Out)
	for i := range v.Out {
		v.Out[i].Player = handle(v.Out[i].Player)
	}
	if v.Me != nil {
		me := *v.Me
		me.Player = handle(me.Player)
		if me.Entrant.Player != "" {
			me.Entrant.Player = handle(me.Entrant.Player)
		}
		if me.Result != nil {
			r := *me.Result
			r.Player = handle(r.Player)
			me.Result = &r
		}
		v.Me = &me
	}
	v.Names = names
	return v
}
