package main

import (
	"context"
	"strings"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/postgres"
	"github.com/tablehouse/baccarat/sqlite"
)

// defaultDB is the embedded database a newcomer gets without flags.
const defaultDB = "./baccarat.db"

// storeCloser is a database the host can run on.
type storeCloser interface {
	live.Store
	Close() error
}

// openStore opens PostgreSQL for a postgres:// URL and SQLite for anything else (a file).
func openStore(ctx context.Context, dsn string) (storeCloser, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(ctx, strings.TrimPrefix(dsn, "sqlite:"))
}
