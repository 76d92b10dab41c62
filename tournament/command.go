package tournament

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// CommandType names a command.
type CommandType string

// The commands a tournament accepts. Who may send which is the host's and the web layer's
// concern: players register, unregister and rebuy for themselves; the schedule (Next) sends
// the timed ones; the tables' host reports hands.
const (
	CmdOpenRegistration  CommandType = "open_registration"  // at Config.RegistrationOpens
	CmdRegister          CommandType = "register"           // Player pays the entry fee
	CmdUnregister        CommandType = "unregister"         // before the start; the fee is refunded
	CmdCloseRegistration CommandType = "close_registration" // at Config.RegistrationCloses
	CmdStart             CommandType = "start"              // at Config.Start, with the seating Seed
	CmdCancel            CommandType = "cancel"             // before the start; every fee refunded
	CmdStartSession      CommandType = "start_session"      // Table's next session begins
	CmdReportHand        CommandType = "report_hand"        // a hand of Table ended: net chip changes
	CmdEndSession        CommandType = "end_session"        // Table's session ends now (time up)
	CmdRebuy             CommandType = "rebuy"              // Player buys chips again
)

// Command is one instruction to a tournament: one flat struct, each command reading the
// fields it documents. Its JSON form is what a host journals or a script sends.
type Command struct {
	Type CommandType `json:"cmd"`
	// At is when, from the host's clock (the tournament reads none). Timed commands are
	// refused before their configured time.
	At time.Time `json:"at,omitzero"`
	// register, unregister, rebuy
	Player string `json:"player,omitempty"`
	// start: the seed every round's seating is drawn from (the host draws it from
	// crypto/rand; a simulation from its own seed). It is journalled in the started event.
	Seed uint64 `json:"seed,omitempty,string"`
	// start: the house's secret for its bots' draws (house.go); journalled with the seed,
	// shown only once the tournament is over.
	Secret string `json:"secret,omitempty"`
	// register: the entrant is a house bot (house.go), entered by the host; a player's
	// registration never sets it.
	Bot bool `json:"bot,omitempty"`
	// start_session, report_hand, end_session: the table's number in the current round (1…).
	Table int `json:"table,omitempty"`
	// report_hand: the hand's number among this session's reports, voided ones included
	// (1…); 0 takes the next. A number already reported is refused with conflict, so a
	// report sent twice counts once.
	Hand int `json:"hand,omitempty"`
	// report_hand: the hand was voided (no changes; it does not count toward the session).
	Void bool `json:"void,omitempty"`
	// report_hand: each player's net chip change on the hand (won +, lost −); players who
	// did not bet or pushed may be left out. end_session (Dragon tournaments): the
	// settlement of the session's Dragon bets.
	Changes []ChipChange `json:"changes,omitempty"`
	// cancel, end_session: why, for the record.
	Reason string `json:"reason,omitempty"`
	// register, rebuy: the host's reference of the payment that paid for it (the operator's
	// debit, where the operator keeps the money); the tournament journals it in the event
	// and reads it nowhere else.
	Debit string `json:"debit,omitempty"`
}

// ChipChange is one player's net chip result: +won, −lost.
type ChipChange struct {
	Player string         `json:"player"`
	Net    baccarat.Money `json:"net"`
}
