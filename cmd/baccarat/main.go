// Command baccarat is the platform's one binary: the server, the dealer's and the
// mathematician's tools. Each subcommand lives in its own file and registers itself.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"syscall"

	"github.com/tablehouse/baccarat"
)

// command is one subcommand. run returns the process exit code.
type command struct {
	name    string
	summary string
	// usage is the long help: what it does, flags, examples.
	usage string
	run   func(ctx context.Context, env *env, args []string) int
}

// env is the outside world a command sees, so tests run commands in-process.
type env struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	// tty reports whether stdout is a terminal (colour and progress bars only then).
	tty bool
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	ctx, stop := signalContext()
	code := run(ctx, &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, tty: isTerminal(os.Stdout)}, os.Args[1:])
	stop()
	os.Exit(code)
}

// signalContext is what a command runs under: the first Ctrl-C or SIGTERM cancels it (its
// cause names the signal), asking the command to stop and say how far it got; the signals'
// default then comes back, so that a second one ends the process at once.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprint(e.stdout, c.usage)
				return 0
			}
		}
		printHelp(e.stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "baccarat: unknown command %q; run 'baccarat help' for the list\n", args[0])
		return 2
	}
	return c.run(ctx, e, args[1:])
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "baccarat: the baccarat platform for casino operators.")
	fmt.Fprintln(w, "\nUsage: baccarat COMMAND [flags]   (baccarat help COMMAND, or COMMAND --help, for more)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// newFlags returns a flag set that prints the command's usage on -h and errors to stderr.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, c.usage)
		fmt.Fprintln(e.stderr, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; it returns an exit code and false when the command should stop
// (help was asked for: 0; bad flags or stray arguments: 2).
func parseFlags(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}

// fail prints err for people (code in brackets) and returns exit code 1.
func fail(e *env, name string, err error) int {
	code := baccarat.ErrorCode(err)
	fmt.Fprintf(e.stderr, "baccarat %s: %s [%s]\n", name, err, code)
	return 1
}

// exitStopped is the exit status of a command that Ctrl-C or SIGTERM stopped before its end:
// 128 + SIGINT, what a shell reports for a command an interrupt ended.
const exitStopped = 130

// failed is fail, unless ctx is done (main cancels it on Ctrl-C and SIGTERM): then the
// command was stopped, and it says so on stderr, why, and what it got done (sofar, read when
// it stops: "after 3 of 10 shoes"), and exits with exitStopped. A command calls it when its
// work returns an error, so that a run that finished is reported whatever came after.
func failed(ctx context.Context, e *env, name string, err error, sofar func() string) int {
	if ctx.Err() == nil {
		return fail(e, name, err)
	}
	why := "stopped"
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() { // a signal's cause says which
		why += " (" + cause.Error() + ")"
	}
	fmt.Fprintf(e.stderr, "baccarat %s: %s %s\n", name, why, sofar())
	return exitStopped
}

// maxWorkers is the most goroutines --workers takes (simulate, protect): each holds its own
// tallies, so the memory of a run grows with them.
const maxWorkers = 128

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}
