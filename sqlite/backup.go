package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
)

// Summary is what a database holds, in the few numbers a backup is recognised by.
type Summary struct {
	Bytes    int64     // the file's size
	Schema   int       // the schema version: migrations applied
	Journals int       // hash-chained journals: one per table and per tournament
	Records  int64     // journal records in all
	Last     time.Time // the newest journal record's time (zero when there is none)
}

// Summary reads the numbers of db's Summary (all but Bytes, which is the file's).
func (db *DB) Summary(ctx context.Context) (Summary, error) {
	var s Summary
	var last sql.NullInt64
	err := db.r.QueryRowContext(ctx, `SELECT (SELECT COALESCE(MAX(version), 0) FROM schema_migrations),
		(SELECT COUNT(*) FROM journal_heads), (SELECT COUNT(*) FROM journal), (SELECT MAX(at) FROM journal)`).
		Scan(&s.Schema, &s.Journals, &s.Records, &last)
	if err != nil {
		return s, wrap("summary", err)
	}
	if last.Valid {
		s.Last = time.Unix(0, last.Int64).UTC()
	}
	return s, nil
}

// Backup writes a consistent copy of the database file src to dst and checks it: it opens,
// has a schema this program reads, and passes SQLite's quick_check. It may run while a
// server writes to src: like OpenReadOnly it takes no process lock, and the copy is made
// by VACUUM INTO on a read-only connection of its own, which reads one snapshot (under WAL
// a reader sees the database as of its transaction's start and never waits for the writer,
// nor holds it up). The copy is written beside dst under a temporary name, fsynced, checked
// and only then renamed to dst, so a backup that fails or is stopped leaves no half-written
// file under dst's name. An existing dst is refused unless replace.
func Backup(ctx context.Context, src, dst string, replace bool) (Summary, error) {
	if err := checkBackupPaths(src, dst, replace); err != nil {
		return Summary{}, err
	}
	ro, err := OpenReadOnly(ctx, src) // refuses a file that is not ours, before anything is written
	if err != nil {
		return Summary{}, err
	}
	ro.Close()
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".partial")
	_ = os.Remove(tmp) // a leftover of a backup that was stopped
	defer os.Remove(tmp)
	if err := vacuumInto(ctx, src, tmp); err != nil {
		return Summary{}, err
	}
	sum, err := checkCopy(ctx, tmp)
	if err != nil {
		return Summary{}, err
	}
	if !replace {
		if _, err := os.Lstat(dst); err == nil {
			return Summary{}, baccarat.Errorf(baccarat.CodeConflict, "%s appeared while the backup was written: nothing replaced", dst)
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		return Summary{}, fmt.Errorf("sqlite: backup: %w", err)
	}
	syncDir(filepath.Dir(dst))
	return sum, nil
}

// checkBackupPaths refuses a backup onto its own database (or its WAL, lock and secret
// files), into a directory that is not there, and over a file unless replace.
func checkBackupPaths(src, dst string, replace bool) error {
	for _, p := range []string{src, dst} {
		if p == "" || p == ":memory:" || strings.ContainsAny(p, "?#") {
			return baccarat.Errorf(baccarat.CodeBadRequest, "sqlite: %q is not a database file name", p)
		}
	}
	as, _ := filepath.Abs(src)
	ad, _ := filepath.Abs(dst)
	if ad == as || strings.HasPrefix(ad, as+"-") || strings.HasPrefix(ad, as+".") {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s is the database or one of its own files: write the copy elsewhere", dst)
	}
	if fi, err := os.Stat(filepath.Dir(dst)); err != nil || !fi.IsDir() {
		return baccarat.Errorf(baccarat.CodeBadRequest, "no directory %s to write %s in", filepath.Dir(dst), filepath.Base(dst))
	}
	fi, err := os.Lstat(dst)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("sqlite: backup: %w", err)
	case fi.IsDir():
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s is a directory", dst)
	case !replace:
		return baccarat.Errorf(baccarat.CodeConflict, "%s exists: give another name, or --force to replace it", dst)
	}
	return nil
}

// vacuumInto copies the database at src into the new file dst in one read transaction and
// fsyncs it (VACUUM INTO does not). The connection is read-only but not query_only, which
// would refuse VACUUM even into another file.
func vacuumInto(ctx context.Context, src, dst string) error {
	q := url.Values{"mode": {"ro"}, "_busy_timeout": {"10000"}}
	c, err := sql.Open("sqlite", "file:"+src+"?"+q.Encode())
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetMaxOpenConns(1)
	if _, err := c.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return wrap("backup", err)
	}
	f, err := os.Open(dst)
	if err != nil {
		return fmt.Errorf("sqlite: backup: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sqlite: backup: fsync %s: %w", dst, err)
	}
	return nil
}

// checkCopy opens the copy as verify would and checks its pages: a copy that does not open
// as ours, or that SQLite finds damaged, is no backup.
func checkCopy(ctx context.Context, path string) (Summary, error) {
	db, err := OpenReadOnly(ctx, path)
	if err != nil {
		return Summary{}, fmt.Errorf("sqlite: backup: the copy does not open: %w", err)
	}
	defer db.Close()
	var ok string
	if err := db.r.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&ok); err != nil || ok != "ok" {
		return Summary{}, fmt.Errorf("sqlite: backup: the copy fails quick_check: %q %v", ok, err)
	}
	sum, err := db.Summary(ctx)
	if err != nil {
		return sum, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return sum, fmt.Errorf("sqlite: backup: %w", err)
	}
	sum.Bytes = fi.Size()
	return sum, nil
}

// syncDir fsyncs a directory so that a rename in it survives a power cut; a file system
// that cannot sync a directory is left as it is.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
