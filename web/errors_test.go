package web

import (
	"net/http"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
)

// TestEveryCodeHasAStatus: every code the platform answers with has its HTTP status in the
// one map; only internal failures are 500, and a code nobody classified is 500 too.
func TestEveryCodeHasAStatus(t *testing.T) {
	codes := append(baccarat.Codes(), tournament.Codes...) // tournaments.go adds the tournaments' own
	for _, code := range codes {
		_, ok := statuses[code]
		if !ok {
			t.Errorf("code %s has no HTTP status", code)
		}
		if s := StatusOf(code); s == http.StatusInternalServerError && code != baccarat.CodeInternal && code != baccarat.CodeIntegrity {
			t.Errorf("code %s answers 500", code)
		}
	}
	if len(statuses) != len(codes) {
		t.Errorf("the status map has %d codes, baccarat.Codes and tournament.Codes %d: a code is missing from the list", len(statuses), len(codes))
	}
	if StatusOf("no_such_code") != http.StatusInternalServerError {
		t.Error("an unknown code must answer 500")
	}
}
