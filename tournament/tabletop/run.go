package tabletop

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// Options configure Run.
type Options struct {
	// Bots register, in order, when registration opens: they are the entrants.
	Bots []Bot
	// Seed draws the seating, every shoe and every bot's choices: the same seed plays the
	// same tournament.
	Seed uint64
	// Decks per shoe (0: the game's default).
	Decks int
	// HandTime is the virtual time a hand takes (default 30 s): what timed sessions and
	// breaks are measured against.
	HandTime time.Duration
	// OnSession, if set, is called as each session ends.
	OnSession func(SessionResult)
}

// Result is a whole tournament played by Run.
type Result struct {
	Tournament string          `json:"tournament"`
	Game       string          `json:"game"`
	Entrants   int             `json:"entrants"`
	Pool       baccarat.Money  `json:"pool"`
	Sessions   []SessionResult `json:"sessions"`
	Prizes     []Prize         `json:"prizes"`
	// Cancelled says why, when the tournament did not start.
	Cancelled string `json:"cancelled,omitempty"`
	// Final is the tournament as it ended.
	Final *tournament.Tournament `json:"-"`
}

// SessionResult is one session as it ended: its chip account, which balances
// (ChipsStart + Rebuys = ChipsEnd + HouseNet), and the table's standings.
type SessionResult struct {
	Round      int            `json:"round"`
	Table      string         `json:"table"` // "t1", "t2", … in the round
	Session    int            `json:"session"`
	Hands      int            `json:"hands"`
	Voided     int            `json:"voided,omitempty"`
	ChipsStart baccarat.Money `json:"chips_start"`
	Rebuys     baccarat.Money `json:"rebuys"`
	ChipsEnd   baccarat.Money `json:"chips_end"`
	HouseNet   baccarat.Money `json:"house_net"`
	Standings  []Standing     `json:"standings"`
}

// Standing is a player's place at the table when a session ended. Advances: the player went
// on to the next round (known once the round has ended; before, as things stood).
type Standing struct {
	Player     string         `json:"player"`
	Chips      baccarat.Money `json:"chips"`
	Rank       int            `json:"rank"`
	Advances   bool           `json:"advances"`
	Eliminated bool           `json:"eliminated,omitempty"`
}

// Prize is money a player won.
type Prize struct {
	Player string         `json:"player"`
	Rank   int            `json:"rank"`
	Amount baccarat.Money `json:"amount"`
}

// Run plays a whole tournament on a virtual clock: bots register, the schedule (Next) runs,
// and every session is dealt at a table of its own (table.Table with seeded shoes), hand
// by hand, each table's settlements reported to the tournament. Every chip is followed
// twice, in the players' chip wallets (the table's settlements) and in the tournament (the
// reports), and a session whose two records disagree is an error: it is what the live
// host's books check.
//
// A large tournament is long work: Run stops, with ctx's error, soon after ctx is done (it
// looks between registrations, schedule steps and the hands of each table); the sessions
// that ended before have been passed to OnSession.
func Run(ctx context.Context, cfg tournament.Config, opt Options) (*Result, error) {
	t, err := tournament.New(cfg)
	if err != nil {
		return nil, err
	}
	if opt.HandTime <= 0 {
		opt.HandTime = 30 * time.Second
	}
	r := &runner{t: t, opt: opt, g: t.Game(), now: cfg.RegistrationOpens, wallets: map[string]baccarat.Money{},
		players: map[string]*Player{}, last: map[string]baccarat.Money{}, tables: map[int]*simTable{}}
	if err := r.register(ctx); err != nil {
		return nil, err
	}
	if err := r.loop(ctx); err != nil {
		return nil, err
	}
	return r.result(), nil
}

type runner struct {
	t         *tournament.Tournament
	opt       Options
	g         *games.Game
	now       time.Time
	wallets   map[string]baccarat.Money // chip wallets, as the tables' settlements move them
	players   map[string]*Player
	last      map[string]baccarat.Money // each player's net on their last hand
	tables    map[int]*simTable         // the current round's tables playing a session
	out       []SessionResult
	rounds    map[int][]string // who advanced from each round
	cancelled string
}

// simTable is a session's table.
type simTable struct {
	n   int
	s   Session
	t   *table.Table
	src rand.Source
	co  *Coordinator // what the tournament and the table are told of each other
}

func (r *runner) apply(c tournament.Command) ([]tournament.Event, error) {
	c.At = r.now
	evs, err := r.t.Apply(&c)
	if err != nil {
		return nil, fmt.Errorf("%s at %s: %w", c.Type, r.now.UTC().Format(time.RFC3339), err)
	}
	return evs, r.after(evs)
}

func (r *runner) register(ctx context.Context) error {
	if _, err := r.apply(tournament.Command{Type: tournament.CmdOpenRegistration}); err != nil {
		return err
	}
	for _, b := range r.opt.Bots {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := NewPlayer(b, r.opt.Seed)
		if err != nil {
			return err
		}
		if _, err := r.apply(tournament.Command{Type: tournament.CmdRegister, Player: b.ID, Bot: true}); err != nil {
			return err
		}
		r.players[b.ID] = p
	}
	return nil
}

// loop runs the schedule and deals the hands until the tournament ends, or ctx is done.
func (r *runner) loop(ctx context.Context) error {
	for guard := 0; ; guard++ {
		if ph := r.t.Phase(); ph == tournament.PhaseFinished || ph == tournament.PhaseCancelled {
			return nil
		}
		if guard > 10_000_000 {
			return baccarat.Errorf(baccarat.CodeInternal, "the tournament does not end")
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		cmd, at := tournament.Next(r.t, r.now)
		switch {
		case cmd != nil:
			if err := r.scheduled(*cmd); err != nil {
				return err
			}
		case len(r.tables) > 0:
			if err := r.handRound(ctx); err != nil {
				return err
			}
			r.now = r.now.Add(r.opt.HandTime)
		case !at.IsZero():
			r.now = at
		default:
			return baccarat.Errorf(baccarat.CodeInternal, "the tournament is %s with nothing to do", r.t.Phase())
		}
	}
}

// scheduled applies what the schedule asks: the start with the run's seed, a session's start
// with its table, a timed session's end with its Dragon settlement.
func (r *runner) scheduled(c tournament.Command) error {
	switch c.Type {
	case tournament.CmdStart:
		c.Seed = r.opt.Seed
	case tournament.CmdEndSession:
		changes, err := r.closeTable(r.tables[c.Table])
		if err != nil {
			return err
		}
		c.Changes = changes
	}
	_, err := r.apply(c)
	return err
}

// after follows the tournament's events: a session that starts gets its table and its
// players their chips; one that ends is checked and recorded.
func (r *runner) after(evs []tournament.Event) error {
	var advancing []string // the round ended in this batch: who went on, exactly
	ended := false
	for i := range evs {
		if evs[i].Type == tournament.EvRoundEnded {
			advancing, ended = evs[i].Advancing, true
		}
	}
	for i := range evs {
		e := &evs[i]
		switch e.Type {
		case tournament.EvSessionStarted:
			if err := r.openTable(e); err != nil {
				return err
			}
		case tournament.EvRebought:
			if e.Session != 0 {
				r.wallets[e.Player] += e.Chips
			}
		case tournament.EvSessionEnded:
			if err := r.sessionEnded(e, ended, advancing); err != nil {
				return err
			}
		case tournament.EvCancelled:
			r.cancelled = e.Reason
		case tournament.EvRoundEnded:
			if r.rounds == nil {
				r.rounds = map[int][]string{}
			}
			r.rounds[e.Round] = e.Advancing
		}
	}
	return nil
}

func (r *runner) openTable(e *tournament.Event) error {
	cfg := r.t.Config()
	rec := r.t.Sessions()[len(r.t.Sessions())-1]
	s := Session{Tournament: cfg.ID, Round: e.Round, Table: e.Table, Session: e.Session, Stakes: r.t.Stakes(), Dragon: cfg.Dragon,
		Hands: cfg.Rounds[e.Round-1].Sessions[e.Session-1].Hands}
	for _, seat := range rec.Seats {
		s.Players = append(s.Players, seat.Player)
		r.wallets[seat.Player] = seat.Start // the house gives each player their chips
	}
	tb, err := table.New(TableConfig(cfg, s, r.opt.Decks))
	if err != nil {
		return err
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(TableID(cfg.ID, e.Round, e.Table, e.Session)))
	r.tables[e.Table] = &simTable{n: e.Table, s: s, t: tb, src: rand.NewPCG(r.opt.Seed, h.Sum64()), co: NewCoordinator(s)}
	return nil
}

// sessionEnded checks that every seat's chip wallet holds what the tournament says, takes
// the chips back, and records the session.
func (r *runner) sessionEnded(e *tournament.Event, roundEnded bool, advancing []string) error {
	for _, c := range e.Standings {
		if r.wallets[c.Player] != c.Chips {
			return baccarat.Errorf(baccarat.CodeIntegrity, "round %d table %d session %d: %s's chips are %d at the table and %d in the tournament",
				e.Round, e.Table, e.Session, c.Player, r.wallets[c.Player], c.Chips)
		}
		r.wallets[c.Player] = 0
	}
	delete(r.tables, e.Table)
	var rec tournament.SessionRecord
	for _, s := range r.t.Sessions() {
		if s.Round == e.Round && s.Table == e.Table && s.Session == e.Session {
			rec = s
		}
	}
	a := rec.Accounting()
	if !a.Balanced {
		return baccarat.Errorf(baccarat.CodeIntegrity, "round %d table %d session %d does not balance: %+v", e.Round, e.Table, e.Session, a)
	}
	sr := SessionResult{Round: e.Round, Table: fmt.Sprintf("t%d", e.Table), Session: e.Session, Hands: rec.Hands, Voided: rec.Voided,
		ChipsStart: a.ChipsStart, Rebuys: a.RebuyChips, ChipsEnd: a.ChipsEnd, HouseNet: a.HouseNet, Standings: r.standings(e, roundEnded, advancing)}
	r.out = append(r.out, sr)
	if r.opt.OnSession != nil {
		r.opt.OnSession(sr)
	}
	return nil
}

// standings ranks a session's players by chips (equal chips share a rank) and marks who
// advances: exactly when the session ended the round, else as things stand (result fixes
// it once the round has ended).
func (r *runner) standings(e *tournament.Event, roundEnded bool, advancing []string) []Standing {
	adv := map[string]bool{}
	if roundEnded {
		for _, p := range advancing {
			adv[p] = true
		}
	} else {
		for _, s := range r.t.Leaderboard() {
			adv[s.Player] = s.Advances
		}
	}
	out := make([]Standing, len(e.Standings))
	for i, c := range e.Standings {
		en, _ := r.t.Entrant(c.Player)
		out[i] = Standing{Player: c.Player, Chips: c.Chips, Advances: adv[c.Player], Eliminated: en.Eliminated}
	}
	slices.SortStableFunc(out, func(a, b Standing) int { return cmp.Compare(b.Chips, a.Chips) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Chips == out[i-1].Chips {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}

// rebuyBots rebuys for busted bots that may.
func (r *runner) rebuyBots() {
	for _, c := range BotRebuys(r.t, r.players) {
		_, _ = r.apply(c)
	}
}

func (r *runner) result() *Result {
	cfg := r.t.Config()
	res := &Result{Tournament: cfg.ID, Game: cfg.Game, Entrants: len(r.t.Entrants()), Pool: r.t.Pool().Total,
		Sessions: r.out, Prizes: []Prize{}, Final: r.t}
	if res.Sessions == nil {
		res.Sessions = []SessionResult{}
	}
	for i := range res.Sessions {
		s := &res.Sessions[i]
		if adv, ok := r.rounds[s.Round]; ok {
			for j := range s.Standings {
				s.Standings[j].Advances = slices.Contains(adv, s.Standings[j].Player)
			}
		}
	}
	for _, x := range r.t.Results() {
		if x.Prize > 0 {
			res.Prizes = append(res.Prizes, Prize{Player: x.Player, Rank: x.Rank, Amount: x.Prize})
		}
	}
	res.Cancelled = r.cancelled
	return res
}
