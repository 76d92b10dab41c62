package web_test

import (
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
)

// TestChipsOnASpotRaiseItsWagerAndUndoTakesOneBack: POST /wagers on a spot the player holds
// answers with the one wager at its new total; POST /withdraw with a stake takes that much
// back and answers with the wager at what is left; what would leave less than the minimum is
// refused below_minimum and changes nothing.
func TestChipsOnASpotRaiseItsWagerAndUndoTakesOneBack(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	var placed, raised struct {
		Wager   table.Wager
		Balance baccarat.Money
	}
	f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 500}, &placed)
	if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 300}, &raised); code != 200 {
		t.Fatalf("a chip on the spot: %d", code)
	}
	if raised.Wager.ID != placed.Wager.ID || raised.Wager.Stake != 800 || raised.Balance != 99_200 {
		t.Fatalf("the answer is the spot's one wager at its new total: %+v", raised)
	}
	var snap struct{ State table.State }
	f.do("ann", "GET", "/api/tables/tiger", nil, &snap)
	if len(snap.State.Wagers) != 1 || snap.State.Wagers[0].Stake != 800 {
		t.Fatalf("one wager on the spot: %+v", snap.State.Wagers)
	}
	var lowered struct {
		Wager     *table.Wager
		Withdrawn []table.Wager
		Balance   baccarat.Money
	}
	if code := f.do("ann", "POST", "/api/tables/tiger/withdraw", map[string]any{"wager": placed.Wager.ID, "stake": 300}, &lowered); code != 200 {
		t.Fatalf("take back: %d", code)
	}
	if lowered.Wager == nil || lowered.Wager.Stake != 500 || len(lowered.Withdrawn) != 0 || lowered.Balance != 99_500 {
		t.Fatalf("a chip taken back: %+v", lowered)
	}
	var e apiError
	if code := f.do("ann", "POST", "/api/tables/tiger/withdraw", map[string]any{"wager": placed.Wager.ID, "stake": 499}, &e); code/100 != 4 || e.Code != "below_minimum" {
		t.Fatalf("what stays must be at least the minimum: %d %+v", code, e)
	}
	if got := f.balance("ann"); got != 99_500 {
		t.Fatalf("a refused take-back changed the balance: %d", got)
	}
	if code := f.do("ann", "POST", "/api/tables/tiger/withdraw", map[string]any{"wager": placed.Wager.ID, "stake": 500}, &lowered); code != 200 || len(lowered.Withdrawn) != 1 {
		t.Fatalf("the whole total withdraws the wager: %d %+v", code, lowered)
	}
}
