package table

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// maxBets bounds the bets of a game (the most has 9 single-coup bets and 3 Dragon bets):
// per-bet tallies are arrays, not maps.
const maxBets = 16

// maxBetting bounds the betting rounds of a game (Bet on Baccarat has 3).
const maxBetting = 4

// Table is one table's state. Use New, then Apply commands; or Replay a history.
type Table struct {
	cfg  Config
	game *games.Game
	// warnings from the configuration, for the operator.
	warnings []string
	limits   [maxBets]Limit   // each bet's limit, its maximum held below what the books can post
	bets     [maxBets]betInfo // what the hot paths ask of each bet (setLayout)
	auto     int              // 1 on an automatic table: the row of permitted that applies

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
	parties   []party // parties[0] is unused: a PartyID of 0 means "not interned"
	partyIdx  map[string]PartyID
	seats     []seat
	seatIdx   map[string]seatID
	reqs      map[reqKey]uint64
	prevReqs  map[reqKey]uint64

	// tallies of this round's wagers, for the placement rules
	spots        map[spot]baccarat.Money // stakes at a seat not the party's own
	touched      []PartyID               // parties with stakes this round
	touchedSeats []seatID
	totals       [maxBets]baccarat.Money // stakes on each bet this round, by bet index
	sides        [4]baccarat.Money       // stakes on Player and Banker, by baccarat.Winner
	maxArea      int
	differential baccarat.Money
	interrupted  bool
	window       bool
	paused       bool // the pit paused the table: no round opens (pause.go)
	reopened     bool // the pit reopened it since the last round: the next opens at once
	closed       bool // closed for good: no command is taken
	pending      []baccarat.Card
	shoeResults  []ShoeResult
	pays         [maxBets][]string // each tier's ratio as text, made once
	house        baccarat.Money    // the house's result: stakes lost minus winnings paid
	out          []Event
	settleBuf    []Settlement // round_settled's settlements, reused round after round
	sq           *squeeze     // the squeeze under way, if any
	revealed     uint8        // hands whose squeeze ended this round (bit 1<<side)
	placed       Wager        // the wager of the last wager_placed event placed here
	outcomes     [maxBets]outcome
}

type reqKey struct {
	party PartyID
	id    string
}

// ShoeResult is a settled, non-void round of the current shoe, what the scoreboards read.
type ShoeResult struct {
	Winner     baccarat.Winner
	PlayerPair bool
	BankerPair bool
	Natural    bool
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
	if len(g.Bets) > maxBets {
		return nil, baccarat.Errorf(baccarat.CodeInternal, "%s has %d bets; a table holds at most %d", g.Name, len(g.Bets), maxBets)
	}
	t := &Table{cfg: cfg, game: g, warnings: warnings, phase: PhaseIdle, session: 1,
		parties: make([]party, 1, 16), partyIdx: map[string]PartyID{}, seatIdx: map[string]seatID{},
		reqs: map[reqKey]uint64{}, prevReqs: map[reqKey]uint64{}, spots: map[spot]baccarat.Money{},
		maxArea: cfg.MaxWagersPerArea, differential: cfg.Differential}
	for i, b := range g.Bets {
		p := make([]string, len(b.Tiers))
		for j, tier := range b.Tiers {
			p[j] = tier.Pays.String()
		}
		t.pays[i] = p
	}
	if cfg.Mode == ModeAuto {
		t.auto = 1
	}
	t.setLimits()
	t.setLayout()
	return t, nil
}

// setLimits works out each bet's effective limit from the configuration.
func (t *Table) setLimits() {
	for i, b := range t.game.Bets {
		l := t.cfg.LimitFor(b.ID)
		if most := MaxStake(b); l.Max == 0 || l.Max > most {
			l.Max = most
		}
		t.limits[i] = l
	}
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
		!t.window && len(t.pending) == 0 && !t.coup.Done() && t.sq == nil
}

// Held is the money a participant has in play at this table.
func (t *Table) Held(player string) baccarat.Money {
	if id := t.lookupParty(player); id != 0 {
		return t.parties[id].held
	}
	return 0
}

// House is the house's result at this table so far: stakes lost minus winnings paid.
func (t *Table) House() baccarat.Money { return t.house }

// Wagers returns this round's wagers (riding ones included) and the session's Dragon wagers.
func (t *Table) Wagers() []Wager {
	w := append([]Wager(nil), t.wagers...)
	return append(w, t.dragon...)
}

// WagerByRequest finds the wager a request id placed, in this round or the last.
func (t *Table) WagerByRequest(player, requestID string) (Wager, bool) {
	k := reqKey{t.lookupParty(player), requestID}
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

// ShoeActive reports whether a shoe is in play.
func (t *Table) ShoeActive() bool { return t.shoe.active }

// ShoeNumber is the number of the shoe in play, or of the last one.
func (t *Table) ShoeNumber() uint64 { return t.shoe.number }
