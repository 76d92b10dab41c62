package postgres

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
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
	return db.withConn(ctx, func(c *pgx.Conn) error {
		_, err := c.Exec(ctx, `INSERT INTO accounts (id, kind, currency) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`,
			id, a.Kind.String(), string(a.Currency))
		return wrap("open account", err)
	})
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
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT balance FROM accounts WHERE id = $1`, id).Scan(&bal)
	})
	if errors.Is(err, pgx.ErrNoRows) {
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
	return db.entries(ctx, id, `e.seq > $2 ORDER BY e.seq`, page.After, page.Limit)
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
	return db.entries(ctx, id, `e.seq < $2 ORDER BY e.seq DESC`, before, page.Limit)
}

// entries reads up to limit of an account's entries from seq on, in the order cond gives
// (cond: the seq's bound as $2, then ORDER BY), first telling an account never opened from
// one with no entries.
func (db *DB) entries(ctx context.Context, id, cond string, from int64, limit int) ([]ledger.Entry, error) {
	var out []ledger.Entry
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var open bool
		if err := c.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1)`, id).Scan(&open); err != nil {
			return err
		}
		if !open {
			return ledger.NotOpen(id) // accounts are never removed, so no race with the query below
		}
		rows, err := c.Query(ctx, `SELECT e.seq, t.key, e.amount, e.balance, t.memo, t.table_id, t.round, t.at_ns
			FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.tx_id
			WHERE e.account_id = $1 AND `+cond+` LIMIT $3`, id, from, limit)
		if err != nil {
			return err
		}
		var e ledger.Entry
		var at int64
		_, err = pgx.ForEachRow(rows, []any{&e.Seq, &e.Key, &e.Amount, &e.Balance, &e.Memo, &e.Table, &e.Round, &at}, func() error {
			e.At = time.Unix(0, at).UTC()
			out = append(out, e)
			return nil
		})
		return err
	})
	return out, wrap("statement", err)
}

// Accounts lists open accounts by id prefix; see ledger.Store.
func (db *DB) Accounts(ctx context.Context, prefix string) ([]ledger.AccountBalance, error) {
	var out []ledger.AccountBalance
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		// Account ids are printable ASCII, so every id starting with prefix sorts (bytewise,
		// COLLATE "C") below prefix+"\x7f": a range scan, with no LIKE wildcards to escape.
		rows, err := c.Query(ctx, `SELECT id, balance FROM accounts WHERE id >= $1 AND id < $2 ORDER BY id`, prefix, prefix+"\x7f")
		if err != nil {
			return err
		}
		var a ledger.AccountBalance
		_, err = pgx.ForEachRow(rows, []any{&a.ID, &a.Balance}, func() error {
			out = append(out, a)
			return nil
		})
		return err
	})
	return out, wrap("accounts", err)
}

// Check audits the books in one REPEATABLE READ snapshot, so a concurrent commit is either
// wholly in the figures or wholly out; see ledger.Audit for the rules.
func (db *DB) Check(ctx context.Context) error {
	var audit ledger.Audit
	err := db.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		audit = ledger.Audit{}
		return readAudit(ctx, tx, &audit)
	})
	if err != nil {
		return err
	}
	return audit.Check()
}

// The audit queries only gather figures; ledger.Audit.Check judges them.
const (
	auditAccounts = `SELECT a.id, a.balance, a.entries, COALESCE(e.total, 0), COALESCE(e.n, 0)
		FROM accounts a LEFT JOIN (SELECT account_id, SUM(amount)::bigint AS total, COUNT(*) AS n
			FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
		ORDER BY a.id`
	auditBreaks = `SELECT account_id, COUNT(*) FROM (
			SELECT account_id, seq, amount, balance,
				LAG(balance, 1, 0::bigint) OVER w AS prev, ROW_NUMBER() OVER w AS n
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

func readAudit(ctx context.Context, tx pgx.Tx, audit *ledger.Audit) error {
	rows, err := tx.Query(ctx, auditAccounts)
	if err != nil {
		return err
	}
	index := map[string]int{}
	var a ledger.AccountAudit
	if _, err := pgx.ForEachRow(rows, []any{&a.ID, &a.Balance, &a.Entries, &a.Sum, &a.Count}, func() error {
		index[a.ID] = len(audit.Accounts)
		audit.Accounts = append(audit.Accounts, a)
		return nil
	}); err != nil {
		return err
	}
	if rows, err = tx.Query(ctx, auditBreaks); err != nil {
		return err
	}
	var id string
	var n int64
	if _, err := pgx.ForEachRow(rows, []any{&id, &n}, func() error {
		if i, ok := index[id]; ok {
			audit.Accounts[i].Breaks = n
		}
		return nil
	}); err != nil {
		return err
	}
	if rows, err = tx.Query(ctx, auditUnbalanced); err != nil {
		return err
	}
	var key string
	_, err = pgx.ForEachRow(rows, []any{&key}, func() error {
		audit.Unbalanced = append(audit.Unbalanced, key)
		return nil
	})
	return err
}
