package table

import (
	"encoding/hex"
	"encoding/json"
	"reflect"
	"strings"
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
		CmdCorrect, CmdSimultaneous, CmdEndShoe, CmdNewShoe, CmdFund, CmdEndSession}
	c := Command{Type: rapid.SampledFrom(kinds).Draw(t, "cmd")}
	randomCard := func(label string) baccarat.Card {
		return baccarat.Card(rapid.IntRange(0, 51).Draw(t, label))
	}
	switch c.Type {
	case CmdPlace, CmdWithdraw, CmdFund:
		c.Player = rapid.SampledFrom(players).Draw(t, "player")
		c.Bet = rapid.SampledFrom(bets).Draw(t, "bet")
		c.Stake = rapid.SampledFrom([]baccarat.Money{0, 50, 100, 1005, 250_000, 1 << 40}).Draw(t, "stake")
		c.Seat = rapid.SampledFrom([]string{"", "1", "2"}).Draw(t, "seat")
		if c.Seat != "" && c.Type == CmdPlace && rapid.Bool().Draw(t, "placed by the dealer") {
			c.Role, c.Actor = RoleDealer, "dealer-1" // back betting on a seat (Tiger 3.7)
		}
		c.RequestID = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "rid")
		c.Amount = rapid.SampledFrom([]baccarat.Money{100_000, -50}).Draw(t, "amount")
		for _, p := range tab.Prices() { // Bet on Baccarat: usually send the current odds
			if p.Bet == c.Bet && rapid.Bool().Draw(t, "current odds") {
				c.Odds = p.Odds
			}
		}
	case CmdCard:
		k := randomCard("card")
		c.Card = &k
		c.Cut = rapid.IntRange(0, 20).Draw(t, "cut") == 0
	case CmdVoid:
		c.Reason = rapid.SampledFrom(append([]string{"whim"}, VoidReasons...)).Draw(t, "reason")
	case CmdCorrect:
		c.Cards = rapid.Permutation(tab.Revealed()).Draw(t, "order")
	case CmdSimultaneous:
		c.Cards = []baccarat.Card{randomCard("s1"), randomCard("s2")}
		c.Known = rapid.Bool().Draw(t, "known")
	case CmdNewShoe:
		if rapid.Bool().Draw(t, "rng") {
			s := baccarat.NewShoe(tab.Config().Decks)
			s.Shuffle(baccarat.SeededSource(rapid.Uint64().Draw(t, "seed")))
			c.Order, c.Salt = s.Order(), hex.EncodeToString([]byte("salt"))
			c.CutCard = rapid.IntRange(1, 400).Draw(t, "cut card")
		}
	}
	return c
}

// TestStateMachineProperties drives tables of every game with random command streams and
// checks after every command: a refused command changed nothing; money is conserved; phases
// move only legally; no wager is taken after "No more bets"; and at the end Replay of the
// history rebuilds the identical table.
func TestStateMachineProperties(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.ID, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				tab, err := New(Config{Game: g.ID, SessionHands: 3, Differential: 2000, DefaultLimit: Limit{Min: 50, Max: 300_000}})
				if err != nil {
					rt.Fatal(err)
				}
				var history []Event
				for _, p := range []string{"ann", "bob"} {
					ev, _ := tab.Apply(&Command{Type: CmdFund, Player: p, Amount: 1_000_000})
					history = append(history, ev...)
				}
				steps := rapid.IntRange(1, 120).Draw(rt, "steps")
				for i := 0; i < steps; i++ {
					c := genCommand(rt, g, tab)
					before := tab.State()
					betOpen := tab.betOpen && !tab.interrupted
					ev, err := tab.Apply(&c)
					after := tab.State()
					if err != nil {
						if code := baccarat.ErrorCode(err); code == baccarat.CodeInternal {
							rt.Fatalf("%s: error without a code: %v", c.Type, err)
						}
						if !reflect.DeepEqual(before, after) {
							rt.Fatalf("%s refused (%v) but the table changed", c.Type, err)
						}
						continue
					}
					for _, e := range ev {
						if e.Type == EvWagerPlaced && !betOpen {
							rt.Fatalf("a wager was taken with betting closed: %+v", e.Wager)
						}
					}
					history = append(history, ev...)
					var sum int64
					for _, f := range after.Funds {
						sum += f.Available + f.Held
						if f.Available < 0 || f.Held < 0 {
							rt.Fatalf("negative funds %+v after %s", f, c.Type)
						}
					}
					if sum+after.House != after.Funded {
						rt.Fatalf("money not conserved after %s: funded %d, players %d, house %d", c.Type, after.Funded, sum, after.House)
					}
					legal := legalNext[before.Phase]
					ok := false
					for _, p := range legal {
						ok = ok || p == after.Phase
					}
					if !ok {
						rt.Fatalf("illegal phase move %s → %s on %s", before.Phase, after.Phase, c.Type)
					}
				}
				re, err := Replay(tab.Config(), history)
				if err != nil {
					rt.Fatal(err)
				}
				if !reflect.DeepEqual(re.State(), tab.State()) {
					rt.Fatalf("Replay differs from the table")
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
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, game := range []string{"rws-no-commission", "mbs-tiger", "mbs-dragon"} {
			tab, err := New(Config{Game: game, SessionHands: 2, Differential: 100})
			if err != nil {
				t.Fatal(err)
			}
			_, _ = tab.Apply(&Command{Type: CmdNewShoe})
			_, _ = tab.Apply(&Command{Type: CmdFund, Player: "ann", Amount: 10_000})
			for _, s := range []string{`{"cmd":"open"}`, a, b, `{"cmd":"close"}`, c, a, b, c} {
				var cmd Command
				if json.Unmarshal([]byte(s), &cmd) != nil {
					continue
				}
				if _, err := tab.Apply(&cmd); err != nil && baccarat.ErrorCode(err) == baccarat.CodeInternal {
					t.Fatalf("%s: error without a code: %v", s, err)
				}
			}
		}
	})
}

// FuzzRunScript: a replay script is outside input; whatever it holds, the runner neither
// panics nor leaves money unaccounted for.
func FuzzRunScript(f *testing.F) {
	f.Add("{\"cmd\":\"config\",\"game\":\"mbs-tiger\"}\n{\"cmd\":\"open\"}\n{\"cmd\":\"place\",\"player\":\"a\",\"bet\":\"tiger\",\"stake\":100}\n{\"cmd\":\"close\"}\n{\"cmd\":\"card\",\"card\":\"9h\"}")
	f.Add("{\"cmd\":\"open\"}\n{\"cmd\":\"bet\",\"player\":\"a\",\"bet\":\"banker\",\"stake\":-5}\nnot json\n{\"cmd\":\"void\",\"reason\":\"dealer_error\"}")
	f.Add("{\"cmd\":\"config\",\"game\":\"bet-on-baccarat\",\"seed\":3}\n{\"cmd\":\"open\"}\n{\"cmd\":\"place\",\"player\":\"a\",\"bet\":\"small\",\"stake\":100}\n{\"cmd\":\"close\"}\n{\"cmd\":\"deal\"}")
	f.Fuzz(func(t *testing.T, script string) {
		var out strings.Builder
		tab, err := RunScript(strings.NewReader(script), &out, ScriptOptions{Config: Config{Game: "rws-no-commission"}})
		if err != nil || tab == nil {
			return
		}
		s := tab.State()
		var sum int64
		for _, f := range s.Funds {
			sum += f.Available + f.Held
		}
		if sum+s.House != s.Funded {
			t.Fatalf("money not conserved: funded %d, players %d, house %d", s.Funded, sum, s.House)
		}
	})
}
