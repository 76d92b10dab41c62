package table

import (
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// Event is one entry of a table's history. The fields every round writes many times (a
// wager, a card, a result) are in the event itself; the rest, which a shoe, a limit or an
// irregularity writes now and then, sit behind Detail, nil when unused, so that the events
// a round makes by the dozen stay small. Fields an event type does not use are empty and
// left out of its JSON; the JSON is the journal's format (version 1, unchanged since the
// first release).
type Event struct {
	Seq    uint64    `json:"seq"`
	Type   EventType `json:"type"`
	At     time.Time `json:"at,omitzero"`
	Round  uint64    `json:"round,omitempty"`
	Actor  string    `json:"actor,omitempty"`
	Role   Role      `json:"role,omitempty"`
	Reason string    `json:"reason,omitempty"`

	// Wager is the wager a wager_placed event placed. Like the event, it is the table's
	// until the next Apply (Clone copies it). In wager_raised and wager_lowered it is the
	// wager as the chip added or taken back left it (its stake the new total; a raise's
	// request id the raise's), and Detail's Player and Amount say whose and how much.
	Wager   *Wager    `json:"wager,omitempty"`
	Phase   Phase     `json:"phase,omitempty"` // the phase after the event
	Betting int       `json:"betting_round,omitempty"`
	Until   time.Time `json:"until,omitzero"`

	Card    DealtCard `json:"card,omitzero"`    // card_dealt
	Window  bool      `json:"window,omitempty"` // a withdrawal window is open
	Certain bool      `json:"certain,omitempty"`

	Result      RoundResult  `json:"result,omitzero"` // round_settled
	Settlements []Settlement `json:"settlements,omitempty"`

	*Detail
}

// Detail holds what rarer events carry. Read it through the event's accessors (Withdrawn,
// Shoe, …), which answer for a nil Detail.
type Detail struct {
	Withdrawn []Wager         `json:"withdrawn,omitempty"` // wager_withdrawn
	Cards     []baccarat.Card `json:"cards,omitempty"`     // cards_corrected, simultaneous_draw, round_voided
	Prices    []odds.Price    `json:"prices,omitempty"`    // betting_opened (Bet on Baccarat)
	Session   uint64          `json:"session,omitempty"`   // session_settled
	Shoe      *ShoeInfo       `json:"shoe,omitempty"`      // shoe_started, shoe_ended
	Player    string          `json:"player,omitempty"`    // wager_withdrawn, wager_raised, wager_lowered
	Amount    baccarat.Money  `json:"amount,omitempty"`    // limit_changed (differential); wager_raised: added, wager_lowered: taken back
	Bet       string          `json:"bet,omitempty"`       // limit_changed (bet_limit)
	Limit     *Limit          `json:"limit,omitempty"`     // limit_changed (bet_limit)
	Count     int             `json:"count,omitempty"`     // limit_changed (area_limit), session_settled
	Setting   Setting         `json:"setting,omitempty"`   // limit_changed
	Side      string          `json:"side,omitempty"`      // squeeze_started, squeeze_ended: player or banker
}

// more returns the event's Detail, making it if need be.
func (e *Event) more() *Detail {
	if e.Detail == nil {
		e.Detail = &Detail{}
	}
	return e.Detail
}

// detail is the event's Detail, or an empty one: what the accessors read.
func (e *Event) detail() *Detail {
	if e.Detail == nil {
		return &noDetail
	}
	return e.Detail
}

var noDetail Detail

// Withdrawn are the wagers a wager_withdrawn event took back.
func (e *Event) Withdrawn() []Wager { return e.detail().Withdrawn }

// Cards are the cards of a correction, a simultaneous draw or a void.
func (e *Event) Cards() []baccarat.Card { return e.detail().Cards }

// Prices are Bet on Baccarat's offers in the betting round a betting_opened event opened.
func (e *Event) Prices() []odds.Price { return e.detail().Prices }

// Shoe describes the shoe a shoe_started or shoe_ended event is about.
func (e *Event) Shoe() *ShoeInfo { return e.detail().Shoe }

// Player is whose wagers a wager_withdrawn event took back.
func (e *Event) Player() string { return e.detail().Player }

// Amount is the stake a wager_raised event added to its wager or a wager_lowered event took
// back from it (the event's wager holds the new total), or a limit_changed's differential.
func (e *Event) Amount() baccarat.Money { return e.detail().Amount }

// Session is the Dragon session a session_settled event settled.
func (e *Event) Session() uint64 { return e.detail().Session }

// Owner is the player an event is private to: the owner of a placed or withdrawn wager,
// "" for a public event.
func (e *Event) Owner() string {
	switch e.Type {
	case EvWagerPlaced, EvWagerRaised, EvWagerLowered:
		return e.Wager.Player
	case EvWagerWithdrawn, EvFunded:
		return e.Player()
	}
	return ""
}

// Clone returns a copy of the event that shares nothing with the table: Apply reuses the
// events it returns, and the slices in them, at the next call.
func (e *Event) Clone() Event {
	c := *e
	if e.Wager != nil {
		w := *e.Wager
		c.Wager = &w
	}
	c.Settlements = append([]Settlement(nil), e.Settlements...)
	if e.Detail != nil {
		d := *e.Detail
		d.Withdrawn = append([]Wager(nil), d.Withdrawn...)
		d.Cards = append([]baccarat.Card(nil), d.Cards...)
		d.Prices = append([]odds.Price(nil), d.Prices...)
		c.Detail = &d
	}
	return c
}

// DealtCard is a card and the position it filled.
type DealtCard struct {
	Card     baccarat.Card     `json:"card"`
	Position baccarat.Position `json:"position"`
	// Left is how many cards the engine knows are left in the shoe after this one.
	Left int `json:"left"`
	// Hidden: the card is face down to everyone but For, who squeezes its hand; in the
	// public copy of the event (Public) its value is gone.
	Hidden bool   `json:"hidden,omitempty"`
	For    string `json:"for,omitempty"`
	set    bool
}

// IsZero reports whether no card is set (for omitzero).
func (d DealtCard) IsZero() bool { return !d.set }

type dealtCardJSON struct {
	Card     *baccarat.Card    `json:"card,omitempty"`
	Position baccarat.Position `json:"position"`
	Left     int               `json:"left"`
	Hidden   bool              `json:"hidden,omitempty"`
	For      string            `json:"for,omitempty"`
}

// MarshalJSON writes the card, or without its value when it is face down (Public).
func (d DealtCard) MarshalJSON() ([]byte, error) {
	j := dealtCardJSON{Position: d.Position, Left: d.Left, Hidden: d.Hidden, For: d.For}
	if d.Card.Valid() {
		j.Card = &d.Card
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a dealt card.
func (d *DealtCard) UnmarshalJSON(b []byte) error {
	var j dealtCardJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*d = DealtCard{Card: faceDown, Position: j.Position, Left: j.Left, Hidden: j.Hidden, For: j.For, set: true}
	if j.Card != nil {
		d.Card = *j.Card
	}
	return nil
}

// faceDown is a card value no card has: a face-down card's, in a public copy.
const faceDown baccarat.Card = 255

// FaceDown returns the card as someone who may not see it sees it.
func (d DealtCard) FaceDown() DealtCard {
	d.Card = faceDown
	return d
}

// ShoeInfo describes a shoe. Order and Salt are secret until the shoe ends: Public strips
// them from shoe_started.
type ShoeInfo struct {
	Number     uint64               `json:"number"`
	Decks      int                  `json:"decks"`
	Cards      int                  `json:"cards"`
	CutCard    int                  `json:"cut_card,omitempty"` // cards behind the cut card
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`
	Order      []baccarat.Card      `json:"order,omitempty"`
	Salt       string               `json:"salt,omitempty"`
	Live       bool                 `json:"live,omitempty"` // cards come from a dealer's shoe
	Verified   *bool                `json:"verified,omitempty"`
}

// Wager is a stake on one bet.
type Wager struct {
	ID        uint64         `json:"id"`
	Round     uint64         `json:"round"`
	Player    string         `json:"player"`
	Seat      string         `json:"seat"`
	Bet       string         `json:"bet"`
	Stake     baccarat.Money `json:"stake"`
	Odds      baccarat.Odds  `json:"odds,omitempty"`
	Betting   int            `json:"betting_round,omitempty"`
	RequestID string         `json:"request_id,omitempty"`
	// PlacedBy is the dealer or pit who placed it for the player (Tiger 3.7).
	PlacedBy string `json:"placed_by,omitempty"`
	// Riding: a Player or Banker wager that pushed on a Tie and stays on (RWS 3.9).
	Riding bool `json:"riding,omitempty"`
	// Session: a Dragon bet's session.
	Session uint64 `json:"session,omitempty"`

	party PartyID // the owner at this table
	seat  seatID
	bet   uint8 // the bet's index in the game's list
}

// RoundResult is a settled coup. It holds the engine's Result (no pointers, nothing to
// format on the hot path) and is written to JSON as players read it.
type RoundResult struct {
	baccarat.Result
	set bool
}

type roundResultJSON struct {
	Coup        string `json:"coup"`
	Winner      string `json:"winner"`
	PlayerTotal int    `json:"player_total"`
	BankerTotal int    `json:"banker_total"`
	Natural     bool   `json:"natural,omitempty"`
	PlayerPair  bool   `json:"player_pair,omitempty"`
	BankerPair  bool   `json:"banker_pair,omitempty"`
	Cards       int    `json:"cards"`
}

// IsZero reports whether there is no result (for omitzero).
func (r RoundResult) IsZero() bool { return !r.set }

// MarshalJSON writes the coup notation and the facts players read.
func (r RoundResult) MarshalJSON() ([]byte, error) {
	x := &r.Result
	return json.Marshal(roundResultJSON{Coup: x.String(), Winner: x.Winner.String(), PlayerTotal: x.PlayerTotal,
		BankerTotal: x.BankerTotal, Natural: x.Natural, PlayerPair: x.PlayerPair, BankerPair: x.BankerPair, Cards: x.Cards()})
}

// UnmarshalJSON reads it back from the coup notation (the rest is derived).
func (r *RoundResult) UnmarshalJSON(b []byte) error {
	var j roundResultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	res, err := baccarat.ParseCoup(j.Coup)
	if err != nil {
		return err
	}
	*r = RoundResult{Result: res, set: true}
	return nil
}

// Settlement is how one wager ended.
type Settlement struct {
	Wager    uint64         `json:"wager"`
	Player   string         `json:"player"`
	Bet      string         `json:"bet"`
	Stake    baccarat.Money `json:"stake"`
	Outcome  games.Outcome  `json:"outcome"`
	Pays     string         `json:"pays,omitempty"`
	Odds     baccarat.Odds  `json:"odds,omitempty"`
	Net      baccarat.Money `json:"net"`      // won (+), lost (−), 0 for push and void
	Returned baccarat.Money `json:"returned"` // paid back to the player: stake + winnings, or the stake
	// Rides: the stake stays on the layout into the next round instead of being returned.
	Rides bool `json:"rides,omitempty"`
}

// Public returns the event as players may see it: a shoe's order and salt stay secret
// until the shoe ends, and a card being squeezed is face down to all but its squeezer.
func (e Event) Public() Event {
	if e.Type == EvCardDealt && e.Card.Hidden {
		e.Card = e.Card.FaceDown()
		return e
	}
	if e.Type == EvShoeStarted && e.Detail != nil && e.Detail.Shoe != nil && (e.Detail.Shoe.Order != nil || e.Detail.Shoe.Salt != "") {
		d := *e.Detail
		s := *d.Shoe
		s.Order, s.Salt = nil, ""
		d.Shoe = &s
		e.Detail = &d
	}
	return e
}
