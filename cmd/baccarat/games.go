package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/tablehouse/baccarat"
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

// The commands that take a --game share these checks of their command line. Exit codes: 2 when
// the command line is wrong (a required flag missing, a game that does not exist, a number
// outside its range, flags that do not go together, a file that cannot be read), as parseFlags
// does for flags that do not parse; 1 when what the flags hold cannot be used (a bad card, an
// impossible shoe) or the work itself fails (fail).

// usageError prints err for people, with its code, and returns exit code 2.
func usageError(e *env, name string, err error) int {
	fmt.Fprintf(e.stderr, "baccarat %s: %s [%s]\n", name, err, baccarat.ErrorCode(err))
	return 2
}

// given reports whether the command line set the flag, so that a value the user typed is
// checked even when it equals the "use the default" value (--decks 0 is refused, not read
// as the game's default).
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// gameFlag is the game --game names; missing or unknown, a usage error listing the games.
func gameFlag(id string) (*games.Game, error) {
	if id == "" {
		return nil, baccarat.Errorf(baccarat.CodeUnknownGame, "--game is required: one of %s", games.IDs())
	}
	return games.ByID(id)
}

// gameDecks is the number of decks --decks asks for, within the game's range (SPEC §2: MBS
// Tournament, Dragon and Tiger 4–10, RWS Non-Commission 4–8, Bet on Baccarat 6); the game's
// default when the flag is not given.
func gameDecks(fs *flag.FlagSet, g *games.Game, decks int) (int, error) {
	if !given(fs, "decks") {
		return g.Decks.Default, nil
	}
	if decks < g.Decks.Min || decks > g.Decks.Max {
		return 0, baccarat.Errorf(baccarat.CodeBadRequest, "--decks %d: %s is played with %s (SPEC §2)", decks, g.ID, deckRange(g))
	}
	return decks, nil
}

// deckRange says how many decks a game is played with: "4 to 10 decks" or "6 decks only".
func deckRange(g *games.Game) string {
	if g.Decks.Min == g.Decks.Max {
		return fmt.Sprintf("%d decks only", g.Decks.Min)
	}
	return fmt.Sprintf("%d to %d decks", g.Decks.Min, g.Decks.Max)
}

// openInput opens a file named on the command line ("-" is stdin). A file that is missing
// or cannot be read is the user's to fix, so its error names the path, says why, and carries
// a usage code rather than internal.
func openInput(what, name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		why := "cannot be read"
		switch {
		case os.IsNotExist(err):
			why = "does not exist"
		case os.IsPermission(err):
			why = "cannot be read: permission denied"
		}
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "%s %q %s", what, name, why)
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		f.Close()
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "%s %q is a directory, not a file", what, name)
	}
	return f, nil
}
