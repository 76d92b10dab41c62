package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/tablehouse/baccarat/journal"
)

var _ journal.Snapshots = (*DB)(nil)

// LatestSnapshot is a table's latest snapshot; see journal.Snapshots.
func (db *DB) LatestSnapshot(ctx context.Context, table string) (journal.Snapshot, bool, error) {
	s := journal.Snapshot{Table: table}
	found := false
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		err := c.QueryRow(ctx, `SELECT seq, data FROM table_snapshots WHERE table_id = $1 ORDER BY seq DESC LIMIT 1`, table).Scan(&s.Seq, &s.Data)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	return s, found, wrap("latest snapshot", err)
}

// SnapshotsOf is every snapshot of a table, oldest first; see journal.Snapshots.
func (db *DB) SnapshotsOf(ctx context.Context, table string) ([]journal.Snapshot, error) {
	var out []journal.Snapshot
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT seq, data FROM table_snapshots WHERE table_id = $1 ORDER BY seq`, table)
		if err != nil {
			return err
		}
		var s journal.Snapshot
		_, err = pgx.ForEachRow(rows, []any{&s.Seq, &s.Data}, func() error {
			out = append(out, journal.Snapshot{Table: table, Seq: s.Seq, Data: append([]byte(nil), s.Data...)})
			return nil
		})
		return err
	})
	return out, wrap("snapshots", err)
}

// LoadRange loads a table's records from fromSeq to toSeq; see journal.Snapshots.
func (db *DB) LoadRange(ctx context.Context, table string, fromSeq, toSeq uint64) ([]journal.Record, error) {
	return db.load(ctx, table, fromSeq, toSeq)
}
