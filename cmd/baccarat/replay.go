package main

import (
	"bytes"
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

--decks is within the game's range (SPEC §2; see 'baccarat games'); --seed is 0 or more.

A command the table refuses is part of the record (a refusal line), but a line that is not a
command at all (not JSON, an unknown field or command name) means the script is not what it
should be: every line still runs, and the exit status is 1. Ctrl-C (or SIGTERM) stops a long
script at its next read. Exit status: 0 every line was a command; 1 a line is not a command,
the script holds no command (nothing but blank lines, comments and a config line), or it
cannot be read; 2 the command line is wrong; 130 stopped.

  baccarat replay --game rws-no-commission dispute.jsonl
  echo '{"cmd":"open"}' | baccarat replay --game mbs-tiger --seed 7 -
`,
		run: runReplay,
	})
}

func runReplay(ctx context.Context, e *env, args []string) int {
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
	out := &replayOutput{w: e.stdout}
	if _, err := script.Run(ctxReader{ctx, in}, out, opt); err != nil {
		return failed(ctx, e, c.name, err, func() string { return "before the end of the script: the output stops at the last line it read" })
	}
	return out.verdict(e, c.name)
}

// ctxReader stops a long script at its next read once ctx is done (Ctrl-C, SIGTERM).
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// replayOutput passes the output of a replay on and watches it for the refusals
// script.Run writes for a line that is not a command. (script.Result does not count them;
// when it does, this goes.) Neither pattern can occur inside a JSON string, where every
// quote is escaped, so no text a script carries can fake one.
type replayOutput struct {
	w           io.Writer
	wrote       bool
	notCommands int
	tail        []byte // the end of the last write, for a pattern split between two
}

var notCommandPatterns = [][]byte{[]byte(`,"message":"not a command: `), []byte(`,"message":"unknown command \"`)}

func (o *replayOutput) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if n > 0 {
		o.wrote = true
		o.scan(p[:n])
	}
	return n, err
}

// scan counts the patterns in p, and those that begin in the tail (the end of what was
// written before) and end in p; the tail is as long as a pattern less one byte.
func (o *replayOutput) scan(p []byte) {
	keep := 0
	for _, pat := range notCommandPatterns {
		keep = max(keep, len(pat)-1)
	}
	join := append(o.tail, p[:min(len(p), keep)]...)
	for _, pat := range notCommandPatterns {
		o.notCommands += bytes.Count(p, pat)
		for i := max(len(o.tail)-len(pat)+1, 0); i < len(o.tail); i++ {
			if bytes.HasPrefix(join[i:], pat) {
				o.notCommands++
			}
		}
	}
	if len(p) >= keep {
		o.tail = append(o.tail[:0], p[len(p)-keep:]...)
	} else {
		o.tail = append(o.tail[:0], join[max(len(join)-keep, 0):]...)
	}
}

// verdict is replay's exit status: 1, saying why, when a line was not a command or when
// there was no command at all.
func (o *replayOutput) verdict(e *env, name string) int {
	switch {
	case !o.wrote:
		return fail(e, name, baccarat.Errorf(baccarat.CodeBadRequest,
			`the script holds no command (nothing but blank lines, comments or a config line): give one JSON command a line, such as {"cmd":"open"}`))
	case o.notCommands == 1:
		return fail(e, name, baccarat.Errorf(baccarat.CodeBadRequest,
			`a line of the script is not a command (its refusal above says "not a command" or "unknown command", with its line number): correct or remove it`))
	case o.notCommands > 1:
		return fail(e, name, baccarat.Errorf(baccarat.CodeBadRequest,
			`%d lines of the script are not commands (their refusals above say "not a command" or "unknown command", with their line numbers): correct or remove them`, o.notCommands))
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
