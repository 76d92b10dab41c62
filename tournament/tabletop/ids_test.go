package tabletop_test

import (
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// TestTheIDsMadeFromATournamentIDFit: the longest tournament id the runtime takes makes a
// journal id and session table ids that are outside ids (baccarat.ValidID, at most
// baccarat.MaxIDLen), even at the largest round, table and session a tournament can have,
// and the next longer id is refused.
func TestTheIDsMadeFromATournamentIDFit(t *testing.T) {
	const maxRounds, maxSessions = 20, 100 // the tournament package's bounds (config.go)
	longest := strings.Repeat("a", tabletop.MaxIDLen)
	if err := tabletop.CheckID(longest); err != nil {
		t.Fatalf("a tournament id of %d characters: %v", tabletop.MaxIDLen, err)
	}
	if err := tabletop.CheckID(longest + "a"); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Fatalf("a tournament id of %d characters: %v, want bad_request", tabletop.MaxIDLen+1, err)
	}
	for _, c := range []struct{ name, id string }{
		{"the journal of a tournament is an id", tabletop.Stream(longest)},
		{"the table of the last session of the last round's last table is an id",
			tabletop.TableID(longest, maxRounds, tournament.MaxEntrantsLimit/2, maxSessions)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !baccarat.ValidID(c.id) {
				t.Errorf("%q (%d characters) is not an id of at most %d", c.id, len(c.id), baccarat.MaxIDLen)
			}
		})
	}
}
