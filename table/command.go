package table

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// Command is one instruction to a table: one of the types below, each carrying only what
// its command needs. A host builds them from what a caller's role may send (web decodes a
// player's wager into a Place and nothing else), a replay script decodes them by name.
type Command interface {
	// Kind names the command.
	Kind() CommandType
	// Head is who sent it, in which role, when and why.
	Head() *Header
}

// Header is what every command carries: who, in which role, when and why.
type Header struct {
	Actor string    `json:"actor,omitempty"` // a player id, a dealer's or pit's name, "system"
	Role  Role      `json:"role,omitempty"`  // RoleNone means the natural role of the command
	At    time.Time `json:"at,omitzero"`     // from the host's clock (the table reads none)
	// Reason: why a dealer or pit action was taken (void, correction, limit change...).
	Reason string `json:"reason,omitempty"`
}

// Head is the command's header, for the host to stamp (At) and the table to read.
func (h *Header) Head() *Header { return h }

// CommandType names a command.
type CommandType uint8

// The commands a table accepts. Their names are the replay script format (README).
const (
	CmdNone            CommandType = iota
	CmdNewShoe                     // start a shoe: RNG (order given) or live
	CmdEndShoe                     // end the shoe after this round (cut card seen)
	CmdOpen                        // "Place your bets"
	CmdClose                       // "No more bets"
	CmdPlace                       // place a wager
	CmdWithdraw                    // withdraw a wager (where the rules allow)
	CmdDeal                        // deal the next card of an RNG shoe
	CmdCard                        // a card from a dealer's card-reading shoe
	CmdCorrect                     // re-enter the coup's cards in their right order
	CmdSimultaneous                // two or more cards came out together
	CmdInterrupt                   // power failure, crash, device fault
	CmdResume                      // end an interruption or a withdrawal window
	CmdDeviceReset                 // the dealing device was reset (Tiger 5.9)
	CmdVoid                        // void the round, with a reason
	CmdEndSession                  // end a Dragon session now (timed sessions)
	CmdSetLimit                    // a bet's minimum and maximum
	CmdSetAreaLimit                // wagers per playing area (Tiger 3.6.1)
	CmdSetDifferential             // the table differential (Tiger 5.18)
	CmdReveal                      // end a hand's squeeze: its cards are shown to all
	CmdPeel                        // the squeezer lifts a card's corner (not journalled)
	CmdPause                       // the pit stops the table after the round under way
	CmdReopen                      // the pit lifts a pause
	CmdCloseTable                  // the pit closes a paused table for good
	CmdDraw                        // Method C: the player holding the shoe draws the next card
	CmdGiveUpShoe                  // Method C: the holder gives the shoe up (Tiger 3.11.8.1)
	CmdHandShoe                    // Method C: the pit hands the shoe to a player
	commandCount
)

var commandNames = enum{"", "new_shoe", "end_shoe", "open", "close", "place", "withdraw", "deal", "card", "correct",
	"simultaneous_draw", "interrupt", "resume", "device_reset", "void", "end_session", "set_limit", "set_area_limit",
	"set_differential", "reveal", "peel", "pause", "reopen", "close_table", "draw", "give_up_shoe", "hand_shoe"}

func (c CommandType) String() string { return commandNames.name(uint8(c)) }

// MarshalText writes the command's name.
func (c CommandType) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a command's name.
func (c *CommandType) UnmarshalText(b []byte) error {
	v, err := commandNames.parse("table command", b)
	*c = CommandType(v)
	return err
}

// NewShoe starts a shoe. With Order it is an RNG shoe the table deals from (its order and
// salt stay secret; the commitment is published, SPEC §2); without, cards come from a
// dealer's shoe and the table knows only its composition.
type NewShoe struct {
	Header
	Decks      int                  `json:"decks,omitempty"`
	Order      []baccarat.Card      `json:"order,omitempty"`
	Salt       string               `json:"salt,omitempty"` // hex
	CutCard    int                  `json:"cut_card,omitempty"`
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`
}

// EndShoe ends the shoe: now between rounds, or after the round (the cut card came out).
type EndShoe struct{ Header }

// Open is "Place your bets" (MBS 3.1). Until is when betting is due to close, for
// countdowns.
type Open struct {
	Header
	Until time.Time `json:"until,omitzero"`
}

// Close is "No more bets" (MBS 3.2); it also closes Bet on Baccarat's later betting rounds.
type Close struct{ Header }

// Place places a wager. Available is the player's money available now (their wallet), the
// one record of what they may stake. A host prepares a Place (Table.Prepare) so the table
// need not look its names up.
type Place struct {
	Header
	Player    string         `json:"player,omitempty"`
	Seat      string         `json:"seat,omitempty"` // the playing area's seat; default the player's own
	Bet       string         `json:"bet,omitempty"`
	Stake     baccarat.Money `json:"stake,omitempty"`
	Odds      baccarat.Odds  `json:"odds,omitempty"`       // Bet on Baccarat: the odds the player saw
	RequestID string         `json:"request_id,omitempty"` // the same id twice places one wager
	Available baccarat.Money `json:"available,omitempty"`

	prep prepared // set by Table.Prepare
}

// Withdraw takes wagers back where the rules allow (Wager 0: all that may be withdrawn).
// Stake, with Wager, takes only that much back from that wager (a chip undone): what stays
// is still a wager within the bet's limits; a Stake of the wager's whole total withdraws it.
type Withdraw struct {
	Header
	Player string         `json:"player,omitempty"`
	Wager  uint64         `json:"wager,omitempty"`
	Stake  baccarat.Money `json:"stake,omitempty"`
}

// Deal deals the next card of an RNG shoe. Until: if the card opens a Bet on Baccarat
// betting round, when that round is due to close.
type Deal struct {
	Header
	Until time.Time `json:"until,omitzero"`
}

// Card is a card from a dealer's card-reading shoe; Cut says the cut card came out before
// it.
type Card struct {
	Header
	Card  *baccarat.Card `json:"card"`
	Cut   bool           `json:"cut,omitempty"`
	Until time.Time      `json:"until,omitzero"`
}

// Correct re-enters the coup's cards in their right order (Tiger 5.7).
type Correct struct {
	Header
	Cards []baccarat.Card `json:"cards"`
}

// Simultaneous records two or more cards drawn together (Tiger 5.8, MBS 5.3); Known says
// their order is known.
type Simultaneous struct {
	Header
	Cards []baccarat.Card `json:"cards"`
	Known bool            `json:"known,omitempty"`
}

// Interrupt records a power failure, crash or device fault (Tiger 5.17).
type Interrupt struct{ Header }

// Resume ends an interruption or a withdrawal window. After a simultaneous draw, Cards is
// the order to deal them in; after an interruption during betting, Until is the fresh
// betting window's end.
type Resume struct {
	Header
	Cards []baccarat.Card `json:"cards,omitempty"`
	Until time.Time       `json:"until,omitzero"`
}

// DeviceReset: the dealing device was reset after "No more bets" (Tiger 5.9).
type DeviceReset struct{ Header }

// Void voids the round; Header.Reason is one of VoidReasons.
type Void struct{ Header }

// EndSession ends a Dragon session now and settles its Dragon bets.
type EndSession struct{ Header }

// SetLimit sets a bet's minimum and maximum (the pit).
type SetLimit struct {
	Header
	Bet string         `json:"bet"`
	Min baccarat.Money `json:"min,omitempty"`
	Max baccarat.Money `json:"max,omitempty"`
}

// SetAreaLimit restricts the wagers per playing area (Tiger 3.6.1).
type SetAreaLimit struct {
	Header
	Limit int `json:"limit"`
}

// SetDifferential sets the table differential limit (Tiger 5.18); 0 removes it.
type SetDifferential struct {
	Header
	Amount baccarat.Money `json:"amount"`
}

// Pause stops the table between rounds (the pit): a round under way goes on to its end, and
// no round opens until Reopen. Header.Reason says why.
type Pause struct{ Header }

// Reopen lifts a pause: the table opens rounds again.
type Reopen struct{ Header }

// CloseTable closes a paused table with nothing in play, for good: it takes no command after.
// Header.Reason says why.
type CloseTable struct{ Header }

// Kind is the command's name.
func (*NewShoe) Kind() CommandType         { return CmdNewShoe }
func (*EndShoe) Kind() CommandType         { return CmdEndShoe }
func (*Open) Kind() CommandType            { return CmdOpen }
func (*Close) Kind() CommandType           { return CmdClose }
func (*Place) Kind() CommandType           { return CmdPlace }
func (*Withdraw) Kind() CommandType        { return CmdWithdraw }
func (*Deal) Kind() CommandType            { return CmdDeal }
func (*Card) Kind() CommandType            { return CmdCard }
func (*Correct) Kind() CommandType         { return CmdCorrect }
func (*Simultaneous) Kind() CommandType    { return CmdSimultaneous }
func (*Interrupt) Kind() CommandType       { return CmdInterrupt }
func (*Resume) Kind() CommandType          { return CmdResume }
func (*DeviceReset) Kind() CommandType     { return CmdDeviceReset }
func (*Void) Kind() CommandType            { return CmdVoid }
func (*EndSession) Kind() CommandType      { return CmdEndSession }
func (*SetLimit) Kind() CommandType        { return CmdSetLimit }
func (*SetAreaLimit) Kind() CommandType    { return CmdSetAreaLimit }
func (*SetDifferential) Kind() CommandType { return CmdSetDifferential }
func (*Pause) Kind() CommandType           { return CmdPause }
func (*Reopen) Kind() CommandType          { return CmdReopen }
func (*CloseTable) Kind() CommandType      { return CmdCloseTable }

// NewCommand returns an empty command of a kind, for decoders (replay scripts).
func NewCommand(kind CommandType) Command {
	switch kind {
	case CmdNewShoe:
		return &NewShoe{}
	case CmdEndShoe:
		return &EndShoe{}
	case CmdOpen:
		return &Open{}
	case CmdClose:
		return &Close{}
	case CmdPlace:
		return &Place{}
	case CmdWithdraw:
		return &Withdraw{}
	case CmdDeal:
		return &Deal{}
	case CmdCard:
		return &Card{}
	case CmdCorrect:
		return &Correct{}
	case CmdSimultaneous:
		return &Simultaneous{}
	case CmdInterrupt:
		return &Interrupt{}
	case CmdResume:
		return &Resume{}
	case CmdDeviceReset:
		return &DeviceReset{}
	case CmdVoid:
		return &Void{}
	case CmdEndSession:
		return &EndSession{}
	case CmdSetLimit:
		return &SetLimit{}
	case CmdSetAreaLimit:
		return &SetAreaLimit{}
	case CmdSetDifferential:
		return &SetDifferential{}
	case CmdReveal:
		return &Reveal{}
	case CmdPeel:
		return &Peel{}
	case CmdPause:
		return &Pause{}
	case CmdReopen:
		return &Reopen{}
	case CmdCloseTable:
		return &CloseTable{}
	case CmdDraw:
		return &Draw{}
	case CmdGiveUpShoe:
		return &GiveUpShoe{}
	case CmdHandShoe:
		return &HandShoe{}
	}
	return nil
}
