// Package sqlite is the embedded store, the platform's default: books, journals and leases
// in one SQLite file through modernc.org/sqlite (pure Go, no cgo). It implements
// ledger.Store, journal.Store and journal.Committer and runs their conformance suites.
//
// Durability: the database is in WAL mode with synchronous=FULL, so a Commit that returned
// has been fsynced and survives power loss; that is what lets the live host acknowledge a
// wager after Commit. All writes go through one connection: SQLite admits one writer at a
// time anyway, and queueing in Go is cheaper and fairer than spinning on SQLITE_BUSY.
// Reads use a small pool of their own connections and never wait for the writer.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	migfile "github.com/tablehouse/baccarat/internal/migrations"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// DB is an open store.
type DB struct {
	lock  *os.File // the process lock (see lockFile); nil when read-only
	w     *sql.DB  // the one writer connection
	r     *sql.DB  // readers
	cp    *sql.DB  // the checkpointer
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once
	err   error
	stmts writeStmts
	reads sync.Map // query → *sql.Stmt on the readers (readStmt)
}

// CheckpointEvery is how often the WAL is copied into the database file, in the background.
// SQLite's own checkpoint runs inside whichever commit crosses its threshold and stalls it
// (and every wager in that group commit) for as long as it takes to write and fsync the
// database file: on a busy table that was the slowest wager of the day. A passive
// checkpoint from another connection waits for nobody and blocks nobody.
const CheckpointEvery = 500 * time.Millisecond

// Readers is the size of the read connection pool.
const Readers = 4

// Open opens (creating if need be) the database file at path and brings its schema up to
// date. path is a file name; ":memory:" is refused because readers and the writer must
// share one database.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" || path == ":memory:" || strings.ContainsAny(path, "?#") {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "sqlite: %q is not a database file name", path)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "10000") // other processes (a backup, the CLI) may hold the lock briefly
	q.Set("_foreign_keys", "1")
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL") // fsync the WAL on every commit: durable before acknowledged
	// The writer's page cache holds the hot wallets and b-tree edges of a busy day; the
	// default 2 MB makes group commits re-read pages from the OS.
	wq := url.Values{"_txlock": {"immediate"}, "_pragma": {"cache_size(-65536)", "wal_autocheckpoint(0)"}}
	for k, v := range q {
		wq[k] = v
	}
	lock, err := lockFile(path)
	if err != nil {
		return nil, err
	}
	db := &DB{lock: lock}
	if db.w, err = sql.Open("sqlite", "file:"+path+"?"+wq.Encode()); err != nil {
		db.unlock()
		return nil, err
	}
	db.w.SetMaxOpenConns(1)
	db.w.SetMaxIdleConns(1)
	db.w.SetConnMaxLifetime(0)
	db.w.SetConnMaxIdleTime(0)
	if err := migrate(ctx, db.w); err != nil {
		db.w.Close()
		db.unlock()
		return nil, err
	}
	q.Set("_query_only", "1")
	if db.r, err = sql.Open("sqlite", "file:"+path+"?"+q.Encode()); err != nil {
		db.w.Close()
		db.unlock()
		return nil, err
	}
	db.r.SetMaxOpenConns(Readers)
	db.r.SetMaxIdleConns(Readers)
	if db.cp, err = sql.Open("sqlite", "file:"+path+"?"+q2(q)); err != nil {
		db.w.Close()
		db.r.Close()
		db.unlock()
		return nil, err
	}
	db.cp.SetMaxOpenConns(1)
	db.stop, db.done = make(chan struct{}), make(chan struct{})
	go db.checkpoints()
	if err := db.stmts.prepare(ctx, db.w); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// q2 is the connection options without query_only: the checkpointer writes the file.
func q2(q url.Values) string {
	c := url.Values{}
	for k, v := range q {
		if k != "_query_only" {
			c[k] = v
		}
	}
	return c.Encode()
}

func (db *DB) checkpoints() {
	defer close(db.done)
	t := time.NewTicker(CheckpointEvery)
	defer t.Stop()
	for {
		select {
		case <-db.stop:
			_, _ = db.cp.Exec("PRAGMA wal_checkpoint(PASSIVE)")
			return
		case <-t.C:
			_, _ = db.cp.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
}

// Close closes the database; closing it again does nothing.
func (db *DB) Close() error {
	db.once.Do(func() {
		if db.stop != nil {
			close(db.stop)
			<-db.done
		}
		db.stmts.close()
		db.reads.Range(func(_, st any) bool { st.(*sql.Stmt).Close(); return true })
		if db.cp != nil {
			db.err = errors.Join(db.r.Close(), db.w.Close(), db.cp.Close())
		} else {
			db.err = db.r.Close() // read-only: w is r
		}
		db.unlock()
	})
	return db.err
}

func (db *DB) unlock() {
	if db.lock != nil {
		db.lock.Close()
		db.lock = nil
	}
}

// OpenReadOnly opens a database file for reading only, as an auditor does: it takes no
// lock, runs no migration and writes nothing, so it can read a database a server is
// using. A file that does not exist, is not SQLite, or is not a baccarat database (no
// schema, or a newer one than this program knows) is refused.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if path == "" || path == ":memory:" || strings.ContainsAny(path, "?#") {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "sqlite: %q is not a database file name", path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, baccarat.Errorf(baccarat.CodeNotFound, "no database at %s", path)
	}
	q := url.Values{"mode": {"ro"}, "_busy_timeout": {"10000"}, "_query_only": {"1"}}
	r, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(Readers)
	db := &DB{w: r, r: r}
	if err := db.checkSchema(ctx, path); err != nil {
		r.Close()
		return nil, err
	}
	return db, nil
}

// checkSchema refuses a file that is not a baccarat database of a version this program
// reads.
func (db *DB) checkSchema(ctx context.Context, path string) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var have int
	err = db.r.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have)
	if err != nil || have == 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s is not a baccarat database (no schema of ours in it)", path)
	}
	if have > len(ms) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s is at schema version %d, newer than this program's %d: use a newer baccarat", path, have, len(ms))
	}
	return nil
}

//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration = migfile.Migration

// migrations are the embedded files migrations/NNNN_name.sql in order.
func migrations() ([]migration, error) { return migfile.Read(migrationFiles, "sqlite") }

// migrate applies the migrations not yet recorded in schema_migrations, all in one
// transaction: a failed upgrade leaves the schema as it was.
func migrate(ctx context.Context, w *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("migrate", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)`); err != nil {
		return wrap("migrate", err)
	}
	var have int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return wrap("migrate", err)
	}
	if have > len(ms) {
		return fmt.Errorf("sqlite: the database is at schema version %d, newer than this program's %d", have, len(ms))
	}
	for _, m := range ms[have:] {
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name); err != nil {
			return wrap("migrate", err)
		}
	}
	return wrap("migrate", tx.Commit())
}

// wrap turns a driver error into the platform's: SQLITE_BUSY (another process held the lock
// past the busy timeout) is busy; anything else is internal, wrapped so callers can still
// see context.Canceled and the like.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var be *baccarat.Error
	if errors.As(err, &be) {
		return err
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY:
			return baccarat.Errorf(baccarat.CodeBusy, "sqlite: %s: the database is locked by another process; try again", op)
		case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_NOMEM:
			// The disk is full or failing: nothing was written, and the same request may
			// succeed once it is mended (503, retry), unlike a refusal or a bug.
			return baccarat.Errorf(baccarat.CodeUnavailable, "sqlite: %s: the database cannot be written now (%v): nothing was done; try again in a moment", op, err)
		}
	}
	return fmt.Errorf("sqlite: %s: %w", op, err)
}

// LimitGrowth lets the database grow by at most pages pages from now on (PRAGMA
// max_page_count on the writer), as a disk that fills would; a negative pages lifts the
// limit. It is how tests see a full disk refused as unavailable, nothing half-written, and
// the server go on once there is room again.
func (db *DB) LimitGrowth(ctx context.Context, pages int) error {
	limit := int64(1073741823) // SQLite's largest
	if pages >= 0 {
		var n int64
		if err := db.w.QueryRowContext(ctx, `PRAGMA page_count`).Scan(&n); err != nil {
			return wrap("limit growth", err)
		}
		limit = n + int64(pages)
	}
	var got int64
	return wrap("limit growth", db.w.QueryRowContext(ctx, `PRAGMA max_page_count = `+strconv.FormatInt(limit, 10)).Scan(&got))
}

// queryRow runs a one-row query on the readers through a statement prepared once: the
// queries asked on every request (a token's account, a wager's request id, a balance) would
// otherwise be parsed again each time, which under thousands of players was a tenth of the
// server's time.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, ok := db.reads.Load(query)
	if !ok {
		prepared, err := db.r.PrepareContext(ctx, query)
		if err != nil {
			return db.r.QueryRowContext(ctx, query, args...) // the error, as the query gives it
		}
		if st, ok = db.reads.LoadOrStore(query, prepared); ok {
			prepared.Close()
		} else {
			st = prepared
		}
	}
	return st.(*sql.Stmt).QueryRowContext(ctx, args...)
}
