package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/tablehouse/baccarat/journal"
)

var _ journal.Snapshots = (*DB)(nil)

// LatestSnapshot is a table's latest snapshot; see journal.Snapshots.
func (db *DB) LatestSnapshot(ctx context.Context, table string) (journal.Snapshot, bool, error) {
	s := journal.Snapshot{Table: table}
	err := db.queryRow(ctx, `SELECT seq, data FROM table_snapshots WHERE table_id = ? ORDER BY seq DESC LIMIT 1`, table).Scan(&s.Seq, &s.Data)
	if errors.Is(err, sql.ErrNoRows) {
		return s, false, nil
	}
	return s, err == nil, wrap("latest snapshot", err)
}

// SnapshotsOf is every snapshot of a table, oldest first; see journal.Snapshots.
func (db *DB) SnapshotsOf(ctx context.Context, table string) ([]journal.Snapshot, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT seq, data FROM table_snapshots WHERE table_id = ? ORDER BY seq`, table)
	if err != nil {
		return nil, wrap("snapshots", err)
	}
	defer rows.Close()
	var out []journal.Snapshot
	for rows.Next() {
		s := journal.Snapshot{Table: table}
		if err := rows.Scan(&s.Seq, &s.Data); err != nil {
			return nil, wrap("snapshots", err)
		}
		out = append(out, s)
	}
	return out, wrap("snapshots", rows.Err())
}

// LoadRange loads a table's records from fromSeq to toSeq; see journal.Snapshots.
func (db *DB) LoadRange(ctx context.Context, table string, fromSeq, toSeq uint64) ([]journal.Record, error) {
	return db.load(ctx, table, fromSeq, toSeq)
}
