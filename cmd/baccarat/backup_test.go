package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// TestBackupWhileTheServerTakesWagers: an operator backs up the SQLite file of a running
// server. The server holds the file's process lock and goes on taking wagers, settling
// rounds at a fast table, while two backups are written; each copy is then audited with
// verify, which recomputes every settled round and balances the books: a copy torn between
// a round's records and its postings would fail it.
func TestBackupWhileTheServerTakesWagers(t *testing.T) {
	dir := t.TempDir()
	cfg := serveConfig{DemoCredit: 100_000_000, Tables: []live.Spec{
		{ID: "fast", Name: "Fast Tiger", Mode: live.ModeAuto, Config: table.Config{Game: "mbs-tiger"},
			Schedule: live.Schedule{Betting: 150 * time.Millisecond, Card: 5 * time.Millisecond, Result: 20 * time.Millisecond}},
	}}
	b, _ := json.Marshal(cfg)
	conf := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(conf, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "live.db"), Config: conf, Demo: demoTournaments{Off: true}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	// Two players wager all through the backups; a wager that finds betting closed is
	// refused and tried again in the next round.
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var acked atomic.Int64
	for p := range 2 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				body := fmt.Sprintf(`{"bet":"banker","stake":%d,"request_id":"backup-%d-%d"}`, 100+p, p, i)
				req, _ := http.NewRequestWithContext(ctx, "POST", s.web.URL()+"/api/tables/fast/wagers", bytes.NewReader([]byte(body)))
				req.Header.Set("Authorization", "Bearer "+s.links["player_token"])
				if resp, err := http.DefaultClient.Do(req); err == nil {
					if resp.StatusCode == 200 {
						acked.Add(1)
					}
					resp.Body.Close()
				}
				time.Sleep(5 * time.Millisecond)
			}
		})
	}
	backupWait(t, func() bool { return acked.Load() >= 10 }, "10 wagers acknowledged")

	backups := filepath.Join(dir, "backups") + string(os.PathSeparator)
	if err := os.Mkdir(backups, 0o700); err != nil {
		t.Fatal(err)
	}
	first := filepath.Join(backups, "first.db")
	out, stderr, code := runCmd(t, "backup", "--db", s.DB, "--to", first)
	if code != 0 || !strings.Contains(out, "wrote "+first) || !strings.Contains(out, "quick_check") {
		t.Fatalf("backup beside a serving server: exit %d\n%s%s", code, out, stderr)
	}
	atFirst, round := acked.Load(), tableRound(t, s, "fast")
	backupWait(t, func() bool { return acked.Load() >= atFirst+10 && tableRound(t, s, "fast") >= round+2 },
		"10 more wagers and a round settled after the first backup")
	out2, stderr, code := runCmd(t, "backup", "--db", s.DB, "--to", backups) // a directory: a timestamped name
	stop()
	wg.Wait()
	if code != 0 || !strings.Contains(out2, "wrote "+backups+"baccarat-") {
		t.Fatalf("backup into a directory: exit %d\n%s%s", code, out2, stderr)
	}
	second := strings.Fields(strings.TrimPrefix(out2, "wrote "))[0]
	second = strings.TrimSuffix(second, ":")

	for _, copy := range []string{first, second} {
		if out, stderr, code := runCmd(t, "verify", "--db", copy); code != 0 || !strings.Contains(out, "OK: no problems") {
			t.Errorf("verify %s: exit %d\n%s%s", filepath.Base(copy), code, out, stderr)
		}
	}
	if !strings.Contains(out, "journals (tables and tournaments)") || !strings.Contains(out, "the newest at") {
		t.Errorf("the first backup does not say what it wrote:\n%s", out)
	}
	rounds := func(copy string) string { // "recomputed N settled rounds, …"
		out, _, _ := runCmd(t, "verify", "--db", copy)
		return strings.Split(out, "\n")[1]
	}
	if rounds(first) == rounds(second) {
		t.Errorf("both copies hold the same rounds, though the table settled more between them: %q", rounds(first))
	}

	// Never over a file without --force; with it, replaced.
	out, stderr, code = runCmd(t, "backup", "--db", s.DB, "--to", first)
	if code != 1 || !strings.Contains(stderr, "exists") || !strings.Contains(stderr, "--force") {
		t.Errorf("backup over an existing file: exit %d\n%s%s", code, out, stderr)
	}
	if out, stderr, code = runCmd(t, "backup", "--db", s.DB, "--to", first, "--force"); code != 0 {
		t.Errorf("backup --force: exit %d\n%s%s", code, out, stderr)
	}
}

// TestBackupRefusesAndTeaches: the help teaches the command; no --to, a file that is not
// ours and the database's own name are refused; PostgreSQL gets the pg_dump command, with
// neither its password nor the parameters libpq does not know, and no success.
func TestBackupRefusesAndTeaches(t *testing.T) {
	out, _, code := runCmd(t, "help", "backup")
	for _, want := range []string{"VACUUM INTO", "--force", "Restoring", "-wal", "pg_dump"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("help backup lacks %q (exit %d)", want, code)
		}
	}
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	_ = os.WriteFile(text, []byte("not a database at all, just some text that is long enough"), 0o600)
	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"no --to", []string{"backup", "--db", text}, 2, "--to"},
		{"a file that is not ours", []string{"backup", "--db", text, "--to", filepath.Join(dir, "x.db")}, 1, "not"},
		{"a missing database", []string{"backup", "--db", filepath.Join(dir, "none.db"), "--to", filepath.Join(dir, "y.db")}, 1, "no database"},
		{"onto itself", []string{"backup", "--db", text, "--to", text}, 1, "write the copy elsewhere"},
	} {
		_, stderr, code := runCmd(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.says) {
			t.Errorf("%s: exit %d %q, want %d and %q", c.name, code, stderr, c.code, c.says)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("refused backups left files: %v", entries)
	}
	out, stderr, code := runCmd(t, "backup", "--db", "postgres://ops:s3cret@db.internal:5432/casino?sslmode=verify-full&pool_max_conns=32&io_timeout=30s&search_path=tables", "--to", "/backups/pg.dump")
	want := "pg_dump --format=custom --file=/backups/pg.dump --schema=tables 'postgres://ops@db.internal:5432/casino?sslmode=verify-full'"
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "pg_restore") || strings.Contains(out+stderr, "s3cret") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("backup of PostgreSQL: exit %d\n%s%s\nwant the line %s", code, out, stderr, want)
	}
}

// tableRound is the round a table is in.
func tableRound(t *testing.T, s *server, table string) uint64 {
	t.Helper()
	snap, err := s.host.Snapshot(table, "")
	if err != nil {
		t.Fatal(err)
	}
	return snap.State.Round
}

// backupWait polls cond for up to 20 s.
func backupWait(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("waited 20 s for %s", what)
}
