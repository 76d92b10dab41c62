package table

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

// tb is a table under test with a live shoe and players whose wallets the harness keeps,
// as the live host keeps them in the ledger.
type tb struct {
	t *testing.T
	*Table
	history []Event // every event, for Replay
	wallet  map[string]baccarat.Money
}

func newTB(t *testing.T, cfg Config, players ...string) *tb {
	t.Helper()
	tab, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	x := &tb{t: t, Table: tab, wallet: map[string]baccarat.Money{}}
	x.ok(&NewShoe{})
	for _, p := range players {
		x.wallet[p] = 1_000_000
	}
	return x
}

// apply applies c, giving a wager its player's wallet, and books the money it moves.
func (x *tb) apply(c Command) ([]Event, error) {
	if p, ok := c.(*Place); ok && p.Available == 0 {
		p.Available = x.wallet[p.Player]
	}
	ev, err := x.Apply(c)
	for i := range ev {
		book(x.wallet, &ev[i])
	}
	return ev, err
}

// book moves wallets as the ledger does for the events of a table.
func book(wallet map[string]baccarat.Money, e *Event) {
	switch e.Type {
	case EvWagerPlaced:
		wallet[e.Wager.Player] -= e.Wager.Stake
	case EvWagerRaised: // the chip added moves, never the total
		wallet[e.Wager.Player] -= e.Amount()
	case EvWagerLowered:
		wallet[e.Wager.Player] += e.Amount()
	case EvWagerWithdrawn:
		for _, w := range e.Withdrawn() {
			wallet[w.Player] += w.Stake
		}
	case EvRoundSettled, EvRoundVoided, EvSessionSettled:
		for _, s := range e.Settlements {
			wallet[s.Player] += s.Returned
		}
	}
}

// Balance is what a player has available (their wallet) and in play at the table.
func (x *tb) Balance(player string) (available, held baccarat.Money) {
	return x.wallet[player], x.Held(player)
}

func (x *tb) ok(c Command) []Event {
	x.t.Helper()
	ev, err := x.apply(c)
	if err != nil {
		x.t.Fatalf("%s: %v", c.Kind(), err)
	}
	for i := range ev {
		x.history = append(x.history, ev[i].Clone())
	}
	out := make([]Event, len(ev))
	for i := range ev {
		out[i] = ev[i].Clone()
	}
	return out
}

// refused checks that c is refused with code and that nothing changed.
func (x *tb) refused(c Command, code baccarat.Code) {
	x.t.Helper()
	before := x.State()
	_, err := x.apply(c)
	if baccarat.ErrorCode(err) != code {
		x.t.Fatalf("%s: got %v, want code %s", c.Kind(), err, code)
	}
	if after := x.State(); !reflect.DeepEqual(before, after) {
		x.t.Fatalf("%s refused with %s but the table changed", c.Kind(), code)
	}
}

func (x *tb) place(player, bet string, stake baccarat.Money) []Event {
	x.t.Helper()
	return x.ok(&Place{Player: player, Bet: bet, Stake: stake})
}

func (x *tb) cards(s string) []Event {
	x.t.Helper()
	var out []Event
	for _, f := range strings.Fields(s) {
		k := baccarat.MustParseCard(f)
		out = append(out, x.ok(&Card{Card: &k})...)
	}
	return out
}

func card(s string) *baccarat.Card {
	k := baccarat.MustParseCard(s)
	return &k
}

func last(ev []Event, typ EventType) *Event {
	for i := len(ev) - 1; i >= 0; i-- {
		if ev[i].Type == typ {
			return &ev[i]
		}
	}
	return nil
}

func settlementOf(e *Event, bet string) Settlement {
	for _, s := range e.Settlements {
		if s.Bet == bet {
			return s
		}
	}
	return Settlement{}
}

func TestRoundFlowAndSettlement(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tiger"}, "ann")
	x.ok(&Open{})
	x.place("ann", "banker", 1000)
	x.place("ann", "tiger", 100)
	x.place("ann", "player", 300)
	if x.Phase() != PhaseBetting {
		t.Fatalf("phase %s", x.Phase())
	}
	x.ok(&Close{})
	if x.NextPosition() != baccarat.P1 {
		t.Fatalf("next position %s, want P1", x.NextPosition())
	}
	ev := x.cards("2h 3d 3c 3s 9d") // P 2h 3c 9d = 4, B 3d 3s = 6: Banker on a two-card 6
	s := last(ev, EvRoundSettled)
	if s == nil || x.Phase() != PhaseSettled {
		t.Fatalf("no settlement: %+v", ev)
	}
	if got := settlementOf(s, "banker"); got.Net != 500 || got.Pays != "1:2" || got.Returned != 1500 {
		t.Errorf("Tiger 4.1 banker on six pays 1:2: %+v", got)
	}
	if got := settlementOf(s, "tiger"); got.Net != 1200 || got.Pays != "12:1" {
		t.Errorf("Tiger 4.3 tiger on a two-card 6 pays 12:1: %+v", got)
	}
	if got := settlementOf(s, "player"); got.Net != -300 || got.Returned != 0 {
		t.Errorf("player loses: %+v", got)
	}
	avail, held := x.Balance("ann")
	if held != 0 || avail != 1_000_000+500+1200-300 {
		t.Errorf("balance after settlement: %d held %d", avail, held)
	}
	x.refused(&Card{Card: card("Kh")}, baccarat.CodeExtraCard)
}

func TestRefusalsChangeNothing(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tiger", Limits: map[string]Limit{"tie": {Min: 100, Max: 1000}}, Differential: 5000}, "ann", "bob", "cat", "dan")
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBettingClosed)
	x.ok(&Open{})
	x.refused(&Place{Player: "ann", Bet: "dragon", Stake: 100}, baccarat.CodeUnknownBet)
	x.refused(&Place{Player: "ann", Bet: "tie", Stake: 99}, baccarat.CodeBelowMinimum)
	x.refused(&Place{Player: "ann", Bet: "tie", Stake: 1001}, baccarat.CodeAboveMaximum)
	x.place("ann", "tie", 600)
	x.refused(&Place{Player: "ann", Bet: "tie", Stake: 500}, baccarat.CodeAboveMaximum) // 600 + 500 > 1000
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 2_000_000}, baccarat.CodeAboveMaximum)
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 5001}, baccarat.CodeTableDifferential)
	x.refused(&Place{Player: "zed", Bet: "banker", Stake: 100}, baccarat.CodeInsufficientFunds)
	x.refused(&Place{Header: Header{Actor: "bob"}, Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeNotAuthorized)
	x.refused(&Void{Header: Header{Role: RolePlayer, Reason: "dealer_error"}}, baccarat.CodeNotAuthorized)
	x.refused(&SetLimit{Header: Header{Role: RoleDealer}, Bet: "tie", Max: 5}, baccarat.CodeNotAuthorized)
	// Tiger 3.6: three wagers per playing area.
	for _, p := range []string{"ann", "bob", "cat"} {
		x.ok(&Place{Header: Header{Role: RoleDealer, Actor: "dealer-1"}, Player: p, Seat: "3", Bet: "small_tiger", Stake: 100})
	}
	x.refused(&Place{Header: Header{Role: RoleDealer, Actor: "dealer-1"}, Player: "dan", Seat: "3", Bet: "small_tiger", Stake: 100}, baccarat.CodeAreaFull)
	x.ok(&Place{Header: Header{Role: RoleDealer, Actor: "dealer-1"}, Player: "ann", Seat: "3", Bet: "small_tiger", Stake: 100}) // ann adds to her own wager
	// A player bets on their own playing area only: nobody fills another's.
	x.refused(&Place{Player: "dan", Seat: "ann", Bet: "tiger", Stake: 100}, baccarat.CodeNotAuthorized)
	x.ok(&Close{})
	x.refused(&Place{Player: "ann", Bet: "banker", Stake: 100}, baccarat.CodeBettingClosed)
	x.refused(&Withdraw{Player: "ann"}, baccarat.CodeBettingClosed)
	x.refused(&Void{Header: Header{Reason: "because"}}, baccarat.CodeBadRequest)
	x.refused(&Open{}, baccarat.CodeBadState)
	x.refused(&Deal{}, baccarat.CodeBadState)
}

func TestSameRequestIDPlacesOneWager(t *testing.T) {
	x := newTB(t, Config{Game: "mbs-tournament"}, "ann")
	x.ok(&Open{})
	c := &Place{Player: "ann", Bet: "player", Stake: 500, RequestID: "r-1"}
	first := x.ok(c)
	again := x.ok(c)
	if len(first) != 1 || len(again) != 0 {
		t.Fatalf("SPEC §4 the same request id twice places one wager: %d then %d events", len(first), len(again))
	}
	if _, held := x.Balance("ann"); held != 500 {
		t.Fatalf("held %d, want 500", held)
	}
	c.Stake = 600
	x.refused(c, baccarat.CodeIdempotencyConflict)
	if w, ok := x.WagerByRequest("ann", "r-1"); !ok || w.Stake != 500 {
		t.Fatalf("WagerByRequest: %+v %v", w, ok)
	}
}

func TestReplayRebuildsTheTable(t *testing.T) {
	x := newTB(t, Config{Game: "rws-no-commission"}, "ann", "bob")
	x.ok(&Open{})
	x.place("ann", "banker", 1000)
	x.place("bob", "player", 700)
	x.place("bob", "tie", 100)
	x.ok(&Close{})
	x.cards("7h Kd 2c 9s") // Tie at 9: main wagers ride (RWS 3.9)
	x.ok(&Open{})
	got, err := Replay(x.Config(), x.history)
	if err != nil {
		t.Fatal(err)
	}
	if want := x.State(); !reflect.DeepEqual(got.State(), want) {
		t.Fatalf("replay differs:\n got %+v\nwant %+v", got.State(), want)
	}
	if len(x.State().Wagers) != 2 {
		t.Fatalf("RWS 3.9 the two main wagers ride into the next round: %+v", x.State().Wagers)
	}
}

// TestBetOnBaccaratChangesShoeUnder40Cards deals a whole six-deck RNG shoe: the shoe ends
// after the round in which fewer than 40 cards remain (BoB 3.4), never earlier or later.
func TestBetOnBaccaratChangesShoeUnder40Cards(t *testing.T) {
	tab, err := New(Config{Game: "bet-on-baccarat"})
	if err != nil {
		t.Fatal(err)
	}
	s := baccarat.NewShoe(6)
	s.Shuffle(baccarat.SeededSource(5))
	mustApply(t, tab, &NewShoe{Order: s.Order(), Salt: "01"})
	rounds := 0
	for tab.shoe.active {
		if left := tab.shoe.counts.Total(); left < 40 {
			t.Fatalf("BoB 3.4 a round would open with %d cards left", left)
		}
		mustApply(t, tab, &Open{})
		mustApply(t, tab, &Close{})
		var ev []Event
		for tab.Phase() == PhaseClosed || tab.Phase() == PhaseDealing {
			if tab.betOpen {
				mustApply(t, tab, &Close{})
				continue
			}
			ev = mustApply(t, tab, &Deal{})
		}
		rounds++
		if last(ev, EvShoeEnded) != nil && tab.shoe.counts.Total() >= 40 {
			t.Fatalf("the shoe ended with %d cards left", tab.shoe.counts.Total())
		}
	}
	if rounds < 50 {
		t.Fatalf("only %d rounds from a six-deck shoe", rounds)
	}
}

func TestBetOnBaccaratRefusesCorrections(t *testing.T) {
	x := newTB(t, Config{Game: "bet-on-baccarat"}, "ann")
	x.ok(&Open{})
	x.ok(&Close{})
	x.cards("4d")
	x.ok(&Close{})
	x.cards("5d")
	x.ok(&Close{})
	x.cards("6d")
	x.refused(&Correct{Cards: []baccarat.Card{*card("5d"), *card("4d"), *card("6d")}}, baccarat.CodeBadState)
}

func TestShoeCommitmentIsRevealedAndVerifies(t *testing.T) {
	tab, _ := New(Config{Game: "mbs-tournament", CutCard: 400})
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(9))
	ev := mustApply(t, tab, &NewShoe{Order: s.Order(), Salt: "abcd"})
	pub := ev[0].Public()
	if pub.Shoe().Order != nil || pub.Shoe().Salt != "" || pub.Shoe().Commitment == nil {
		t.Fatalf("SPEC §2 the order stays secret, the commitment is published: %+v", pub.Shoe())
	}
	var ended *Event
	for tab.shoe.active {
		mustApply(t, tab, &Open{})
		mustApply(t, tab, &Close{})
		for tab.Phase() == PhaseClosed || tab.Phase() == PhaseDealing {
			if e := last(mustApply(t, tab, &Deal{}), EvShoeEnded); e != nil {
				ended = e
			}
		}
	}
	if ended == nil || ended.Shoe().Verified == nil || !*ended.Shoe().Verified || len(ended.Shoe().Order) != 416 {
		t.Fatalf("SPEC §2 the reveal at the shoe's end verifies: %+v", ended)
	}
}
