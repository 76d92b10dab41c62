package table

import (
	"reflect"
	"testing"

	"github.com/tablehouse/baccarat"
)

// wagersOn are the wagers of the round on one bet.
func wagersOn(x *tb, bet string) []Wager {
	var out []Wager
	for _, w := range x.Wagers() {
		if w.Bet == bet {
			out = append(out, w)
		}
	}
	return out
}

// replaysSame checks that a replay of the history, and of the history read back from its
// JSON, rebuild the table as it stands, tallies included.
func replaysSame(t *testing.T, x *tb) {
	t.Helper()
	re, err := Replay(x.Config(), x.history)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(re.State(), x.State()) {
		t.Fatalf("replay differs:\n got %+v\nwant %+v", re.State(), x.State())
	}
	if got, want := tallies(re), tallies(x.Table); !reflect.DeepEqual(got, want) {
		t.Fatalf("replay's tallies differ:\n got %v\nwant %v", got, want)
	}
	if !reflect.DeepEqual(re.chips, x.chips) {
		t.Fatalf("replay's chips differ:\n got %v\nwant %v", re.chips, x.chips)
	}
	if !reflect.DeepEqual(re.reqs, x.reqs) {
		t.Fatalf("replay's request ids differ:\n got %v\nwant %v", re.reqs, x.reqs)
	}
}

func TestASpotHoldsOneWagerPerRoundChipsRaiseIt(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament"}, "ann", "bob")
	x.ok(&Open{})
	first := x.place("ann", "banker", 1000)
	if len(first) != 1 || first[0].Type != EvWagerPlaced {
		t.Fatalf("the first chip on a spot places a wager: %+v", first)
	}
	id := first[0].Wager.ID
	for i, total := range []baccarat.Money{1500, 2000} {
		ev := x.place("ann", "banker", 500)
		if len(ev) != 1 || ev[0].Type != EvWagerRaised {
			t.Fatalf("chip %d: %+v, want one wager_raised", i+2, ev)
		}
		e := ev[0]
		if e.Wager.ID != id || e.Wager.Stake != total || e.Amount() != 500 || e.Player() != "ann" || e.Owner() != "ann" ||
			e.Wager.Bet != "banker" || e.Wager.Seat != "ann" {
			t.Fatalf("chip %d: wager %+v, added %d, want wager %d at %d, 500 added", i+2, e.Wager, e.Amount(), id, total)
		}
	}
	x.place("bob", "banker", 700) // another party's chip on the same bet is their own wager
	x.place("ann", "tie", 100)    // another bet is another spot
	if ws := wagersOn(x, "banker"); len(ws) != 2 || ws[0].Stake != 2000 || ws[1].Stake != 700 {
		t.Fatalf("one wager per party and spot: %+v", ws)
	}
	if avail, held := x.Balance("ann"); avail != 1_000_000-2100 || held != 2100 {
		t.Fatalf("ann: available %d, held %d; want the chips debited once each", avail, held)
	}
	if tot := x.Totals()["banker"]; tot != 2700 {
		t.Fatalf("the banker total is %d, want 2700", tot)
	}
	replaysSame(t, x)
	x.ok(&Close{})
	ev := x.cards("9h Kd 9c 3s") // Player a natural 8 against 3
	s := last(ev, EvRoundSettled)
	n := 0
	for _, st := range s.Settlements {
		if st.Player == "ann" && st.Bet == "banker" {
			n++
			if st.Stake != 2000 {
				t.Fatalf("the settlement is on the wager's total: %+v", st)
			}
		}
	}
	if n != 1 {
		t.Fatalf("one settlement per spot, got %d: %+v", n, s.Settlements)
	}
	replaysSame(t, x)
	// The next round's chip is a new wager.
	x.ok(&Open{})
	if ev := x.place("ann", "banker", 100); ev[0].Type != EvWagerPlaced {
		t.Fatalf("a new round's first chip places a wager: %s", ev[0].Type)
	}
}

func TestABetOnBaccaratChipRaisesTheWagerOfItsBettingRoundAtItsOdds(t *testing.T) {
	x := newTB(t, Config{Game: "bet-on-baccarat"}, "ann")
	x.ok(&Open{})
	odds := func(bet string) baccarat.Odds {
		for _, p := range x.Prices() {
			if p.Bet == bet {
				return p.Odds
			}
		}
		t.Fatalf("%s is not priced", bet)
		return 0
	}
	o := odds("banker")
	x.ok(&Place{Player: "ann", Bet: "banker", Stake: 1000, Odds: o})
	if ev := x.ok(&Place{Player: "ann", Bet: "banker", Stake: 1000, Odds: o}); ev[0].Type != EvWagerRaised || ev[0].Wager.Odds != o {
		t.Fatalf("a chip at the same odds in the same betting round raises: %+v", ev)
	}
	x.ok(&Close{})
	x.cards("9h") // P1: the second betting round opens at new odds (BoB 3.2)
	if x.betting != 2 || !x.betOpen {
		t.Skipf("no second betting round here (betting %d, open %v)", x.betting, x.betOpen)
	}
	if ev := x.ok(&Place{Player: "ann", Bet: "banker", Stake: 1000, Odds: odds("banker")}); ev[0].Type != EvWagerPlaced {
		t.Fatalf("BoB 3.2 a later betting round's chip is a wager of its own at its odds: %s", ev[0].Type)
	}
	if ws := wagersOn(x, "banker"); len(ws) != 2 || ws[0].Stake != 2000 || ws[1].Stake != 1000 {
		t.Fatalf("BoB: %+v", ws)
	}
	replaysSame(t, x)
}

func TestADragonChipRaisesTheSessionsDragonWager(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-dragon"}, "ann")
	x.ok(&Open{})
	x.place("ann", "any_dragon", 100)
	if ev := x.place("ann", "any_dragon", 100); ev[0].Type != EvWagerRaised || ev[0].Wager.Stake != 200 || ev[0].Wager.Session == 0 {
		t.Fatalf("Dragon 1.1.1 a second chip raises the session's Dragon wager: %+v", ev[0])
	}
	if len(x.dragon) != 1 || x.dragon[0].Stake != 200 {
		t.Fatalf("the session holds one Dragon wager of 200: %+v", x.dragon)
	}
	id := x.dragon[0].ID
	x.ok(&Withdraw{Player: "ann", Wager: id, Stake: 50})
	if x.dragon[0].Stake != 150 || x.Held("ann") != 150 {
		t.Fatalf("a chip taken back lowers the Dragon wager: %+v, held %d", x.dragon, x.Held("ann"))
	}
	if _, ok := x.Undone(); ok || len(x.Chips(id)) != 1 {
		t.Fatalf("50 taken back is not the chip of 100: chips %+v", x.Chips(id))
	}
	x.place("ann", "any_dragon", 30)
	x.ok(&Withdraw{Player: "ann", Wager: id, Stake: 30})
	if c, ok := x.Undone(); !ok || c.Stake != 30 || len(x.Chips(id)) != 1 || x.Chips(id)[0].Stake != 100 {
		t.Fatalf("the last chip taken back whole is undone: %+v %v, chips %+v", c, ok, x.Chips(id))
	}
	replaysSame(t, x)
}

// TestTigerAreaLimitCountsWagersNotRaises: at most three players' wagers in a playing area
// (Tiger 3.6); a chip raising a wager already there takes no new place.
func TestTigerAreaLimitCountsWagersNotRaises(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tiger", MaxWagersPerArea: 3}, "ann", "bob", "cat", "dan")
	x.ok(&Open{})
	back := func(player string, stake baccarat.Money) *Place { // a back bet on ann's area, through the dealer (Tiger 3.7)
		return &Place{Header: Header{Role: RoleDealer, Actor: "dealer-1"}, Player: player, Seat: "ann", Bet: "banker", Stake: stake}
	}
	x.place("ann", "banker", 100)
	x.ok(back("bob", 100))
	x.ok(back("cat", 100))
	for i := range 5 { // ten chips in all on the three wagers
		x.place("ann", "banker", 100)
		if i < 3 {
			x.ok(back("bob", 100))
		}
		if i < 2 {
			x.ok(back("cat", 100))
		}
	}
	if ws := wagersOn(x, "banker"); len(ws) != 3 {
		t.Fatalf("Tiger 3.6: three wagers in the area, got %d: %+v", len(ws), ws)
	}
	x.refused(back("dan", 100), baccarat.CodeAreaFull)
	replaysSame(t, x)
}

func TestRaiseCheckedAgainstMaximumOnTheTotal(t *testing.T) {
	cfg := Config{Game: "mbs-tournament", Limits: map[string]Limit{"banker": {Min: 100, Max: 1000}}}
	cases := []struct {
		name  string
		first baccarat.Money
		chip  baccarat.Money
		avail baccarat.Money
		code  baccarat.Code // "" taken
	}{
		{"a raise to the maximum is taken", 600, 400, 0, ""},
		{"a raise over the maximum is refused (the maximum bounds the spot)", 600, 401, 0, baccarat.CodeAboveMaximum},
		{"a chip under the minimum raises a wager whose total is over it", 600, 10, 0, ""},
		{"a raise is paid from the wallet for the chip only", 600, 300, 300, ""},
		{"a raise over the funds is refused", 600, 300, 299, baccarat.CodeInsufficientFunds},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := newTB(t, cfg, "ann")
			x.ok(&Open{})
			x.place("ann", "banker", tc.first)
			c := &Place{Player: "ann", Bet: "banker", Stake: tc.chip, Available: tc.avail}
			if tc.code != "" {
				x.refused(c, tc.code)
				return
			}
			ev := x.ok(c)
			if ev[0].Type != EvWagerRaised || ev[0].Wager.Stake != tc.first+tc.chip {
				t.Fatalf("%+v", ev[0])
			}
		})
	}
	x := newTB(t, cfg, "ann")
	x.ok(&Open{})
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 10}, baccarat.CodeBelowMinimum) // a new wager of 10
}

func TestTableDifferentialChecksARaise(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tiger", Differential: 1000}, "ann")
	x.ok(&Open{})
	x.place("ann", "banker", 800)
	x.place("ann", "banker", 200)
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 1}, baccarat.CodeTableDifferential) // Tiger 5.18
}

func TestRaiseAfterNoMoreBetsRefused(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament"}, "ann")
	x.ok(&Open{})
	x.place("ann", "banker", 500)
	x.ok(&Close{})
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBettingClosed)         // SPEC §4: not increased
	x.refused(&Withdraw{Player: "ann", Wager: 1, Stake: 100}, baccarat.CodeBettingClosed)           // nor decreased
	x.ok(&Interrupt{})                                                                              // a withdrawal window (Tiger 5.17)
	x.refused(&Withdraw{Player: "ann", Wager: 1, Stake: 100}, baccarat.CodeNotWithdrawable)         // all or nothing there (Tiger 5.17.1)
	if ev := x.ok(&Withdraw{Player: "ann", Wager: 1, Stake: 500}); ev[0].Type != EvWagerWithdrawn { // the whole wager, as any withdrawal
		t.Fatalf("%+v", ev)
	}
}

func TestTakeBackLeavesAtLeastTheMinimum(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament", Limits: map[string]Limit{"banker": {Min: 100, Max: 10_000}}}, "ann")
	x.ok(&Open{})
	x.place("ann", "banker", 300)
	x.place("ann", "banker", 100)
	ev := x.ok(&Withdraw{Player: "ann", Wager: 1, Stake: 100})
	if e := ev[0]; e.Type != EvWagerLowered || e.Wager.Stake != 300 || e.Amount() != 100 || e.Owner() != "ann" {
		t.Fatalf("a chip taken back lowers the wager: %+v", e)
	}
	x.refused(&Withdraw{Player: "ann", Wager: 1, Stake: 250}, baccarat.CodeBelowMinimum)    // 50 would stay
	x.refused(&Withdraw{Player: "ann", Wager: 1, Stake: 301}, baccarat.CodeBadRequest)      // more than there is
	x.refused(&Withdraw{Player: "ann", Stake: 100}, baccarat.CodeBadRequest)                // from which wager?
	x.refused(&Withdraw{Player: "ann", Wager: 9, Stake: 100}, baccarat.CodeNotWithdrawable) // as for a whole wager not there
	x.ok(&Withdraw{Player: "ann", Wager: 1, Stake: 200})                                    // 100 stays: the minimum
	if avail, held := x.Balance("ann"); avail != 1_000_000-100 || held != 100 {
		t.Fatalf("available %d, held %d", avail, held)
	}
	replaysSame(t, x)
	if ev := x.ok(&Withdraw{Player: "ann", Wager: 1, Stake: 100}); ev[0].Type != EvWagerWithdrawn {
		t.Fatalf("taking back the whole total withdraws the wager: %s", ev[0].Type)
	}
	if avail, held := x.Balance("ann"); avail != 1_000_000 || held != 0 || len(x.Wagers()) != 0 {
		t.Fatalf("available %d, held %d, wagers %+v", avail, held, x.Wagers())
	}
	replaysSame(t, x)
}

func TestTakeBackRefusedAtRWSDuringBetting(t *testing.T) {
	x := newTB(t, Config{Game: "rws-no-commission"}, "ann")
	x.ok(&Open{})
	x.place("ann", "banker", 1000)
	x.place("ann", "banker", 500)
	x.refused(&Withdraw{Player: "ann", Wager: 1, Stake: 500}, baccarat.CodeNotWithdrawable) // RWS 3.9
	x.ok(&Close{})
	x.cards("7h Kd 2c 9s") // a Tie at 9: Banker rides (RWS 3.9)
	x.ok(&Open{})
	x.refused(&Withdraw{Player: "ann", Wager: 1, Stake: 500}, baccarat.CodeNotWithdrawable) // a riding wager stays whole
	if ev := x.place("ann", "banker", 100); ev[0].Type != EvWagerPlaced {
		t.Fatalf("a chip beside a riding wager is a new wager, the riding one stays as it rode: %s", ev[0].Type)
	}
	x.ok(&Withdraw{Player: "ann", Wager: 1, Stake: 1500}) // the riding wager withdrawn whole, as RWS 3.9 allows
	replaysSame(t, x)
}

func TestSameRequestIDRaisesOnce(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament"}, "ann")
	x.ok(&Open{})
	x.ok(&Place{Player: "ann", Bet: "player", Stake: 500, RequestID: "r-1"})
	c := &Place{Player: "ann", Bet: "player", Stake: 200, RequestID: "r-2"}
	if ev := x.ok(c); len(ev) != 1 || ev[0].Type != EvWagerRaised || ev[0].Wager.RequestID != "r-2" {
		t.Fatalf("%+v", ev)
	}
	if ev := x.ok(c); len(ev) != 0 {
		t.Fatalf("the same request id twice raises once: %+v", ev)
	}
	if ev := x.ok(&Place{Player: "ann", Bet: "player", Stake: 500, RequestID: "r-1"}); len(ev) != 0 {
		t.Fatalf("the first chip's request again is no change, though its wager grew: %+v", ev)
	}
	if _, held := x.Balance("ann"); held != 700 {
		t.Fatalf("held %d, want 700", held)
	}
	x.refused(&Place{Player: "ann", Bet: "player", Stake: 300, RequestID: "r-2"}, baccarat.CodeIdempotencyConflict)
	if w, ok := x.WagerByRequest("ann", "r-2"); !ok || w.ID != 1 || w.Stake != 700 {
		t.Fatalf("the raise's request id answers with the wager and its total: %+v %v", w, ok)
	}
	replaysSame(t, x)
}
