package postgres

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tablehouse/baccarat"
)

// Timeouts. A database that refuses connections answers at once, but one whose packets are
// dropped (a cut network, a frozen host) would hold every request until the client gave up:
// so connecting is bounded (DefaultConnectTimeout, or connect_timeout in the connection
// string), and so is every wait for the server's next bytes once a query is sent
// (DefaultIOTimeout, or io_timeout=30s in the connection string, which is ours and is not
// sent to the server). A request that passes either fails with unavailable (503, retry
// after a moment) instead of hanging.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultIOTimeout      = 10 * time.Second
)

// ioTimeoutParam is the connection string parameter that sets the I/O timeout.
const ioTimeoutParam = "io_timeout"

// DefaultIdleInTransaction is how long PostgreSQL lets a session of ours sit in an open
// transaction without a word (idle_in_transaction_session_timeout, unless the connection
// string sets it): our transactions never pause, so one that does belongs to a server that
// was paused or cut off mid-commit, and the locks it holds (a table's lease row among them)
// must not keep the server taking its tables over waiting.
const DefaultIdleInTransaction = "5s"

// withTimeouts sets cfg's connect timeout and idle-in-transaction timeout (unless the
// connection string set them) and makes its connections fail a read or write that waits
// longer than ioTimeout.
func withTimeouts(cfg *pgx.ConnConfig, ioTimeout time.Duration) {
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if _, set := cfg.RuntimeParams["idle_in_transaction_session_timeout"]; !set {
		cfg.RuntimeParams["idle_in_transaction_session_timeout"] = DefaultIdleInTransaction
	}
	if ioTimeout <= 0 {
		return
	}
	dial := cfg.DialFunc
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &timeoutConn{Conn: c, timeout: ioTimeout}, nil
	}
}

// timeoutConn bounds each read and write by its timeout, and by any deadline pgx sets
// itself (to interrupt a query whose context ended).
type timeoutConn struct {
	net.Conn
	timeout time.Duration

	mu          sync.Mutex
	read, write time.Time // pgx's own deadlines; zero: none
}

func (c *timeoutConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	c.read, c.write = t, t
	c.mu.Unlock()
	return c.Conn.SetDeadline(t)
}

func (c *timeoutConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.read = t
	c.mu.Unlock()
	return c.Conn.SetReadDeadline(t)
}

func (c *timeoutConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.write = t
	c.mu.Unlock()
	return c.Conn.SetWriteDeadline(t)
}

func (c *timeoutConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	d := earlier(c.read, time.Now().Add(c.timeout))
	c.mu.Unlock()
	if err := c.Conn.SetReadDeadline(d); err != nil {
		return 0, err
	}
	return c.Conn.Read(b)
}

func (c *timeoutConn) Write(b []byte) (int, error) {
	c.mu.Lock()
	d := earlier(c.write, time.Now().Add(c.timeout))
	c.mu.Unlock()
	if err := c.Conn.SetWriteDeadline(d); err != nil {
		return 0, err
	}
	return c.Conn.Write(b)
}

func earlier(set, bound time.Time) time.Time {
	if !set.IsZero() && set.Before(bound) {
		return set
	}
	return bound
}

// unavailable reports whether err means the database cannot be reached or cannot serve now
// (refused or dropped connections, timeouts, a server shutting down or out of resources),
// as opposed to a refusal or a bug: worth a 503 and a retry.
func unavailable(err error) bool {
	var ne net.Error
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	switch {
	case errors.Is(err, context.Canceled):
		return false // the caller went away
	case errors.As(err, &pe):
		c := pe.Code
		return len(c) == 5 && (c[:2] == "08" || c[:2] == "53" || c[:2] == "58" || c == "57P01" || c == "57P02" || c == "57P03")
	case errors.As(err, &ce), errors.As(err, &ne), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EPIPE), pgconn.Timeout(err):
		return true
	}
	return err != nil && (err.Error() == "closed pool" || pgconn.SafeToRetry(err))
}

// errUnavailable is what a store call answers when the database is out of reach.
func errUnavailable(op string, err error) error {
	return baccarat.Errorf(baccarat.CodeUnavailable, "postgres: %s: the database cannot be reached now (%v): nothing was done; try again in a moment", op, err)
}
