package web

import (
	"net/http"
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
)

// published is every code's HTTP status as web/API.md ("Status codes") publishes it. A
// status is part of the API: a code's kind may be renamed, never moved to another status.
var published = map[baccarat.Code]int{
	"bad_request": 400, "bad_card": 400, "unknown_bet": 400, "below_minimum": 400, "above_maximum": 400,
	"bad_coup": 400, "bad_shoe": 400, "need_cards": 400, "invalid_name": 400,
	"unauthenticated": 401, "insufficient_funds": 402,
	"not_authorized": 403, "limit_reached": 403, "excluded": 403, "session_ended": 403,
	"not_found": 404, "unknown_game": 404,
	"betting_closed": 409, "bet_not_offered": 409, "both_sides": 409, "side_bet_needs_main": 409, "area_full": 409,
	"round_full": 409, "table_differential": 409, "odds_changed": 409, "not_withdrawable": 409, "reality_check": 409,
	"extra_card": 409, "card_not_in_shoe": 409, "bad_state": 409, "conflict": 409, "idempotency_conflict": 409,
	"reserved":        409,
	"tournament_full": 409, "registration_closed": 409, "already_registered": 409, "not_registered": 409,
	"not_at_table": 409, "eliminated": 409, "no_rebuys_left": 409, "rebuy_closed": 409, "not_busted": 409,
	"too_large": 413, "rate_limited": 429,
	"busy": 503, "wallet_unavailable": 503, "unavailable": 503, "lease_lost": 503,
	"internal": 500, "integrity": 500,
}

// TestEveryCodeHasItsPublishedStatus: every declared code (the root's and the tournaments')
// answers the status API.md publishes for it, through its kind; every kind has a status; a
// code never declared is a 500.
func TestEveryCodeHasItsPublishedStatus(t *testing.T) {
	codes := baccarat.Codes()
	if !slices.Contains(codes, tournament.CodeTournamentFull) {
		t.Fatal("the tournaments' codes are not declared in the registry")
	}
	for _, code := range codes {
		want, ok := published[code]
		if !ok {
			t.Errorf("code %s (kind %s) is not in API.md's status list: publish it, and add it here", code, code.Kind())
			continue
		}
		if got := StatusOf(code); got != want {
			t.Errorf("code %s answers %d, API.md publishes %d", code, got, want)
		}
	}
	if len(codes) != len(published) {
		t.Errorf("%d codes declared, %d published: a published code is no longer declared", len(codes), len(published))
	}
	for _, k := range baccarat.Kinds() {
		if int(k) >= len(statuses) || statuses[k] == 0 {
			t.Errorf("kind %s has no HTTP status", k)
		}
	}
	if StatusOf("no_such_code") != http.StatusInternalServerError {
		t.Error("a code never declared must answer 500")
	}
}
