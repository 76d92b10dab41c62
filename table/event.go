package table

import (
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/odds"
)

// EventType names an event.
type EventType string

// The events of a table's history.
const (
	EvShoeStarted    EventType = "shoe_started"
	EvShoeEnded      EventType = "shoe_ended"
	EvBettingOpened  EventType = "betting_opened"
	EvBettingClosed  EventType = "betting_closed"
	EvWagerPlaced    EventType = "wager_placed"
	EvWagerWithdrawn EventType = "wager_withdrawn"
	EvCardDealt      EventType = "card_dealt"
	EvCardsCorrected EventType = "cards_corrected"
	EvSimultaneous   EventType = "simultaneous_draw"
	EvInterrupted    EventType = "interrupted"
	EvResumed        EventType = "resumed"
	EvDeviceReset    EventType = "device_reset"
	EvRoundSettled   EventType = "round_settled"
	EvRoundVoided    EventType = "round_voided"
	EvSessionSettled EventType = "session_settled"
	EvFunded         EventType = "funded"
	EvLimitChanged   EventType = "limit_changed"
	EvCutCard        EventType = "cut_card"
)

// Event is one entry of a table's history. Like Command it is one flat struct: the fields
// an event type does not use are empty and left out of its JSON.
type Event struct {
	Seq    uint64    `json:"seq"`
	Type   EventType `json:"type"`
	At     time.Time `json:"at,omitzero"`
	Round  uint64    `json:"round,omitempty"`
	Actor  string    `json:"actor,omitempty"`
	Role   Role      `json:"role,omitempty"`
	Reason string    `json:"reason,omitempty"`

	// wager_placed; wager_withdrawn
	Wager     Wager     `json:"wager,omitzero"`
	Withdrawn []Wager   `json:"withdrawn,omitempty"`
	Phase     Phase     `json:"phase,omitempty"` // the phase after the event
	Betting   int       `json:"betting_round,omitempty"`
	Until     time.Time `json:"until,omitzero"`

	// card_dealt; cards_corrected; simultaneous_draw
	Card    DealtCard       `json:"card,omitzero"`
	Cards   []baccarat.Card `json:"cards,omitempty"`
	Window  bool            `json:"window,omitempty"` // a withdrawal window is open
	Certain bool            `json:"certain,omitempty"`

	// betting_opened (Bet on Baccarat)
	Prices []odds.Price `json:"prices,omitempty"`

	// round_settled; round_voided; session_settled
	Result      RoundResult  `json:"result,omitzero"`
	Settlements []Settlement `json:"settlements,omitempty"`
	Session     uint64       `json:"session,omitempty"`

	// shoe_started; shoe_ended
	Shoe *ShoeInfo `json:"shoe,omitempty"`

	// funded; limit_changed
	Player string         `json:"player,omitempty"`
	Amount baccarat.Money `json:"amount,omitempty"`
	Bet    string         `json:"bet,omitempty"`
	Limit  *Limit         `json:"limit,omitempty"`
	Count  int            `json:"count,omitempty"`
	// Setting names what limit_changed changed: bet_limit, area_limit or differential.
	Setting string `json:"setting,omitempty"`
}

// DealtCard is a card and the position it filled.
type DealtCard struct {
	Card     baccarat.Card     `json:"card"`
	Position baccarat.Position `json:"-"`
	Pos      string            `json:"position"`
	// Left is how many cards the engine knows are left in the shoe after this one.
	Left int `json:"left"`
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
	// Available is the balance the host reported with the wager (0 when it did not: a
	// placed wager never had 0 available).
	Available baccarat.Money `json:"available,omitempty"`

	pid int32 // the owner's interned id at this table
	bet int   // the bet's index in the game's list
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
	Outcome  string         `json:"outcome"` // win, lose, push, void
	Pays     string         `json:"pays,omitempty"`
	Odds     baccarat.Odds  `json:"odds,omitempty"`
	Net      baccarat.Money `json:"net"`      // won (+), lost (−), 0 for push and void
	Returned baccarat.Money `json:"returned"` // paid back to the player: stake + winnings, or the stake
	// Rides: the stake stays on the layout into the next round instead of being returned.
	Rides bool `json:"rides,omitempty"`
}

// Public returns the event as players may see it: a shoe's order and salt stay secret
// until the shoe ends.
func (e Event) Public() Event {
	if e.Type == EvShoeStarted && e.Shoe != nil && (e.Shoe.Order != nil || e.Shoe.Salt != "") {
		s := *e.Shoe
		s.Order, s.Salt = nil, ""
		e.Shoe = &s
	}
	return e
}
