package tournament

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// State is a snapshot of a tournament: what a page shows when it connects, and what Replay
// is checked against.
type State struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Game  string `json:"game"`
	Phase Phase  `json:"phase"`
	Seq   uint64 `json:"seq"`
	// Commitment, from the start: the hash of the seating Seed and the house's Secret, which
	// are shown only once the tournament is over (house.go).
	Commitment  string          `json:"commitment,omitempty"`
	Seed        uint64          `json:"seed,omitempty,string"`
	Secret      string          `json:"secret,omitempty"`
	Round       int             `json:"round"`
	Stakes      Stakes          `json:"stakes"`
	Entrants    []Entrant       `json:"entrants"`
	Tables      []TableView     `json:"tables,omitempty"`
	Leaderboard []Standing      `json:"leaderboard,omitempty"`
	Sessions    []SessionRecord `json:"sessions,omitempty"`
	Pool        Pool            `json:"pool"`
	Results     []Result        `json:"results,omitempty"`
}

// Entrant is a registered player.
type Entrant struct {
	Player     string         `json:"player"`
	Entry      int            `json:"entry"`
	Fee        baccarat.Money `json:"fee"`
	Chips      baccarat.Money `json:"chips"`
	Rebuys     int            `json:"rebuys,omitempty"`
	Reached    int            `json:"reached,omitempty"` // the last round reached
	Table      int            `json:"table,omitempty"`   // in the current round
	Eliminated bool           `json:"eliminated,omitempty"`
	Bot        bool           `json:"bot,omitempty"` // a house bot
}

// TableView is one table of the current round.
type TableView struct {
	Table    int      `json:"table"`
	Players  []string `json:"players"`
	Session  int      `json:"session"` // the current or last session, 0 before the first
	Live     bool     `json:"live"`
	Hands    int      `json:"hands"`   // counted hands of the current or last session
	Reports  int      `json:"reports"` // hand reports of that session, voided ones included
	Finished bool     `json:"finished"`
	// Since: when the table was seated, or its last session started or ended.
	Since time.Time `json:"since,omitzero"`
}

// Entrant returns a registered player's entry (false if not registered).
func (t *Tournament) Entrant(id string) (Entrant, bool) {
	p := t.lookup(id)
	if p == nil {
		return Entrant{}, false
	}
	return entrantOf(p), true
}

func entrantOf(p *player) Entrant {
	return Entrant{Player: p.id, Entry: p.entry, Fee: p.fee, Chips: p.chips, Rebuys: p.rebuys,
		Reached: p.reached, Table: p.table, Eliminated: p.eliminated, Bot: p.bot}
}

// State returns a snapshot of the tournament.
func (t *Tournament) State() State {
	s := State{ID: t.cfg.ID, Name: t.cfg.Name, Game: t.cfg.Game, Phase: t.phase, Seq: t.seq, Commitment: t.commitment,
		Round: t.Round(), Stakes: t.Stakes(), Leaderboard: t.Leaderboard(), Sessions: t.Sessions(),
		Pool: t.Pool(), Results: t.Results(), Entrants: make([]Entrant, len(t.players))}
	for i, p := range t.players {
		s.Entrants[i] = entrantOf(p)
	}
	if t.over() {
		s.Seed, s.Secret = t.seed, t.secret
	}
	if r := t.current(); r != nil {
		for _, tb := range r.tables {
			s.Tables = append(s.Tables, TableView{Table: tb.number, Players: append([]string(nil), tb.players...),
				Session: tb.session, Live: tb.live, Hands: tb.hands, Reports: tb.reports, Finished: tb.finished, Since: tb.lastAt})
		}
	}
	return s
}
