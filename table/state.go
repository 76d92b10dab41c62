package table

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/odds"
)

// State is a snapshot of a table: what a page shows when it connects, and what Replay is
// checked against.
type State struct {
	Game         string                    `json:"game"`
	Seq          uint64                    `json:"seq"`
	Round        uint64                    `json:"round"`
	Phase        Phase                     `json:"phase"`
	Betting      int                       `json:"betting_round"`
	BetOpen      bool                      `json:"bet_open"`
	Until        time.Time                 `json:"until,omitzero"`
	Interrupted  bool                      `json:"interrupted,omitempty"`
	Paused       bool                      `json:"paused,omitempty"` // by the pit: no round opens (pause.go)
	Closed       bool                      `json:"closed,omitempty"` // for good: no command is taken
	Window       bool                      `json:"withdrawal_window,omitempty"`
	Pending      []baccarat.Card           `json:"pending,omitempty"`
	Shoe         ShoeView                  `json:"shoe"`
	Cards        []DealtCard               `json:"cards"`
	NextPosition string                    `json:"next_position"`
	Wagers       []Wager                   `json:"wagers"`
	Riding       []Wager                   `json:"riding,omitempty"`
	Dragon       []Wager                   `json:"dragon,omitempty"`
	Prices       []odds.Price              `json:"prices,omitempty"`
	Session      SessionView               `json:"session"`
	ShoeResults  []ShoeResult              `json:"shoe_results"`
	Squeeze      *SqueezeView              `json:"squeeze,omitempty"`
	MethodC      *MethodCView              `json:"method_c,omitempty"` // who holds the shoe (methodc.go)
	Funds        map[string]Funds          `json:"funds"`
	Limits       map[string]Limit          `json:"limits"`
	MaxPerArea   int                       `json:"max_wagers_per_area,omitempty"`
	Differential baccarat.Money            `json:"differential,omitempty"`
	Totals       map[string]baccarat.Money `json:"totals"` // stakes on each bet this round
	NextWager    uint64                    `json:"next_wager"`
	House        baccarat.Money            `json:"house"` // the house's result so far
	Requests     map[string]uint64         `json:"-"`
}

// ShoeView is the shoe as players may see it.
type ShoeView struct {
	Active     bool                 `json:"active"`
	Number     uint64               `json:"number"`
	Decks      int                  `json:"decks"`
	Live       bool                 `json:"live"`
	Left       int                  `json:"left"`
	Ending     bool                 `json:"ending"` // the cut card is out: last round of the shoe
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`
}

// SessionView is the Dragon session in progress.
type SessionView struct {
	Number  uint64 `json:"number"`
	Hands   int    `json:"hands"`  // hands played (voided hands do not count)
	Length  int    `json:"length"` // hands in a session
	Results string `json:"results"`
	// Longest streaks so far, and the streak running now.
	LongestBanker int    `json:"longest_banker"`
	LongestPlayer int    `json:"longest_player"`
	Current       string `json:"current,omitempty"`
	CurrentRun    int    `json:"current_run,omitempty"`
}

// Funds are a participant's money at the table: what they have in play here. What they
// may stake is their wallet's, which the host passes with each wager.
type Funds struct {
	Held baccarat.Money `json:"held"`
}

type shoeResultJSON struct {
	Winner     string `json:"winner"` // B, P or T
	PlayerPair bool   `json:"player_pair,omitempty"`
	BankerPair bool   `json:"banker_pair,omitempty"`
	Natural    bool   `json:"natural,omitempty"`
}

// MarshalJSON writes the round as the scoreboards' letters: B, P or T.
func (r ShoeResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(shoeResultJSON{Winner: r.Winner.Letter(), PlayerPair: r.PlayerPair, BankerPair: r.BankerPair, Natural: r.Natural})
}

// UnmarshalJSON reads a round written by MarshalJSON.
func (r *ShoeResult) UnmarshalJSON(b []byte) error {
	var j shoeResultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	w, err := baccarat.ParseWinner(j.Winner)
	if err != nil {
		return err
	}
	*r = ShoeResult{Winner: w, PlayerPair: j.PlayerPair, BankerPair: j.BankerPair, Natural: j.Natural}
	return nil
}

// State returns a snapshot of the table. It shares nothing with the table.
func (t *Table) State() State { return t.state("", true) }

// StateFor is State with only player's own wagers (placed, riding and Dragon), funds and
// request ids: what a snapshot for that player keeps of the others' is their totals. At a
// table of thousands it copies one player's share, not everyone's: a snapshot for each of
// thousands of streams reconnecting at once (their server stopped) took the table's
// goroutine seconds when each copied every wager.
func (t *Table) StateFor(player string) State { return t.state(player, false) }

func (t *Table) state(player string, all bool) State {
	own := func(ws []Wager) []Wager {
		if all {
			return slices.Clone(ws)
		}
		var out []Wager
		for i := range ws {
			if ws[i].Player == player {
				out = append(out, ws[i])
			}
		}
		return out
	}
	s := State{Game: t.game.ID, Seq: t.seq, Round: t.round, Phase: t.phase, Betting: t.betting, BetOpen: t.betOpen,
		Until: t.until, Interrupted: t.interrupted, Paused: t.paused, Closed: t.closed, Window: t.window, Pending: slices.Clone(t.pending),
		Wagers: own(t.wagers), Riding: own(t.riding), Dragon: own(t.dragon),
		Prices: slices.Clone(t.prices), ShoeResults: slices.Clone(t.shoeResults), NextPosition: t.NextPosition().String(),
		Funds: map[string]Funds{}, Limits: maps.Clone(t.cfg.Limits), MaxPerArea: t.maxArea,
		Differential: t.differential, Totals: map[string]baccarat.Money{}, NextWager: t.nextWager, Requests: map[string]uint64{},
		House: t.house}
	if s.Wagers == nil {
		s.Wagers = []Wager{}
	}
	if s.ShoeResults == nil {
		s.ShoeResults = []ShoeResult{}
	}
	if s.Limits == nil {
		s.Limits = map[string]Limit{}
	}
	for _, b := range t.game.Bets {
		if _, ok := s.Limits[b.ID]; !ok {
			s.Limits[b.ID] = t.cfg.DefaultLimit
		}
	}
	s.Shoe = ShoeView{Active: t.shoe.active, Number: t.shoe.number, Decks: t.shoe.decks, Live: t.shoe.order == nil,
		Left: t.shoe.counts.Total(), Ending: t.shoe.ending, Commitment: t.shoe.commitment}
	cards, pos := t.coup.Dealt()
	s.Cards = make([]DealtCard, len(cards))
	for i := range cards {
		s.Cards[i] = DealtCard{Card: cards[i], Position: pos[i], set: true}
		s.Cards[i].For, s.Cards[i].Hidden = t.hiddenFrom(i)
	}
	s.Squeeze = t.squeezeView()
	s.MethodC = t.methodCView()
	if all {
		for _, p := range t.parties[1:] {
			if p.held != 0 {
				s.Funds[p.name] = Funds{Held: p.held}
			}
		}
	} else if id, ok := t.partyIdx[player]; ok && t.parties[id].held != 0 {
		s.Funds[player] = Funds{Held: t.parties[id].held}
	}
	s.Totals = t.Totals()
	if all {
		for k, v := range t.reqs {
			s.Requests[t.parties[k.party].name+"/"+k.id] = v.wager
		}
	} else if id, ok := t.partyIdx[player]; ok {
		for k, v := range t.reqs {
			if k.party == id {
				s.Requests[player+"/"+k.id] = v.wager
			}
		}
	}
	s.Session = t.sessionView()
	return s
}

func (t *Table) sessionView() SessionView {
	v := SessionView{Number: t.session, Hands: len(t.sessionResults), Length: t.cfg.SessionHands}
	var b strings.Builder
	for _, w := range t.sessionResults {
		b.WriteString(w.Letter())
	}
	v.Results = b.String()
	v.LongestBanker, v.LongestPlayer = streaks(t.sessionResults)
	for i := len(t.sessionResults) - 1; i >= 0; i-- {
		w := t.sessionResults[i]
		if w == baccarat.Tie {
			continue
		}
		if v.Current == "" {
			v.Current = w.Letter()
		}
		if w.Letter() != v.Current {
			break
		}
		v.CurrentRun++
	}
	return v
}

// Status is the little a host needs to pace a table, without copying its wagers.
type Status struct {
	Squeeze     *SqueezeView // a hand being squeezed, and until when
	MethodC     *MethodCView // Method C: who holds the shoe, and whether a card waits for them
	Phase       Phase
	Round       uint64
	Betting     int
	BetOpen     bool
	Until       time.Time
	Interrupted bool
	Window      bool
	ShoeActive  bool
	Paused      bool // by the pit
	Closed      bool // for good
	// Reopened: the pit reopened the table since the last round, whose result has been shown
	// for as long as the pause lasted: the next round may open at once.
	Reopened bool
}

// Status returns the table's status.
func (t *Table) Status() Status {
	return Status{Squeeze: t.squeezeView(), MethodC: t.methodCView(), Phase: t.phase, Round: t.round, Betting: t.betting, BetOpen: t.betOpen, Until: t.until,
		Interrupted: t.interrupted, Window: t.window, ShoeActive: t.shoe.active, Paused: t.paused, Closed: t.closed, Reopened: t.reopened}
}

// Stopped reports whether the pit has stopped the table: paused or closed, with no round
// under way. Such a table opens no round, so nothing happens at it until the pit reopens it,
// however long that takes.
func (s Status) Stopped() bool {
	between := s.Phase != PhaseBetting && s.Phase != PhaseClosed && s.Phase != PhaseDealing
	return (s.Paused || s.Closed) && between
}

// Totals is the stake on each bet of this round (riding wagers included).
func (t *Table) Totals() map[string]baccarat.Money {
	m := make(map[string]baccarat.Money, len(t.totals))
	for i, v := range t.totals {
		if v != 0 {
			m[t.game.Bets[i].ID] = v
		}
	}
	return m
}
