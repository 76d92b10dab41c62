package main

import (
	"context"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/postgres"
	"github.com/tablehouse/baccarat/sqlite"
)

// defaultDB is the embedded database a newcomer gets without flags.
const defaultDB = "./baccarat.db"

// storeCloser is a database the host can run on.
type storeCloser interface {
	live.Store
	access.Store
	Close() error
}

// openStore opens PostgreSQL for a postgres:// URL and SQLite for anything else (a file).
func openStore(ctx context.Context, dsn string) (storeCloser, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(ctx, strings.TrimPrefix(dsn, "sqlite:"))
}

// openReadOnly opens a database for reading only (verify): no lock, no migration, no write,
// and a database that is not ours is refused.
func openReadOnly(ctx context.Context, dsn string) (storeCloser, error) {
	if isPostgres(dsn) {
		return postgres.OpenReadOnly(ctx, dsn)
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	db, err := sqlite.OpenReadOnly(ctx, path)
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		return nil, baccarat.Errorf(baccarat.CodeNotFound, "no database at %s: give --db", path)
	}
	return db, err
}
