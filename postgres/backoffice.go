package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

var _ backoffice.Journals = (*DB)(nil)

// The audit trail, the audited writes and the templates of the back office
// (backoffice.Store). The folds and the reports are in backoffice_fold.go.

const insertAudit = `INSERT INTO audit_log (at_ns, actor, role, action, target, reason, detail, ref, source)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING seq`

func auditArgs(e backoffice.Entry) []any {
	return []any{e.At.UnixNano(), e.Actor, e.Role, string(e.Action), e.Target, e.Reason, string(e.Detail), e.Ref, string(e.Source)}
}

// querier is a connection or a transaction.
type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func appendAudit(ctx context.Context, q querier, e backoffice.Entry) (backoffice.Entry, error) {
	err := q.QueryRow(ctx, insertAudit, auditArgs(e)...).Scan(&e.Seq)
	return e, err
}

// RecordAudit appends an entry; see backoffice.Store.
func (db *DB) RecordAudit(ctx context.Context, e backoffice.Entry) (backoffice.Entry, error) {
	if err := e.Validate(); err != nil {
		return e, err
	}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var err error
		e, err = appendAudit(ctx, c, e)
		return err
	})
	return e, wrap("audit", err)
}

// AuditLog lists entries, newest first; see backoffice.Store.
func (db *DB) AuditLog(ctx context.Context, f backoffice.Filter) ([]backoffice.Entry, error) {
	f, err := f.Norm()
	if err != nil {
		return nil, err
	}
	var where []string
	var args []any
	add := func(cond string, v ...any) {
		for _, x := range v {
			args = append(args, x)
			cond = strings.Replace(cond, "?", "$"+strconv.Itoa(len(args)), 1)
		}
		where = append(where, cond)
	}
	if f.Actor != "" {
		add("actor = ?", f.Actor)
	}
	if f.Target != "" {
		add("target = ?", f.Target)
	}
	if kind, ok := strings.CutSuffix(f.Action, "."); ok && kind != "" {
		add("action >= ? AND action < ?", kind+".", kind+"/")
	} else if f.Action != "" {
		add("action = ?", f.Action)
	}
	if !f.From.IsZero() {
		add("at_ns >= ?", f.From.UnixNano())
	}
	if !f.To.IsZero() {
		add("at_ns < ?", f.To.UnixNano())
	}
	if f.Before > 0 {
		add("seq < ?", f.Before)
	}
	if f.Text != "" {
		p := likePattern(f.Text)
		add(`(lower(reason) LIKE ? OR lower(detail) LIKE ? OR lower(ref) LIKE ?)`, p, p, p)
	}
	q := `SELECT seq, at_ns, actor, role, action, target, reason, detail, ref, source FROM audit_log`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	args = append(args, f.Limit)
	q += " ORDER BY seq DESC LIMIT $" + strconv.Itoa(len(args))
	out := []backoffice.Entry{}
	err = db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		var e backoffice.Entry
		var at int64
		var action, detail, source string
		_, err = pgx.ForEachRow(rows, []any{&e.Seq, &at, &e.Actor, &e.Role, &action, &e.Target, &e.Reason, &detail, &e.Ref, &source}, func() error {
			x := e
			x.At, x.Action, x.Source = time.Unix(0, at).UTC(), backoffice.Action(action), backoffice.Source(source)
			if detail != "" {
				x.Detail = json.RawMessage(detail)
			}
			out = append(out, x)
			return nil
		})
		return err
	})
	return out, wrap("audit log", err)
}

// likePattern is a LIKE pattern matching any text that contains s (lowered, and the
// wildcards escaped with LIKE's default escape, the backslash).
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

// PostAudited posts a transaction and appends its entry in one database transaction; see
// backoffice.Store. The ledger's rules are ledger.Snapshot.Apply's, as on the commit path;
// this reads and writes the rows itself (the accounts locked FOR UPDATE in id order, as the
// commit path locks them), so that it stays apart from the commit path.
func (db *DB) PostAudited(ctx context.Context, t ledger.Transaction, e backoffice.Entry) (bool, error) {
	if err := e.Validate(); err != nil {
		return false, err
	}
	if _, err := t.Validate(); err != nil {
		return false, err
	}
	accounts, keys := ledger.Touched([]ledger.Transaction{t})
	slices.Sort(accounts)
	applied := false
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		applied = false
		snap := ledger.Snapshot{Accounts: map[string]ledger.AccountState{}, Posted: map[string]ledger.Digest{}}
		rows, err := tx.Query(ctx, `SELECT id, balance, entries FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`, accounts)
		if err != nil {
			return err
		}
		var id string
		var st ledger.AccountState
		if _, err := pgx.ForEachRow(rows, []any{&id, &st.Balance, &st.Entries}, func() error { snap.Accounts[id] = st; return nil }); err != nil {
			return err
		}
		var d []byte
		err = tx.QueryRow(ctx, `SELECT digest FROM ledger_transactions WHERE key = $1`, keys[0]).Scan(&d)
		if err == nil {
			snap.Posted[keys[0]] = ledger.Digest(d)
		} else if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		ch, err := snap.Apply([]ledger.Transaction{t})
		if err != nil || len(ch.Applied) == 0 {
			return err
		}
		var txID int64
		if err := tx.QueryRow(ctx, `INSERT INTO ledger_transactions (key, digest, currency, memo, table_id, round, at_ns)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, t.Key, ch.Digests[0][:], string(ch.Currencies[0]), t.Memo, t.Table,
			int64(t.Round), t.At.UnixNano()).Scan(&txID); err != nil {
			return err
		}
		for _, en := range ch.Entries {
			if _, err := tx.Exec(ctx, `INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance) VALUES ($1, $2, $3, $4, $5)`,
				en.Account, en.Seq, txID, en.Amount, en.Balance); err != nil {
				return err
			}
		}
		for _, a := range ch.Accounts {
			if _, err := tx.Exec(ctx, `UPDATE accounts SET balance = $2, entries = $3 WHERE id = $1`, a.ID, a.Balance, a.Entries); err != nil {
				return err
			}
		}
		applied = true
		_, err = appendAudit(ctx, tx, e)
		return err
	})
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // the key was posted meanwhile: ask again
		return db.PostAudited(ctx, t, e)
	}
	if err != nil {
		return false, wrap("post", err)
	}
	return applied, nil
}

// CreateAccountAudited creates an account and appends its entry together; see
// backoffice.Store.
func (db *DB) CreateAccountAudited(ctx context.Context, a access.Account, e backoffice.Entry) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return err
	}
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO principals (id, role, name, tables, disabled, epoch, created, currency, language)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			a.ID, string(a.Role), a.Name, nonNil(a.Tables), a.Disabled, int64(a.Epoch), a.Created.UnixNano(), a.Currency, a.Language); err != nil {
			return err
		}
		_, err := appendAudit(ctx, tx, e)
		return err
	})
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return baccarat.Errorf(baccarat.CodeConflict, "account %s already exists", a.ID)
	}
	return wrap("create account", err)
}

// UpdateAccountAudited changes an account and appends the entry change returns, together;
// see backoffice.Store.
func (db *DB) UpdateAccountAudited(ctx context.Context, id string, change func(*access.Account) (backoffice.Entry, error)) (access.Account, error) {
	var a access.Account
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var err error
		a, err = scanAccount(tx.QueryRow(ctx, `SELECT `+accountColumns+` FROM principals WHERE id = $1 FOR UPDATE`, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return baccarat.Errorf(baccarat.CodeNotFound, "no account %q", id)
		}
		if err != nil {
			return err
		}
		e, err := change(&a)
		if err != nil {
			return err
		}
		a.ID = id
		if err := a.Validate(); err != nil {
			return err
		}
		if err := e.Validate(); err != nil {
			return err
		}
		if _, err = tx.Exec(ctx, `UPDATE principals SET role = $1, name = $2, tables = $3, disabled = $4, epoch = $5, currency = $6, language = $7
			WHERE id = $8`, string(a.Role), a.Name, nonNil(a.Tables), a.Disabled, int64(a.Epoch), a.Currency, a.Language, id); err != nil {
			return err
		}
		_, err = appendAudit(ctx, tx, e)
		return err
	})
	if err != nil {
		return access.Account{}, wrap("update account", err)
	}
	return a, nil
}

// SearchAccounts finds accounts by id or name; see backoffice.Store.
func (db *DB) SearchAccounts(ctx context.Context, q string, limit int) ([]access.Account, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	p := likePattern(q)
	out := []access.Account{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT `+accountColumns+` FROM principals
			WHERE lower(id) LIKE $1 OR lower(name) LIKE $1 ORDER BY id LIMIT $2`, p, limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			a, err := scanAccount(rows)
			if err != nil {
				return err
			}
			out = append(out, a)
		}
		return rows.Err()
	})
	return out, wrap("search accounts", err)
}

// SaveTemplate keeps a template with its entry; see backoffice.Store.
func (db *DB) SaveTemplate(ctx context.Context, t backoffice.Template, e backoffice.Entry) error {
	if err := backoffice.CheckTemplate(t); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return err
	}
	return wrap("template", db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO bo_templates (name, spec, by_whom, updated) VALUES ($1, $2, $3, $4)
			ON CONFLICT (name) DO UPDATE SET spec = excluded.spec, by_whom = excluded.by_whom, updated = excluded.updated`,
			t.Name, string(t.Spec), t.By, t.Updated.UnixNano()); err != nil {
			return err
		}
		_, err := appendAudit(ctx, tx, e)
		return err
	}))
}

// DeleteTemplate removes a template with its entry; see backoffice.Store.
func (db *DB) DeleteTemplate(ctx context.Context, name string, e backoffice.Entry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	return wrap("template", db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM bo_templates WHERE name = $1`, name)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return baccarat.Errorf(baccarat.CodeNotFound, "no template %q", name)
		}
		_, err = appendAudit(ctx, tx, e)
		return err
	}))
}

// Templates lists the templates; see backoffice.Store.
func (db *DB) Templates(ctx context.Context) ([]backoffice.Template, error) {
	out := []backoffice.Template{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT name, spec, by_whom, updated FROM bo_templates ORDER BY name`)
		if err != nil {
			return err
		}
		var t backoffice.Template
		var spec string
		var at int64
		_, err = pgx.ForEachRow(rows, []any{&t.Name, &spec, &t.By, &at}, func() error {
			x := t
			x.Spec, x.Updated = json.RawMessage(spec), time.Unix(0, at).UTC()
			out = append(out, x)
			return nil
		})
		return err
	})
	return out, wrap("templates", err)
}

// BookTotals adds up the books by currency and kind; see backoffice.Store.
func (db *DB) BookTotals(ctx context.Context) ([]backoffice.BookTotal, error) {
	out := []backoffice.BookTotal{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT currency, kind, COUNT(*), COALESCE(SUM(balance), 0)::bigint FROM accounts
			GROUP BY currency, kind ORDER BY currency, kind`)
		if err != nil {
			return err
		}
		var b backoffice.BookTotal
		_, err = pgx.ForEachRow(rows, []any{&b.Currency, &b.Kind, &b.Accounts, &b.Balance}, func() error {
			out = append(out, b)
			return nil
		})
		return err
	})
	return out, wrap("book totals", err)
}

// Transaction finds a ledger transaction's or a wallet call's table and round; see
// backoffice.Store.
func (db *DB) Transaction(ctx context.Context, key string) (string, uint64, error) {
	var table string
	var round int64
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		err := c.QueryRow(ctx, `SELECT table_id, round FROM ledger_transactions WHERE key = $1`, key).Scan(&table, &round)
		if errors.Is(err, pgx.ErrNoRows) {
			err = c.QueryRow(ctx, `SELECT table_id, round FROM wallet_calls WHERE tx = $1`, key).Scan(&table, &round)
		}
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return "", 0, baccarat.Errorf(baccarat.CodeNotFound, "no transaction or wallet call %q", key)
	}
	return table, uint64(round), wrap("transaction", err)
}

// WagerCalls lists the wallet calls of wagers of a table, by the wallet calls' own indexes
// (a debit by its table and wager, its closer by the debit); see backoffice.Store.
func (db *DB) WagerCalls(ctx context.Context, table string, wagers []uint64) ([]journal.WalletCall, error) {
	out := []journal.WalletCall{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		for _, w := range wagers {
			debit, err := scanCall(c.QueryRow(ctx, `SELECT `+callColumns+` FROM wallet_calls
				WHERE table_id = $1 AND table_wager = $2 AND kind = 'debit' AND table_wager IS NOT NULL`, table, int64(w)))
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, debit)
			rows, err := c.Query(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE debit_tx = $1
				UNION ALL SELECT `+callColumns+` FROM wallet_calls WHERE replaces IN (SELECT tx FROM wallet_calls WHERE debit_tx = $1)`, debit.Tx)
			if err != nil {
				return err
			}
			more, err := collectCalls(rows)
			if err != nil {
				return err
			}
			out = append(out, more...)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, wrap("wager calls", err)
}
