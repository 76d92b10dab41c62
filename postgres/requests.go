package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tablehouse/baccarat/journal"
)

var _ journal.Requests = (*DB)(nil)

// Request finds a player's wager request id; see journal.Requests.
func (db *DB) Request(ctx context.Context, player, id string) (journal.Request, bool, error) {
	r := journal.Request{Player: player, ID: id}
	found := false
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var at int64
		err := c.QueryRow(ctx, `SELECT table_id, digest, wager, at_ns FROM wager_requests WHERE player = $1 AND request_id = $2`,
			player, id).Scan(&r.Table, &r.Digest, &r.Wager, &at)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found, r.At = err == nil, time.Unix(0, at).UTC()
		return err
	})
	if !found {
		return journal.Request{}, false, wrap("request", err)
	}
	return r, true, nil
}

var _ journal.ManyRequests = (*DB)(nil)

// RequestsOf finds many request ids in one statement; see journal.ManyRequests.
func (db *DB) RequestsOf(ctx context.Context, keys []journal.RequestKey) ([]journal.Request, error) {
	out := make([]journal.Request, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	players, ids := make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		players[i], ids[i] = k.Player, k.ID
	}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT k.i, w.table_id, w.digest, w.wager, w.at_ns
			FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(player, id, i)
			JOIN wager_requests w ON w.player = k.player AND w.request_id = k.id`, players, ids)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var i, at int64
			var r journal.Request
			if err := rows.Scan(&i, &r.Table, &r.Digest, &r.Wager, &at); err != nil {
				return err
			}
			k := keys[i-1]
			r.Player, r.ID, r.At = k.Player, k.ID, time.Unix(0, at).UTC()
			out[i-1] = r
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap("requests", err)
	}
	return out, nil
}

// PruneRequests forgets request ids written before before; see journal.Requests.
func (db *DB) PruneRequests(ctx context.Context, before time.Time) (int64, error) {
	var n int64
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		tag, err := c.Exec(ctx, `DELETE FROM wager_requests WHERE at_ns < $1`, before.UnixNano())
		n = tag.RowsAffected()
		return err
	})
	return n, wrap("prune requests", err)
}

// queueRequests adds a batch's request ids to a commit. ON CONFLICT DO NOTHING and a row
// count, rather than a unique violation, so that the transaction is not aborted before
// inTx sees which request it was.
func queueRequests(batch *pgx.Batch, reqs []journal.Request) {
	n := len(reqs)
	players, ids, tables, digests, wagers, ats := make([]string, n), make([]string, n), make([]string, n),
		make([]string, n), make([][]byte, n), make([]int64, n)
	for i, r := range reqs {
		players[i], ids[i], tables[i], digests[i], wagers[i], ats[i] = r.Player, r.ID, r.Table, r.Digest, r.Wager, r.At.UnixNano()
	}
	batch.Queue(`INSERT INTO wager_requests (player, request_id, table_id, digest, wager, at_ns)
		SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[], $6::bigint[])
		ON CONFLICT DO NOTHING`, players, ids, tables, digests, wagers, ats).Exec(func(tag pgconn.CommandTag) error {
		if tag.RowsAffected() != int64(n) {
			return journal.DuplicateRequest(reqs[0].Player, reqs[0].ID)
		}
		return nil
	})
}
