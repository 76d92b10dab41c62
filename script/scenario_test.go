package script

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/table"
)

var update = flag.Bool("update", false, "rewrite the golden files of the scenario tests")

// TestScenarios runs every script under testdata/scenarios (named after the seed rule it
// shows) and compares the events and refusals with its golden file. Run with -update to
// rewrite them, then read the diff: the golden files are the law written down.
func TestScenarios(t *testing.T) {
	scripts, err := filepath.Glob("testdata/scenarios/*.jsonl")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".jsonl")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			res, err := Run(bytes.NewReader(in), &out, Options{Config: table.Config{Game: "mbs-tournament"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Conserved(); err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(script, ".jsonl") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./script -run Scenarios -update)", err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("output differs from %s:\n%s", golden, diffLines(string(want), got))
			}
		})
	}
}

// diffLines shows the first differing line of two outputs.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\nwant " + a + "\n got " + b
		}
	}
	return ""
}
