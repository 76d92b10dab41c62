package main

import (
	"context"
	"strings"
	"time"

	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/web"
)

// demoTournaments is what baccarat serve runs of the three tournament games (SPEC §5): for
// each, a demo tournament always open for registration, starting Every after it opened
// with whoever registered; Bots house bots fill the entries up to Bots entrants shortly
// before registration closes (labelled as bots on every page). Off: none.
type demoTournaments struct {
	Off   bool
	Bots  int
	Every time.Duration
	// Betting is the betting time at their tables (0: the server's --betting).
	Betting time.Duration

	stop chan struct{}
	done chan struct{}
}

// defaultDemoEvery is how often a demo tournament of each game starts.
const defaultDemoEvery = 5 * time.Minute

// demoPrefix starts the id of every demo tournament.
const demoPrefix = "demo-"

// startDemoTournaments keeps a demo tournament of each tournament game open for
// registration: when one starts (or is cancelled), the next is created.
func (s *server) startDemoTournaments(ctx context.Context) {
	d := &s.Demo
	if d.Off {
		return
	}
	if d.Every <= 0 {
		d.Every = defaultDemoEvery
	}
	d.stop, d.done = make(chan struct{}), make(chan struct{})
	s.ensureDemoTournaments(ctx)
	go func() {
		defer close(d.done)
		tick := time.NewTicker(2 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-d.stop:
				return
			case <-tick.C:
				s.ensureDemoTournaments(ctx)
			}
		}
	}()
}

func (s *server) stopDemoTournaments() {
	if s.Demo.stop != nil {
		close(s.Demo.stop)
		<-s.Demo.done
		s.Demo.stop = nil
	}
}

func (s *server) ensureDemoTournaments(ctx context.Context) {
	open := map[string]bool{}
	for _, v := range s.host.Tournaments() {
		if strings.HasPrefix(v.ID, demoPrefix) && (v.Phase == tournament.PhaseScheduled || v.Phase == tournament.PhaseRegistering) {
			open[v.Game] = true
		}
	}
	for _, game := range tournament.Games {
		if open[game] {
			continue
		}
		spec := s.demoTournament(game, time.Now().UTC())
		if err := s.host.CreateTournament(ctx, spec); err != nil && !isCode(err, "conflict") {
			s.Log.Error("creating a demo tournament", "game", game, "err", err)
		}
	}
}

// demoTournament is a demo tournament of a game opening now: play money (10.00 to enter, a
// 100.00 guarantee from the house), 1,000,000 chips each (10,000.00 as the pages show chips),
// up to 18 players at tables of 6, the top two of each table to a final; sessions of 10
// hands (Dragon: 15, its Dragon bets on the session); 100.00 to 2,000.00 a hand.
// Its name is the game's: the pages show its start in each viewer's local time (a time in the
// name would be one time zone's).
func (s *server) demoTournament(game string, now time.Time) live.TournamentSpec {
	g, _ := games.ByID(game)
	start := now.Add(s.Demo.Every).Truncate(time.Second)
	hands := 10
	if g.Rules.DragonSessions {
		hands = 15
	}
	cfg := tournament.Config{ID: demoPrefix + game + "-" + now.Format("060102150405"), Name: g.Name, Names: demoNames[game],
		Game: game, Currency: string(live.PlayMoney), EntryFee: 1000, Guarantee: 10_000, StartingChips: 1_000_000,
		RegistrationOpens: now, RegistrationCloses: start, Start: start, MaxEntrants: 18, TableSize: 6,
		Break: tournament.Duration(10 * time.Second), Stakes: tournament.Stakes{Min: 10_000, Max: 200_000},
		Rounds: []tournament.Round{{Name: "Heats", Names: demoRounds["Heats"], Hands: hands, Advance: 2},
			{Name: "Final", Names: demoRounds["Final"], Hands: hands}},
		Prizes: []int{5000, 3000, 2000}, Dragon: g.Rules.DragonSessions}
	betting := s.Demo.Betting
	if betting <= 0 {
		betting = s.Betting
	}
	return live.TournamentSpec{Config: cfg, Schedule: live.Schedule{Betting: betting},
		Bots: tabletop.Bots("house-", s.Demo.Bots)}
}

// checkCashTables refuses a configured cash table of a tournament game that does not say
// "cash": true, and logs the exact player edge of every bet of one that does (SPEC §5).
func (s *server) checkCashTables(specs []live.Spec) error {
	for _, spec := range specs {
		if err := cash.Check(spec.ID, spec.Config, spec.Currency, spec.Tournament != nil); err != nil {
			return err
		}
		if edges := web.PlayerEdges(spec.Config, string(spec.Currency)); edges != nil {
			args := []any{"table", spec.ID, "game", spec.Config.Game}
			for _, e := range edges {
				args = append(args, e.Bet, e.PlayerEdge)
			}
			s.Log.Warn("a tournament game played for cash: the player's edge on each bet", args...)
		}
	}
	return nil
}
