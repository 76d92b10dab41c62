package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/postgres"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// The fence test: two servers share PostgreSQL; the one that runs the table is paused
// (SIGSTOP) past its lease while players keep sending it wagers, the other takes the table
// over, and the paused one is woken (SIGCONT). Again and again, whichever server owns the
// table. The woken server must write nothing (not one wager it was sent while paused is in
// the journal, and none is acknowledged), must not crash, and every wager acknowledged by
// anyone must be in the journal, once; verify is clean at the end.

// fenceChild is what the parent tells a server process.
type fenceChild struct {
	DB, Config, Owner, Secret string
}

// TestFenceChild is a server process of the fence test: 'baccarat serve' on PostgreSQL with a
// two-second lease. It runs only when asked to.
func TestFenceChild(t *testing.T) {
	arg := os.Getenv("BACCARAT_FENCE_CHILD")
	if arg == "" {
		t.Skip("run by TestAPausedOwnerNeverWritesAfterItsLease")
	}
	var c fenceChild
	if err := json.Unmarshal([]byte(arg), &c); err != nil {
		fmt.Println("ERR", err)
		os.Exit(3)
	}
	s := &server{Addr: "127.0.0.1:0", DB: c.DB, Config: c.Config, Owner: c.Owner, Secret: c.Secret,
		Log: slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), AddressRate: 1e6, TokenRate: 1e6, Demo: demoTournaments{Off: true},
		Cluster: clusterFlags{Lease: 2 * time.Second}}
	if err := s.Start(context.Background()); err != nil {
		fmt.Println("ERR", err)
		os.Exit(3)
	}
	fmt.Println("READY", s.web.URL(), s.links["admin"])
	select {}
}

type fenceServer struct {
	owner, url, admin string
	cmd               *exec.Cmd
}

func startFenceChild(t *testing.T, c fenceChild) *fenceServer {
	t.Helper()
	arg, _ := json.Marshal(c)
	cmd := exec.Command(os.Args[0], "-test.run=^TestFenceChild$")
	cmd.Env = append(os.Environ(), "BACCARAT_FENCE_CHILD="+string(arg))
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGCONT); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if f := strings.Fields(lines.Text()); len(f) == 3 && f[0] == "READY" {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return &fenceServer{owner: c.Owner, url: f[1], admin: f[2], cmd: cmd}
		}
		if strings.HasPrefix(lines.Text(), "ERR") {
			t.Fatal(lines.Text())
		}
	}
	t.Fatal("the server process ended before it was ready")
	return nil
}

// fenceCall sends a request and returns the status and the body.
func fenceCall(url, token, method, path string, body any, timeout time.Duration) (int, []byte) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	c := http.Client{Timeout: timeout}
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

func TestAPausedOwnerNeverWritesAfterItsLease(t *testing.T) {
	dsn := pgTestSchema(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "tables.json")
	cfg, _ := json.Marshal(serveConfig{Tables: []live.Spec{{ID: "t1", Name: "Tiger", Mode: live.ModeAuto,
		Config: table.Config{Game: "mbs-tiger"}, Schedule: live.Schedule{Betting: time.Hour}}}})
	if err := os.WriteFile(config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	secret := "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	a := startFenceChild(t, fenceChild{DB: dsn, Config: config, Owner: "fence-a", Secret: secret})
	b := startFenceChild(t, fenceChild{DB: dsn, Config: config, Owner: "fence-b", Secret: secret})
	servers := map[string]*fenceServer{a.owner: a, b.owner: b}
	store, err := postgres.OpenReadOnly(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	owner := func() string {
		l, _ := store.Lease(context.Background(), "t1")
		return l.Owner
	}
	var token string
	var created struct{ Token string }
	if st, raw := fenceCall(a.url, a.admin, "POST", "/api/admin/accounts", map[string]any{"id": "fp", "role": "player"}, 5*time.Second); st != 201 {
		t.Fatalf("creating the player: %d %s", st, raw)
	} else {
		_ = json.Unmarshal(raw, &created)
		token = created.Token
	}
	if st, raw := fenceCall(a.url, a.admin, "POST", "/api/admin/accounts/fp/credit", map[string]any{"amount": 1_000_000_000, "key": "k"}, 5*time.Second); st != 200 {
		t.Fatalf("crediting: %d %s", st, raw)
	}

	// Load: wagers sent all along to whichever server runs the table, each acknowledged
	// one remembered by its request id.
	var acked sync.Map
	var sent atomic.Int64
	stop := make(chan struct{})
	var load sync.WaitGroup
	for w := range 3 {
		load.Add(1)
		go func() {
			defer load.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				s := servers[owner()]
				if s == nil {
					time.Sleep(50 * time.Millisecond)
					continue
				}
				id := fmt.Sprintf("load-%d-%d", w, i)
				sent.Add(1)
				if st, _ := fenceCall(s.url, token, "POST", "/api/tables/t1/wagers", map[string]any{"bet": "banker", "stake": 100, "request_id": id}, 2*time.Second); st == 200 {
					acked.Store(id, true)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}

	var paused []string // request ids sent to a paused owner
	for round := range 4 {
		from := servers[owner()]
		if from == nil {
			t.Fatalf("round %d: nobody owns the table (%q)", round, owner())
		}
		if err := from.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		var inFlight sync.WaitGroup
		var statuses sync.Map
		for i := range 5 { // sent to the paused owner: they wait in its socket
			id := fmt.Sprintf("paused-%d-%d", round, i)
			paused = append(paused, id)
			inFlight.Add(1)
			go func() {
				defer inFlight.Done()
				st, _ := fenceCall(from.url, token, "POST", "/api/tables/t1/wagers", map[string]any{"bet": "player", "stake": 100, "request_id": id}, 20*time.Second)
				statuses.Store(id, st)
			}()
		}
		deadline := time.Now().Add(15 * time.Second)
		for owner() == from.owner || owner() == "" {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: no takeover while %s was paused", round, from.owner)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if round%2 == 0 { // the new owner writes first, or not
			time.Sleep(500 * time.Millisecond)
		}
		if err := from.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		inFlight.Wait()
		statuses.Range(func(k, v any) bool {
			if v.(int) == 200 {
				t.Errorf("round %d: %s acknowledged wager %s after it lost its lease", round, from.owner, k)
			}
			return true
		})
		if err := from.cmd.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("round %d: %s died: %v", round, from.owner, err)
		}
		if st, _ := fenceCall(from.url, "", "GET", "/healthz", nil, 5*time.Second); st != 200 {
			t.Fatalf("round %d: %s does not answer after it woke: %d", round, from.owner, st)
		}
	}
	close(stop)
	load.Wait()

	recs, err := store.Load(context.Background(), "t1", 1)
	if err != nil {
		t.Fatal(err)
	}
	inJournal := map[string]int{}
	for _, r := range recs {
		var e table.Event
		if json.Unmarshal(r.Data, &e) == nil && (e.Type == table.EvWagerPlaced || e.Type == table.EvWagerRaised) && e.Wager != nil { // a chip on a held spot raises it under its own request id
			inJournal[e.Wager.RequestID]++
		}
	}
	for _, id := range paused {
		if inJournal[id] > 0 {
			t.Errorf("wager %s, sent to a paused owner, was written", id)
		}
	}
	n := 0
	acked.Range(func(k, _ any) bool {
		n++
		if inJournal[k.(string)] != 1 {
			t.Errorf("acknowledged wager %s is in the journal %d times", k, inJournal[k.(string)])
		}
		return true
	})
	if n == 0 {
		t.Fatalf("no wager was acknowledged of %d sent", sent.Load())
	}
	rep, err := verify.Database(context.Background(), store, time.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %v %+v", err, rep.Problems)
	}
	t.Logf("%d wagers sent, %d acknowledged, %d sent to a paused owner, none written", sent.Load(), n, len(paused))
}
