package table

import "github.com/tablehouse/baccarat"

// enum is the text form of a small integer type: its names, indexed by value. Every value
// with a meaning has a type of its own that writes and reads its name, so that what
// crosses a package or a wire is never a bare string compared in several places.
type enum []string

func (e enum) name(v uint8) string {
	if int(v) < len(e) {
		return e[v]
	}
	return "?"
}

func (e enum) parse(what string, b []byte) (uint8, error) {
	for i, n := range e {
		if n == string(b) && n != "" {
			return uint8(i), nil
		}
	}
	return 0, baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a %s", b, what)
}

// Phase is where a round stands (SPEC §4).
type Phase uint8

// The phases. Idle is before the first round of a table.
const (
	PhaseIdle Phase = iota
	PhaseBetting
	PhaseClosed
	PhaseDealing
	PhaseSettled
	PhaseVoid
)

var phaseNames = enum{"idle", "betting", "closed", "dealing", "settled", "void"}

func (p Phase) String() string { return phaseNames.name(uint8(p)) }

// MarshalText writes the phase's name.
func (p Phase) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a phase's name.
func (p *Phase) UnmarshalText(b []byte) error {
	v, err := phaseNames.parse("phase", b)
	*p = Phase(v)
	return err
}

// Role is what an actor may do at a table.
type Role uint8

// The roles. The web layer maps bearer tokens to them; the table decides what each may do.
// RoleNone in a command means the command's natural role (replay scripts).
const (
	RoleNone   Role = iota
	RolePlayer      // wagers for themselves
	RoleDealer      // deals a dealer table; places for players at a seat (Tiger 3.7)
	RolePit         // pit supervisor or manager: limits, voids, sessions
	RoleSystem      // the host itself: automatic tables, recovery
)

var roleNames = enum{"", "player", "dealer", "pit", "system"}

func (r Role) String() string { return roleNames.name(uint8(r)) }

// MarshalText writes the role's name.
func (r Role) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a role's name ("" is RoleNone).
func (r *Role) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*r = RoleNone
		return nil
	}
	v, err := roleNames.parse("role (player, dealer, pit, system)", b)
	*r = Role(v)
	return err
}

// EventType names an event.
type EventType uint8

// The events of a table's history. EvFunded is read from journals written before the table
// stopped keeping balances; it changes nothing. The pit's pause, reopening and closing of a
// table (pause.go), then a wager raised by a chip and lowered by one taken back, came last, so
// every earlier value, and the journal's names, stay as they were.
const (
	EvNone EventType = iota
	EvShoeStarted
	EvShoeEnded
	EvBettingOpened
	EvBettingClosed
	EvWagerPlaced
	EvWagerWithdrawn
	EvCardDealt
	EvCardsCorrected
	EvSimultaneous
	EvInterrupted
	EvResumed
	EvDeviceReset
	EvRoundSettled
	EvRoundVoided
	EvSessionSettled
	EvFunded
	EvLimitChanged
	EvCutCard
	EvSqueezeStarted
	EvSqueezeEnded
	EvTablePaused
	EvTableReopened
	EvTableClosed
	EvWagerRaised  // a chip added to a wager of the betting round still open (place.go)
	EvWagerLowered // a chip taken back from one (withdraw)
	EvShoePassed   // Method C: the dealing device passed to a player, or to nobody (methodc.go)
)

var eventNames = enum{"", "shoe_started", "shoe_ended", "betting_opened", "betting_closed", "wager_placed",
	"wager_withdrawn", "card_dealt", "cards_corrected", "simultaneous_draw", "interrupted", "resumed", "device_reset",
	"round_settled", "round_voided", "session_settled", "funded", "limit_changed", "cut_card", "squeeze_started",
	"squeeze_ended", "table_paused", "table_reopened", "table_closed", "wager_raised", "wager_lowered",
	"shoe_passed"}

func (t EventType) String() string { return eventNames.name(uint8(t)) }

// MarshalText writes the event type's name.
func (t EventType) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads an event type's name.
func (t *EventType) UnmarshalText(b []byte) error {
	v, err := eventNames.parse("table event", b)
	*t = EventType(v)
	return err
}

// Setting names what a limit_changed event changed.
type Setting uint8

// The settings the pit changes.
const (
	SettingNone         Setting = iota
	SettingBetLimit             // a bet's minimum and maximum
	SettingAreaLimit            // wagers per playing area (Tiger 3.6.1)
	SettingDifferential         // the table differential (Tiger 5.18)
)

var settingNames = enum{"", "bet_limit", "area_limit", "differential"}

func (s Setting) String() string { return settingNames.name(uint8(s)) }

// MarshalText writes the setting's name.
func (s Setting) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a setting's name.
func (s *Setting) UnmarshalText(b []byte) error {
	v, err := settingNames.parse("setting", b)
	*s = Setting(v)
	return err
}

// VoidReasons are the reasons a round may be voided (SPEC §4).
var VoidReasons = []string{"foreign_card", "wrong_card_count", "order_unrecoverable", "simultaneous_draw",
	"insufficient_cards", "device_reset", "scanner_mismatch", "technical_failure", "dealer_error"}
