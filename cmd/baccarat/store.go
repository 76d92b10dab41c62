package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

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
		if err := checkPostgres(ctx, dsn); err != nil {
			return nil, err
		}
		return postgres.Open(ctx, dsn)
	}
	return sqlite.Open(ctx, strings.TrimPrefix(dsn, "sqlite:"))
}

// openReadOnly opens a database for reading only (verify, reconcile): no lock, no migration,
// no write, and a database that is not ours is refused; one that cannot be reached is said
// to be that, not a database that is not ours.
func openReadOnly(ctx context.Context, dsn string) (storeCloser, error) {
	if isPostgres(dsn) {
		if err := checkPostgres(ctx, dsn); err != nil {
			return nil, err
		}
		return postgres.OpenReadOnly(ctx, dsn)
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	db, err := sqlite.OpenReadOnly(ctx, path)
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		return nil, baccarat.Errorf(baccarat.CodeNotFound, "no database at %s: give --db", path)
	}
	return db, err
}

// connectWait is how long checkPostgres waits for a server when the connection string sets
// no connect_timeout: an address that drops packets would otherwise take minutes to fail.
const connectWait = 30 * time.Second

// checkPostgres connects once to the server dsn names, so that one that cannot be reached
// (refused, an unknown host, a wrong password, no such database) is reported as a connection
// failure naming its address, and never as a database that is not ours. The message carries
// no password. A dsn that does not parse is left to the store, which says what is wrong.
func checkPostgres(ctx context.Context, dsn string) error {
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil
	}
	cfg := pc.ConnConfig
	if cfg.ConnectTimeout == 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, connectWait)
		defer cancel()
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		why, hint := connectReason(ctx, err)
		if cfg.Password != "" {
			why = strings.ReplaceAll(why, cfg.Password, "********")
		}
		return baccarat.Errorf(baccarat.CodeUnavailable, "cannot connect to PostgreSQL at %s (database %q, user %q): %s: %s",
			pgAddress(&cfg.Config), cfg.Database, cfg.User, why, hint)
	}
	_ = conn.Close(ctx)
	return nil
}

// connectReason is why a connection failed, in the fewest words, and what to do: the
// server's refusal (authentication, no such database), the network's (connection refused,
// no such host), or the wait running out.
func connectReason(ctx context.Context, err error) (why, hint string) {
	const network = "is the server running there, and is --db right?"
	var pgErr *pgconn.PgError
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.As(err, &pgErr):
		return fmt.Sprintf("%s (SQLSTATE %s)", pgErr.Message, pgErr.Code), "check the user, password and database --db names"
	case errors.As(err, &dnsErr):
		return dnsErr.Error(), network
	case errors.As(err, &opErr) && opErr.Err != nil:
		return opErr.Err.Error(), network
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "no answer in time", network
	}
	// pgx names the user and database first, and each address it tried on a line.
	msg := err.Error()
	if _, rest, ok := strings.Cut(msg, "`:"); ok {
		msg = rest
	}
	var lines []string
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "; "), network
}

// pgAddress is where a connection goes: host:port, or the Unix socket.
func pgAddress(cfg *pgconn.Config) string {
	if strings.HasPrefix(cfg.Host, "/") {
		return fmt.Sprintf("%s/.s.PGSQL.%d", cfg.Host, cfg.Port)
	}
	return net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
}

// shownDB is --db as it may be printed or logged: a PostgreSQL URL's password replaced.
func shownDB(dsn string) string {
	if !isPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://…" // it will not connect either; say nothing of what it holds
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "REDACTED")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
