package baccarat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Error is the platform's one error type: a stable machine-readable Code and a Message for
// people. Codes never change once published; web maps them to HTTP statuses in one place.
// Params are what a refusal names (the maximum, the stake, the bet), so that a page can say
// it in its reader's language with the amounts formatted there: the English Message names
// them too, but a page cannot take words apart. Which code carries which params is in
// web/API.md, "Errors".
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Params  Params `json:"params,omitempty"`
}

// Params are a refusal's particulars, each a JSON string or integer: amounts are integer
// minor units (Money) beside a "currency" param that says whose, never formatted text;
// bets are ids ("banker"); times are RFC 3339. A page formats them for its language.
type Params map[string]any

// Money says whose minor units the params' amounts are: the currency, and its decimals
// (minor_units) so that a page shows 1.001 BHD or ¥101 without a table of its own.
func (p Params) Money(currency string) Params {
	p["currency"] = currency
	p["minor_units"] = MinorUnits(currency)
	return p
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Refuse is Errorf with the params the refusal names. It is built only when a request is
// refused, so the map costs nothing on the way a request is taken.
func Refuse(code string, params Params, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Params: params}
}

// UnmarshalJSON reads an error as another server sent it (cluster answers): its integer
// params stay exact (json.Number, an int64 when they fit), not float64s that would round
// an amount past 2^53 and write it back in exponent form.
func (e *Error) UnmarshalJSON(b []byte) error {
	var raw struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Params  map[string]any `json:"params"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	*e = Error{Code: raw.Code, Message: raw.Message}
	if len(raw.Params) > 0 {
		e.Params = make(Params, len(raw.Params))
		for k, v := range raw.Params {
			if n, ok := v.(json.Number); ok {
				if i, err := n.Int64(); err == nil {
					v = i
				}
			}
			e.Params[k] = v
		}
	}
	return nil
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

// Stable error codes: every code the platform answers with is here, once, and in Codes.
// The wager refusals are those of SPEC §4; the rest name the other ways a request can be
// wrong. web maps each to an HTTP status in one place (a code it does not know is a 500).
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
	CodeRoundFull         = "round_full" // the round holds as many wagers as one round's record may
	CodeTableDifferential = "table_differential"
	CodeOddsChanged       = "odds_changed"
	CodeNotAuthorized     = "not_authorized"
	CodeNotWithdrawable   = "not_withdrawable" // a withdrawal the game's rules do not allow now

	// Refusals for the player's sake (package responsible): a limit the wager would pass, an
	// exclusion in force, a reality check to answer first, a session that has ended.
	CodeLimitReached = "limit_reached"
	CodeExcluded     = "excluded"
	CodeRealityCheck = "reality_check"
	CodeSessionEnded = "session_ended"

	// Input and state errors.
	CodeBadCard       = "bad_card"   // a card token that is not a card
	CodeBadCoup       = "bad_coup"   // coup notation that does not parse or breaks the Table of Play
	CodeNeedCards     = "need_cards" // a coup needs more cards than were given
	CodeExtraCard     = "extra_card" // a card given when none is due
	CodeBadShoe       = "bad_shoe"   // an impossible shoe composition or deck count
	CodeCardNotInShoe = "card_not_in_shoe"
	CodeUnknownGame   = "unknown_game"
	CodeBadRequest    = "bad_request"
	CodeInvalidName   = "invalid_name" // a display name a player chose that is refused (access.CheckName)
	CodeBadState      = "bad_state"    // a command not allowed in the table's current phase
	CodeNotFound      = "not_found"
	CodeConflict      = "conflict"
	// CodeIdempotencyConflict: a request id already used for a different request.
	CodeIdempotencyConflict = "idempotency_conflict"
	// CodeReserved: a name or currency that belongs to something else (a tournament's
	// session tables and chips, the house's bots) and that no one else may take.
	CodeReserved        = "reserved"
	CodeTooLarge        = "too_large"       // a request body over the size the endpoint takes
	CodeUnauthenticated = "unauthenticated" // no token, or one that no longer works
	CodeRateLimited     = "rate_limited"    // too many requests or streams: try later
	CodeBusy            = "busy"
	// CodeUnavailable: the storage (or another part the request needs) cannot be reached
	// now; nothing was done. Retry after the Retry-After the answer carries.
	CodeUnavailable = "unavailable"
	// CodeLeaseLost: the server that ran the table lost its lease to another (it was paused
	// or cut off): nothing was written. The table goes on at its new server; retry.
	CodeLeaseLost = "lease_lost"
	// CodeWalletUnavailable: the operator's wallet did not take a stake (no answer, or it
	// was given back): nothing was taken, and the wager was not placed.
	CodeWalletUnavailable = "wallet_unavailable"
	CodeIntegrity         = "integrity" // the books or a journal fail their own checks: evidence, not a refusal
	CodeInternal          = "internal"
)

// Codes lists every error code, for documentation and for the test that each has an HTTP
// status.
func Codes() []string {
	return []string{CodeBettingClosed, CodeUnknownBet, CodeBetNotOffered, CodeBelowMinimum, CodeAboveMaximum,
		CodeInsufficientFunds, CodeBothSides, CodeSideBetNeedsMain, CodeAreaFull, CodeRoundFull, CodeTableDifferential, CodeOddsChanged,
		CodeNotAuthorized, CodeNotWithdrawable, CodeLimitReached, CodeExcluded, CodeRealityCheck, CodeSessionEnded, CodeBadCard, CodeBadCoup, CodeNeedCards, CodeExtraCard, CodeBadShoe,
		CodeCardNotInShoe, CodeUnknownGame, CodeBadRequest, CodeInvalidName, CodeBadState, CodeNotFound, CodeConflict,
		CodeIdempotencyConflict, CodeReserved, CodeTooLarge, CodeUnauthenticated, CodeRateLimited, CodeBusy, CodeUnavailable, CodeLeaseLost, CodeWalletUnavailable, CodeIntegrity, CodeInternal}
}
