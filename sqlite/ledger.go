package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

// OpenAccount opens an account; see ledger.Store.
func (db *DB) OpenAccount(ctx context.Context, id string) error {
	a, err := ledger.ParseAccount(id)
	if err != nil {
		return err
	}
	_, err = db.w.ExecContext(ctx, `INSERT INTO accounts (id, kind, currency) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		id, a.Kind.String(), string(a.Currency))
	return wrap("open account", err)
}

// Post applies one transaction; see ledger.Store.
func (db *DB) Post(ctx context.Context, tx ledger.Transaction) (bool, error) {
	ch, err := db.commit(ctx, journal.Batch{Transactions: []ledger.Transaction{tx}})
	return len(ch.Applied) == 1, err
}

// Balance is an open account's balance; see ledger.Store.
func (db *DB) Balance(ctx context.Context, id string) (baccarat.Money, error) {
	if _, err := ledger.ParseAccount(id); err != nil {
		return 0, err
	}
	var bal baccarat.Money
	err := db.queryRow(ctx, `SELECT balance FROM accounts WHERE id = ?`, id).Scan(&bal)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, ledger.NotOpen(id)
	}
	return bal, wrap("balance", err)
}

// Statement lists an account's entries; see ledger.Store.
func (db *DB) Statement(ctx context.Context, id string, page ledger.Page) ([]ledger.Entry, error) {
	if _, err := ledger.ParseAccount(id); err != nil {
		return nil, err
	}
	page, err := page.Norm()
	if err != nil {
		return nil, err
	}
	return db.entries(ctx, id, `e.seq > ? ORDER BY e.seq`, page.After, page.Limit)
}

// StatementBefore lists an account's entries newest first; see ledger.NewestFirst.
func (db *DB) StatementBefore(ctx context.Context, id string, before int64, limit int) ([]ledger.Entry, error) {
	if _, err := ledger.ParseAccount(id); err != nil {
		return nil, err
	}
	page, err := ledger.Page{After: before, Limit: limit}.Norm()
	if err != nil {
		return nil, err
	}
	if before == 0 {
		before = math.MaxInt64
	}
	return db.entries(ctx, id, `e.seq < ? ORDER BY e.seq DESC`, before, page.Limit)
}

// entries reads up to limit of an account's entries from seq on, in the order cond gives
// (cond: the seq's bound with one parameter, then ORDER BY), in one read transaction that
// first tells an account never opened from one with no entries.
func (db *DB) entries(ctx context.Context, id, cond string, from int64, limit int) ([]ledger.Entry, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, wrap("statement", err)
	}
	defer tx.Rollback()
	var one int
	if err := tx.QueryRowContext(ctx, `SELECT 1 FROM accounts WHERE id = ?`, id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
		return nil, ledger.NotOpen(id)
	} else if err != nil {
		return nil, wrap("statement", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT e.seq, t.key, e.amount, e.balance, t.memo, t.table_id, t.round, t.at
		FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.tx_id
		WHERE e.account_id = ? AND `+cond+` LIMIT ?`, id, from, limit)
	if err != nil {
		return nil, wrap("statement", err)
	}
	defer rows.Close()
	var out []ledger.Entry
	for rows.Next() {
		var e ledger.Entry
		var at int64
		if err := rows.Scan(&e.Seq, &e.Key, &e.Amount, &e.Balance, &e.Memo, &e.Table, &e.Round, &at); err != nil {
			return nil, wrap("statement", err)
		}
		e.At = time.Unix(0, at).UTC()
		out = append(out, e)
	}
	return out, wrap("statement", rows.Err())
}

// Accounts lists open accounts by id prefix; see ledger.Store.
func (db *DB) Accounts(ctx context.Context, prefix string) ([]ledger.AccountBalance, error) {
	// Account ids are printable ASCII, so every id starting with prefix sorts below
	// prefix+"\x7f": a range scan of the primary key, with no LIKE wildcards to escape.
	rows, err := db.r.QueryContext(ctx, `SELECT id, balance FROM accounts WHERE id >= ? AND id < ? ORDER BY id`,
		prefix, prefix+"\x7f")
	if err != nil {
		return nil, wrap("accounts", err)
	}
	defer rows.Close()
	var out []ledger.AccountBalance
	for rows.Next() {
		var a ledger.AccountBalance
		if err := rows.Scan(&a.ID, &a.Balance); err != nil {
			return nil, wrap("accounts", err)
		}
		out = append(out, a)
	}
	return out, wrap("accounts", rows.Err())
}

// Check audits the books in one read transaction, so a concurrent commit is either wholly
// in the figures or wholly out; see ledger.Audit for the rules.
func (db *DB) Check(ctx context.Context) error {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return wrap("check", err)
	}
	defer tx.Rollback()
	audit, err := readAudit(ctx, tx)
	if err != nil {
		return wrap("check", err)
	}
	return audit.Check()
}

// The audit queries only gather figures; ledger.Audit.Check judges them.
const (
	auditAccounts = `SELECT a.id, a.balance, a.entries, COALESCE(e.total, 0), COALESCE(e.n, 0)
		FROM accounts a LEFT JOIN (SELECT account_id, SUM(amount) AS total, COUNT(*) AS n
			FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
		ORDER BY a.id`
	auditBreaks = `SELECT account_id, COUNT(*) FROM (
			SELECT account_id, seq, amount, balance,
				LAG(balance, 1, 0) OVER w AS prev, ROW_NUMBER() OVER w AS n
			FROM ledger_entries WINDOW w AS (PARTITION BY account_id ORDER BY seq)) x
		WHERE balance <> prev + amount OR seq <> n GROUP BY account_id`
	auditUnbalanced = `SELECT t.key FROM ledger_transactions t
		LEFT JOIN ledger_entries e ON e.tx_id = t.id LEFT JOIN accounts a ON a.id = e.account_id
		GROUP BY t.id, t.key, t.currency
		HAVING COALESCE(SUM(e.amount), 0) <> 0 OR COUNT(e.amount) < 2 OR COUNT(a.id) <> COUNT(e.amount)
			OR COUNT(DISTINCT a.currency) <> 1 OR MIN(a.currency) <> t.currency
		UNION ALL
		SELECT 'entry ' || e.account_id || ' #' || e.seq || ' of no transaction' FROM ledger_entries e
		WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = e.tx_id)
		LIMIT 10`
)

func readAudit(ctx context.Context, tx *sql.Tx) (ledger.Audit, error) {
	var audit ledger.Audit
	rows, err := tx.QueryContext(ctx, auditAccounts)
	if err != nil {
		return audit, err
	}
	defer rows.Close()
	index := map[string]int{}
	for rows.Next() {
		var a ledger.AccountAudit
		if err := rows.Scan(&a.ID, &a.Balance, &a.Entries, &a.Sum, &a.Count); err != nil {
			return audit, err
		}
		index[a.ID] = len(audit.Accounts)
		audit.Accounts = append(audit.Accounts, a)
	}
	if err := rows.Err(); err != nil {
		return audit, err
	}
	rows, err = tx.QueryContext(ctx, auditBreaks)
	if err != nil {
		return audit, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return audit, err
		}
		if i, ok := index[id]; ok {
			audit.Accounts[i].Breaks = n
		}
	}
	if err := rows.Err(); err != nil {
		return audit, err
	}
	rows, err = tx.QueryContext(ctx, auditUnbalanced)
	if err != nil {
		return audit, err
	}
	defer rows.Close()
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return audit, err
		}
		audit.Unbalanced = append(audit.Unbalanced, key)
	}
	return audit, rows.Err()
}
