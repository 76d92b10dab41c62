package tournament

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
)

// Phase is where a tournament stands.
type Phase string

// The phases, in order; a tournament ends finished or cancelled.
const (
	PhaseScheduled   Phase = "scheduled"           // created; registration not yet open
	PhaseRegistering Phase = "registering"         // registration open
	PhaseClosed      Phase = "registration_closed" // waiting for the start
	PhaseRunning     Phase = "running"             // rounds in play
	PhaseFinished    Phase = "finished"            // ranked and paid
	PhaseCancelled   Phase = "cancelled"           // fees refunded
)

// Tournament is one tournament's state. Use New, then Apply commands; or Replay a history.
type Tournament struct {
	cfg  Config
	game *games.Game

	seq    uint64
	phase  Phase
	seed   uint64
	secret string // the house's secret (house.go)
	// commitment is the hash of seed and secret published at the start.
	commitment string
	entries    int // registrations ever made: the next entry number is entries+1

	players []*player // registered players, in registration order
	index   map[string]int

	rounds    []*round // rounds seated so far; the last is the current one
	sessions  []SessionRecord
	collected baccarat.Money // entry fees and rebuy prices in the pool
	pool      *Pool          // set when finished
	results   []Result       // set when finished

	out []Event
}

type player struct {
	id         string
	entry      int
	fee        baccarat.Money
	chips      baccarat.Money
	rebuys     int
	table      int // table in the current round (1…); 0 when not seated in it
	reached    int // the last round reached (seated in, or advanced into)
	eliminated bool
	bot        bool           // a house bot (house.go)
	paid       baccarat.Money // the fee and every rebuy: what a cancellation refunds
}

type round struct {
	number   int
	seatedAt time.Time
	tables   []*table
}

type table struct {
	number   int
	players  []string // seat order
	session  int      // the current (live) or last session (1…); 0 before the first
	live     bool
	hands    int // counted hands of the current or last session
	reports  int // reports of the current or last session, voided hands included
	record   int // index of the current or last session in sessions
	lastAt   time.Time
	finished bool
}

// New returns a tournament with the given configuration, scheduled: registration opens
// with CmdOpenRegistration.
func New(cfg Config) (*Tournament, error) { return newTournament(cfg, false) }

func newTournament(cfg Config, history bool) (*Tournament, error) {
	c, g, err := cfg.normalize(history)
	if err != nil {
		return nil, err
	}
	return &Tournament{cfg: c, game: g, phase: PhaseScheduled, index: map[string]int{}}, nil
}

// Config is the tournament's configuration, normalized.
func (t *Tournament) Config() Config { return t.cfg.clone() }

// Game is the tournament's game.
func (t *Tournament) Game() *games.Game { return t.game }

// Chips is the tournament's chip currency, "CHIPS:<id>".
func (t *Tournament) Chips() ledger.Currency { return ledger.Chips(t.cfg.ID) }

// Seq is the sequence number of the last event.
func (t *Tournament) Seq() uint64 { return t.seq }

// Phase is where the tournament stands.
func (t *Tournament) Phase() Phase { return t.phase }

// Round is the current (or last) round's number, 0 before the start.
func (t *Tournament) Round() int { return len(t.rounds) }

// Entrants lists the registered players in registration order.
func (t *Tournament) Entrants() []string {
	ids := make([]string, len(t.players))
	for i, p := range t.players {
		ids[i] = p.id
	}
	return ids
}

// Tables lists the current round's tables: each one's players in seat order.
func (t *Tournament) Tables() [][]string {
	r := t.current()
	if r == nil {
		return nil
	}
	out := make([][]string, len(r.tables))
	for i, tb := range r.tables {
		out[i] = append([]string(nil), tb.players...)
	}
	return out
}

// Stakes are the per-hand limits of the current round (of round 1 before the start).
func (t *Tournament) Stakes() Stakes { return *t.roundConfig(max(1, len(t.rounds))).Stakes }

// Pool is the prize pool as it stands: fees and rebuys collected, the house's top-up to the
// guarantee, and their total. Final once the tournament has finished; empty once it is
// cancelled (every fee refunded, no guarantee owed).
func (t *Tournament) Pool() Pool {
	if t.pool != nil {
		return *t.pool
	}
	if t.phase == PhaseCancelled {
		return Pool{}
	}
	return poolOf(t.collected, t.cfg.Guarantee)
}

// poolOf is the pool rule: the house tops the fees collected up to the guarantee.
func poolOf(collected, guarantee baccarat.Money) Pool {
	top := max(0, guarantee-collected)
	return Pool{Collected: collected, TopUp: top, Total: collected + top}
}

// Results are the final ranking and prizes, once the tournament has finished.
func (t *Tournament) Results() []Result { return append([]Result(nil), t.results...) }

// Sessions are the records of every session started so far, in the order they started.
func (t *Tournament) Sessions() []SessionRecord {
	out := make([]SessionRecord, len(t.sessions))
	for i, s := range t.sessions {
		out[i] = s.clone()
	}
	return out
}

func (t *Tournament) current() *round {
	if len(t.rounds) == 0 {
		return nil
	}
	return t.rounds[len(t.rounds)-1]
}

func (t *Tournament) roundConfig(n int) *Round { return &t.cfg.Rounds[n-1] }

func (t *Tournament) lookup(id string) *player {
	if i, ok := t.index[id]; ok {
		return t.players[i]
	}
	return nil
}

// tableOf is the current round's table number n, or nil.
func (t *Tournament) tableOf(n int) *table {
	r := t.current()
	if r == nil || n < 1 || n > len(r.tables) {
		return nil
	}
	return r.tables[n-1]
}
