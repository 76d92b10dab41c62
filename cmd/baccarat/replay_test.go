package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScript writes a replay script to a temporary file and returns its path.
func writeScript(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReplayHelpExitsZeroLikeEveryCommand(t *testing.T) {
	for _, name := range []string{"replay", "analyze", "simulate", "coup", "dragon", "roads", "games"} {
		t.Run(name+" --help exits 0 and prints the usage", func(t *testing.T) {
			out, errs, code := execCmd(t, name, "--help")
			if code != 0 || out != "" || !strings.Contains(errs, "Usage: baccarat "+name) {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
			}
		})
	}
}

func TestReplayFileThatCannotBeReadIsAUsageErrorNamingIt(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-dispute.jsonl")
	for _, tc := range []struct {
		name, path, want string
	}{
		{"a missing file: its path and that it does not exist", missing, `script "` + missing + `" does not exist`},
		{"a directory: its path and that it is not a file", dir, `script "` + dir + `" is a directory`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, "replay", tc.path)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) || strings.Contains(errs, "[internal]") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q and no [internal]", code, out, errs, tc.want)
			}
		})
	}
}

func TestReplayFlagsOutOfRangeAreUsageErrors(t *testing.T) {
	script := writeScript(t, `{"cmd":"open"}`)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"SPEC §2 --decks 0 is refused, not read as the default", []string{"--decks", "0"}, "mbs-tournament is played with 4 to 10 decks"},
		{"SPEC §2 --decks -3 is refused with the game's range", []string{"--game", "rws-no-commission", "--decks", "-3"}, "4 to 8 decks"},
		{"a negative --seed is refused, not read as live shoes", []string{"--seed", "-5"}, "a seed is 0 or more"},
		{"an unknown game", []string{"--game", "nope"}, "unknown game"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, append(append([]string{"replay"}, tc.args...), script)...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errs, tc.want)
			}
		})
	}
	t.Run("no script is a usage error", func(t *testing.T) {
		if _, errs, code := execCmd(t, "replay"); code != 2 || !strings.Contains(errs, "give one script file") {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
	})
}

func TestReplayRunsAScript(t *testing.T) {
	t.Run("a script file runs, with --decks and --seed inside their ranges", func(t *testing.T) {
		script := writeScript(t, `{"cmd":"open"}`, `{"cmd":"close"}`, `{"cmd":"deal"}`)
		out, errs, code := execCmd(t, "replay", "--game", "mbs-tiger", "--decks", "6", "--seed", "7", script)
		if code != 0 || !strings.Contains(out, `"decks":6`) || !strings.Contains(out, `"type":"card_dealt"`) {
			t.Errorf("exit %d, stderr %q, stdout\n%s", code, errs, out)
		}
	})
	t.Run("without --decks a config line naming another game gets that game's decks", func(t *testing.T) {
		script := writeScript(t, `{"cmd":"config","game":"bet-on-baccarat","seed":3}`, `{"cmd":"open"}`)
		if out, errs, code := execCmd(t, "replay", script); code != 0 || !strings.Contains(out, `"decks":6`) {
			t.Errorf("exit %d, stderr %q, stdout\n%s", code, errs, out)
		}
	})
}
