package table

import (
	"encoding/json"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/tablehouse/baccarat/games"
)

// TestSnapshotRestoresTheTableAReplayWould: at every point between rounds of random histories
// of every game (wagers, withdrawals, voids, interruptions, corrections, squeezes, Method C
// draws and the shoe changing hands, shoe changes, Dragon sessions, limit changes), the
// snapshot, read back from its JSON, restores
// a table whose own snapshot, state and tallies are the original's; and from a point chosen at
// random the two tables, given the same commands, make the same events and refuse the same.
func TestSnapshotRestoresTheTableAReplayWould(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.ID, func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				cfg := Config{Game: g.ID, SessionHands: 3, Differential: 2000, DefaultLimit: Limit{Min: 50, Max: 300_000},
					MaxWagersPerArea: g.Rules.MaxWagersPerArea, Squeeze: g.Rules.BettingRounds == 1 && rapid.Bool().Draw(rt, "squeeze")}
				cfg.ShoeToPlayer = methodCGames[g.ID] && !cfg.Squeeze && rapid.Bool().Draw(rt, "method C")
				tab, err := New(cfg)
				if err != nil {
					rt.Fatal(err)
				}
				var twin *Table // restored from a snapshot, then driven beside tab
				steps := rapid.IntRange(1, 150).Draw(rt, "steps")
				for i := 0; i < steps; i++ {
					c := genCommand(rt, g, tab)
					if p, ok := c.(*Place); ok {
						p.Available = 1_000_000
					}
					if rapid.IntRange(0, 15).Draw(rt, "limit change") == 0 {
						c = &SetLimit{Header: Header{Role: RolePit, Actor: "pit"}, Bet: g.Bets[0].ID, Min: 100, Max: 200_000}
					}
					var twinEvents []Event
					var twinErr error
					if twin != nil {
						cc := clone(rt, c)
						twinEvents, twinErr = twin.Apply(cc)
						twinEvents = cloneEvents(twinEvents)
					}
					ev, err := tab.Apply(c)
					ev = cloneEvents(ev)
					if twin != nil {
						if (err == nil) != (twinErr == nil) || !sameJSON(ev, twinEvents) {
							rt.Fatalf("%s: the restored table answered %v %s, the original %v %s", c.Kind(), twinErr, js(twinEvents), err, js(ev))
						}
					}
					if err != nil || !tab.CanSnapshot() {
						continue
					}
					snap, ok := tab.Snapshot()
					if !ok {
						rt.Fatal("CanSnapshot but no snapshot")
					}
					b, err := json.Marshal(snap)
					if err != nil {
						rt.Fatal(err)
					}
					var back Snapshot
					if err := json.Unmarshal(b, &back); err != nil {
						rt.Fatal(err)
					}
					re, err := FromSnapshot(&back)
					if err != nil {
						rt.Fatalf("restoring %s: %v", b, err)
					}
					again, _ := re.Snapshot()
					if !sameJSON(snap, again) || !sameJSON(tab.State(), re.State()) || !reflect.DeepEqual(tallies(tab), tallies(re)) {
						rt.Fatalf("the restored table differs:\n snapshot %s\n restored %s", js(snap), js(again))
					}
					if twin == nil && rapid.IntRange(0, 3).Draw(rt, "follow from here") == 0 {
						twin = re
					}
				}
			})
		})
	}
}

func clone(rt *rapid.T, c Command) Command {
	b, err := json.Marshal(c)
	if err != nil {
		rt.Fatal(err)
	}
	cc := NewCommand(c.Kind())
	if err := json.Unmarshal(b, cc); err != nil {
		rt.Fatal(err)
	}
	if p, ok := c.(*Place); ok {
		cc.(*Place).Available = p.Available
	}
	return cc
}

func cloneEvents(ev []Event) []Event {
	if len(ev) == 0 {
		return nil // no events, whether as nil or empty
	}
	out := make([]Event, len(ev))
	for i := range ev {
		out[i] = ev[i].Clone()
	}
	return out
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func sameJSON(a, b any) bool { return js(a) == js(b) }
