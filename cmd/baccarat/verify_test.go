package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/sqlite"
)

// TestVerifyReadsOnly: verify ran migrations on the file it was given and passed an empty
// file. It opens read-only, refuses a file that is not a baccarat database, and fails on a
// database with no table unless --allow-empty.
func TestVerifyReadsOnly(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	text := filepath.Join(dir, "notes.txt")
	_ = os.WriteFile(empty, nil, 0o600)
	_ = os.WriteFile(text, []byte("not a database at all, just some text that is long enough"), 0o600)
	for _, c := range []struct {
		name, path, says string
	}{
		{"an empty file", empty, "not a baccarat database"},
		{"a text file", text, "not"},
		{"a missing file", filepath.Join(dir, "missing.db"), "no database"},
	} {
		before, _ := os.ReadFile(c.path)
		_, stderr, code := runCmd(t, "verify", "--db", c.path)
		after, _ := os.ReadFile(c.path)
		if code != 1 || !strings.Contains(stderr, c.says) || !bytes.Equal(before, after) {
			t.Errorf("verify on %s: exit %d, %q; changed the file: %v", c.name, code, stderr, !bytes.Equal(before, after))
		}
	}
	// A baccarat database with no table: refused unless asked.
	fresh := filepath.Join(dir, "fresh.db")
	db, err := sqlite.Open(context.Background(), fresh)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if out, _, code := runCmd(t, "verify", "--db", fresh); code != 1 || !strings.Contains(out, "no table") {
		t.Errorf("verify on a database with no table: exit %d\n%s", code, out)
	}
	if out, _, code := runCmd(t, "verify", "--db", fresh, "--allow-empty"); code != 0 {
		t.Errorf("verify --allow-empty: exit %d\n%s", code, out)
	}
	// Read-only: it runs beside a server holding the database's lock.
	x := startSecServer(t)
	if out, stderr, code := runCmd(t, "verify", "--db", x.s.DB); code != 0 {
		t.Errorf("verify beside a running server: exit %d\n%s%s", code, out, stderr)
	}
}
