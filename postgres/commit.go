package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
)

// DB is the whole store: books, journals and their atomic commit.
var _ interface {
	ledger.Store
	journal.Store
	journal.Committer
	journal.Requests
} = (*DB)(nil)

// CommitBalances is Commit, and the balances after it of the accounts it changed; see
// journal.BalanceCommitter.
func (db *DB) CommitBalances(ctx context.Context, b journal.Batch) (map[string]baccarat.Money, error) {
	ch, err := db.commit(ctx, b)
	if err != nil {
		return nil, err
	}
	out := make(map[string]baccarat.Money, len(ch.Accounts))
	for _, a := range ch.Accounts {
		out[a.ID] = a.Balance
	}
	return out, nil
}

// Commit writes b in one transaction; see journal.Committer.
func (db *DB) Commit(ctx context.Context, b journal.Batch) error {
	_, err := db.commit(ctx, b)
	return err
}

// commit is the one write path of books and journals. It validates outside any
// transaction, then in one READ COMMITTED transaction: locks the heads of the batch's
// tables, then its accounts, each FOR UPDATE in sorted order; reads the keys already
// posted (after the locks, so a commit that held them is visible); lets journal.Advance
// and ledger.Snapshot.Apply decide; and writes what they return. Each phase is one
// pipelined round trip whatever the batch size: arrays in, unnest in SQL.
func (db *DB) commit(ctx context.Context, b journal.Batch) (ledger.Changes, error) {
	if b.Empty() {
		return ledger.Changes{}, nil
	}
	if err := b.Validate(); err != nil {
		return ledger.Changes{}, err
	}
	tables := journal.TablesOf(b.Records)
	accounts, keys := ledger.Touched(b.Transactions)
	var ch ledger.Changes
	err := db.commitTx(ctx, func(c *pgx.Conn) error {
		heads, snap, ids, lease, err := readState(ctx, c, b.Fence, tables, accounts, keys, len(b.Transactions))
		if err != nil {
			return err
		}
		if b.Fence != nil {
			if err := b.Fence.Check(lease); err != nil {
				return err
			}
		}
		next, err := journal.Advance(heads, b.Records)
		if err != nil {
			return err
		}
		if ch, err = snap.Apply(b.Transactions); err != nil {
			return err
		}
		plays, err := bookPlays(ctx, c, b.Plays)
		if err != nil {
			return err
		}
		return write(ctx, c, b, next, ch, ids, plays)
	})
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "journal_pkey" {
		// The head lock makes this unreachable; the primary key is the second line of
		// defence, and what it reports is the same conflict.
		return ledger.Changes{}, baccarat.Errorf(baccarat.CodeConflict, "journal: another writer appended the same seq")
	}
	if err != nil {
		return ledger.Changes{}, err
	}
	return ch, nil
}

var zeroHash journal.Hash

// commitTx runs fn in a READ COMMITTED transaction that fn's first batch opens (readState
// sends BEGIN with its reads: one round trip fewer than a separate BEGIN), commits it if fn
// returns nil and rolls it back otherwise. Like inTx it retries on errRetry, deadlocks and
// serialization failures.
func (db *DB) commitTx(ctx context.Context, fn func(c *pgx.Conn) error) error {
	return retrying(func() error {
		return db.withConn(ctx, func(c *pgx.Conn) error {
			err := fn(c)
			if err == nil {
				_, err = c.Exec(ctx, "COMMIT")
			}
			if err != nil && c.PgConn().TxStatus() != 'I' {
				// Still in the transaction (or its aborted remains): end it before the
				// connection goes back to the pool. A broken connection is dropped by the pool.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
				_, _ = c.Exec(rctx, "ROLLBACK")
				cancel()
			}
			return err
		})
	})
}

// readState opens the transaction and locks and reads, in one round trip, what a batch
// depends on, and reserves transaction ids so the writes need no RETURNING round trip. With
// a fence it first reads the fenced table's lease FOR SHARE: a takeover (which locks the
// row FOR UPDATE) waits for this commit to end, and so loads the journal with it.
func readState(ctx context.Context, c *pgx.Conn, fence *journal.Fence, tables, accounts, keys []string, ntx int) (
	map[string]journal.Head, ledger.Snapshot, []int64, journal.Lease, error) {
	heads := make(map[string]journal.Head, len(tables))
	snap := ledger.Snapshot{Accounts: make(map[string]ledger.AccountState, len(accounts)), Posted: map[string]ledger.Digest{}}
	ids := make([]int64, 0, ntx)
	var lease journal.Lease
	batch := &pgx.Batch{}
	batch.Queue(`BEGIN ISOLATION LEVEL READ COMMITTED`)
	if fence != nil {
		lease.Table = fence.Table
		batch.Queue(`SELECT owner, expires_ns, epoch FROM leases WHERE table_id = $1 FOR SHARE`, fence.Table).Query(func(rows pgx.Rows) error {
			var exp int64
			_, err := pgx.ForEachRow(rows, []any{&lease.Owner, &exp, &lease.Epoch}, func() error {
				if lease.Owner != "" {
					lease.Expires = time.Unix(0, exp).UTC()
				}
				return nil
			})
			return err
		})
	}
	if len(tables) > 0 {
		// A new table gets a placeholder head row first, so that there is a row to lock.
		batch.Queue(`INSERT INTO journal_heads (table_id, seq, hash)
			SELECT t, 0, $2 FROM unnest($1::text[]) AS t ORDER BY t ON CONFLICT DO NOTHING`, tables, zeroHash[:])
		batch.Queue(`SELECT table_id, seq, hash FROM journal_heads WHERE table_id = ANY($1) ORDER BY table_id FOR UPDATE`,
			tables).Query(func(rows pgx.Rows) error {
			var t string
			var h journal.Head
			var hash []byte
			_, err := pgx.ForEachRow(rows, []any{&t, &h.Seq, &hash}, func() error {
				copy(h.Hash[:], hash)
				heads[t] = h
				return nil
			})
			return err
		})
	}
	if len(accounts) > 0 {
		batch.Queue(`SELECT id, balance, entries FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`,
			accounts).Query(func(rows pgx.Rows) error {
			var id string
			var st ledger.AccountState
			_, err := pgx.ForEachRow(rows, []any{&id, &st.Balance, &st.Entries}, func() error {
				snap.Accounts[id] = st
				return nil
			})
			return err
		})
		batch.Queue(`SELECT key, digest FROM ledger_transactions WHERE key = ANY($1)`, keys).Query(func(rows pgx.Rows) error {
			var key string
			var d []byte
			_, err := pgx.ForEachRow(rows, []any{&key, &d}, func() error {
				snap.Posted[key] = ledger.Digest(d)
				return nil
			})
			return err
		})
		batch.Queue(`SELECT nextval('ledger_transactions_id_seq') FROM generate_series(1, $1)`, ntx).Query(func(rows pgx.Rows) error {
			var id int64
			_, err := pgx.ForEachRow(rows, []any{&id}, func() error {
				ids = append(ids, id)
				return nil
			})
			return err
		})
	}
	err := c.SendBatch(ctx, batch).Close()
	return heads, snap, ids, lease, err
}

// write sends every insert and update of a commit in one pipelined round trip.
func write(ctx context.Context, c *pgx.Conn, b journal.Batch, next map[string]journal.Head, ch ledger.Changes, ids []int64, plays responsible.Changes) error {
	batch := &pgx.Batch{}
	queuePlays(batch, plays)
	if len(b.Records) > 0 {
		queueRecords(batch, b.Records, next)
	}
	if len(b.Requests) > 0 {
		queueRequests(batch, b.Requests)
	}
	queueWallet(batch, b.Placed, b.Calls)
	if s := b.Snapshot; s != nil {
		batch.Queue(`INSERT INTO table_snapshots (table_id, seq, data) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, s.Table, int64(s.Seq), s.Data)
	}
	if len(ch.Applied) > 0 {
		keys, digests, curs, memos, tables := make([]string, len(ch.Applied)), make([][]byte, len(ch.Applied)),
			make([]string, len(ch.Applied)), make([]string, len(ch.Applied)), make([]string, len(ch.Applied))
		rounds, ats := make([]int64, len(ch.Applied)), make([]int64, len(ch.Applied))
		for i, t := range ch.Applied {
			keys[i], digests[i], curs[i], memos[i], tables[i] = t.Key, ch.Digests[i][:], string(ch.Currencies[i]), t.Memo, t.Table
			rounds[i], ats[i] = int64(t.Round), t.At.UnixNano()
		}
		n := len(ch.Applied)
		batch.Queue(`INSERT INTO ledger_transactions (id, key, digest, currency, memo, table_id, round, at_ns)
			SELECT * FROM unnest($1::bigint[], $2::text[], $3::bytea[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::bigint[])
			ON CONFLICT (key) DO NOTHING`, ids[:n], keys, digests, curs, memos, tables, rounds, ats).Exec(func(tag pgconn.CommandTag) error {
			if tag.RowsAffected() != int64(n) {
				return errRetry // another transaction posted one of these keys since we looked
			}
			return nil
		})
		queueEntries(batch, ch, ids)
	}
	return c.SendBatch(ctx, batch).Close()
}

func queueRecords(batch *pgx.Batch, recs []journal.Record, next map[string]journal.Head) {
	n := len(recs)
	tables, types, data, prevs, hashes := make([]string, n), make([]string, n), make([][]byte, n), make([][]byte, n), make([][]byte, n)
	seqs, ats := make([]int64, n), make([]int64, n)
	for i, r := range recs {
		tables[i], types[i], data[i] = r.Table, r.Type, []byte(r.Data)
		prevs[i], hashes[i] = r.Prev[:], r.Hash[:]
		seqs[i], ats[i] = int64(r.Seq), r.At.UnixNano()
	}
	batch.Queue(`INSERT INTO journal (table_id, seq, type, data, at_ns, prev, hash)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bytea[], $5::bigint[], $6::bytea[], $7::bytea[])`,
		tables, seqs, types, data, ats, prevs, hashes)
	ht, hs, hh := make([]string, 0, len(next)), make([]int64, 0, len(next)), make([][]byte, 0, len(next))
	for t, h := range next {
		ht, hs, hh = append(ht, t), append(hs, int64(h.Seq)), append(hh, h.Hash[:])
	}
	batch.Queue(`UPDATE journal_heads h SET seq = v.seq, hash = v.hash
		FROM unnest($1::text[], $2::bigint[], $3::bytea[]) AS v (table_id, seq, hash) WHERE h.table_id = v.table_id`, ht, hs, hh)
}

func queueEntries(batch *pgx.Batch, ch ledger.Changes, ids []int64) {
	n := len(ch.Entries)
	accts, seqs, txs, amounts, bals := make([]string, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	for i, e := range ch.Entries {
		accts[i], seqs[i], txs[i], amounts[i], bals[i] = e.Account, e.Seq, ids[e.Tx], int64(e.Amount), int64(e.Balance)
	}
	batch.Queue(`INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])`, accts, seqs, txs, amounts, bals)
	m := len(ch.Accounts)
	ids2, bal2, ent2 := make([]string, m), make([]int64, m), make([]int64, m)
	for i, a := range ch.Accounts {
		ids2[i], bal2[i], ent2[i] = a.ID, int64(a.Balance), a.Entries
	}
	batch.Queue(`UPDATE accounts a SET balance = v.balance, entries = v.entries
		FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS v (id, balance, entries) WHERE a.id = v.id`,
		ids2, bal2, ent2).Exec(func(tag pgconn.CommandTag) error {
		if tag.RowsAffected() != int64(m) {
			return fmt.Errorf("updated %d of %d accounts", tag.RowsAffected(), m) // they were locked: a bug
		}
		return nil
	})
}
