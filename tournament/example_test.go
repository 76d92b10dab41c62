package tournament_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
)

var opens = time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)

// config is a small tournament: one table of up to six, one session of three hands,
// 10.00 to enter, the pool paid 50/30/20.
func config() tournament.Config {
	return tournament.Config{ID: "spring", Name: "Spring Cup", Game: "mbs-tournament", Currency: "EUR",
		EntryFee: 1000, StartingChips: 10_000, MaxEntrants: 6, TableSize: 6,
		RegistrationOpens: opens, RegistrationCloses: opens.Add(time.Hour), Start: opens.Add(time.Hour),
		Stakes: tournament.Stakes{Min: 100, Max: 5000}, Rounds: []tournament.Round{{Hands: 3}},
		Prizes: []int{5000, 3000, 2000}}
}

func apply(t *tournament.Tournament, c tournament.Command) []tournament.Event {
	evs, err := t.Apply(&c)
	if err != nil {
		panic(err)
	}
	return evs
}

// A whole tournament: registration, the start, a session of three hands, the prizes.
func Example() {
	t, err := tournament.New(config())
	if err != nil {
		panic(err)
	}
	apply(t, tournament.Command{Type: tournament.CmdOpenRegistration, At: opens})
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		apply(t, tournament.Command{Type: tournament.CmdRegister, Player: p, At: opens.Add(time.Minute)})
	}
	start := opens.Add(time.Hour)
	apply(t, tournament.Command{Type: tournament.CmdStart, At: start, Seed: 7})
	apply(t, tournament.Command{Type: tournament.CmdStartSession, Table: 1, At: start})
	hands := [][]tournament.ChipChange{
		{{Player: "ann", Net: 1000}, {Player: "bob", Net: -500}},
		{{Player: "cat", Net: 2000}, {Player: "dan", Net: -1000}},
		{{Player: "ann", Net: 1000}, {Player: "cat", Net: -1000}},
	}
	for _, h := range hands {
		apply(t, tournament.Command{Type: tournament.CmdReportHand, Table: 1, Changes: h, At: start})
	}
	fmt.Println(t.Phase(), "pool", baccarat.FormatMoney(t.Pool().Total, "EUR"))
	for _, r := range t.Results() {
		fmt.Printf("%d %s %d chips, %s\n", r.Rank, r.Player, r.Chips, baccarat.FormatMoney(r.Prize, "EUR"))
	}
	// Output:
	// finished pool 40.00 EUR
	// 1 ann 12000 chips, 20.00 EUR
	// 2 cat 11000 chips, 12.00 EUR
	// 3 bob 9500 chips, 8.00 EUR
	// 4 dan 9000 chips, 0.00 EUR
}

// Prizes divides a pool exactly: the leftover minor unit goes to the top, and tied players
// split the places they occupy.
func ExamplePrizes() {
	shares := []int{5000, 3000, 2000}
	fmt.Println(tournament.Prizes(1001, shares, []int{1, 2, 3}))
	fmt.Println(tournament.Prizes(1001, shares, []int{1, 2, 2}))
	fmt.Println(tournament.Prizes(1000, shares, []int{1, 1, 1}))
	fmt.Println(tournament.Prizes(1000, shares, []int{1, 2}))
	// Output:
	// [501 300 200]
	// [501 250 250]
	// [334 333 333]
	// [625 375]
}

// Seat draws the fewest balanced tables from a seed.
func ExampleSeat() {
	players := []string{"ann", "bob", "cat", "dan", "eve", "fay", "gus"}
	for i, table := range tournament.Seat(players, 3, rand.NewPCG(1, 1)) {
		fmt.Println("table", i+1, table)
	}
	// Output:
	// table 1 [eve ann bob]
	// table 2 [dan gus]
	// table 3 [cat fay]
}

// Next is the schedule: a pure function of the tournament and the time.
func ExampleNext() {
	t, _ := tournament.New(config())
	for _, now := range []time.Time{opens.Add(-time.Hour), opens} {
		cmd, later := tournament.Next(t, now)
		if cmd != nil {
			fmt.Println(now.Format("15:04"), "send", cmd.Type)
			apply(t, *cmd)
			continue
		}
		fmt.Println(now.Format("15:04"), "look again at", later.Format("15:04"))
	}
	cmd, later := tournament.Next(t, opens.Add(time.Minute))
	fmt.Println(cmd == nil, "start at", later.Format("15:04"))
	// Output:
	// 17:00 look again at 18:00
	// 18:00 send open_registration
	// true start at 19:00
}

// Every session's chips balance: what came to the table is on it at the end or went to
// the house.
func ExampleSessionRecord_Accounting() {
	t, _ := tournament.New(config())
	apply(t, tournament.Command{Type: tournament.CmdOpenRegistration, At: opens})
	apply(t, tournament.Command{Type: tournament.CmdRegister, Player: "ann", At: opens})
	apply(t, tournament.Command{Type: tournament.CmdRegister, Player: "bob", At: opens})
	start := opens.Add(time.Hour)
	apply(t, tournament.Command{Type: tournament.CmdStart, At: start, Seed: 1})
	apply(t, tournament.Command{Type: tournament.CmdStartSession, Table: 1, At: start})
	for _, net := range []baccarat.Money{300, -800, 1200} {
		apply(t, tournament.Command{Type: tournament.CmdReportHand, Table: 1, At: start,
			Changes: []tournament.ChipChange{{Player: "ann", Net: net}, {Player: "bob", Net: -100}}})
	}
	a := t.Sessions()[0].Accounting()
	fmt.Printf("%d + %d = %d + %d: %v\n", a.ChipsStart, a.RebuyChips, a.ChipsEnd, a.HouseNet, a.Balanced)
	// Output:
	// 20000 + 0 = 20400 + -400: true
}

// Replay rebuilds a tournament from its journalled events, here read back from JSON.
func ExampleReplay() {
	t, _ := tournament.New(config())
	var journal []tournament.Event
	journal = append(journal, apply(t, tournament.Command{Type: tournament.CmdOpenRegistration, At: opens})...)
	journal = append(journal, apply(t, tournament.Command{Type: tournament.CmdRegister, Player: "ann", At: opens})...)
	journal = append(journal, apply(t, tournament.Command{Type: tournament.CmdRegister, Player: "bob", At: opens})...)
	b, _ := json.Marshal(journal[1])
	fmt.Println(string(b))

	text, _ := json.Marshal(journal)
	var back []tournament.Event
	_ = json.Unmarshal(text, &back)
	again, err := tournament.Replay(config(), back)
	fmt.Println(err, again.Phase(), again.Entrants(), again.Pool().Total)
	// Output:
	// {"seq":2,"type":"registered","at":"2026-03-01T18:00:00Z","player":"ann","entry":1,"amount":1000}
	// <nil> registering [ann bob] 2000
}
