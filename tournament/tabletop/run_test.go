package tabletop_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

var opens = time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)

// threeRounds: eight players at two tables of four, the top two of each to a semi-final
// table, its top two to the final; sessions of a few hands.
func threeRounds(game string, hands int) tournament.Config {
	return tournament.Config{ID: "spring", Name: "Spring Cup", Game: game, Currency: "EUR", EntryFee: 1001,
		StartingChips: 10_000, MaxEntrants: 8, TableSize: 4,
		RegistrationOpens: opens, RegistrationCloses: opens.Add(time.Hour), Start: opens.Add(time.Hour),
		Break:  tournament.Duration(time.Minute),
		Stakes: tournament.Stakes{Min: 100, Max: 2000, Required: true},
		Rounds: []tournament.Round{{Hands: hands, Advance: 2}, {Hands: hands, Advance: 2}, {Hands: hands}},
		Prizes: []int{6000, 4000}, Dragon: game == "mbs-dragon"}
}

func TestRunPlaysWholeTournamentsWhoseChipsAndPrizesAddUp(t *testing.T) {
	cases := []struct {
		name string
		cfg  tournament.Config
	}{
		{"SPEC 5 MBS Tournament, three rounds of sessions of hands", threeRounds("mbs-tournament", 6)},
		{"SPEC 5 RWS Non-Commission, riding ties given back at each session's end", threeRounds("rws-no-commission", 8)},
		{"SPEC 5 Dragon 3.12 MBS Dragon, the Dragon bets settled with each session's last hand", threeRounds("mbs-dragon", 10)},
		{"SPEC 5 timed sessions of two sessions a round, with rebuys", timedWithRebuys()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := tabletop.Run(c.cfg, tabletop.Options{Bots: tabletop.Bots("bot", 8), Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if res.Entrants != 8 || res.Final.Phase() != tournament.PhaseFinished {
				t.Fatalf("entrants %d, phase %s", res.Entrants, res.Final.Phase())
			}
			for _, s := range res.Sessions {
				if s.ChipsStart+s.Rebuys != s.ChipsEnd+s.HouseNet {
					t.Errorf("session %+v does not balance", s)
				}
			}
			var paid baccarat.Money
			for _, p := range res.Prizes {
				paid += p.Amount
			}
			if paid != res.Pool || res.Pool < 8*1001 {
				t.Fatalf("prizes %d, pool %d", paid, res.Pool)
			}
			if len(res.Sessions) < 4 {
				t.Fatalf("only %d sessions", len(res.Sessions))
			}
		})
	}
}

// timedWithRebuys: sessions of a length of time, two a round, and rebuys for the busted.
func timedWithRebuys() tournament.Config {
	c := threeRounds("mbs-dragon", 0)
	c.Stakes = tournament.Stakes{Min: 1000, Max: 5000}
	session := tournament.Session{Duration: tournament.Duration(3 * time.Minute)}
	c.Rounds = []tournament.Round{{Sessions: []tournament.Session{session, session}, Advance: 2},
		{Sessions: []tournament.Session{session}, Advance: 2}, {Sessions: []tournament.Session{session}}}
	c.Rebuy = &tournament.Rebuy{Max: 2, Price: 500, Chips: 10_000, Until: tournament.Point{Round: 1, Session: 2, Hand: 3}}
	return c
}

func TestRunIsDeterministicForASeed(t *testing.T) {
	run := func(seed uint64) string {
		res, err := tabletop.Run(threeRounds("mbs-dragon", 10), tabletop.Options{Bots: tabletop.Bots("bot", 8), Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		return string(b)
	}
	if a, b := run(3), run(3); a != b {
		t.Fatalf("the same seed played two tournaments:\n%s\n%s", a, b)
	}
	if run(3) == run(4) {
		t.Fatal("two seeds played the same tournament")
	}
}
