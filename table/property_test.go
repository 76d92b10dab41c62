package table

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// legalNext lists the phases each phase may move to through one command (SPEC §4).
var legalNext = map[Phase][]Phase{
	PhaseIdle:    {PhaseIdle, PhaseBetting},
	PhaseBetting: {PhaseBetting, PhaseClosed, PhaseVoid},
	PhaseClosed:  {PhaseClosed, PhaseDealing, PhaseBetting, PhaseVoid, PhaseSettled},
	PhaseDealing: {PhaseDealing, PhaseSettled, PhaseVoid},
	PhaseSettled: {PhaseSettled, PhaseBetting},
	PhaseVoid:    {PhaseVoid, PhaseBetting},
}

func genCommand(t *rapid.T, g *games.Game, tab *Table) Command {
	players := []string{"ann", "bob", "cat"}
	bets := []string{"nope"}
	for _, b := range g.Bets {
		bets = append(bets, b.ID)
	}
	kinds := []CommandType{CmdOpen, CmdClose, CmdPlace, CmdPlace, CmdPlace, CmdPlace, CmdWithdraw, CmdCard, CmdCard,
		CmdCard, CmdCard, CmdDeal, CmdDeal, CmdDeal, CmdDeal, CmdVoid, CmdInterrupt, CmdResume, CmdDeviceReset,
		CmdCorrect, CmdSimultaneous, CmdEndShoe, CmdNewShoe, CmdEndSession, CmdReveal, CmdReveal, CmdPause, CmdReopen, CmdReopen}
	if tab.Config().ShoeToPlayer { // Method C: the holder's draws, and the shoe changing hands
		kinds = append(kinds, CmdDraw, CmdDraw, CmdDraw, CmdDraw, CmdGiveUpShoe, CmdHandShoe)
	}
	kind := rapid.SampledFrom(kinds).Draw(t, "cmd")
	if kind == CmdPause && rapid.IntRange(0, 7).Draw(t, "close the table instead") == 0 {
		kind = CmdCloseTable // rarely: every command after it is refused
	}
	randomCard := func(label string) baccarat.Card {
		return baccarat.Card(rapid.IntRange(0, 51).Draw(t, label))
	}
	switch kind {
	case CmdPlace:
		c := &Place{Player: rapid.SampledFrom(players).Draw(t, "player"), Bet: rapid.SampledFrom(bets).Draw(t, "bet"),
			Stake:     rapid.SampledFrom([]baccarat.Money{0, 50, 100, 1005, 250_000, 1 << 40}).Draw(t, "stake"),
			Seat:      rapid.SampledFrom([]string{"", "1", "2"}).Draw(t, "seat"),
			RequestID: rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "rid")}
		if c.Seat != "" && rapid.Bool().Draw(t, "placed by the dealer") {
			c.Role, c.Actor = RoleDealer, "dealer-1" // back betting on a seat (Tiger 3.7)
		}
		for _, p := range tab.Prices() { // Bet on Baccarat: usually send the current odds
			if p.Bet == c.Bet && rapid.Bool().Draw(t, "current odds") {
				c.Odds = p.Odds
			}
		}
		return c
	case CmdWithdraw:
		c := &Withdraw{Player: rapid.SampledFrom(players).Draw(t, "player"), Wager: uint64(rapid.IntRange(0, 4).Draw(t, "wager"))}
		if rapid.Bool().Draw(t, "take a chip back") { // lowers the wager, or withdraws it whole, or is refused
			c.Stake = rapid.SampledFrom([]baccarat.Money{-1, 50, 100, 1005, 250_000}).Draw(t, "chip")
		}
		return c
	case CmdCard:
		k := randomCard("card")
		return &Card{Card: &k, Cut: rapid.IntRange(0, 20).Draw(t, "cut") == 0}
	case CmdVoid:
		return &Void{Header: Header{Reason: rapid.SampledFrom(append([]string{"whim"}, VoidReasons...)).Draw(t, "reason")}}
	case CmdCorrect:
		return &Correct{Cards: rapid.Permutation(tab.Revealed()).Draw(t, "order")}
	case CmdSimultaneous:
		return &Simultaneous{Cards: []baccarat.Card{randomCard("s1"), randomCard("s2")}, Known: rapid.Bool().Draw(t, "known")}
	case CmdReveal:
		c := &Reveal{}
		if rapid.Bool().Draw(t, "the squeezer reveals") {
			c.Role, c.Actor = RolePlayer, rapid.SampledFrom(players).Draw(t, "squeezer")
		}
		return c
	case CmdDraw, CmdGiveUpShoe:
		c := NewCommand(kind)
		who := rapid.SampledFrom(append(players, tab.ShoeHolder())).Draw(t, "drawer")
		*c.Head() = Header{Role: RolePlayer, Actor: who}
		return c
	case CmdHandShoe:
		return &HandShoe{Header: Header{Role: RolePit, Actor: "pit"}, Player: rapid.SampledFrom(players).Draw(t, "to")}
	case CmdPause, CmdReopen, CmdCloseTable:
		c := NewCommand(kind)
		*c.Head() = Header{Role: RolePit, Actor: "pit", Reason: rapid.SampledFrom([]string{"", "staff break"}).Draw(t, "why")}
		return c
	case CmdNewShoe:
		c := &NewShoe{}
		if rapid.Bool().Draw(t, "rng") {
			s := baccarat.NewShoe(tab.Config().Decks)
			s.Shuffle(baccarat.SeededSource(rapid.Uint64().Draw(t, "seed")))
			c.Order, c.Salt = s.Order(), hex.EncodeToString([]byte("salt"))
			c.CutCard = rapid.IntRange(1, 400).Draw(t, "cut card")
		}
		return c
	}
	return NewCommand(kind)
}

// TestStateMachineProperties drives tables of every game with random command streams and
// checks after every command: a refused command changed nothing; money is conserved (what
// the wallets hold, what is in play and the house's result add up to what was funded);
// phases move only legally; no wager is taken after "No more bets"; and at the end Replay
// of the history rebuilds the identical table, down to the tallies the rules read.
func TestStateMachineProperties(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.ID, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				cfg := Config{Game: g.ID, SessionHands: 3, Differential: 2000, DefaultLimit: Limit{Min: 50, Max: 300_000},
					Squeeze: g.Rules.BettingRounds == 1 && rapid.Bool().Draw(rt, "squeeze")}
				cfg.ShoeToPlayer = methodCGames[g.ID] && !cfg.Squeeze && rapid.Bool().Draw(rt, "method C")
				cfg.ShoeWithoutWager = cfg.ShoeToPlayer && rapid.Bool().Draw(rt, "shoe without a wager")
				tab, err := New(cfg)
				if err != nil {
					rt.Fatal(err)
				}
				wallet := map[string]baccarat.Money{"ann": 1_000_000, "bob": 1_000_000, "cat": 0}
				const funded = 2_000_000
				var history []Event
				steps := rapid.IntRange(1, 120).Draw(rt, "steps")
				for i := 0; i < steps; i++ {
					c := genCommand(rt, g, tab)
					if p, ok := c.(*Place); ok {
						p.Available = wallet[p.Player]
					}
					before := tab.State()
					betOpen := tab.betOpen && !tab.interrupted
					ev, err := tab.Apply(c)
					after := tab.State()
					if due := tab.checkCardDue() == nil; due != tab.cardDue() {
						rt.Fatalf("after %s, checkCardDue says a card is due %v, cardDue %v", c.Kind(), due, !due)
					}
					if err != nil {
						if code := baccarat.ErrorCode(err); code == baccarat.CodeInternal {
							rt.Fatalf("%s: error without a code: %v", c.Kind(), err)
						}
						if !reflect.DeepEqual(before, after) {
							rt.Fatalf("%s refused (%v) but the table changed", c.Kind(), err)
						}
						continue
					}
					for i := range ev {
						if (ev[i].Type == EvWagerPlaced || ev[i].Type == EvWagerRaised) && !betOpen {
							rt.Fatalf("a wager was taken with betting closed: %+v", ev[i].Wager)
						}
						book(wallet, &ev[i])
						history = append(history, ev[i].Clone())
					}
					var sum baccarat.Money
					for p, w := range wallet {
						if w < 0 {
							rt.Fatalf("%s's wallet is negative after %s", p, c.Kind())
						}
						sum += w
					}
					for _, f := range after.Funds {
						if f.Held < 0 {
							rt.Fatalf("negative funds %+v after %s", f, c.Kind())
						}
						sum += f.Held
					}
					if sum+after.House != funded {
						rt.Fatalf("money not conserved after %s: funded %d, players %d, house %d", c.Kind(), funded, sum, after.House)
					}
					legal := legalNext[before.Phase]
					ok := false
					for _, p := range legal {
						ok = ok || p == after.Phase
					}
					if !ok {
						rt.Fatalf("illegal phase move %s → %s on %s", before.Phase, after.Phase, c.Kind())
					}
				}
				re, err := Replay(tab.Config(), history)
				if err != nil {
					rt.Fatal(err)
				}
				if !reflect.DeepEqual(re.State(), tab.State()) {
					rt.Fatalf("Replay differs from the table")
				}
				if got, want := tallies(re), tallies(tab); !reflect.DeepEqual(got, want) {
					rt.Fatalf("Replay's tallies differ from the table's (a wager is laid by emitWager, replayed by on):\n got %v\nwant %v", got, want)
				}
				// The history read back from its JSON, as a journal is, replays the same.
				b, err := json.Marshal(history)
				if err != nil {
					rt.Fatal(err)
				}
				var decoded []Event
				if err := json.Unmarshal(b, &decoded); err != nil {
					rt.Fatal(err)
				}
				re, err = Replay(tab.Config(), decoded)
				if err != nil {
					rt.Fatal(err)
				}
				// Compared as JSON: exact fractions read back reduced.
				got, _ := json.Marshal(re.State())
				want, _ := json.Marshal(tab.State())
				if string(got) != string(want) {
					rt.Fatalf("Replay of the JSON history differs from the table:\n got %s\nwant %s", got, want)
				}
			})
		})
	}
}

// FuzzApply: arbitrary commands never panic, and every refusal carries a stable code.
func FuzzApply(f *testing.F) {
	f.Add(`{"cmd":"open"}`, `{"cmd":"place","player":"ann","bet":"banker","stake":100}`, `{"cmd":"card","card":"9h"}`)
	f.Add(`{"cmd":"close"}`, `{"cmd":"simultaneous_draw","cards":["Ah","Ah"]}`, `{"cmd":"resume"}`)
	f.Add(`{"cmd":"withdraw","player":"ann","wager":1}`, `{"cmd":"correct","cards":["Kh"]}`, `{"cmd":"void","reason":"dealer_error"}`)
	f.Add(`{"cmd":"pause","reason":"break"}`, `{"cmd":"close_table","reason":"night"}`, `{"cmd":"reopen"}`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, game := range []string{"rws-no-commission", "mbs-tiger", "mbs-dragon"} {
			tab, err := New(Config{Game: game, SessionHands: 2, Differential: 100})
			if err != nil {
				t.Fatal(err)
			}
			_, _ = tab.Apply(&NewShoe{})
			for _, s := range []string{`{"cmd":"open"}`, a, b, `{"cmd":"close"}`, c, a, b, c} {
				cmd := decodeCommand(s)
				if cmd == nil {
					continue
				}
				if p, ok := cmd.(*Place); ok {
					p.Available = 10_000
				}
				if _, err := tab.Apply(cmd); err != nil && baccarat.ErrorCode(err) == baccarat.CodeInternal {
					t.Fatalf("%s: error without a code: %v", s, err)
				}
			}
		}
	})
}

// decodeCommand reads {"cmd":"name",...} into the typed command, or nil.
func decodeCommand(s string) Command {
	var probe struct {
		Cmd CommandType `json:"cmd"`
	}
	if json.Unmarshal([]byte(s), &probe) != nil {
		return nil
	}
	c := NewCommand(probe.Cmd)
	if c == nil || json.Unmarshal([]byte(s), c) != nil {
		return nil
	}
	return c
}
