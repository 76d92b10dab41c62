package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/tablehouse/baccarat/games"
)

func init() {
	register(&command{
		name:    "games",
		summary: "list every game with its bets and pay table",
		usage: `Usage: baccarat games [--json]

Lists the six games of the platform: id (what every other command takes as --game), name,
rule document, decks, placement rules, and every bet with what it pays.

  baccarat games
  baccarat games --json | jq '.[].id'
`,
		run: runGames,
	})
}

type gameJSON struct {
	ID    string    `json:"id"`
	Name  string    `json:"name"`
	Seed  string    `json:"seed"`
	Decks [3]int    `json:"decks"` // min, max, default
	Rules []string  `json:"rules"`
	Bets  []betJSON `json:"bets"`
}

type betJSON struct {
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Kind  string     `json:"kind"`
	Rule  string     `json:"rule"`
	Tiers []tierJSON `json:"tiers"`
}

type tierJSON struct {
	Event string `json:"event"`
	Pays  string `json:"pays"`
}

func runGames(_ context.Context, e *env, args []string) int {
	c := commands["games"]
	fs := newFlags(e, c)
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	all := games.All()
	if *asJSON {
		out := make([]gameJSON, 0, len(all))
		for _, g := range all {
			out = append(out, describeGame(g))
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return 0
	}
	for i, g := range all {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		printGame(e, g)
	}
	return 0
}

func describeGame(g *games.Game) gameJSON {
	j := gameJSON{ID: g.ID, Name: g.Name, Seed: g.Seed, Decks: [3]int{g.Decks.Min, g.Decks.Max, g.Decks.Default},
		Rules: ruleLines(g.Rules)}
	for _, b := range g.Bets {
		bj := betJSON{ID: b.ID, Name: b.Name, Kind: b.Kind.String(), Rule: b.Rule}
		for _, t := range b.Tiers {
			pays := t.Pays.String()
			if b.Decimal {
				pays = "decimal odds"
			}
			bj.Tiers = append(bj.Tiers, tierJSON{Event: t.Event, Pays: pays})
		}
		j.Bets = append(j.Bets, bj)
	}
	return j
}

func ruleLines(r games.Rules) []string {
	var s []string
	if r.OneSide {
		s = append(s, "Player or Banker in a round, never both (one side only)")
	}
	if r.SideNeedsMain {
		s = append(s, "side bets only beside your own Player or Banker wager")
	}
	if r.TieRides {
		s = append(s, "on a Tie, Player/Banker wagers ride into the next round and may be withdrawn there")
	}
	if r.MaxWagersPerArea > 0 {
		s = append(s, fmt.Sprintf("at most %d wagers per playing area (the pit may set fewer)", r.MaxWagersPerArea))
	}
	if r.TableDifferential {
		s = append(s, "table differential limit on |total Player - total Banker|")
	}
	if r.DragonSessions {
		s = append(s, "Dragon bets only before a session's first hand, settled at its end")
	}
	if r.BettingRounds > 1 {
		s = append(s, fmt.Sprintf("%d betting rounds: before any card, after P1, after B1; odds follow the exact probability", r.BettingRounds))
	}
	if r.ShoeChangeBelow > 0 {
		s = append(s, fmt.Sprintf("shoe changed when fewer than %d cards remain", r.ShoeChangeBelow))
	}
	if r.TournamentChips {
		s = append(s, "pay table for tournament chips (players have the edge on Banker at 1:1)")
	}
	return s
}

func printGame(e *env, g *games.Game) {
	j := describeGame(g)
	fmt.Fprintf(e.stdout, "%s  %s\n", j.ID, j.Name)
	fmt.Fprintf(e.stdout, "  rules: %s; decks %d-%d (default %d)\n", g.Seed, g.Decks.Min, g.Decks.Max, g.Decks.Default)
	for _, r := range j.Rules {
		fmt.Fprintf(e.stdout, "  - %s\n", r)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  bet\tkind\twins when\tpays\trule")
	for _, b := range j.Bets {
		for i, t := range b.Tiers {
			id, kind, rule := b.ID, b.Kind, b.Rule
			if i > 0 {
				id, kind, rule = "", "", ""
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", id, kind, t.Event, t.Pays, rule)
		}
	}
	_ = tw.Flush()
}
