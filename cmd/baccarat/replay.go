package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/script"
	"github.com/tablehouse/baccarat/table"
)

func init() {
	register(&command{
		name:    "replay",
		summary: "run a script of table commands and print every event and refusal",
		usage: `Usage: baccarat replay [--game ID] [--decks N] [--seed S] SCRIPT.jsonl   (- for stdin)

Runs a script of commands, one JSON object a line, against a fresh table and prints every
event and every refusal (with its stable code) as JSON lines. It is how an operator or an
auditor reproduces a disputed round, and how the scenario tests are written. The command
format is in the README ("Replay scripts").

Without --seed, shoes are live: cards come from "card" commands, as from a dealer's
card-reading shoe. With --seed, shoes are shuffled from that seed and dealt with "deal".
A first line {"cmd":"config","game":"mbs-tiger","seed":7,...} sets the table up instead of
flags.

  baccarat replay --game rws-no-commission dispute.jsonl
  echo '{"cmd":"open"}' | baccarat replay --game mbs-tiger --seed 7 -
`,
		run: runReplay,
	})
}

func runReplay(_ context.Context, e *env, args []string) int {
	c := commands["replay"]
	fs := newFlags(e, c)
	game := fs.String("game", "mbs-tournament", "game id (see 'baccarat games')")
	decks := fs.Int("decks", 0, "decks per shoe (default: the game's)")
	seed := fs.Int64("seed", -1, "shuffle shoes from this seed (0 or more) and deal them with \"deal\"")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // --help, like every other command
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "baccarat replay: give one script file, or - for stdin (got %d arguments)\n\n", fs.NArg())
		fs.Usage()
		return 2
	}
	opt, err := replayOptions(fs, *game, *decks, *seed)
	if err != nil {
		return usageError(e, c.name, err)
	}
	var in io.Reader = e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := openInput("script", name)
		if err != nil {
			return usageError(e, c.name, err)
		}
		defer f.Close()
		in = f
	}
	if _, err := script.Run(in, e.stdout, opt); err != nil {
		return fail(e, c.name, err)
	}
	return 0
}

// replayOptions checks the flags: a game that exists, --decks within its range and --seed not
// negative when they are given (the default -1 means live shoes).
func replayOptions(fs *flag.FlagSet, game string, decks int, seed int64) (script.Options, error) {
	g, err := gameFlag(game)
	if err != nil {
		return script.Options{}, err
	}
	if _, err = gameDecks(fs, g, decks); err != nil {
		return script.Options{}, err
	}
	// Decks stays 0 unless given, so that a script's config line naming another game gets
	// that game's default.
	opt := script.Options{Config: table.Config{Game: g.ID, Decks: decks}}
	if given(fs, "seed") {
		if seed < 0 {
			return opt, baccarat.Errorf(baccarat.CodeBadRequest, "--seed %d: a seed is 0 or more (leave it out for live shoes)", seed)
		}
		s := uint64(seed)
		opt.Seed = &s
	}
	return opt, nil
}
