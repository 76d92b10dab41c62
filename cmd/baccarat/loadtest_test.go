package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadtestSmall runs the load tool end to end at a small size: a server in a process of
// its own, real WebSocket players, a wager from each every round, every wager acknowledged
// and every result delivered.
func TestLoadtestSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server and plays rounds")
	}
	defer func(was func(context.Context, ...string) *exec.Cmd) { serverCommand = was }(serverCommand)
	serverCommand = func(ctx context.Context, args ...string) *exec.Cmd { // this test binary, as 'baccarat serve'
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestServeChild$")
		cmd.Env = append(os.Environ(), "BACCARAT_CHILD_SERVE="+strings.Join(args, " "), "BACCARAT_CHILD_SERVE_FOR=2m")
		return cmd
	}
	out, errOut, code := runCmd(t, "loadtest", "--players", "20", "--rounds", "1", "--betting", "1s", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep loadReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Players != 20 || rep.Wagers < 20 || rep.Errors != 0 || rep.Refused != 0 {
		t.Errorf("report %+v: want 20 players, a wager acknowledged from each every round, no errors", rep)
	}
	if rep.ResultsMissed != 0 || rep.ResultMaxms <= 0 {
		t.Errorf("report %+v: every result should reach every player, and be timed", rep)
	}
}

// TestServeConfigWithNoTables: a config whose "tables" is an empty list runs no table (the
// load tool makes its own through the admin API); without "tables" the defaults run.
func TestServeConfigWithNoTables(t *testing.T) {
	for _, tc := range []struct {
		config string
		none   bool
	}{{`{"tables":[]}`, true}, {`{"demo_credit":100}`, false}} {
		dir := t.TempDir()
		path := filepath.Join(dir, "tables.json")
		if err := os.WriteFile(path, []byte(tc.config), 0o600); err != nil {
			t.Fatal(err)
		}
		s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "n.db"), Config: path, Demo: demoTournaments{Off: true}}
		if err := s.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		n := len(s.host.Tables(t.Context()))
		s.Close()
		if (n == 0) != tc.none {
			t.Errorf("config %s: %d tables", tc.config, n)
		}
	}
}

// TestLastSeq: the load tool resumes a stream from the largest seq a frame carried.
func TestLastSeq(t *testing.T) {
	for in, want := range map[string]uint64{
		`{"type":"totals","seq":41}`:                         41,
		`[{"type":"event","seq":7},{"type":"mine","seq":9}]`: 9,
		`{"type":"snapshot"}`:                                0,
	} {
		if got := lastSeq([]byte(in)); got != want {
			t.Errorf("lastSeq(%s) = %d, want %d", in, got, want)
		}
	}
}
