package live

import (
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
)

// TestAPlayersTournamentCommandIsARegistrationAWithdrawalOrARebuy: the tournament's inbox
// takes a player's command (to apply or to price) only of the three kinds a player sends,
// for a valid player id; a cancellation comes only as an admin's (tourneyCancel).
func TestAPlayersTournamentCommandIsARegistrationAWithdrawalOrARebuy(t *testing.T) {
	for _, tc := range []struct {
		cmd  tournament.Command
		want baccarat.Code
	}{
		{tournament.Command{Type: tournament.CmdRegister, Player: "alice"}, ""},
		{tournament.Command{Type: tournament.CmdUnregister, Player: "alice"}, ""},
		{tournament.Command{Type: tournament.CmdRebuy, Player: "alice"}, ""},
		{tournament.Command{Type: tournament.CmdCancel, Player: "alice", Reason: "mine"}, baccarat.CodeBadRequest},
		{tournament.Command{Type: tournament.CmdStart}, baccarat.CodeBadRequest},
		{tournament.Command{Type: tournament.CmdRegister, Player: "not an id"}, baccarat.CodeBadRequest},
	} {
		err := playerCommand(tc.cmd)
		if got := baccarat.ErrorCode(err); got != tc.want {
			t.Errorf("%s by %q: code %q (%v), want %q", tc.cmd.Type, tc.cmd.Player, got, err, tc.want)
		}
	}
}
