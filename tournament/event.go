package tournament

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// EventType names an event.
type EventType string

// The events of a tournament's history. A command emits one or more; Replay applies them
// in order to rebuild the tournament.
const (
	EvRegistrationOpened EventType = "registration_opened"
	EvRegistered         EventType = "registered"   // Player, Entry, Amount (fee paid)
	EvUnregistered       EventType = "unregistered" // Player, Amount (fee refunded)
	EvRegistrationClosed EventType = "registration_closed"
	EvCancelled          EventType = "cancelled" // Reason, Payments (refunds)
	EvStarted            EventType = "started"   // Seed, Count (entrants)
	EvRoundSeated        EventType = "round_seated"
	EvSessionStarted     EventType = "session_started"
	EvHandReported       EventType = "hand_reported"
	EvDragonSettled      EventType = "dragon_settled" // a timed session's Dragon settlement
	EvRebought           EventType = "rebought"
	EvEliminated         EventType = "eliminated"
	EvSessionEnded       EventType = "session_ended"
	EvTableFinished      EventType = "table_finished"
	EvRoundEnded         EventType = "round_ended"
	EvFinished           EventType = "finished"
)

// Event is one entry of a tournament's history. Like Command it is one flat struct; the
// fields an event type does not use are empty and left out of its JSON.
type Event struct {
	Seq  uint64    `json:"seq"`
	Type EventType `json:"type"`
	At   time.Time `json:"at,omitzero"`

	Player string `json:"player,omitempty"`
	// registered: the registration number (1…, never reused): earlier registration wins ties.
	Entry int `json:"entry,omitempty"`
	// registered, unregistered: the fee paid or refunded; rebought: the price paid; both
	// in Config.Currency. eliminated: the player's chips left.
	Amount baccarat.Money `json:"amount,omitempty"`
	// registered, rebought: the host's reference of the payment (Command.Debit), if any.
	Debit string `json:"debit,omitempty"`
	// rebought: chips received.
	Chips baccarat.Money `json:"chips,omitempty"`
	// rebought: the player's rebuys so far; started: the entrants.
	Count int `json:"count,omitempty"`
	// started: the seating seed, the house's secret and their Commitment.
	Seed       uint64 `json:"seed,omitempty,string"`
	Secret     string `json:"secret,omitempty"`
	Commitment string `json:"commitment,omitempty"`
	// registered: the entrant is a house bot.
	Bot bool `json:"bot,omitempty"`

	// Where: the round, the table in it, the table's session. Hand: hand_reported, the
	// report's number among the session's reports (voided hands included); rebought,
	// eliminated and session_ended, the session's counted hands so far.
	Round   int `json:"round,omitempty"`
	Table   int `json:"table,omitempty"`
	Session int `json:"session,omitempty"`
	Hand    int `json:"hand,omitempty"`

	// round_seated: each table's players in seat order (table 1 first); Chips is what each
	// starts with when chips are reset (0 when they are carried).
	Tables [][]string `json:"tables,omitempty"`
	// hand_reported: Counted is the hand's count in the session (0 for a void hand).
	Counted int          `json:"counted,omitempty"`
	Void    bool         `json:"void,omitempty"`
	Changes []ChipChange `json:"changes,omitempty"`
	// session_ended: every player's chips at the end (the session's players, seat order).
	Standings []ChipCount `json:"standings,omitempty"`
	// round_ended: who goes on to the next round, in ranking order.
	Advancing []string `json:"advancing,omitempty"`
	// cancelled: refunds; finished: prizes (both in Config.Currency).
	Payments []Payment `json:"payments,omitempty"`
	// finished: the final ranking and the pool.
	Results []Result `json:"results,omitempty"`
	Pool    *Pool    `json:"pool,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// ChipCount is a player's chips at a moment.
type ChipCount struct {
	Player string         `json:"player"`
	Chips  baccarat.Money `json:"chips"`
}

// Payment is money the host pays a player in Config.Currency: a refund or a prize.
type Payment struct {
	Player string         `json:"player"`
	Amount baccarat.Money `json:"amount"`
}

// Pool is the prize pool: entry fees and rebuy prices collected, and the house's top-up to
// the guarantee. Total = Collected + TopUp is what the prizes divide.
type Pool struct {
	Collected baccarat.Money `json:"collected"`
	TopUp     baccarat.Money `json:"top_up"`
	Total     baccarat.Money `json:"total"`
}

// Result is a player's final place.
type Result struct {
	Player string `json:"player"`
	Rank   int    `json:"rank"`
	// Round is the last round the player reached (advancing into a round counts as
	// reaching it); Chips their chips at the end of the last round they played.
	Round      int            `json:"round"`
	Chips      baccarat.Money `json:"chips"`
	Eliminated bool           `json:"eliminated,omitempty"`
	Rebuys     int            `json:"rebuys,omitempty"`
	Prize      baccarat.Money `json:"prize"`
}
