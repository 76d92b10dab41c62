package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestServeChild is not a test on its own: the two-process test runs the test binary again
// with BACCARAT_CHILD_SERVE set, and this runs 'baccarat serve' with those arguments as a
// second process would.
func TestServeChild(t *testing.T) {
	args := os.Getenv("BACCARAT_CHILD_SERVE")
	if args == "" {
		t.Skip("run by TestSecondServerOnOneDatabaseWritesNothing")
	}
	life := 3 * time.Second
	if d, err := time.ParseDuration(os.Getenv("BACCARAT_CHILD_SERVE_FOR")); err == nil {
		life = d // a server the load tool runs serves for the whole test
	}
	sig, stop := signalContext() // SIGTERM drains, as the real binary's does
	defer stop()
	ctx, cancel := context.WithTimeout(sig, life)
	defer cancel()
	os.Exit(run(ctx, &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}, strings.Fields(args)))
}

// TestSecondServerOnOneDatabaseWritesNothing: starting 'baccarat serve' again in the same
// directory recovered every table, wrote an interruption into each journal and broke the
// running server's commits. Now a second process exits before it writes: on the same port
// it cannot bind (and binds before touching a table); on another port the database's
// process lock stops it. The first server goes on taking wagers.
func TestSecondServerOnOneDatabaseWritesNothing(t *testing.T) {
	x := startSecServer(t)
	heads := func() [2]uint64 { return [2]uint64{x.head("tiger"), x.head("live")} }
	before := heads()
	addr := strings.TrimPrefix(x.s.web.URL(), "http://")
	for name, c := range map[string]struct{ args, says string }{
		"the same port": {"serve --db " + x.s.DB + " --addr " + addr, "cannot listen"},
		"another port":  {"serve --db " + x.s.DB + " --addr 127.0.0.1:0", "another baccarat process"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
		cmd.Env = append(os.Environ(), "BACCARAT_CHILD_SERVE="+c.args)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if err == nil || !strings.Contains(stderr.String(), c.says) {
			t.Errorf("a second server on %s: %v, stderr %q; want it refused saying %q", name, err, stderr.String(), c.says)
		}
	}
	if after := heads(); after != before {
		t.Fatalf("the second process wrote to the journals: heads %v → %v", before, after)
	}
	x.want("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100}, 200, "", nil)
}
