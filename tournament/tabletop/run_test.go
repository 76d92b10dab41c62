package tabletop_test

import (
	"context"
	"encoding/json"
	"errors"
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
			res, err := tabletop.Run(t.Context(), c.cfg, tabletop.Options{Bots: tabletop.Bots("bot", 8), Seed: 7})
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
		res, err := tabletop.Run(t.Context(), threeRounds("mbs-dragon", 10), tabletop.Options{Bots: tabletop.Bots("bot", 8), Seed: seed})
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

// wideFirstRound: 400 players at 40 tables of 10, the top 2 of each to a final table of 80;
// the first round's 40 sessions all end on the same hand.
func wideFirstRound() tournament.Config {
	c := threeRounds("mbs-tournament", 10)
	c.MaxEntrants, c.TableSize = 400, 80
	c.Rounds = []tournament.Round{{Hands: 10, Advance: 2}, {Hands: 5}}
	return c
}

// TestRunStopsWhenCancelled: a large tournament is long work, and Run is how 'baccarat
// tournament run' stops on Ctrl-C: once its context is done it returns the context's error
// before the next registration, step of the schedule or table's hand, with no result.
func TestRunStopsWhenCancelled(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      tournament.Config
		bots     int
		sessions int // sessions ended when the context is cancelled (0: cancelled before the start)
	}{
		{"cancelled before the start: nothing is played", threeRounds("mbs-dragon", 10), 8, 0},
		{"cancelled as the first session ends: no other table deals its last hand", wideFirstRound(), 400, 1},
		{"cancelled as the first round's last session ends: the next round is not played", threeRounds("mbs-dragon", 10), 8, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tc.sessions == 0 {
				cancel()
			}
			ended := 0
			opt := tabletop.Options{Bots: tabletop.Bots("bot", tc.bots), Seed: 7, OnSession: func(tabletop.SessionResult) {
				if ended++; ended == tc.sessions {
					cancel()
				}
			}}
			res, err := tabletop.Run(ctx, tc.cfg, opt)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("Run returned %v, %v; want no result and context.Canceled", res, err)
			}
			if ended != tc.sessions {
				t.Errorf("%d sessions ended; want %d, those before the cancel", ended, tc.sessions)
			}
		})
	}
}
