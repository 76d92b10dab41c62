package main

import (
	"context"
	"io"
	"os"

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
	seed := fs.Int64("seed", -1, "shuffle shoes from this seed and deal them with \"deal\"")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	var in io.Reader = e.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(e, c.name, err)
		}
		defer f.Close()
		in = f
	}
	opt := table.ScriptOptions{Config: table.Config{Game: *game, Decks: *decks}}
	if *seed >= 0 {
		s := uint64(*seed)
		opt.Seed = &s
	}
	if _, err := table.RunScript(in, e.stdout, opt); err != nil {
		return fail(e, c.name, err)
	}
	return 0
}
