package main

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tablehouse/baccarat/cluster"
)

// natsWithPassword starts a NATS server of the test's own that takes one user and password,
// on a free port of 127.0.0.1; its URL.
func natsWithPassword(t *testing.T, user, password string) string {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nats-server"); serr != nil {
			t.Skip("nats-server is not installed")
		}
		bin = "/usr/sbin/nats-server"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(bin, "-a", "127.0.0.1", "-p", fmt.Sprint(port), "--user", user, "--pass", password)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for range 100 {
		if c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			c.Close()
			return fmt.Sprintf("nats://127.0.0.1:%d", port)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("nats-server did not start")
	return ""
}

// pgTestSchema is the test database's URL with a schema of the test's own, dropped after it;
// the test skips without BACCARAT_TEST_POSTGRES.
func pgTestSchema(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("BACCARAT_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("BACCARAT_TEST_POSTGRES is needed")
	}
	ctx := context.Background()
	schema := fmt.Sprintf("cmd_%016x", rand.Uint64())
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, dsn); err == nil {
			_, _ = c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			c.Close(ctx)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema
}

// TestServeJoinsAClusterOnlyWithItsCredentialsAndSecret: a server joins NATS with the user
// and password an operator gives it (the password from the environment, never on the
// command line nor in the log), is refused with a wrong one (the message says so, without
// the password), and does not join a cluster at all without the shared secret that seals
// its messages.
func TestServeJoinsAClusterOnlyWithItsCredentialsAndSecret(t *testing.T) {
	pg := pgTestSchema(t)
	url := natsWithPassword(t, "baccarat", "s3cret-pass")
	dir := t.TempDir()
	config := filepath.Join(dir, "c.json")
	if err := os.WriteFile(config, []byte(`{"tables":[],"demo_credit":0}`), 0o600); err != nil {
		t.Fatal(err)
	}
	secretFile := filepath.Join(dir, "secret")
	if err := os.WriteFile(secretFile, []byte("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	start := func(password string, secret bool) (*server, string, error) {
		t.Setenv("BACCARAT_NATS_PASSWORD", password)
		log := &lockedBuffer{}
		s := &server{Addr: "127.0.0.1:0", DB: pg, Config: config, NATS: url, Log: slog.New(slog.NewJSONHandler(log, nil)),
			Demo: demoTournaments{Off: true}, Cluster: clusterFlags{Prefix: fmt.Sprintf("t%d", time.Now().UnixNano()), User: "baccarat"}}
		if secret {
			s.Cluster.SecretFile = secretFile
		}
		err := s.Start(context.Background())
		if err == nil {
			t.Cleanup(s.Close)
		}
		return s, log.String(), err
	}
	if _, log, err := start("wrong", true); err == nil || strings.Contains(err.Error(), "wrong") || strings.Contains(log, "wrong") {
		t.Fatalf("a wrong password: %v; log %q", err, log)
	} else if !strings.Contains(err.Error(), "credentials") {
		t.Fatalf("the refusal should say the credentials may be wrong: %v", err)
	}
	if _, _, err := start("s3cret-pass", false); err == nil || !strings.Contains(err.Error(), "secret") {
		t.Fatalf("no shared secret: %v", err)
	}
	s, log, err := start("s3cret-pass", true)
	if err != nil {
		t.Fatal(err)
	}
	if s.node == nil || strings.Contains(log, "s3cret-pass") {
		t.Fatalf("joined: %v; the log holds the password: %v", s.node != nil, strings.Contains(log, "s3cret-pass"))
	}
	if got := cluster.Redact("nats://u:p4ss@h1:4222,v:q@h2:4222"); strings.Contains(got, "p4ss") || strings.Contains(got, ":q@") {
		t.Fatalf("Redact left a password: %s", got)
	}
}

// TestTheDatabasePasswordIsNeverShown: what serve prints and logs of --db holds no password.
func TestTheDatabasePasswordIsNeverShown(t *testing.T) {
	for _, dsn := range []string{"postgres://u:s3cret@db:5432/x", "postgres://db/x?user=u&password=s3cret", "postgresql://u:s3cret@db/x?sslmode=require"} {
		if got := shownDB(dsn); strings.Contains(got, "s3cret") {
			t.Errorf("%s shown as %s", dsn, got)
		}
	}
	if got := shownDB("./baccarat.db"); got != "./baccarat.db" {
		t.Errorf("a file name shown as %s", got)
	}
}
