package table

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// Role is what an actor may do at a table.
type Role string

// The roles. The web layer maps bearer tokens to them; the table decides what each may do.
const (
	RolePlayer Role = "player"
	RoleDealer Role = "dealer"
	RolePit    Role = "pit"    // pit supervisor or manager: limits, voids, sessions
	RoleSystem Role = "system" // the host itself: automatic tables, recovery, funding
)

// CommandType names a command.
type CommandType string

// The commands a table accepts. Their JSON form is the replay script format (README).
const (
	CmdNewShoe         CommandType = "new_shoe"          // start a shoe: RNG (order given) or live
	CmdEndShoe         CommandType = "end_shoe"          // end the shoe after this round (cut card seen)
	CmdOpen            CommandType = "open"              // "Place your bets"
	CmdClose           CommandType = "close"             // "No more bets"
	CmdPlace           CommandType = "place"             // place a wager
	CmdWithdraw        CommandType = "withdraw"          // withdraw a wager (where the rules allow)
	CmdDeal            CommandType = "deal"              // deal the next card of an RNG shoe
	CmdCard            CommandType = "card"              // a card from a dealer's card-reading shoe
	CmdCorrect         CommandType = "correct"           // re-enter the coup's cards in their right order
	CmdSimultaneous    CommandType = "simultaneous_draw" // two or more cards came out together
	CmdInterrupt       CommandType = "interrupt"         // power failure, crash, device fault
	CmdResume          CommandType = "resume"            // end an interruption or a withdrawal window
	CmdDeviceReset     CommandType = "device_reset"      // the dealing device was reset (Tiger 5.9)
	CmdVoid            CommandType = "void"              // void the round, with a reason
	CmdEndSession      CommandType = "end_session"       // end a Dragon session now (timed sessions)
	CmdFund            CommandType = "fund"              // add to (or, negative, take from) a participant's funds
	CmdSetLimit        CommandType = "set_limit"         // a bet's minimum and maximum
	CmdSetAreaLimit    CommandType = "set_area_limit"    // wagers per playing area (Tiger 3.6.1)
	CmdSetDifferential CommandType = "set_differential"  // the table differential (Tiger 5.18)
)

// Command is one instruction to a table. One flat struct for all commands keeps the hot path
// free of allocations and the JSON script format obvious; each command reads the fields it
// documents and ignores the rest.
type Command struct {
	Type  CommandType `json:"cmd"`
	Actor string      `json:"actor,omitempty"` // who: a player id, a dealer's or pit's name, "system"
	Role  Role        `json:"role,omitempty"`  // empty means the natural role of the command
	At    time.Time   `json:"at,omitzero"`     // when, from the host's clock (the table reads none)
	// Reason: why a dealer or pit action was taken (void, correction, limit change...).
	Reason string `json:"reason,omitempty"`

	// place, withdraw, fund
	Player    string         `json:"player,omitempty"`
	Seat      string         `json:"seat,omitempty"` // the playing area's seat; default the player
	Bet       string         `json:"bet,omitempty"`
	Stake     baccarat.Money `json:"stake,omitempty"`
	Odds      baccarat.Odds  `json:"odds,omitempty"`       // Bet on Baccarat: the odds the player saw
	RequestID string         `json:"request_id,omitempty"` // the same id twice places one wager
	// Available, when set by the host, is the participant's available balance now (their
	// wallet); otherwise the table uses the funds it was given with fund commands.
	Available *baccarat.Money `json:"available,omitempty"`
	Wager     uint64          `json:"wager,omitempty"` // withdraw: a wager id; 0 means all withdrawable

	// card, simultaneous_draw, correct, resume
	Card  *baccarat.Card  `json:"card,omitempty"`
	Cards []baccarat.Card `json:"cards,omitempty"`
	Known bool            `json:"known,omitempty"` // simultaneous draw: the drawn order is known
	Cut   bool            `json:"cut,omitempty"`   // card: the cut card came out before this card

	// new_shoe
	Decks      int                  `json:"decks,omitempty"`
	Order      []baccarat.Card      `json:"order,omitempty"` // an RNG shoe's order (kept private)
	Salt       string               `json:"salt,omitempty"`  // hex; its commitment is published
	CutCard    int                  `json:"cut_card,omitempty"`
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`

	// open: when betting is due to close (informational, for countdowns); on the card that
	// opens Bet on Baccarat's second or third betting round, when that round is due to close.
	Until time.Time `json:"until,omitzero"`

	// fund, set_limit, set_area_limit, set_differential
	Amount baccarat.Money `json:"amount,omitempty"`
	Min    baccarat.Money `json:"min,omitempty"`
	Max    baccarat.Money `json:"max,omitempty"`
	Limit  int            `json:"limit,omitempty"`
}
