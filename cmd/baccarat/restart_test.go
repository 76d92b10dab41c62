package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serveProcess starts 'baccarat serve' with args in a process of its own (TestServeChild)
// and waits until it says it is serving.
func serveProcess(t *testing.T, args string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
	cmd.Env = append(os.Environ(), "BACCARAT_CHILD_SERVE="+args, "BACCARAT_CHILD_SERVE_FOR=10m")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "baccarat is serving at") {
			go func() {
				for lines.Scan() {
				}
			}()
			return cmd
		}
	}
	t.Fatalf("serve %s ended before it served", args)
	return nil
}

func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestARestartAfterAKillDoesNotWaitForTheLeases: 'baccarat serve' on SQLite is killed
// (SIGKILL) while its tables take bets and started again: every table answers in a fresh
// betting window well before the dead process's leases (15 s) would have lapsed (the new
// process holds the database's lock, so it takes them at once); meanwhile nothing answers
// 404. How long it took is logged (a second or two on a quiet machine, the process start
// included); the test fails only past 10 s, which a lease wait would take: timings on a
// shared machine are figures to read, not rules.
func TestARestartAfterAKillDoesNotWaitForTheLeases(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "restart.db")
	addr := freePort(t)
	args := fmt.Sprintf("serve --db %s --addr %s --no-tournaments --betting 30s", db, addr)
	first := serveProcess(t, args)
	base := "http://" + addr
	var tables []lobbyTable
	deadline := time.Now().Add(15 * time.Second)
	for {
		if code := getJSON(base+"/api/tables", &tables); code == 200 && len(tables) > 0 && allBetting(tables) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first server's tables never all took bets: %+v", tables)
		}
		time.Sleep(100 * time.Millisecond)
	}
	want := len(tables)
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	start := time.Now()
	serveProcess(t, args)
	var took time.Duration
	for {
		code := getJSON(base+"/api/tables", &tables)
		if code == 404 {
			t.Fatalf("the lobby answered 404 during the restart")
		}
		if code == 200 && len(tables) == want && allBetting(tables) {
			took = time.Since(start)
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("after 10 s the restarted server lists %d of %d tables: %+v", len(tables), want, tables)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, tb := range tables {
		var snap struct {
			State struct {
				Phase string
				Until time.Time
			}
		}
		if code := getJSON(base+"/api/tables/"+tb.ID, &snap); code != 200 {
			t.Fatalf("table %s: %d", tb.ID, code)
		}
		if tb.Mode == "auto" && (snap.State.Phase != "betting" || !snap.State.Until.After(time.Now())) {
			t.Errorf("table %s after the restart: %s until %s, want a fresh betting window", tb.ID, snap.State.Phase, snap.State.Until)
		}
	}
	if code := getJSON(base+"/readyz", nil); code != 200 {
		t.Errorf("/readyz %d after the restart", code)
	}
	t.Logf("every table answered %s after the restart began (the process start included)", took.Round(time.Millisecond))
}

// lobbyTable is what the test reads of a table in the lobby.
type lobbyTable struct{ ID, Mode, Phase string }

func allBetting(tables []lobbyTable) bool {
	for _, tb := range tables {
		if tb.Mode == "auto" && tb.Phase != "betting" {
			return false
		}
	}
	return true
}

// getJSON GETs url and decodes a 200's body into out; the status, 0 when nothing answered.
func getJSON(url string, out any) int {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	if resp.StatusCode == 200 && out != nil {
		_ = json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// TestSIGTERMDrains: a server sent SIGTERM says at once that it is not ready, takes no new
// wager (503, Retry-After), lets its tables go, stops within its drain bound, and writes one
// log line per phase.
func TestSIGTERMDrains(t *testing.T) {
	dir := t.TempDir()
	addr := freePort(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$")
	cmd.Env = append(os.Environ(), "BACCARAT_CHILD_SERVE=serve --db "+filepath.Join(dir, "drain.db")+" --addr "+addr+" --no-tournaments --drain 5s",
		"BACCARAT_CHILD_SERVE_FOR=10m")
	var logs lockedBuffer
	cmd.Stderr = &logs
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(out)
	token := ""
	for lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), "token="); ok && token == "" && strings.Contains(lines.Text(), "Play") {
			token = strings.TrimSpace(after)
		}
		if strings.HasPrefix(lines.Text(), "Ctrl-C stops") {
			break
		}
	}
	go func() {
		for lines.Scan() {
		}
	}()
	base := "http://" + addr
	if code := getJSON(base+"/readyz", nil); code != 200 {
		t.Fatalf("/readyz %d before the SIGTERM", code)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for getJSON(base+"/readyz", nil) != 503 {
		if time.Now().After(deadline) {
			t.Fatal("/readyz still answers 200 while draining")
		}
		time.Sleep(10 * time.Millisecond)
	}
	req, _ := http.NewRequest("POST", base+"/api/tables/tiger-live/wagers", strings.NewReader(`{"bet":"banker","stake":100}`))
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
			t.Errorf("a wager while draining: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		resp.Body.Close()
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(8 * time.Second):
		t.Fatal("the server did not stop within its drain bound")
	}
	for _, phase := range []string{"draining", "tables handed over", "stopped"} {
		if !strings.Contains(logs.String(), phase) {
			t.Errorf("no %q line in the log", phase)
		}
	}
}
