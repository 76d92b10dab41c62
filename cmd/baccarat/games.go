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

func runGames(_ context.Context, e *env, args []string) int {
	c := commands["games"]
	fs := newFlags(e, c)
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	all := games.All()
	if *asJSON {
		out := make([]games.Description, 0, len(all))
		for _, g := range all {
			out = append(out, games.Describe(g))
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

func printGame(e *env, g *games.Game) {
	j := games.Describe(g)
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
