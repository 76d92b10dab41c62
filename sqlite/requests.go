package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/tablehouse/baccarat/journal"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var _ journal.Requests = (*DB)(nil)

// Request finds a player's wager request id; see journal.Requests.
func (db *DB) Request(ctx context.Context, player, id string) (journal.Request, bool, error) {
	r := journal.Request{Player: player, ID: id}
	var at int64
	err := db.queryRow(ctx, `SELECT table_id, digest, wager, at FROM wager_requests WHERE player = ? AND request_id = ?`,
		player, id).Scan(&r.Table, &r.Digest, &r.Wager, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return journal.Request{}, false, nil
	}
	if err != nil {
		return journal.Request{}, false, wrap("request", err)
	}
	r.At = time.Unix(0, at).UTC()
	return r, true, nil
}

// PruneRequests forgets request ids written before before; see journal.Requests.
func (db *DB) PruneRequests(ctx context.Context, before time.Time) (int64, error) {
	res, err := db.w.ExecContext(ctx, `DELETE FROM wager_requests WHERE at < ?`, before.UnixNano())
	if err != nil {
		return 0, wrap("prune requests", err)
	}
	n, err := res.RowsAffected()
	return n, wrap("prune requests", err)
}

// writeRequests inserts a batch's request ids; one already there fails the commit with
// idempotency_conflict.
func (db *DB) writeRequests(ctx context.Context, tx *sql.Tx, reqs []journal.Request) error {
	if len(reqs) == 0 {
		return nil
	}
	args := make([]any, 0, 6*len(reqs))
	for _, r := range reqs {
		args = append(args, r.Player, r.ID, r.Table, r.Digest, []byte(r.Wager), r.At.UnixNano())
	}
	err := db.stmts.requests.exec(ctx, tx, args)
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY {
		for _, r := range reqs {
			if _, ok, _ := db.requestIn(ctx, tx, r.Player, r.ID); ok {
				return journal.DuplicateRequest(r.Player, r.ID)
			}
		}
		return journal.DuplicateRequest(reqs[0].Player, reqs[0].ID)
	}
	return wrap("requests", err)
}

func (db *DB) requestIn(ctx context.Context, tx *sql.Tx, player, id string) (string, bool, error) {
	var table string
	err := tx.QueryRowContext(ctx, `SELECT table_id FROM wager_requests WHERE player = ? AND request_id = ?`, player, id).Scan(&table)
	if err != nil {
		return "", false, err
	}
	return table, true, nil
}
