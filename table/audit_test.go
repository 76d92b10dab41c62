package table

import (
	"strings"
	"testing"
)

func TestAuditAgreesWithTheTable(t *testing.T) {
	x := newTB(t, Config{Game: "rws-no-commission"}, "ann", "bob")
	x.ok(Command{Type: CmdOpen})
	x.place("ann", "banker", 1005)
	x.place("bob", "player", 700)
	x.place("bob", "tie", 100)
	x.ok(Command{Type: CmdClose})
	x.cards("7h Kd 2c 9s") // a tie: the main wagers ride (RWS 3.9)
	x.ok(Command{Type: CmdOpen})
	x.ok(Command{Type: CmdClose})
	x.cards("2h 3d 3c 3s 9d") // Banker wins on six
	rep, err := Audit(x.Config(), x.history)
	if err != nil || len(rep.Problems) != 0 || rep.Rounds != 2 || rep.Wagers != 5 {
		t.Fatalf("audit: %+v %v", rep, err)
	}
}

func TestAuditFindsATamperedSettlement(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tiger"}, "ann")
	x.ok(Command{Type: CmdOpen})
	x.place("ann", "tiger", 100)
	x.ok(Command{Type: CmdClose})
	x.cards("2h 3d 3c 3s 9d")
	h := x.history
	for i := range h {
		if h[i].Type == EvRoundSettled {
			h[i].Settlements[0].Net = 2000 // a three-card payout on a two-card six
		}
	}
	rep, _ := Audit(x.Config(), h)
	if len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "wager 1") {
		t.Fatalf("audit missed the tampering: %+v", rep)
	}
}
