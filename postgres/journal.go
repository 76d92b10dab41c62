package postgres

import (
	"context"
	"errors"
	"github.com/jackc/pgx/v5/pgconn"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// Append writes sealed records atomically; see journal.Store.
func (db *DB) Append(ctx context.Context, records ...journal.Record) error {
	_, err := db.commit(ctx, journal.Batch{Records: records})
	return err
}

func checkTable(table string) error {
	if !baccarat.ValidStoredID(table) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a table id", table)
	}
	return nil
}

// Load returns a table's records from fromSeq on; see journal.Store.
func (db *DB) Load(ctx context.Context, table string, fromSeq uint64) ([]journal.Record, error) {
	return db.load(ctx, table, fromSeq, 1<<63-1)
}

func (db *DB) load(ctx context.Context, table string, fromSeq, toSeq uint64) ([]journal.Record, error) {
	if err := checkTable(table); err != nil {
		return nil, err
	}
	if fromSeq > 1<<63-1 || fromSeq > toSeq {
		return nil, nil
	}
	var out []journal.Record
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT seq, type, data, at_ns, prev, hash FROM journal
			WHERE table_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq`, table, int64(fromSeq), int64(min(toSeq, 1<<63-1)))
		if err != nil {
			return err
		}
		var r journal.Record
		var at int64
		var data, prev, hash []byte
		_, err = pgx.ForEachRow(rows, []any{&r.Seq, &r.Type, &data, &at, &prev, &hash}, func() error {
			r.Table, r.At = table, time.Unix(0, at).UTC()
			r.Data = append([]byte{}, data...)
			copy(r.Prev[:], prev)
			copy(r.Hash[:], hash)
			out = append(out, r)
			return nil
		})
		return err
	})
	return out, wrap("load", err)
}

// Tables lists the tables that have records; see journal.Store.
func (db *DB) Tables(ctx context.Context) ([]string, error) {
	var out []string
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT table_id FROM journal_heads WHERE seq > 0 ORDER BY table_id`)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return out, wrap("tables", err)
}

// Head is a table's head; see journal.Store.
func (db *DB) Head(ctx context.Context, table string) (journal.Head, error) {
	if err := checkTable(table); err != nil {
		return journal.Head{}, err
	}
	var h journal.Head
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var hash []byte
		err := c.QueryRow(ctx, `SELECT seq, hash FROM journal_heads WHERE table_id = $1`, table).Scan(&h.Seq, &hash)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		copy(h.Hash[:], hash)
		return err
	})
	return h, wrap("head", err)
}

// Acquire takes a table's lease; see journal.Store.
//
// A lease row locked by a commit under way (which holds it FOR SHARE) is not waited for: the
// table is taken, by its owner committing, and Acquire says so (false) at once, so that a
// server taking over tables is not held up by one, nor by a paused owner's open transaction
// (which PostgreSQL ends after idle_in_transaction_session_timeout: timeout.go).
func (db *DB) Acquire(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) (bool, error) {
	ok, err := journal.AcquireWith(ctx, func(ctx context.Context, table string, decide func(journal.Lease) (journal.Lease, error)) error {
		return db.lockLease(ctx, table, "FOR UPDATE NOWAIT", decide)
	}, table, owner, ttl, now)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "55P03" { // lock_not_available
		return false, nil
	}
	return ok, err
}

// Vacant lists the tables nobody holds at now; see journal.Vacancies.
func (db *DB) Vacant(ctx context.Context, owner string, now time.Time) ([]string, error) {
	var out []string
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT h.table_id FROM journal_heads h LEFT JOIN leases l ON l.table_id = h.table_id
			WHERE h.seq > 0 AND (l.table_id IS NULL OR l.owner = '' OR l.owner = $1 OR l.expires_ns <= $2) ORDER BY h.table_id`, owner, now.UnixNano())
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	return out, wrap("vacant", err)
}

// Renew extends a lease; see journal.Store.
func (db *DB) Renew(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) error {
	return journal.RenewWith(ctx, db.lease, table, owner, ttl, now)
}

// Release gives up a lease; see journal.Store.
func (db *DB) Release(ctx context.Context, table, owner string) error {
	return journal.ReleaseWith(ctx, db.lease, table, owner)
}

// lease locks a table's lease row (inserting a free one first, so there is a row to lock
// even for a table never leased), lets journal.Lease decide, and writes the result.
// Lease reads a table's lease; see journal.Store.
func (db *DB) Lease(ctx context.Context, table string) (journal.Lease, error) {
	l := journal.Lease{Table: table}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var exp int64
		err := c.QueryRow(ctx, `SELECT owner, expires_ns, epoch FROM leases WHERE table_id = $1`, table).Scan(&l.Owner, &exp, &l.Epoch)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err == nil && l.Owner != "" {
			l.Expires = time.Unix(0, exp).UTC()
		}
		return err
	})
	return l, wrap("lease", err)
}

func (db *DB) lease(ctx context.Context, table string, decide func(journal.Lease) (journal.Lease, error)) error {
	return db.lockLease(ctx, table, "FOR UPDATE", decide)
}

// lockLease is lease with the row lock given (FOR UPDATE, or FOR UPDATE NOWAIT).
func (db *DB) lockLease(ctx context.Context, table, lock string, decide func(journal.Lease) (journal.Lease, error)) error {
	return db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO leases (table_id, owner, expires_ns) VALUES ($1, '', 0) ON CONFLICT DO NOTHING`, table); err != nil {
			return err
		}
		l := journal.Lease{Table: table}
		var exp int64
		if err := tx.QueryRow(ctx, `SELECT owner, expires_ns, epoch FROM leases WHERE table_id = $1 `+lock, table).Scan(&l.Owner, &exp, &l.Epoch); err != nil {
			return err
		}
		if l.Owner != "" {
			l.Expires = time.Unix(0, exp).UTC()
		}
		next, err := decide(l)
		if err != nil {
			return err
		}
		var nexp int64
		if next.Owner != "" {
			nexp = next.Expires.UnixNano()
		}
		_, err = tx.Exec(ctx, `UPDATE leases SET owner = $2, expires_ns = $3, epoch = $4 WHERE table_id = $1`, table, next.Owner, nexp, next.Epoch)
		return err
	})
}
