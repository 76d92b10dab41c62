package tournament

import (
	"testing"
	"time"
)

func TestChargeIsWhatApplyWouldTakeAndChangesNothing(t *testing.T) {
	at := t0.Add(time.Minute)
	t.Run("a registration costs the entry fee, named by the entry it would be", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann")
		before := stateJSON(t, tr)
		ch, err := tr.Charge(&Command{Type: CmdRegister, Player: "bob", At: at})
		if err != nil || ch.Amount != 1000 || ch.Ref != "entry/2" {
			t.Fatalf("bob's charge %+v, %v", ch, err)
		}
		if stateJSON(t, tr) != before || tr.Seq() != 2 {
			t.Fatal("Charge changed the tournament")
		}
	})
	t.Run("a registration Apply would refuse is refused with its code, unpriced", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann")
		ch, err := tr.Charge(&Command{Type: CmdRegister, Player: "ann", At: at})
		wantCode(t, err, CodeAlreadyRegistered)
		if ch.Amount != 0 {
			t.Fatalf("a refused registration is priced %d", ch.Amount)
		}
	})
	t.Run("entry numbers are never reused, nor are the refs of a player's registrations", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann")
		mustApply(t, tr, Command{Type: CmdUnregister, Player: "ann"})
		ch, _ := tr.Charge(&Command{Type: CmdRegister, Player: "ann", At: at})
		if ch.Ref != "entry/2" {
			t.Fatalf("ann's second registration is named %q", ch.Ref)
		}
	})
	t.Run("a rebuy costs its price, named by the player's rebuy count", func(t *testing.T) {
		tr := started(t, bustConfig(&Rebuy{Max: 2, Price: 500, Chips: 5000, Until: Point{Round: 1, Session: 1, Hand: 3}}), "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		_, err := tr.Charge(&Command{Type: CmdRebuy, Player: "ann"})
		wantCode(t, err, CodeNotBusted)
		mustApply(t, tr, hand(1, ch("ann", -10_000)))
		if c, err := tr.Charge(&Command{Type: CmdRebuy, Player: "ann"}); err != nil || c.Amount != 500 || c.Ref != "rebuy/1" {
			t.Fatalf("ann's first rebuy: %+v, %v", c, err)
		}
		evs := mustApply(t, tr, Command{Type: CmdRebuy, Player: "ann", Debit: "d1"})
		if evs[0].Debit != "d1" {
			t.Fatalf("the payment's reference is not journalled: %+v", evs[0])
		}
		mustApply(t, tr, hand(1, ch("ann", -5000)))
		if c, _ := tr.Charge(&Command{Type: CmdRebuy, Player: "ann"}); c.Ref != "rebuy/2" {
			t.Fatalf("ann's second rebuy is named %q", c.Ref)
		}
	})
	t.Run("other commands cost nothing", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann")
		if c, err := tr.Charge(&Command{Type: CmdUnregister, Player: "ann"}); err != nil || c != (Charge{}) {
			t.Fatalf("unregister: %+v, %v", c, err)
		}
	})
}
