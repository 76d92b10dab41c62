// Package postgres is the store for operators who outgrow one machine: the same
// ledger.Store, journal.Store and journal.Committer as package sqlite, on PostgreSQL through
// pgx, passing the same conformance suites.
//
// Several servers may share one database (ARCHITECTURE, Scaling out). What keeps them
// honest is the database, not the servers: every commit locks the journal heads and then
// the accounts it touches with SELECT … FOR UPDATE, each in sorted id order so two commits
// cannot deadlock; the ledger rows go in the same transaction; idempotency keys are UNIQUE;
// and CHECK constraints refuse an overdrawn wallet whatever code runs.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/tablehouse/baccarat"
	migfile "github.com/tablehouse/baccarat/internal/migrations"
)

// DefaultMaxConns is the connection pool size Open uses unless the connection string sets
// pool_max_conns (postgres://…?pool_max_conns=32): a server with thousands of players
// reading accounts and request ids beside its commits may want more.
const DefaultMaxConns = 8

// DB is an open store: a pgxpool of connections, dialled when first needed.
type DB struct {
	pool *pgxpool.Pool
}

// Open connects to the database named by dsn (a postgres:// URL or key=value string; a
// search_path parameter selects the schema) and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*DB, error) {
	cfg, n, err := parse(dsn)
	if err != nil {
		return nil, err
	}
	return OpenConfig(ctx, cfg, n)
}

// parse reads a connection string and the pool size it asks for (pool_max_conns, which
// pgxpool takes out of what it sends the server), DefaultMaxConns when it names none.
func parse(dsn string) (*pgx.ConnConfig, int, error) {
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, 0, baccarat.Errorf(baccarat.CodeBadRequest, "postgres: %v", err)
	}
	n := DefaultMaxConns
	if strings.Contains(dsn, "pool_max_conns") {
		n = int(pc.MaxConns)
	}
	cfg := pc.ConnConfig
	timeout := DefaultIOTimeout
	if s, ok := cfg.RuntimeParams[ioTimeoutParam]; ok {
		delete(cfg.RuntimeParams, ioTimeoutParam) // ours, not the server's
		if timeout, err = time.ParseDuration(s); err != nil || timeout < 0 {
			return nil, 0, baccarat.Errorf(baccarat.CodeBadRequest, "postgres: %s=%q: give a duration such as 10s (0: none)", ioTimeoutParam, s)
		}
	}
	withTimeouts(cfg, timeout)
	return cfg, n, nil
}

// OpenConfig is Open with a parsed configuration and a pool size; tests use it to set
// RuntimeParams["search_path"] to a schema of their own.
func OpenConfig(ctx context.Context, cfg *pgx.ConnConfig, maxConns int) (*DB, error) {
	if maxConns < 1 {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "postgres: pool size %d must be at least 1", maxConns)
	}
	cfg = cfg.Copy()
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
		// Every commit query takes arrays whose length varies per batch; a generic plan,
		// which PostgreSQL adopts after five executions of a prepared statement, assumes a
		// length and can scan a whole table for a 64-key lookup. Custom plans cost a little
		// planning and stay index lookups.
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	db, err := newDB(cfg, maxConns)
	if err != nil {
		return nil, err
	}
	if err := db.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// OpenReadOnly connects for reading only, as an auditor does: every transaction is READ
// ONLY, no migration runs, and a database without our schema (or with a newer one) is
// refused.
func OpenReadOnly(ctx context.Context, dsn string) (*DB, error) {
	cfg, _, err := parse(dsn)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	db, err := newDB(cfg, 2)
	if err != nil {
		return nil, err
	}
	var have int
	err = db.withConn(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have)
	})
	switch {
	case err != nil && baccarat.ErrorCode(err) == baccarat.CodeUnavailable:
		db.Close()
		return nil, err // cannot connect: say so, not that it is some other database
	case err != nil || have == 0:
		db.Close()
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "postgres: this is not a baccarat database (no schema of ours in it)")
	case have > len(ms):
		db.Close()
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "postgres: the database is at schema version %d, newer than this program's %d", have, len(ms))
	}
	return db, nil
}

// newDB makes the pool: pgxpool's defaults (connection lifetimes, health checks) with cfg's
// connection settings and at most maxConns connections. It dials nothing yet.
func newDB(cfg *pgx.ConnConfig, maxConns int) (*DB, error) {
	pc, err := pgxpool.ParseConfig("")
	if err != nil {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "postgres: %v", err)
	}
	pc.ConnConfig = cfg
	pc.MaxConns = int32(min(maxConns, math.MaxInt32))
	p, err := pgxpool.NewWithConfig(context.Background(), pc)
	if err != nil {
		return nil, wrap("connect", err)
	}
	return &DB{pool: p}, nil
}

// MaxConns is the most connections the store opens at once.
func (db *DB) MaxConns() int { return int(db.pool.Config().MaxConns) }

// Close closes the connections, waiting for those in use to be released.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// withConn runs fn on a pooled connection. A connection fn leaves in a transaction (an
// error left it in an unknown state) is closed on release rather than reused.
func (db *DB) withConn(ctx context.Context, fn func(c *pgx.Conn) error) error {
	c, err := db.pool.Acquire(ctx)
	if err != nil {
		return wrap("connect", err)
	}
	defer c.Release()
	return fn(c.Conn())
}

// errRetry asks inTx to run its transaction again: a concurrent commit got in first in a
// way the locks could not order (the same new key on disjoint accounts).
var errRetry = errors.New("postgres: retry")

// maxAttempts bounds inTx's retries; each retry sees the winner's commit, so one is
// nearly always enough.
const maxAttempts = 5

// inTx runs fn in a transaction with the given options, committing if it returns nil and
// rolling back otherwise. It retries fn on errRetry, deadlocks and serialization failures.
func (db *DB) inTx(ctx context.Context, opts pgx.TxOptions, fn func(tx pgx.Tx) error) error {
	return retrying(func() error {
		return db.withConn(ctx, func(c *pgx.Conn) error {
			return pgx.BeginTxFunc(ctx, c, opts, fn)
		})
	})
}

// retrying runs attempt until it succeeds or fails for good, at most maxAttempts times.
func retrying(attempt func() error) error {
	var err error
	for range maxAttempts {
		if err = attempt(); !retryable(err) {
			return wrap("transaction", err)
		}
	}
	return baccarat.Errorf(baccarat.CodeBusy, "postgres: gave up after %d attempts: %v", maxAttempts, err)
}

func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.Is(err, errRetry) || (errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01"))
}

// wrap passes *baccarat.Error through, makes a database out of reach unavailable (timeout.go)
// and wraps anything else as internal, keeping the cause (context.Canceled, a
// *pgconn.PgError) for errors.Is and errors.As.
func wrap(op string, err error) error {
	var be *baccarat.Error
	if err == nil || errors.As(err, &be) {
		return err
	}
	if unavailable(err) {
		return errUnavailable(op, err)
	}
	return fmt.Errorf("postgres: %s: %w", op, err)
}

//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration = migfile.Migration

// migrations are the embedded files migrations/NNNN_name.sql in order.
func migrations() ([]migration, error) { return migfile.Read(migrationFiles, "postgres") }

// migrate applies the migrations not yet recorded in schema_migrations in one
// transaction, holding an advisory lock on the schema so that servers starting together
// migrate once.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	return db.withConn(ctx, func(c *pgx.Conn) error {
		return wrap("migrate", pgx.BeginFunc(ctx, c, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('baccarat migrations ' || current_schema()))`); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
				version    INTEGER PRIMARY KEY,
				name       TEXT NOT NULL,
				applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
				return err
			}
			var have int
			if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
				return err
			}
			if have > len(ms) {
				return fmt.Errorf("the database is at schema version %d, newer than this program's %d", have, len(ms))
			}
			for _, m := range ms[have:] {
				if _, err := tx.Exec(ctx, m.SQL); err != nil {
					return fmt.Errorf("migration %s: %w", m.Name, err)
				}
				if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
					return err
				}
			}
			return nil
		}))
	})
}
