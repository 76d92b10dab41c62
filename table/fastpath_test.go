package table

import (
	"testing"

	"github.com/tablehouse/baccarat"
)

// The hot path of a wager takes shortcuts; each is compared here with the general path it
// stands for, over every combination that matters.

// TestAuthorizePlaceIsAuthorize: the wager's shortcut through authorization answers as
// authorize does, at dealer and automatic tables, for every role, actor and player.
func TestAuthorizePlaceIsAuthorize(t *testing.T) {
	for _, mode := range []Mode{ModeDealer, ModeAuto} {
		tab, err := New(Config{Game: "mbs-tournament", Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		for role := RoleNone; role <= RoleSystem+1; role++ {
			for _, actor := range []string{"", "ann", "bob"} {
				for _, player := range []string{"", "ann"} {
					c := &Place{Header: Header{Role: role, Actor: actor}, Player: player}
					r1, a1, e1 := tab.authorizePlace(c)
					r2, a2, e2 := tab.authorize(CmdPlace, &c.Header, c.Player)
					if r1 != r2 || a1 != a2 || baccarat.ErrorCode(e1) != baccarat.ErrorCode(e2) {
						t.Errorf("%s table, role %d, actor %q, player %q: shortcut (%v %q %v), authorize (%v %q %v)",
							mode, role, actor, player, r1, a1, e1, r2, a2, e2)
					}
				}
			}
		}
	}
}
