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
	limits   [maxBets]Limit             // each bet's limit, its maximum held below what the books can post
	bets     [maxBets]betInfo           // what the hot paths ask of each bet (setLayout)
	auto     int                        // 1 on an automatic table: the row of permitted that applies
	natural  [commandCount]naturalActor // who each command acts as when it names no one

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
	// optional is one past the last slot of wagers' array a wager has been laid in with any
	// of the fields a player's own plain wager leaves empty (Odds, RequestID, PlacedBy,
	// Riding, Session): addWager raises it, and Apply's short way for a wager empties those
	// fields only below it. Removing wagers (slices.DeleteFunc) moves them down, never up.
	optional int
	riding   []Wager // RWS wagers that pushed, waiting for the next round
	dragon   []Wager // Dragon wagers of the current session

	session        uint64
	sessionResults []baccarat.Winner

	nextWager uint64
	parties   []party // parties[0] is unused: a PartyID of 0 means "not interned"
	partyIdx  map[string]PartyID
	seats     []seat
	seatIdx   map[string]seatID
	reqs      map[reqKey]reqOf
	prevReqs  map[reqKey]reqOf

	// tallies of this round's wagers, for the placement rules
	spots        map[spot]baccarat.Money // stakes at a seat not the party's own
	epoch        uint64                  // numbers the tallies: clearTallies starts a new one
	touchedSeats []seatID
	totals       [maxBets]baccarat.Money // stakes on each bet this round, by bet index
	staked       uint16                  // the bets with a stake this round (bit 1<<index)
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
	ends         [maxBets]betEnds // how each bet can end, made once (resolveBets picks)
	house        baccarat.Money   // the house's result: stakes lost minus winnings paid
	out          []Event          // the events of the Apply under way: general's, or dealt's (dealNext)
	general      []Event          // the buffer of the events of most commands
	// dealt is the buffer of the events of a Deal that dealNext takes: dealt[0] is its
	// card_dealt, written whole there and nowhere else, so that it is never cleared.
	dealt     []Event
	settleBuf []Settlement // round_settled's settlements, reused round after round
	sq        *squeeze     // the squeeze under way, if any
	revealed  uint8        // hands whose squeeze ended this round (bit 1<<side)
	mc        methodC      // who holds the shoe, at a Method C table (methodc.go)
	placed    Wager        // the wager of the last wager_placed event placed here
	// chip and chipDetail are the wager and the detail of the last wager_raised or
	// wager_lowered event (raise.go), written here as placed is.
	chip       Wager
	chipDetail Detail
	chips      map[uint64][]Chip // the chips raised onto each wager in play (raise.go)
	undone     Chip              // the chip the last wager_lowered took back, if it was one
	// ownPlaced, opened and shut are the events of a wager, an Open and a Close that Apply
	// takes the short way, which it returns instead of out: what does not change from one
	// to the next is set by setShortWays, the rest for each, and nothing else ever writes
	// them, so that they are never cleared.
	ownPlaced, opened, shut [1]Event
	outcomes                [maxBets]*outcome // how each bet with a stake ends on this coup (resolveBets)
	rides                   bool              // some bet's outcome rides (RWS 3.9): resolveBets says, settleWagers reads
}

type reqKey struct {
	party PartyID
	id    string
}

// reqOf is what a request id did: the wager it placed or raised, and the stake it sent (the
// wager's total changes with every chip, so a retry is compared with the stake sent).
type reqOf struct {
	wager uint64
	stake baccarat.Money
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
		reqs: map[reqKey]reqOf{}, prevReqs: map[reqKey]reqOf{}, spots: map[spot]baccarat.Money{},
		maxArea: cfg.MaxWagersPerArea, differential: cfg.Differential, epoch: 1}
	for i, b := range g.Bets {
		t.ends[i] = endsOf(b, g.Rules.TieRides)
	}
	if cfg.Mode == ModeAuto {
		t.auto = 1
	}
	t.natural = naturals(t.auto)
	t.setShortWays()
	t.setLimits()
	t.setLayout()
	return t, nil
}

// setShortWays sets in the buffers of Apply's short ways what their events always hold:
// their types, and who sends them (the natural actors, fixed for the table).
func (t *Table) setShortWays() {
	t.ownPlaced[0].Type, t.ownPlaced[0].Role = EvWagerPlaced, RolePlayer
	t.dealt = make([]Event, 1, 8)
	d, n := &t.dealt[0], &t.natural[CmdDeal]
	d.Type, d.Actor, d.Role, d.Phase, d.Card.set = EvCardDealt, n.actor, n.role, PhaseDealing, true
	o, n := &t.opened[0], &t.natural[CmdOpen]
	o.Type, o.Actor, o.Role, o.Betting, o.Phase = EvBettingOpened, n.actor, n.role, 1, PhaseBetting
	s, n := &t.shut[0], &t.natural[CmdClose]
	s.Type, s.Actor, s.Role = EvBettingClosed, n.actor, n.role
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
	r, ok := t.reqs[k]
	if !ok {
		r, ok = t.prevReqs[k]
	}
	if !ok {
		return Wager{}, false
	}
	id := r.wager
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
