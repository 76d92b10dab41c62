package live

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// TournamentView is a tournament as its page shows it: the configuration (its schedule,
// rounds, stakes and prizes), the state (entrants, leaderboard, sessions, pool, results), the
// current round's tables with the ids of the tables that play their sessions, the bots, what
// the schedule does next, and, for a signed-in player, their own place.
type TournamentView struct {
	ID    string           `json:"id"`
	Name  string           `json:"name"`
	Game  string           `json:"game"`
	Phase tournament.Phase `json:"phase"`
	Seq   uint64           `json:"seq"`
	Chips ledger.Currency  `json:"chips"`
	// MinorUnits: the decimals of the money currency (fees, pool, prizes); chips are whole.
	MinorUnits int `json:"minor_units"`
	// Wallet is where its money is kept: internal (the platform's books) or seamless (the
	// operator's wallet: fees are debited there, prizes credited).
	Wallet   string            `json:"wallet"`
	Config   tournament.Config `json:"config"`
	State    tournament.State  `json:"state"`
	Tables   []TournamentTable `json:"tables"`
	Bots     []string          `json:"bots"`
	Next     *TournamentNext   `json:"next,omitempty"`
	Schedule Schedule          `json:"schedule"`
	Me       *TournamentMe     `json:"me,omitempty"`
	// Problems: what keeps the tournament from going on, each since when, the oldest first
	// (tournament_trouble.go).
	Problems []TournamentProblem `json:"problems,omitempty"`
	// Cancelling: an admin is cancelling it, for this reason; play is stopping.
	Cancelling string `json:"cancelling,omitempty"`
	// Out: every entrant out of the tournament (eliminated, or not advanced from an earlier
	// round), with their place, best place first; the leaderboard lists only the current
	// round's players.
	Out []TournamentOut `json:"out"`
	// Names: how each player is shown, by handle, in a view made Public (tournament_names.go);
	// staff views name players by their account ids and carry none.
	Names Names `json:"names,omitempty"`
}

// TournamentOut is an entrant out of the tournament and their place: final once the
// tournament has finished (the results' rank), and as it stands before (every one still in
// play ranks above; players out of an earlier round keep theirs). Of is the entrants'
// number.
type TournamentOut struct {
	Player     string         `json:"player"`
	Place      int            `json:"place"`
	Of         int            `json:"of"`
	Round      int            `json:"round"` // the last round reached
	Chips      baccarat.Money `json:"chips"` // at the end of the last round played
	Eliminated bool           `json:"eliminated,omitempty"`
}

// TournamentTable is a table of the current round.
type TournamentTable struct {
	Table int `json:"table"`
	// TableID is the live table of its current (or last) session; empty before the first.
	TableID  string   `json:"table_id,omitempty"`
	Players  []string `json:"players"`
	Session  int      `json:"session"`  // the current or last session, 0 before the first
	Sessions int      `json:"sessions"` // sessions of the round
	Live     bool     `json:"live"`
	Hands    int      `json:"hands"` // counted hands of the session
	// HandsLeft in a live session of hands; EndsAt, a live timed session's end.
	HandsLeft int       `json:"hands_left,omitempty"`
	EndsAt    time.Time `json:"ends_at,omitzero"`
	Finished  bool      `json:"finished"`
}

// TournamentNext is what the schedule does next, and when.
type TournamentNext struct {
	What  tournament.CommandType `json:"what"`
	Table int                    `json:"table,omitempty"`
	At    time.Time              `json:"at"`
}

// TournamentMe is a player's own place in a tournament.
type TournamentMe struct {
	Player     string `json:"player"`
	Registered bool   `json:"registered"`
	tournament.Entrant
	// Available: chips in the player's chip wallet now (what they may stake at their table).
	Available baccarat.Money `json:"available"`
	TableID   string         `json:"table_id,omitempty"` // the live table of their session
	Rank      int            `json:"rank,omitempty"`     // in the current round's leaderboard
	Advances  bool           `json:"advances,omitempty"`
	Busted    bool           `json:"busted,omitempty"`
	CanRebuy  bool           `json:"can_rebuy,omitempty"`
	// Balance: the player's money in the tournament's currency (entry fees, prizes).
	Balance baccarat.Money     `json:"balance"`
	Result  *tournament.Result `json:"result,omitempty"`
	// Out: the player is out of the tournament (eliminated, or not advanced), in place
	// Place of Of (the view's out entry); never set for a player still in play.
	Out   bool `json:"out,omitempty"`
	Place int  `json:"place,omitempty"`
	Of    int  `json:"of,omitempty"`
}

// currentView is the view as of the last commit (any goroutine).
func (tr *tourney) currentView() TournamentView {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.view
}

// buildView is made by the tournament's goroutine after each commit.
func (tr *tourney) buildView() TournamentView {
	cfg := tr.t.Config()
	st := tr.t.State()
	v := TournamentView{ID: tr.id, Name: cfg.Name, Game: cfg.Game, Phase: tr.t.Phase(), Seq: tr.t.Seq(), Chips: tr.t.Chips(),
		MinorUnits: baccarat.MinorUnits(cfg.Currency), Wallet: walletName(tr.spec.Wallet),
		Config: cfg, State: st, Bots: []string{}, Tables: []TournamentTable{}, Schedule: tr.spec.Schedule,
		Problems: tr.problemList(), Cancelling: tr.cancelling}
	for _, e := range st.Entrants {
		if tr.isBot(e.Player) {
			v.Bots = append(v.Bots, e.Player)
		}
	}
	for _, tv := range st.Tables {
		tt := TournamentTable{Table: tv.Table, Players: tv.Players, Session: tv.Session, Live: tv.Live, Hands: tv.Hands,
			Finished: tv.Finished, Sessions: len(cfg.Rounds[st.Round-1].Sessions)}
		if tv.Session > 0 {
			tt.TableID = tabletop.TableID(tr.id, st.Round, tv.Table, tv.Session)
			s := cfg.Rounds[st.Round-1].Sessions[tv.Session-1]
			switch {
			case tv.Live && s.Hands > 0:
				tt.HandsLeft = s.Hands - tv.Hands
			case tv.Live:
				tt.EndsAt = tv.Since.Add(time.Duration(s.Duration))
			}
		}
		v.Tables = append(v.Tables, tt)
	}
	v.Out = outList(st)
	if _, at := tournament.Next(tr.t, time.Time{}); !at.IsZero() {
		if cmd, _ := tournament.Next(tr.t, at); cmd != nil {
			v.Next = &TournamentNext{What: cmd.Type, Table: cmd.Table, At: at}
		}
	}
	return v
}

// playerView is a player's own place: their entry, standing and wallets.
func (h *Host) playerView(ctx context.Context, v *TournamentView, player string) *TournamentMe {
	me := &TournamentMe{Player: player}
	for _, e := range v.State.Entrants {
		if e.Player == player {
			me.Registered, me.Entrant = true, e
		}
	}
	if bal, err := h.Balance(ctx, player, ledger.Currency(v.Config.Currency)); err == nil {
		me.Balance = bal
	}
	if !me.Registered {
		return me
	}
	if bal, err := h.Balance(ctx, player, v.Chips); err == nil {
		me.Available = bal
	}
	for _, s := range v.State.Leaderboard {
		if s.Player == player {
			me.Rank, me.Advances, me.Busted, me.CanRebuy = s.Rank, s.Advances, s.Busted, s.CanRebuy
		}
	}
	for _, t := range v.Tables {
		if t.Table == me.Table && t.Live {
			me.TableID = t.TableID
		}
	}
	for i := range v.State.Results {
		if v.State.Results[i].Player == player {
			r := v.State.Results[i]
			me.Result = &r
		}
	}
	for _, o := range v.Out {
		if o.Player == player {
			me.Out, me.Place, me.Of = true, o.Place, o.Of
		}
	}
	return me
}

// outList lists the entrants out of a tournament that has started, with their places: the
// results' ranks once it has finished, else the final order as it stands (the later round
// reached first, then more chips; equal round and chips share a place).
func outList(st tournament.State) []TournamentOut {
	out := []TournamentOut{}
	if st.Round == 0 || st.Phase == tournament.PhaseCancelled {
		return out
	}
	inRound := map[string]bool{}
	for _, s := range st.Leaderboard {
		inRound[s.Player] = true
	}
	isOut := func(e tournament.Entrant) bool {
		return e.Eliminated || (e.Reached < st.Round && !inRound[e.Player])
	}
	n := len(st.Entrants)
	if len(st.Results) > 0 {
		for _, r := range st.Results {
			if r.Eliminated || r.Round < st.Round || !inRound[r.Player] {
				out = append(out, TournamentOut{Player: r.Player, Place: r.Rank, Of: n, Round: r.Round, Chips: r.Chips, Eliminated: r.Eliminated})
			}
		}
		return out
	}
	ps := slices.Clone(st.Entrants)
	slices.SortStableFunc(ps, func(a, b tournament.Entrant) int {
		if c := cmp.Compare(b.Reached, a.Reached); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Chips, a.Chips); c != 0 {
			return c
		}
		return cmp.Compare(a.Entry, b.Entry)
	})
	place := 0
	for i, e := range ps {
		if i == 0 || e.Reached != ps[i-1].Reached || e.Chips != ps[i-1].Chips {
			place = i + 1
		}
		if isOut(e) {
			out = append(out, TournamentOut{Player: e.Player, Place: place, Of: n, Round: e.Reached, Chips: e.Chips, Eliminated: e.Eliminated})
		}
	}
	return out
}
