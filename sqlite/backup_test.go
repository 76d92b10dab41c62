package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/sqlite"
)

// appendRecords appends n records to table's journal, one transaction each, the first at
// t0 and a second apart.
func appendRecords(t *testing.T, db *sqlite.DB, table string, n int, t0 time.Time) {
	t.Helper()
	ctx := t.Context()
	h, err := db.Head(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		r := journal.Seal(h, journal.Record{Table: table, Type: "note", Data: []byte(`{}`), At: t0.Add(time.Duration(i) * time.Second)})
		if err := db.Append(ctx, r); err != nil {
			t.Fatal(err)
		}
		h = r.Head()
	}
}

func TestBackupIsAConsistentCopyWhileTheOwnerWrites(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "live.db")
	db, err := sqlite.Open(t.Context(), src) // holds the process lock, as a server does
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	t0 := time.Date(2026, 11, 18, 11, 6, 40, 0, time.UTC)
	appendRecords(t, db, "tiger", 50, t0)

	// A writer goes on appending while two backups are taken.
	ctx, stop := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	going := make(chan struct{})
	wg.Go(func() {
		h, _ := db.Head(ctx, "punto")
		for at := t0; ctx.Err() == nil; at = at.Add(time.Second) {
			r := journal.Seal(h, journal.Record{Table: "punto", Type: "note", Data: []byte(`{}`), At: at})
			if db.Append(ctx, r) == nil {
				if h = r.Head(); h.Seq == 20 {
					close(going)
				}
			}
		}
	})
	<-going
	dst := filepath.Join(dir, "copy.db")
	sum, err := sqlite.Backup(t.Context(), src, dst, false)
	stop()
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Bytes != fi.Size() || sum.Schema < 1 || sum.Records < 50 || sum.Journals < 1 || sum.Last.Before(t0.Add(49*time.Second)) {
		t.Errorf("summary %+v (file %d bytes): want the file's size, a schema, at least the 50 tiger records up to %s", sum, fi.Size(), t0.Add(49*time.Second))
	}
	// The copy is a database of its own: every chain in it whole (a snapshot, not a torn
	// read), and it opens as a server would open it.
	cp, err := sqlite.OpenReadOnly(t.Context(), dst)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	tables, err := cp.Tables(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		recs, err := cp.Load(t.Context(), table, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := journal.Verify(recs); err != nil {
			t.Errorf("the copy's %s journal: %v", table, err)
		}
		h, _ := cp.Head(t.Context(), table)
		if len(recs) == 0 || recs[len(recs)-1].Head() != h {
			t.Errorf("the copy's %s journal: %d records, head %d: torn", table, len(recs), h.Seq)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".copy.db*")); len(leftovers) > 0 {
		t.Errorf("left behind: %v", leftovers)
	}
}

func TestBackupRefusals(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "live.db")
	db, err := sqlite.Open(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	appendRecords(t, db, "tiger", 3, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	notOurs := filepath.Join(dir, "notours.db")
	if err := os.WriteFile(notOurs, []byte("not a database"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, src, dst string
		code           baccarat.Code
	}{
		{"an existing file is not replaced without --force", src, existing, baccarat.CodeConflict},
		{"the database itself is no destination", src, src, baccarat.CodeBadRequest},
		{"nor its WAL", src, src + "-wal", baccarat.CodeBadRequest},
		{"nor a directory", src, dir, baccarat.CodeBadRequest},
		{"nor a directory that is not there", src, filepath.Join(dir, "no", "such.db"), baccarat.CodeBadRequest},
		{"a file that is not ours is refused", notOurs, filepath.Join(dir, "x.db"), baccarat.CodeBadRequest},
		{"a database that is not there is refused", filepath.Join(dir, "none.db"), filepath.Join(dir, "y.db"), baccarat.CodeNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := sqlite.Backup(t.Context(), c.src, c.dst, false)
			if got := baccarat.ErrorCode(err); got != c.code {
				t.Fatalf("got %v (%s), want %s", err, got, c.code)
			}
		})
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("the existing file was changed: %q", b)
	}
	for _, p := range []string{"x.db", "y.db", ".existing.db.partial", ".x.db.partial"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was left behind", p)
		}
	}
	t.Run("--force replaces an existing file with the copy", func(t *testing.T) {
		sum, err := sqlite.Backup(t.Context(), src, existing, true)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Records != 3 || sum.Journals != 1 || !sum.Last.Equal(time.Date(2026, 1, 2, 3, 4, 7, 0, time.UTC)) {
			t.Errorf("summary %+v: want 3 records of 1 journal, the last at 03:04:07", sum)
		}
		if b, _ := os.ReadFile(existing); strings.HasPrefix(string(b), "keep me") {
			t.Error("not replaced")
		}
	})
}

func TestBackupOfAClosedDatabase(t *testing.T) {
	// No server: the WAL was checkpointed and removed at close, and a read-only connection
	// still reads the file.
	dir := t.TempDir()
	src := filepath.Join(dir, "closed.db")
	db, err := sqlite.Open(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	appendRecords(t, db, "tiger", 2, time.Unix(1795000000, 0))
	db.Close()
	sum, err := sqlite.Backup(t.Context(), src, filepath.Join(dir, "copy.db"), false)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Records != 2 {
		t.Errorf("summary %+v: want 2 records", sum)
	}
	again, err := sqlite.Open(t.Context(), filepath.Join(dir, "copy.db")) // a restored copy serves
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	appendRecords(t, again, "tiger", 1, time.Unix(1795000100, 0))
}
