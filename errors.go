package baccarat

import (
	"errors"
	"fmt"
)

// Error is the platform's one error type: a stable machine-readable Code and a Message for
// people. Codes never change once published; web maps them to HTTP statuses in one place.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, "internal" otherwise and
// "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// Stable error codes. The wager refusals are those of SPEC §4; the rest name the other ways
// outside input can be wrong.
const (
	// Wager refusals (SPEC §4).
	CodeBettingClosed     = "betting_closed"
	CodeUnknownBet        = "unknown_bet"
	CodeBetNotOffered     = "bet_not_offered"
	CodeBelowMinimum      = "below_minimum"
	CodeAboveMaximum      = "above_maximum"
	CodeInsufficientFunds = "insufficient_funds"
	CodeBothSides         = "both_sides"
	CodeSideBetNeedsMain  = "side_bet_needs_main"
	CodeAreaFull          = "area_full"
	CodeTableDifferential = "table_differential"
	CodeOddsChanged       = "odds_changed"
	CodeNotAuthorized     = "not_authorized"

	// Input and state errors.
	CodeBadCard       = "bad_card"   // a card token that is not a card
	CodeBadCoup       = "bad_coup"   // coup notation that does not parse or breaks the Table of Play
	CodeNeedCards     = "need_cards" // a coup needs more cards than were given
	CodeExtraCard     = "extra_card" // a card given when none is due
	CodeBadShoe       = "bad_shoe"   // an impossible shoe composition or deck count
	CodeCardNotInShoe = "card_not_in_shoe"
	CodeUnknownGame   = "unknown_game"
	CodeBadRequest    = "bad_request"
	CodeBadState      = "bad_state" // a command not allowed in the table's current phase
	CodeNotFound      = "not_found"
	CodeConflict      = "conflict"
	// CodeIdempotencyConflict: a request id already used for a different request.
	CodeIdempotencyConflict = "idempotency_conflict"
	CodeTooLarge            = "too_large" // a request body over the size the endpoint takes
	CodeBusy                = "busy"
	CodeInternal            = "internal"
)
