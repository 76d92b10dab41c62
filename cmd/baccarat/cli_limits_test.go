package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const (
	huge    = "9223372036854775807"  // the largest int64
	hugeNeg = "-9223372036854775808" // the smallest
)

// limitsTournament is a tournament of 10,000 entrants at 100 tables of 100, the winner of
// each to a final of 100: seconds of work, long enough to stop in the middle of.
const limitsTournament = `{"id":"wide","name":"Wide","game":"mbs-tournament","currency":"EUR",
 "entry_fee":100,"starting_chips":10000,"max_entrants":10000,"table_size":100,
 "stakes":{"min":100,"max":2000,"required":true},
 "rounds":[{"hands":30,"advance":1},{"hands":10}],"prizes":[6000,4000]}`

// TestLimitsEveryCountFlagRefusesHugeValuesWithoutAPanic: every count flag of every command
// has a range; a value outside it (the largest and smallest int64 among them) is refused with
// the range, exit 2 and nothing on stdout, before any work starts. Before, protect and
// simulate --shoes 9223372036854775807 panicked, and simulate --sessions 20000 ran for long.
func TestLimitsEveryCountFlagRefusesHugeValuesWithoutAPanic(t *testing.T) {
	config := writeConfig(t, limitsTournament)
	script := writeScript(t, `{"cmd":"open"}`)
	manyShoes := filepath.Join(t.TempDir(), "many.txt")
	if err := os.WriteFile(manyShoes, bytes.Repeat([]byte("Ah\n"), maxProtectShoes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"simulate --shoes huge", []string{"simulate", "--game", "mbs-tiger", "--shoes", huge}, "at most 1000000000"},
		{"simulate --shoes one past its range", []string{"simulate", "--game", "mbs-tiger", "--shoes", "1000000001"}, "at most 1000000000"},
		{"simulate --workers huge", []string{"simulate", "--game", "mbs-tiger", "--workers", huge}, "at most 128"},
		{"simulate --cut-card huge", []string{"simulate", "--game", "mbs-tiger", "--cut-card", huge}, "0 to 410"},
		{"simulate --decks huge", []string{"simulate", "--game", "mbs-tiger", "--decks", huge}, "4 to 10 decks"},
		{"Dragon 3.12 simulate --sessions of 20000 hands", []string{"simulate", "--game", "mbs-dragon", "--sessions", "20000"}, "1 to 1000"},
		{"Dragon 3.12 simulate --sessions huge", []string{"simulate", "--game", "mbs-dragon", "--sessions", "30," + huge}, "1 to 1000"},
		{"Dragon 3.12 simulate --sessions of 21 lengths", []string{"simulate", "--game", "mbs-dragon", "--sessions", strings.Repeat("10,", 20) + "10"}, "at most 20"},
		{"protect --shoes huge", []string{"protect", "--game", "mbs-tiger", "--shoes", huge}, "at most 1000000 shoes"},
		{"protect --shoes smallest", []string{"protect", "--game", "mbs-tiger", "--shoes", hugeNeg}, "1 shoe or more"},
		{"protect --workers huge", []string{"protect", "--game", "mbs-tiger", "--workers", huge}, "at most 128"},
		{"protect --decks huge", []string{"protect", "--game", "mbs-tiger", "--decks", huge}, "4 to 10 decks"},
		{"protect --cut-card huge", []string{"protect", "--game", "mbs-tiger", "--cut-card", huge}, "5 to 410"},
		{"protect 17 cut cards", []string{"protect", "--game", "mbs-tiger", "--cut-card", strings.Repeat("14,", 16) + "14"}, "at most 16"},
		{"protect --positions of more shoes than it keeps", []string{"protect", "--game", "mbs-tiger", "--json", "--positions", "--shoes", "10001"}, "at most 10000 shoes"},
		{"protect --orders of more shoes than a run takes", []string{"protect", "--game", "mbs-tiger", "--orders", manyShoes}, "holds 1000001 shoes: deal at most 1000000"},
		{"analyze --hands huge", []string{"analyze", "--game", "mbs-dragon", "--hands", huge}, "1 to 1000 hands"},
		{"analyze --decks huge", []string{"analyze", "--game", "mbs-tiger", "--decks", huge}, "4 to 10 decks"},
		{"analyze --shoe of a huge count", []string{"analyze", "--game", "mbs-tiger", "--shoe", "A:" + huge}, "more than 52000 cards"},
		{"dragon --stake huge", []string{"dragon", "--results", "BBBBB", "--stake", huge}, "a stake is 1 to"},
		{"roads --cards-left huge", []string{"roads", "--results", "BP", "--cards-left", huge}, "0 to 52000 cards"},
		{"roads --width huge", []string{"roads", "--results", "BP", "--width", huge}, "to 1000 columns"},
		{"roads --long huge", []string{"roads", "--results", "BP", "--long", huge}, "at most 1000"},
		{"roads --ping-pong huge", []string{"roads", "--results", "BP", "--ping-pong", huge}, "at most 1000"},
		{"roads --double-jump huge", []string{"roads", "--results", "BP", "--double-jump", huge}, "at most 1000"},
		{"roads --one-two huge", []string{"roads", "--results", "BP", "--one-two", huge}, "at most 1000"},
		{"roads --consecutive smallest", []string{"roads", "--results", "BP", "--consecutive", hugeNeg}, "at least 1"},
		{"replay --decks huge", []string{"replay", "--decks", huge, script}, "4 to 10 decks"},
		{"replay --seed smallest", []string{"replay", "--seed", hugeNeg, script}, "a seed is 0 or more"},
		{"SPEC 5 tournament run --bots huge", []string{"tournament", "run", "--config", config, "--bots", huge}, "give 1 to max_entrants (10000)"},
		{"SPEC 5 tournament run --bots one past max_entrants", []string{"tournament", "run", "--config", config, "--bots", "10001"}, "give 1 to max_entrants (10000)"},
		{"loadtest --players huge", []string{"loadtest", "--players", huge}, "--players " + huge + ": give 1 to 100000"},
		{"loadtest --rounds huge", []string{"loadtest", "--rounds", huge}, "give 1 to 1000"},
		{"loadtest --rounds 0", []string{"loadtest", "--rounds", "0"}, "give 1 to 1000"},
		{"loadtest --betting of 100 hours", []string{"loadtest", "--betting", "100h"}, "give 1ms to 1h"},
		{"loadtest --card negative", []string{"loadtest", "--card", "-1s"}, "give 1ms to 1h"},
		{"loadtest --result 0", []string{"loadtest", "--result", "0s"}, "give 1ms to 1h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, tc.args...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) || strings.Contains(errs, "panic") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errs, tc.want)
			}
		})
	}
}

// TestLimitsCountRangesAreInTheHelp: a range that is checked is also written where a user
// looks for it, each command's --help.
func TestLimitsCountRangesAreInTheHelp(t *testing.T) {
	for _, tc := range []struct {
		command string
		says    []string
	}{
		{"simulate", []string{"--shoes     1 to 1000000000", "1 to 128", "up to 20 of them, each 1 to 1000", "exits 130"}},
		{"protect", []string{"1 to 1000000", "Up to 16", "at most 10000 shoes", "1 to 128", "130 stopped"}},
		{"analyze", []string{"at most 52000 cards", "(1 to 1000)", "exit 130"}},
		{"dragon", []string{fmt.Sprintf("1 to %d", maxDragonStake())}},
		{"roads", []string{"each 1 to 1000", "0 to 52000", "to 1000."}},
		{"replay", []string{"within the game's range", "0 or more", "a line is not a command", "130 stopped"}},
		{"tournament", []string{"1 to the\nconfig's max_entrants", "exits 130"}},
		{"loadtest", []string{"--players 1 to 100000", "--rounds 1 to 1000", "1ms to\n1h", "130"}},
		{"verify", []string{"connection failure naming the address"}},
		{"reconcile", []string{"connection failure naming the address"}},
	} {
		t.Run(tc.command, func(t *testing.T) {
			out, _, code := execCmd(t, "help", tc.command)
			for _, want := range tc.says {
				if code != 0 || !strings.Contains(out, want) {
					t.Errorf("baccarat help %s (exit %d) does not say %q:\n%s", tc.command, code, want, out)
				}
			}
		})
	}
}

// TestLimitsReplayOfWhatIsNotAScriptFails: a file of garbage, or of nothing, replayed with
// exit 0 as if it were a record. A line that is not a command (still refused on stdout, line
// by line, as before) makes the exit status 1; so does a script without a command.
func TestLimitsReplayOfWhatIsNotAScriptFails(t *testing.T) {
	binary := make([]byte, 3000)
	for i := range binary {
		binary[i] = byte(i*7919 + i/13)
	}
	for _, tc := range []struct {
		name, script, want, refusal string
	}{
		{"text that is not JSON", "garbage\nmore garbage\n", "2 lines of the script are not commands", `"message":"not a command: `},
		{"binary garbage", string(binary), "lines of the script are not commands", `"message":"not a command: `},
		{"a command the table does not know", `{"cmd":"open"}` + "\n" + `{"cmd":"frobnicate"}`, "a line of the script is not a command", `unknown command \"frobnicate\"`},
		{"a command with a field no command has", `{"cmd":"open","stake_all":1}`, "a line of the script is not a command", `json: unknown field \"stake_all\"`},
		{"an empty file", "", "the script holds no command", ""},
		{"only blank lines and comments", "\n# a dispute\n\n// nothing else\n", "the script holds no command", ""},
		{"only a config line", `{"cmd":"config","game":"mbs-tiger","seed":7}`, "the script holds no command", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "script.jsonl")
			if err := os.WriteFile(path, []byte(tc.script), 0o600); err != nil {
				t.Fatal(err)
			}
			out, errs, code := execCmd(t, "replay", path)
			if code != 1 || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "[bad_request]") || !strings.Contains(out, tc.refusal) {
				t.Errorf("exit %d, stderr %q, stdout\n%s\nwant exit 1 saying %q, and the refusal %q", code, errs, out, tc.want, tc.refusal)
			}
		})
	}
	t.Run("refusals of the table are the record: exit 0", func(t *testing.T) {
		path := writeScript(t, `{"cmd":"close"}`, `{"cmd":"open"}`, `{"cmd":"place","player":"ann","bet":"tie","stake":1}`)
		if out, errs, code := execCmd(t, "replay", path); code != 0 || !strings.Contains(out, `"refused":"close"`) {
			t.Errorf("exit %d, stderr %q, stdout\n%s", code, errs, out)
		}
	})
}

// TestLimitsReplayCountsRefusalsSplitBetweenWrites: the watch on replay's output finds a
// refusal however the output is cut into writes, and counts it once.
func TestLimitsReplayCountsRefusalsSplitBetweenWrites(t *testing.T) {
	text := []byte(`{"line":1,"refused":"","code":"bad_request","message":"not a command: invalid character 'g'"}` + "\n" +
		`{"seq":1,"type":"betting_opened","round":1}` + "\n" +
		`{"line":3,"refused":"x","code":"bad_request","message":"unknown command \"x\""}` + "\n" +
		`{"line":4,"refused":"place","code":"bad_request","message":"a player's name \"message\":\"not a command: \" is refused"}` + "\n")
	for size := 1; size <= len(text); size++ {
		var sink bytes.Buffer
		o := &replayOutput{w: &sink}
		for p := text; len(p) > 0; p = p[min(size, len(p)):] {
			if _, err := o.Write(p[:min(size, len(p))]); err != nil {
				t.Fatal(err)
			}
		}
		if o.notCommands != 2 || !bytes.Equal(sink.Bytes(), text) {
			t.Fatalf("writes of %d bytes: %d lines not commands, want 2 (an escaped quote is no pattern); output changed: %v",
				size, o.notCommands, !bytes.Equal(sink.Bytes(), text))
		}
	}
}

// TestLimitsRefusedPostgresIsAConnectionFailure: verify against a PostgreSQL address nothing
// listens on said "this is not a baccarat database". It names the address as one it cannot
// connect to, and never the password.
func TestLimitsRefusedPostgresIsAConnectionFailure(t *testing.T) {
	const dsn = "postgres://postgres:s3cret-pw@127.0.0.1:1/test?sslmode=disable"
	for _, command := range []string{"verify", "reconcile"} {
		t.Run(command, func(t *testing.T) {
			out, errs, code := execCmd(t, command, "--db", dsn)
			if code != 1 || out != "" || !strings.Contains(errs, "cannot connect to PostgreSQL at 127.0.0.1:1") ||
				!strings.Contains(errs, "connection refused") || !strings.Contains(errs, "[unavailable]") ||
				strings.Contains(errs, "not a baccarat database") || strings.Contains(errs, "s3cret-pw") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1, a connection failure naming 127.0.0.1:1, no password", code, out, errs)
			}
		})
	}
	t.Run("a server that answers but holds no schema of ours is still not a baccarat database", func(t *testing.T) {
		base := os.Getenv("BACCARAT_TEST_POSTGRES")
		if base == "" {
			t.Skip("BACCARAT_TEST_POSTGRES is not set")
		}
		sep := "?"
		if strings.Contains(base, "?") {
			sep = "&"
		}
		_, errs, code := execCmd(t, "verify", "--db", base+sep+"search_path=baccarat_no_such_schema")
		if code != 1 || !strings.Contains(errs, "not a baccarat database") || strings.Contains(errs, "cannot connect") {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
	})
}

// firstWrite is an output that says when something was first written to it.
type firstWrite struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
	once  sync.Once
}

func newFirstWrite() *firstWrite { return &firstWrite{wrote: make(chan struct{})} }

func (w *firstWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.wrote) })
	return w.b.Write(p)
}

func (w *firstWrite) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// endless is a replay script that never ends: a round's commands, again and again.
type endless struct{ at int }

func (r *endless) Read(p []byte) (int, error) {
	const round = `{"cmd":"open"}` + "\n" + `{"cmd":"close"}` + "\n" + `{"cmd":"deal"}` + "\n"
	n := 0
	for n < len(p) {
		c := copy(p[n:], round[r.at:])
		n += c
		r.at = (r.at + c) % len(round)
	}
	return n, nil
}

// TestLimitsCancelledWorkStops: long work stops once its context is done, as main cancels it
// on Ctrl-C and SIGTERM, and says so: exit 130, "stopped", the signal, how far it got, and no
// partial report. (Each run here would take minutes or never end; the deadline is only
// there so that a command that does not stop fails instead of hanging.)
func TestLimitsCancelledWorkStops(t *testing.T) {
	config := writeConfig(t, limitsTournament)
	for _, tc := range []struct {
		name string
		args []string
		// cancel after this long, or (0) once the command first writes to stdout
		after time.Duration
		says  string
		out   string // what stdout holds, at least
	}{
		{"simulate of a billion shoes", []string{"simulate", "--game", "mbs-tiger", "--shoes", "1000000000"}, 200 * time.Millisecond, "of 1000000000 shoes: nothing is reported", ""},
		{"protect of a million shoes", []string{"protect", "--game", "mbs-tiger", "--shoes", "1000000", "--json"}, 200 * time.Millisecond, "of 1000000 shoes: nothing is reported", ""},
		{"Dragon 3.12 analyze of a 1000-hand session", []string{"analyze", "--game", "mbs-dragon", "--hands", "1000"}, 200 * time.Millisecond, "before the sheet was complete", ""},
		{"SPEC 5 tournament run, once its header is out", []string{"tournament", "run", "--config", config, "--bots", "10000"}, 0, "the tournament did not finish", "Wide (wide)"},
		{"SPEC 5 tournament run --json", []string{"tournament", "run", "--config", config, "--bots", "10000", "--json"}, 200 * time.Millisecond, "--json prints nothing", ""},
		{"replay of a script without end", []string{"replay", "--seed", "7", "-"}, 0, "before the end of the script", `"type":"betting_opened"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(t.Context())
			defer cancel(nil)
			out, errb := newFirstWrite(), &bytes.Buffer{}
			done := make(chan int, 1)
			go func() { done <- run(ctx, &env{stdout: out, stderr: errb, stdin: &endless{}}, tc.args) }()
			signal := errors.New("interrupt signal received")
			if tc.after > 0 {
				time.AfterFunc(tc.after, func() { cancel(signal) })
			} else {
				go func() {
					select {
					case <-out.wrote:
					case <-ctx.Done():
					}
					cancel(signal)
				}()
			}
			select {
			case code := <-done:
				if code != exitStopped || !strings.Contains(errb.String(), "stopped (interrupt signal received)") || !strings.Contains(errb.String(), tc.says) ||
					!strings.Contains(out.String(), tc.out) || (tc.out == "" && out.String() != "") {
					t.Errorf("exit %d, stderr %q, stdout %.300q; want %d, stopped saying %q, stdout %q", code, errb.String(), out.String(), exitStopped, tc.says, tc.out)
				}
			case <-time.After(2 * time.Minute):
				t.Fatalf("still running two minutes after it was cancelled; stderr %q", errb.String())
			}
		})
	}
}

// TestLimitsChild is not a test on its own: TestLimitsSignalStopsLongWork runs the test
// binary again with BACCARAT_LIMITS_CHILD set to a command line, and this runs it as main
// does, Ctrl-C and SIGTERM included, once it has said "ready" on stderr.
func TestLimitsChild(t *testing.T) {
	args := os.Getenv("BACCARAT_LIMITS_CHILD")
	if args == "" {
		t.Skip("run by TestLimitsSignalStopsLongWork")
	}
	ctx, stop := signalContext()
	fmt.Fprintln(os.Stderr, "ready")
	code := run(ctx, &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}, strings.Fields(args))
	stop()
	os.Exit(code)
}

// TestLimitsSignalStopsLongWork: 'baccarat tournament run' of a large tournament ignored
// SIGINT and SIGTERM for minutes. A real process of each long command, signalled once it is
// under way, stops, says which signal stopped it, and exits 130.
func TestLimitsSignalStopsLongWork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	config := writeConfig(t, limitsTournament)
	for _, tc := range []struct {
		name   string
		args   string
		signal syscall.Signal
		says   string
	}{
		{"SPEC 5 tournament run, SIGINT", "tournament run --config " + config + " --bots 10000", syscall.SIGINT, "stopped (interrupt signal received)"},
		{"SPEC 5 tournament run --json, SIGTERM", "tournament run --json --config " + config + " --bots 10000", syscall.SIGTERM, "stopped (terminated signal received)"},
		{"simulate, SIGINT", "simulate --game mbs-tiger --shoes 1000000000", syscall.SIGINT, "stopped (interrupt signal received)"},
		{"protect, SIGTERM", "protect --game mbs-tiger --shoes 1000000", syscall.SIGTERM, "stopped (terminated signal received)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestLimitsChild$")
			cmd.Env = append(os.Environ(), "BACCARAT_LIMITS_CHILD="+tc.args)
			cmd.Stdout = io.Discard
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewScanner(stderr)
			if !lines.Scan() || lines.Text() != "ready" {
				_ = cmd.Process.Kill()
				t.Fatalf("the child did not start: %q", lines.Text())
			}
			time.Sleep(200 * time.Millisecond) // under way (a signal before would stop it too)
			if err := cmd.Process.Signal(tc.signal); err != nil {
				t.Fatal(err)
			}
			var said strings.Builder
			done := make(chan error, 1)
			go func() {
				for lines.Scan() {
					said.WriteString(lines.Text() + "\n")
				}
				done <- cmd.Wait()
			}()
			select {
			case <-done:
				if code := cmd.ProcessState.ExitCode(); code != exitStopped || !strings.Contains(said.String(), tc.says) {
					t.Errorf("exit %d, stderr %q; want %d saying %q", code, said.String(), exitStopped, tc.says)
				}
			case <-time.After(2 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("still running two minutes after %s", tc.signal)
			}
		})
	}
}
