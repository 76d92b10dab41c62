package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

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
	rows, err := db.r.QueryContext(ctx, `SELECT seq, type, data, at, prev, hash FROM journal
		WHERE table_id = ? AND seq >= ? AND seq <= ? ORDER BY seq`, table, int64(fromSeq), int64(min(toSeq, 1<<63-1)))
	if err != nil {
		return nil, wrap("load", err)
	}
	defer rows.Close()
	var out []journal.Record
	for rows.Next() {
		r := journal.Record{Table: table}
		var at int64
		var prev, hash []byte
		if err := rows.Scan(&r.Seq, &r.Type, &r.Data, &at, &prev, &hash); err != nil {
			return nil, wrap("load", err)
		}
		r.At = time.Unix(0, at).UTC()
		copy(r.Prev[:], prev)
		copy(r.Hash[:], hash)
		out = append(out, r)
	}
	return out, wrap("load", rows.Err())
}

// Tables lists the tables that have records; see journal.Store.
func (db *DB) Tables(ctx context.Context) ([]string, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT table_id FROM journal_heads ORDER BY table_id`)
	if err != nil {
		return nil, wrap("tables", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, wrap("tables", err)
		}
		out = append(out, t)
	}
	return out, wrap("tables", rows.Err())
}

// Head is a table's head; see journal.Store.
func (db *DB) Head(ctx context.Context, table string) (journal.Head, error) {
	if err := checkTable(table); err != nil {
		return journal.Head{}, err
	}
	var h journal.Head
	var hash []byte
	err := db.queryRow(ctx, `SELECT seq, hash FROM journal_heads WHERE table_id = ?`, table).Scan(&h.Seq, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return journal.Head{}, nil
	}
	copy(h.Hash[:], hash)
	return h, wrap("head", err)
}

// Acquire takes a table's lease; see journal.Store.
func (db *DB) Acquire(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) (bool, error) {
	return journal.AcquireWith(ctx, db.lease, table, owner, ttl, now)
}

// Seize takes a table's lease whoever holds it; see journal.Seizer.
func (db *DB) Seize(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) error {
	return journal.SeizeWith(ctx, db.lease, table, owner, ttl, now)
}

// Vacant lists the tables nobody holds at now; see journal.Vacancies.
func (db *DB) Vacant(ctx context.Context, owner string, now time.Time) ([]string, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT h.table_id FROM journal_heads h LEFT JOIN leases l ON l.table_id = h.table_id
		WHERE l.table_id IS NULL OR l.owner = '' OR l.owner = ? OR l.expires <= ? ORDER BY h.table_id`, owner, now.UnixNano())
	if err != nil {
		return nil, wrap("vacant", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, wrap("vacant", err)
		}
		out = append(out, t)
	}
	return out, wrap("vacant", rows.Err())
}

// Renew extends a lease; see journal.Store.
func (db *DB) Renew(ctx context.Context, table, owner string, ttl time.Duration, now time.Time) error {
	return journal.RenewWith(ctx, db.lease, table, owner, ttl, now)
}

// Release gives up a lease; see journal.Store.
func (db *DB) Release(ctx context.Context, table, owner string) error {
	return journal.ReleaseWith(ctx, db.lease, table, owner)
}

// Lease reads a table's lease; see journal.Store.
func (db *DB) Lease(ctx context.Context, table string) (journal.Lease, error) {
	l, err := scanLease(table, db.queryRow(ctx, `SELECT owner, expires, epoch FROM leases WHERE table_id = ?`, table))
	return l, wrap("lease", err)
}

// scanLease reads a lease row (owner, expires, epoch); no row is a lease nobody ever held.
// A released lease keeps its row and epoch, with no owner.
func scanLease(table string, row interface{ Scan(...any) error }) (journal.Lease, error) {
	l := journal.Lease{Table: table}
	var exp int64
	err := row.Scan(&l.Owner, &exp, &l.Epoch)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return l, nil
	case err != nil:
		return l, err
	}
	if l.Owner != "" {
		l.Expires = time.Unix(0, exp).UTC()
	}
	return l, nil
}

// lease reads a table's lease, lets journal.Lease decide, and writes the result, in one
// writer transaction. A released lease keeps its row (owner ”), and with it its epoch.
func (db *DB) lease(ctx context.Context, table string, decide func(journal.Lease) (journal.Lease, error)) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("lease", err)
	}
	defer tx.Rollback()
	l, err := scanLease(table, tx.QueryRowContext(ctx, `SELECT owner, expires, epoch FROM leases WHERE table_id = ?`, table))
	if err != nil {
		return wrap("lease", err)
	}
	next, err := decide(l)
	if err != nil || next == l {
		return err
	}
	var exp int64
	if next.Owner != "" {
		exp = next.Expires.UnixNano()
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO leases (table_id, owner, expires, epoch) VALUES (?, ?, ?, ?)
		ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires, epoch = excluded.epoch`,
		table, next.Owner, exp, next.Epoch)
	if err != nil {
		return wrap("lease", err)
	}
	return wrap("lease", tx.Commit())
}
