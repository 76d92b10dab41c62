package table

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// Phase is where a round stands (SPEC §4).
type Phase string

// The phases. Idle is before the first round of a table.
const (
	PhaseIdle    Phase = "idle"
	PhaseBetting Phase = "betting"
	PhaseClosed  Phase = "closed"
	PhaseDealing Phase = "dealing"
	PhaseSettled Phase = "settled"
	PhaseVoid    Phase = "void"
)

// VoidReasons are the reasons a round may be voided (SPEC §4).
var VoidReasons = []string{"foreign_card", "wrong_card_count", "order_unrecoverable", "simultaneous_draw",
	"insufficient_cards", "device_reset", "scanner_mismatch", "technical_failure", "dealer_error"}

// Table is one table's state. Use New, then Apply commands; or Replay a history.
type Table struct {
	cfg  Config
	game *games.Game
	// warnings from the configuration, for the operator.
	warnings []string

	seq   uint64
	round uint64
	phase Phase
	until time.Time

	shoe shoeState
	coup baccarat.Coup
	// betting is the betting round now or last open (1–3); betOpen says whether it is open.
	betting int
	betOpen bool
	prices  []odds.Price

	wagers []Wager // this round's single-coup wagers, riding ones included
	riding []Wager // RWS wagers that pushed, waiting for the next round
	dragon []Wager // Dragon wagers of the current session

	session        uint64
	sessionResults []baccarat.Winner

	nextWager uint64
	parties   []party
	partyIdx  map[string]int32
	seatIdx   map[string]int32
	reqs      map[reqKey]uint64
	prevReqs  map[reqKey]uint64

	// tallies of this round's wagers, for the placement rules
	spots        map[spot]baccarat.Money
	areas        map[uint64]int   // players with a wager in each playing area
	totals       []baccarat.Money // stakes on each bet this round, by bet index
	sumPlayer    baccarat.Money
	sumBanker    baccarat.Money
	maxArea      int
	differential baccarat.Money
	interrupted  bool
	window       bool
	pending      []baccarat.Card
	shoeResults  []ShoeResult
	pays         [][]string     // pays[bet][tier]: each tier's ratio as text, made once
	funded       baccarat.Money // all funds ever given to players here
	house        baccarat.Money // the house's result: stakes lost minus winnings paid
	out          []Event
}

type reqKey struct{ player, id string }

// ShoeResult is a settled, non-void round of the current shoe, what the scoreboards read.
type ShoeResult struct {
	Winner     string `json:"winner"` // B, P or T
	PlayerPair bool   `json:"player_pair,omitempty"`
	BankerPair bool   `json:"banker_pair,omitempty"`
	Natural    bool   `json:"natural,omitempty"`
}

type shoeState struct {
	active     bool
	number     uint64
	decks      int
	counts     baccarat.Counts // the cards not yet dealt
	order      []baccarat.Card // an RNG shoe's order; nil for a dealer's shoe
	next       int             // cards dealt from order
	cutAt      int             // index of the first card behind the cut card (RNG)
	cutCard    int
	ending     bool // the shoe ends after this round
	commitment *baccarat.Commitment
	salt       string
}

// New returns a table with the given configuration, idle and without a shoe.
func New(cfg Config) (*Table, error) {
	g, warnings, err := cfg.Normalize()
	if err != nil {
		return nil, err
	}
	t := &Table{cfg: cfg, game: g, warnings: warnings, phase: PhaseIdle, session: 1,
		partyIdx: map[string]int32{}, seatIdx: map[string]int32{}, reqs: map[reqKey]uint64{}, prevReqs: map[reqKey]uint64{},
		spots: map[spot]baccarat.Money{}, areas: map[uint64]int{},
		maxArea: cfg.MaxWagersPerArea, differential: cfg.Differential}
	t.totals = make([]baccarat.Money, len(g.Bets))
	for _, b := range g.Bets {
		p := make([]string, len(b.Tiers))
		for i, tier := range b.Tiers {
			p[i] = tier.Pays.String()
		}
		t.pays = append(t.pays, p)
	}
	return t, nil
}

// Game is the table's game.
func (t *Table) Game() *games.Game { return t.game }

// Config is the table's configuration, defaults filled.
func (t *Table) Config() Config { return t.cfg }

// Warnings are configuration warnings an operator should see.
func (t *Table) Warnings() []string { return t.warnings }

// Seq is the sequence number of the last event.
func (t *Table) Seq() uint64 { return t.seq }

// Phase is the current phase.
func (t *Table) Phase() Phase { return t.phase }

// Round is the current (or last) round number.
func (t *Table) Round() uint64 { return t.round }

// NextPosition is the position the next card fills, or NoPosition when no card is due.
func (t *Table) NextPosition() baccarat.Position {
	if !t.cardDue() {
		return baccarat.NoPosition
	}
	return t.coup.Next()
}

// cardDue reports whether the table is waiting for a card.
func (t *Table) cardDue() bool {
	return (t.phase == PhaseClosed || t.phase == PhaseDealing) && !t.betOpen && !t.interrupted &&
		!t.window && len(t.pending) == 0 && !t.coup.Done()
}

// Balance is a participant's available funds and the amount they have in play here.
func (t *Table) Balance(player string) (available, held baccarat.Money) {
	if id := t.lookupParty(player); id >= 0 {
		return t.parties[id].balance, t.parties[id].held
	}
	return 0, 0
}

// Wagers returns this round's wagers (riding ones included) and the session's Dragon wagers.
func (t *Table) Wagers() []Wager {
	w := append([]Wager(nil), t.wagers...)
	return append(w, t.dragon...)
}

// WagerByRequest finds the wager a request id placed, in this round or the last.
func (t *Table) WagerByRequest(player, requestID string) (Wager, bool) {
	k := reqKey{player, requestID}
	id, ok := t.reqs[k]
	if !ok {
		id, ok = t.prevReqs[k]
	}
	if !ok {
		return Wager{}, false
	}
	for _, w := range t.Wagers() {
		if w.ID == id {
			return w, true
		}
	}
	return Wager{ID: id}, true
}

// Prices are the Bet on Baccarat odds of the betting round now open (nil otherwise).
func (t *Table) Prices() []odds.Price { return t.prices }

// Revealed returns the cards of the coup so far in deal order.
func (t *Table) Revealed() []baccarat.Card {
	c, _ := t.coup.Dealt()
	return c
}

// ShoeCounts is the composition of the cards the engine knows are still in the shoe.
func (t *Table) ShoeCounts() baccarat.Counts { return t.shoe.counts }
