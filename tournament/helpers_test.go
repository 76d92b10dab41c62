package tournament

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

var t0 = time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)

// baseConfig: one round, one table of up to 6, three hands, prizes 50/30/20.
func baseConfig() Config {
	return Config{ID: "spring", Name: "Spring Cup", Game: "mbs-tournament", Currency: "XXX", EntryFee: 1000,
		StartingChips: 10_000, RegistrationOpens: t0, RegistrationCloses: t0.Add(time.Hour), Start: t0.Add(time.Hour),
		MaxEntrants: 6, TableSize: 6, Stakes: Stakes{Min: 100, Max: 5000},
		Rounds: []Round{{Hands: 3}}, Prizes: []int{5000, 3000, 2000}}
}

// twoRounds: round 1 at tables of 3, the top 1 of each table to a final of hands.
func twoRounds(overall bool, advance int) Config {
	c := baseConfig()
	c.MaxEntrants, c.TableSize = 6, 3
	c.Rounds = []Round{{Hands: 2, Advance: advance, AdvanceOverall: overall}, {Hands: 2}}
	return c
}

func mustNew(t testing.TB, c Config) *Tournament {
	t.Helper()
	tr, err := New(c)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tr
}

func mustApply(t testing.TB, tr *Tournament, c Command) []Event {
	t.Helper()
	if c.At.IsZero() {
		c.At = tr.cfg.Start.Add(time.Minute)
		if tr.phase == PhaseScheduled || tr.phase == PhaseRegistering {
			c.At = tr.cfg.RegistrationOpens.Add(time.Minute)
		}
	}
	evs, err := tr.Apply(&c)
	if err != nil {
		t.Fatalf("%s: %v", c.Type, err)
	}
	return evs
}

func wantCode(t testing.TB, err error, code baccarat.Code) {
	t.Helper()
	if got := baccarat.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

// registered opens registration and registers the players in order.
func registered(t testing.TB, c Config, players ...string) *Tournament {
	t.Helper()
	tr := mustNew(t, c)
	mustApply(t, tr, Command{Type: CmdOpenRegistration})
	for _, p := range players {
		mustApply(t, tr, Command{Type: CmdRegister, Player: p})
	}
	return tr
}

// started registers the players and starts the tournament with seed 1.
func started(t testing.TB, c Config, players ...string) *Tournament {
	t.Helper()
	tr := registered(t, c, players...)
	mustApply(t, tr, Command{Type: CmdStart, At: c.Start, Seed: 1})
	return tr
}

func players(n int) []string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("p%d", i+1)
	}
	return ps
}

func ch(player string, net baccarat.Money) ChipChange { return ChipChange{Player: player, Net: net} }

func hand(table int, changes ...ChipChange) Command {
	return Command{Type: CmdReportHand, Table: table, Changes: changes}
}

func startSession(table int) Command { return Command{Type: CmdStartSession, Table: table} }

// tableOfPlayer is the current round's table number of a player.
func tableOfPlayer(tr *Tournament, id string) int { return tr.lookup(id).table }

func chips(tr *Tournament, id string) baccarat.Money { return tr.lookup(id).chips }

func stateJSON(t testing.TB, tr *Tournament) string {
	t.Helper()
	b, err := json.Marshal(tr.State())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func types(evs []Event) []EventType {
	out := make([]EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func hasEvent(evs []Event, typ EventType) bool {
	for _, e := range evs {
		if e.Type == typ {
			return true
		}
	}
	return false
}
