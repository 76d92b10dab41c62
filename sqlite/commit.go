package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

// writeStmts are the statements of the commit path, prepared once on the writer
// connection: a group commit of hundreds of wagers must not re-parse SQL for each row.
type writeStmts struct {
	headGet, headPut, acctGet, keyGet, maxTx  *sql.Stmt
	records, txs, entries, accounts, requests bulk
	rg                                        rgStmts // responsible.go
}

func (s *writeStmts) prepare(ctx context.Context, w *sql.DB) error {
	s.records = bulk{sql: `INSERT INTO journal (table_id, seq, type, data, at, prev, hash) VALUES `, cols: 7}
	s.txs = bulk{sql: `INSERT INTO ledger_transactions (id, key, digest, currency, memo, table_id, round, at) VALUES `, cols: 8}
	s.entries = bulk{sql: `INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance) VALUES `, cols: 5}
	s.requests = bulk{sql: `INSERT INTO wager_requests (player, request_id, table_id, digest, wager, at) VALUES `, cols: 6}
	s.accounts = bulk{sql: `UPDATE accounts SET balance = v.column2, entries = v.column3 FROM (VALUES `, cols: 3,
		tail: `) AS v WHERE accounts.id = v.column1`}
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.headGet, `SELECT seq, hash FROM journal_heads WHERE table_id = ?`},
		{&s.headPut, `INSERT INTO journal_heads (table_id, seq, hash) VALUES (?, ?, ?)
			ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`},
		// json_each takes the whole id list as one parameter, so one prepared statement reads
		// any number of accounts, each by primary key.
		{&s.acctGet, `SELECT a.id, a.balance, a.entries FROM json_each(?) j JOIN accounts a ON a.id = j.value`},
		{&s.keyGet, `SELECT t.key, t.digest FROM json_each(?) j JOIN ledger_transactions t ON t.key = j.value`},
		// Transaction ids are assigned under the write lock from the largest so far, so
		// entries can name their transaction without a round trip per row.
		{&s.maxTx, `SELECT COALESCE(MAX(id), 0) FROM ledger_transactions`},
	} {
		st, err := w.PrepareContext(ctx, p.sql)
		if err != nil {
			return wrap("prepare", err)
		}
		*p.stmt = st
	}
	for _, b := range []*bulk{&s.records, &s.txs, &s.entries, &s.accounts, &s.requests} {
		if err := b.prepare(ctx, w); err != nil {
			return err
		}
	}
	return s.rg.prepare(ctx, w)
}

func (s *writeStmts) close() {
	for _, st := range append([]*sql.Stmt{s.headGet, s.headPut, s.acctGet, s.keyGet, s.maxTx}, s.rg.all()...) {
		if st != nil {
			st.Close()
		}
	}
	for _, b := range []*bulk{&s.records, &s.txs, &s.entries, &s.accounts, &s.requests} {
		for _, st := range b.stmts {
			if st != nil {
				st.Close()
			}
		}
	}
}

// bulkSizes is the number of statements of each bulk kind: one for every power of two
// rows up to 2^(bulkSizes-1), so any count is written as a few multi-row statements
// (binary decomposition), all prepared at Open.
const bulkSizes = 8

// bulk is a multi-row statement "sql (?,…),(?,…) tail" prepared for 1, 2, 4 … 128 rows.
// One statement for many rows is what makes group commit cheap: per-statement overhead
// in database/sql and the driver outweighs SQLite's per-row work.
type bulk struct {
	sql, tail string
	cols      int
	stmts     [bulkSizes]*sql.Stmt
}

func (b *bulk) prepare(ctx context.Context, w *sql.DB) error {
	row := "(" + strings.Repeat("?, ", b.cols-1) + "?)"
	for i := range b.stmts {
		n := 1 << i
		q := b.sql + strings.Repeat(row+", ", n-1) + row + b.tail
		st, err := w.PrepareContext(ctx, q)
		if err != nil {
			return wrap("prepare", err)
		}
		b.stmts[i] = st
	}
	return nil
}

// exec writes args, b.cols values per row, in the fewest prepared statements. Every row
// must take effect: a row that changed nothing (an UPDATE of a missing account) is a bug
// and fails the commit.
func (b *bulk) exec(ctx context.Context, tx *sql.Tx, args []any) error {
	rows := len(args) / b.cols
	for rows > 0 {
		i := min(bits.Len(uint(rows))-1, bulkSizes-1)
		n := 1 << i
		res, err := tx.StmtContext(ctx, b.stmts[i]).ExecContext(ctx, args[:n*b.cols]...)
		if err != nil {
			return err
		}
		if got, err := res.RowsAffected(); err != nil || got != int64(n) {
			return fmt.Errorf("%d of %d rows written (%v)", got, n, err)
		}
		args, rows = args[n*b.cols:], rows-n
	}
	return nil
}

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

// commit is the one write path of books and journals: validate outside the lock, then,
// inside one IMMEDIATE transaction, read the heads and the books the batch touches, let
// journal.Advance and ledger.Snapshot.Apply decide, and write what they return.
func (db *DB) commit(ctx context.Context, b journal.Batch) (ledger.Changes, error) {
	if b.Empty() {
		return ledger.Changes{}, nil
	}
	if err := b.Validate(); err != nil {
		return ledger.Changes{}, err
	}
	tables := journal.TablesOf(b.Records)
	accounts, keys := ledger.Touched(b.Transactions)
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return ledger.Changes{}, wrap("begin", err)
	}
	defer tx.Rollback()
	// database/sql still rolls the transaction back if ctx is cancelled; the statements run
	// without ctx's cancellation because the driver watches it with a goroutine per
	// statement, a measurable cost in the commit profile.
	ctx = context.WithoutCancel(ctx)
	if f := b.Fence; f != nil {
		l, err := scanLease(f.Table, tx.QueryRowContext(ctx, `SELECT owner, expires, epoch FROM leases WHERE table_id = ?`, f.Table))
		if err != nil {
			return ledger.Changes{}, wrap("lease", err)
		}
		if err := f.Check(l); err != nil {
			return ledger.Changes{}, err
		}
	}
	heads, err := db.readHeads(ctx, tx, tables)
	if err != nil {
		return ledger.Changes{}, err
	}
	next, err := journal.Advance(heads, b.Records)
	if err != nil {
		return ledger.Changes{}, err
	}
	snap, err := db.readSnapshot(ctx, tx, accounts, keys)
	if err != nil {
		return ledger.Changes{}, err
	}
	ch, err := snap.Apply(b.Transactions)
	if err != nil {
		return ledger.Changes{}, err
	}
	if err := db.writeRecords(ctx, tx, b.Records, tables, next); err != nil {
		return ledger.Changes{}, err
	}
	if err := db.writeChanges(ctx, tx, ch); err != nil {
		return ledger.Changes{}, err
	}
	if err := db.writeRequests(ctx, tx, b.Requests); err != nil {
		return ledger.Changes{}, err
	}
	if err := db.writeWallet(ctx, tx, b.Placed, b.Calls); err != nil {
		return ledger.Changes{}, err
	}
	if err := db.bookPlays(ctx, tx, b.Plays); err != nil {
		return ledger.Changes{}, err
	}
	if s := b.Snapshot; s != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO table_snapshots (table_id, seq, data) VALUES (?, ?, ?)
			ON CONFLICT (table_id, seq) DO NOTHING`, s.Table, int64(s.Seq), s.Data); err != nil {
			return ledger.Changes{}, wrap("snapshot", err)
		}
	}
	return ch, wrap("commit", tx.Commit())
}

func (db *DB) readHeads(ctx context.Context, tx *sql.Tx, tables []string) (map[string]journal.Head, error) {
	heads := make(map[string]journal.Head, len(tables))
	if len(tables) == 0 {
		return heads, nil
	}
	st := tx.StmtContext(ctx, db.stmts.headGet)
	for _, t := range tables {
		var h journal.Head
		var hash []byte
		err := st.QueryRowContext(ctx, t).Scan(&h.Seq, &hash)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, wrap("read head", err)
		}
		copy(h.Hash[:], hash)
		heads[t] = h
	}
	return heads, nil
}

func (db *DB) readSnapshot(ctx context.Context, tx *sql.Tx, accounts, keys []string) (ledger.Snapshot, error) {
	snap := ledger.Snapshot{Accounts: make(map[string]ledger.AccountState, len(accounts)), Posted: map[string]ledger.Digest{}}
	if len(accounts) == 0 {
		return snap, nil
	}
	ids, _ := json.Marshal(accounts)
	rows, err := tx.StmtContext(ctx, db.stmts.acctGet).QueryContext(ctx, string(ids))
	if err != nil {
		return snap, wrap("read accounts", err)
	}
	for rows.Next() {
		var id string
		var st ledger.AccountState
		if err := rows.Scan(&id, &st.Balance, &st.Entries); err != nil {
			rows.Close()
			return snap, wrap("read accounts", err)
		}
		snap.Accounts[id] = st
	}
	if err := rows.Close(); err != nil {
		return snap, wrap("read accounts", err)
	}
	ks, _ := json.Marshal(keys)
	rows, err = tx.StmtContext(ctx, db.stmts.keyGet).QueryContext(ctx, string(ks))
	if err != nil {
		return snap, wrap("read keys", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		var d []byte
		if err := rows.Scan(&key, &d); err != nil {
			return snap, wrap("read keys", err)
		}
		snap.Posted[key] = ledger.Digest(d)
	}
	return snap, wrap("read keys", rows.Err())
}

func (db *DB) writeRecords(ctx context.Context, tx *sql.Tx, recs []journal.Record, tables []string, next map[string]journal.Head) error {
	if len(recs) == 0 {
		return nil
	}
	args := make([]any, 0, 7*len(recs))
	for _, r := range recs {
		args = append(args, r.Table, int64(r.Seq), r.Type, []byte(r.Data), r.At.UnixNano(), r.Prev[:], r.Hash[:])
	}
	if err := db.stmts.records.exec(ctx, tx, args); err != nil {
		return wrap("append", err)
	}
	st := tx.StmtContext(ctx, db.stmts.headPut)
	for _, t := range tables {
		h := next[t]
		if _, err := st.ExecContext(ctx, t, int64(h.Seq), h.Hash[:]); err != nil {
			return wrap("move head", err)
		}
	}
	return nil
}

func (db *DB) writeChanges(ctx context.Context, tx *sql.Tx, ch ledger.Changes) error {
	if len(ch.Applied) == 0 {
		return nil
	}
	var base int64
	if err := tx.StmtContext(ctx, db.stmts.maxTx).QueryRowContext(ctx).Scan(&base); err != nil {
		return wrap("post", err)
	}
	args := make([]any, 0, 8*len(ch.Applied))
	for i, t := range ch.Applied {
		args = append(args, base+1+int64(i), t.Key, ch.Digests[i][:], string(ch.Currencies[i]), t.Memo, t.Table, t.Round, t.At.UnixNano())
	}
	if err := db.stmts.txs.exec(ctx, tx, args); err != nil {
		return wrap("post", err)
	}
	args = args[:0]
	for _, e := range ch.Entries {
		args = append(args, e.Account, e.Seq, base+1+int64(e.Tx), e.Amount, e.Balance)
	}
	if err := db.stmts.entries.exec(ctx, tx, args); err != nil {
		return wrap("post", err)
	}
	args = args[:0]
	for _, a := range ch.Accounts {
		args = append(args, a.ID, a.Balance, a.Entries)
	}
	return wrap("post", db.stmts.accounts.exec(ctx, tx, args))
}
