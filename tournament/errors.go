package tournament

import "github.com/tablehouse/baccarat"

// Stable error codes of tournament refusals, beside the platform's own (baccarat.Code*:
// bad_request, bad_state, not_found, conflict, unknown_game, insufficient_funds,
// above_maximum are reused where they fit). Codes never change once published. Each is a
// refusal in the state the tournament is in (baccarat.KindConflict), which web answers 409.
var (
	// CodeTournamentFull: registration refused, the tournament has its maximum entrants.
	CodeTournamentFull = baccarat.Declare("tournament_full", baccarat.KindConflict)
	// CodeRegistrationClosed: registration is not open (not yet, or no longer).
	CodeRegistrationClosed = baccarat.Declare("registration_closed", baccarat.KindConflict)
	// CodeAlreadyRegistered: the player is already registered.
	CodeAlreadyRegistered = baccarat.Declare("already_registered", baccarat.KindConflict)
	// CodeNotRegistered: the player is not registered (or not playing this round).
	CodeNotRegistered = baccarat.Declare("not_registered", baccarat.KindConflict)
	// CodeNotAtTable: a hand report names a player who is not seated at that table.
	CodeNotAtTable = baccarat.Declare("not_at_table", baccarat.KindConflict)
	// CodeEliminated: the player is out of the tournament.
	CodeEliminated = baccarat.Declare("eliminated", baccarat.KindConflict)
	// CodeNoRebuysLeft: the tournament has no rebuys, or the player has used them all.
	CodeNoRebuysLeft = baccarat.Declare("no_rebuys_left", baccarat.KindConflict)
	// CodeRebuyClosed: the rebuy window has closed.
	CodeRebuyClosed = baccarat.Declare("rebuy_closed", baccarat.KindConflict)
	// CodeNotBusted: a rebuy asked while the player can still make the minimum stake.
	CodeNotBusted = baccarat.Declare("not_busted", baccarat.KindConflict)
)

func refuse(code baccarat.Code, format string, args ...any) error {
	return baccarat.Errorf(code, format, args...)
}

// refuseWith is refuse with what the refusal names (a time, a count, chips), for a page to
// say it in its reader's language (web/API.md, "Errors"). Chips are whole numbers, not money.
func refuseWith(code baccarat.Code, p params, format string, args ...any) error {
	return baccarat.Refuse(code, p, format, args...)
}

type params = baccarat.Params

func badRequest(format string, args ...any) error {
	return baccarat.Errorf(baccarat.CodeBadRequest, format, args...)
}

// badRange refuses a setting outside its range (README, "Settings and their ranges"): a
// bad_request like any, which a tournament's history is not held to (Replay), so a
// tournament journalled before a range was set or narrowed still recovers.
func badRange(format string, args ...any) error {
	return rangeError{baccarat.Errorf(baccarat.CodeBadRequest, format, args...)}
}

type rangeError struct{ err *baccarat.Error }

func (e rangeError) Error() string { return e.err.Error() }
func (e rangeError) Unwrap() error { return e.err }

func isRange(err error) bool {
	_, ok := err.(rangeError)
	return ok
}

func badState(format string, args ...any) error {
	return baccarat.Errorf(baccarat.CodeBadState, format, args...)
}
