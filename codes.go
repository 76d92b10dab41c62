package baccarat

import (
	"fmt"
	"sync"
)

// Code is a stable error code, the "code" of every error answer: machine-readable, published
// and never changed. Each code is declared once, by the package whose refusal it is, with
// Declare and its Kind; the list of every code (Codes) and the HTTP status of each (web, by
// kind) follow from those declarations, so a new code cannot be forgotten in either.
type Code string

// Kind is what sort of "no" a code is. The kinds are the answers a client acts on
// differently: fix the request, sign in, ask someone else, pay in, look elsewhere, wait for
// the state to change, send less, slow down, retry later, or report it.
type Kind uint8

// The kinds of codes.
const (
	// KindInternal: something failed on the platform's side, or its books fail their own
	// checks. Report it; the request may be retried once the fault is fixed.
	KindInternal Kind = iota
	// KindInvalid: the request itself is wrong (a malformed field, a card that is not a
	// card, a stake outside the table's limits) and will be refused again as sent.
	KindInvalid
	// KindUnauthenticated: no credentials, or ones that no longer work.
	KindUnauthenticated
	// KindForbidden: the caller may not do this: the wrong role, or the player's own limits
	// and exclusions forbid it for now.
	KindForbidden
	// KindFunds: the balance does not cover the stake.
	KindFunds
	// KindNotFound: no such thing (table, game, account, tournament).
	KindNotFound
	// KindConflict: refused in the state things are in (betting closed, a bet on the other
	// side, registration closed) or clashing with an earlier request; it may succeed later
	// or differently.
	KindConflict
	// KindTooLarge: the request's body is over what the endpoint takes.
	KindTooLarge
	// KindRateLimited: too many requests or streams; try later.
	KindRateLimited
	// KindUnavailable: a part the request needs (storage, the operator's wallet, the
	// table's server) cannot be reached or is busy; nothing was done. Retry.
	KindUnavailable
	kinds // the number of kinds
)

var kindNames = [kinds]string{"internal", "invalid", "unauthenticated", "forbidden", "funds", "not_found",
	"conflict", "too_large", "rate_limited", "unavailable"}

func (k Kind) String() string {
	if k < kinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Kinds lists every kind, for the test that web gives each a status.
func Kinds() []Kind {
	out := make([]Kind, kinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// registry holds every declared code with its kind, in the order declared.
var registry struct {
	sync.RWMutex
	kind  map[Code]Kind
	order []Code
}

// Declare declares a code of the given kind and returns it. Packages declare their codes as
// package variables (var CodeTournamentFull = baccarat.Declare("tournament_full",
// baccarat.KindConflict)), so a code exists only with its kind. A name is lower snake case and
// declared once: declaring it again panics at start-up, whatever the kind, since two packages
// answering one code would have to agree on its meaning forever; a package reuses another's
// code by referring to it.
func Declare(name string, kind Kind) Code {
	if !snake(name) || kind >= kinds {
		panic(fmt.Sprintf("baccarat.Declare(%q, %v): want a lower snake case name and a kind", name, kind))
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.kind == nil {
		registry.kind = map[Code]Kind{}
	}
	c := Code(name)
	if _, dup := registry.kind[c]; dup {
		panic(fmt.Sprintf("baccarat.Declare: code %q is declared twice", name))
	}
	registry.kind[c] = kind
	registry.order = append(registry.order, c)
	return c
}

// Kind is the code's kind: KindInternal for a code never declared (a peer's, or none).
func (c Code) Kind() Kind {
	registry.RLock()
	defer registry.RUnlock()
	return registry.kind[c]
}

// Declared reports whether c was declared.
func (c Code) Declared() bool {
	registry.RLock()
	defer registry.RUnlock()
	_, ok := registry.kind[c]
	return ok
}

// Codes lists every declared code in the order declared: this package's first, then those of
// the packages the program links (tournament's, …). For documentation and for the tests that
// every code has a status and a sentence in every language.
func Codes() []Code {
	registry.RLock()
	defer registry.RUnlock()
	return append([]Code(nil), registry.order...)
}

func snake(s string) bool {
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// The platform's own codes. The wager refusals are those of SPEC §4; the rest name the other
// ways a request can be wrong. Other packages declare their own beside these (tournament).
var (
	// Wager refusals (SPEC §4).
	CodeBettingClosed     = Declare("betting_closed", KindConflict)
	CodeUnknownBet        = Declare("unknown_bet", KindInvalid)
	CodeBetNotOffered     = Declare("bet_not_offered", KindConflict)
	CodeBelowMinimum      = Declare("below_minimum", KindInvalid)
	CodeAboveMaximum      = Declare("above_maximum", KindInvalid)
	CodeInsufficientFunds = Declare("insufficient_funds", KindFunds)
	CodeBothSides         = Declare("both_sides", KindConflict)
	CodeSideBetNeedsMain  = Declare("side_bet_needs_main", KindConflict)
	CodeAreaFull          = Declare("area_full", KindConflict)
	CodeRoundFull         = Declare("round_full", KindConflict) // the round holds as many wagers as one round's record may
	CodeTableDifferential = Declare("table_differential", KindConflict)
	CodeOddsChanged       = Declare("odds_changed", KindConflict)
	CodeNotAuthorized     = Declare("not_authorized", KindForbidden)
	CodeNotWithdrawable   = Declare("not_withdrawable", KindConflict) // a withdrawal the game's rules do not allow now

	// Refusals for the player's sake (package responsible): a limit the wager would pass, an
	// exclusion in force, a reality check to answer first, a session that has ended.
	CodeLimitReached = Declare("limit_reached", KindForbidden)
	CodeExcluded     = Declare("excluded", KindForbidden)
	CodeRealityCheck = Declare("reality_check", KindConflict) // answer it, then bet on
	CodeSessionEnded = Declare("session_ended", KindForbidden)

	// Input and state errors.
	CodeBadCard       = Declare("bad_card", KindInvalid)          // a card token that is not a card
	CodeBadCoup       = Declare("bad_coup", KindInvalid)          // coup notation that does not parse or breaks the Table of Play
	CodeNeedCards     = Declare("need_cards", KindInvalid)        // a coup needs more cards than were given
	CodeExtraCard     = Declare("extra_card", KindConflict)       // a card given when none is due
	CodeBadShoe       = Declare("bad_shoe", KindInvalid)          // an impossible shoe composition or deck count
	CodeCardNotInShoe = Declare("card_not_in_shoe", KindConflict) // the shoe holds no more of that card
	CodeUnknownGame   = Declare("unknown_game", KindNotFound)
	CodeBadRequest    = Declare("bad_request", KindInvalid)
	CodeInvalidName   = Declare("invalid_name", KindInvalid) // a display name a player chose that is refused (access.CheckName)
	CodeBadState      = Declare("bad_state", KindConflict)   // a command not allowed in the table's current phase
	CodeNotFound      = Declare("not_found", KindNotFound)
	CodeConflict      = Declare("conflict", KindConflict)
	// CodeIdempotencyConflict: a request id already used for a different request.
	CodeIdempotencyConflict = Declare("idempotency_conflict", KindConflict)
	// CodeReserved: a name or currency that belongs to something else (a tournament's
	// session tables and chips, the house's bots) and that no one else may take.
	CodeReserved        = Declare("reserved", KindConflict)
	CodeTooLarge        = Declare("too_large", KindTooLarge)              // a request body over the size the endpoint takes
	CodeUnauthenticated = Declare("unauthenticated", KindUnauthenticated) // no token, or one that no longer works
	CodeRateLimited     = Declare("rate_limited", KindRateLimited)        // too many requests or streams: try later
	CodeBusy            = Declare("busy", KindUnavailable)
	// CodeUnavailable: the storage (or another part the request needs) cannot be reached
	// now; nothing was done. Retry after the Retry-After the answer carries.
	CodeUnavailable = Declare("unavailable", KindUnavailable)
	// CodeLeaseLost: the server that ran the table lost its lease to another (it was paused
	// or cut off): nothing was written. The table goes on at its new server; retry.
	CodeLeaseLost = Declare("lease_lost", KindUnavailable)
	// CodeWalletUnavailable: the operator's wallet did not take a stake (no answer, or it
	// was given back): nothing was taken, and the wager was not placed.
	CodeWalletUnavailable = Declare("wallet_unavailable", KindUnavailable)
	CodeIntegrity         = Declare("integrity", KindInternal) // the books or a journal fail their own checks: evidence, not a refusal
	CodeInternal          = Declare("internal", KindInternal)
)
