package tournament

import (
	"strings"
	"testing"
)

// TestTournamentGamesAreTheThreeTournamentDocuments (SPEC §5): tournaments are played in MBS
// Baccarat Tournament, RWS Non-Commission and MBS Dragon, the games whose rules say so.
func TestTournamentGamesAreTheThreeTournamentDocuments(t *testing.T) {
	if got := strings.Join(Games, ","); got != "mbs-tournament,rws-no-commission,mbs-dragon" {
		t.Errorf("tournament games %q", got)
	}
}
