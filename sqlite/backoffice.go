package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var _ backoffice.Journals = (*DB)(nil)

// The audit trail, the audited writes and the templates of the back office
// (backoffice.Store). The folds and the reports are in backoffice_fold.go.

const insertAudit = `INSERT INTO audit_log (at, actor, role, action, target, reason, detail, ref, source)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

func auditArgs(e backoffice.Entry) []any {
	detail := string(e.Detail)
	return []any{e.At.UnixNano(), e.Actor, e.Role, string(e.Action), e.Target, e.Reason, detail, e.Ref, string(e.Source)}
}

// appendAudit writes e in tx and returns it with its seq.
func appendAudit(ctx context.Context, tx *sql.Tx, e backoffice.Entry) (backoffice.Entry, error) {
	res, err := tx.ExecContext(ctx, insertAudit, auditArgs(e)...)
	if err != nil {
		return e, wrap("audit", err)
	}
	e.Seq, err = res.LastInsertId()
	return e, wrap("audit", err)
}

// RecordAudit appends an entry; see backoffice.Store.
func (db *DB) RecordAudit(ctx context.Context, e backoffice.Entry) (backoffice.Entry, error) {
	if err := e.Validate(); err != nil {
		return e, err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return e, wrap("audit", err)
	}
	defer tx.Rollback()
	if e, err = appendAudit(ctx, tx, e); err != nil {
		return e, err
	}
	return e, wrap("audit", tx.Commit())
}

// AuditLog lists entries, newest first; see backoffice.Store.
func (db *DB) AuditLog(ctx context.Context, f backoffice.Filter) ([]backoffice.Entry, error) {
	f, err := f.Norm()
	if err != nil {
		return nil, err
	}
	var where []string
	var args []any
	add := func(cond string, v ...any) { where, args = append(where, cond), append(args, v...) }
	if f.Actor != "" {
		add("actor = ?", f.Actor)
	}
	if f.Target != "" {
		add("target = ?", f.Target)
	}
	if kind, ok := strings.CutSuffix(f.Action, "."); ok && kind != "" {
		add("action >= ? AND action < ?", kind+".", kind+"/") // '/' follows '.' in ASCII
	} else if f.Action != "" {
		add("action = ?", f.Action)
	}
	if !f.From.IsZero() {
		add("at >= ?", f.From.UnixNano())
	}
	if !f.To.IsZero() {
		add("at < ?", f.To.UnixNano())
	}
	if f.Before > 0 {
		add("seq < ?", f.Before)
	}
	if f.Text != "" {
		p := likePattern(f.Text)
		add(`(lower(reason) LIKE ? ESCAPE '\' OR lower(detail) LIKE ? ESCAPE '\' OR lower(ref) LIKE ? ESCAPE '\')`, p, p, p)
	}
	q := `SELECT seq, at, actor, role, action, target, reason, detail, ref, source FROM audit_log`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := db.r.QueryContext(ctx, q+" ORDER BY seq DESC LIMIT ?", append(args, f.Limit)...)
	if err != nil {
		return nil, wrap("audit log", err)
	}
	defer rows.Close()
	out := []backoffice.Entry{}
	for rows.Next() {
		var e backoffice.Entry
		var at int64
		var action, detail, source string
		if err := rows.Scan(&e.Seq, &at, &e.Actor, &e.Role, &action, &e.Target, &e.Reason, &detail, &e.Ref, &source); err != nil {
			return nil, wrap("audit log", err)
		}
		e.At, e.Action, e.Source = time.Unix(0, at).UTC(), backoffice.Action(action), backoffice.Source(source)
		if detail != "" {
			e.Detail = json.RawMessage(detail)
		}
		out = append(out, e)
	}
	return out, wrap("audit log", rows.Err())
}

// likePattern is a LIKE pattern matching any text that contains s (lowered, wildcards escaped).
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}

// PostAudited posts a transaction and appends its entry in one database transaction; see
// backoffice.Store. The ledger's rules are ledger.Snapshot.Apply's, as on the commit path;
// this reads and writes the rows itself, so that it stays apart from the commit path.
func (db *DB) PostAudited(ctx context.Context, t ledger.Transaction, e backoffice.Entry) (bool, error) {
	if err := e.Validate(); err != nil {
		return false, err
	}
	if _, err := t.Validate(); err != nil {
		return false, err
	}
	accounts, keys := ledger.Touched([]ledger.Transaction{t})
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return false, wrap("begin", err)
	}
	defer tx.Rollback()
	snap := ledger.Snapshot{Accounts: map[string]ledger.AccountState{}, Posted: map[string]ledger.Digest{}}
	for _, id := range accounts {
		var st ledger.AccountState
		err := tx.QueryRowContext(ctx, `SELECT balance, entries FROM accounts WHERE id = ?`, id).Scan(&st.Balance, &st.Entries)
		if err == nil {
			snap.Accounts[id] = st
		} else if !errors.Is(err, sql.ErrNoRows) {
			return false, wrap("post", err)
		}
	}
	var d []byte
	if err := tx.QueryRowContext(ctx, `SELECT digest FROM ledger_transactions WHERE key = ?`, keys[0]).Scan(&d); err == nil {
		snap.Posted[keys[0]] = ledger.Digest(d)
	} else if !errors.Is(err, sql.ErrNoRows) {
		return false, wrap("post", err)
	}
	ch, err := snap.Apply([]ledger.Transaction{t})
	if err != nil || len(ch.Applied) == 0 {
		return false, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO ledger_transactions (id, key, digest, currency, memo, table_id, round, at)
		VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM ledger_transactions), ?, ?, ?, ?, ?, ?, ?)`,
		t.Key, ch.Digests[0][:], string(ch.Currencies[0]), t.Memo, t.Table, t.Round, t.At.UnixNano())
	if err != nil {
		return false, wrap("post", err)
	}
	txID, err := res.LastInsertId()
	if err != nil {
		return false, wrap("post", err)
	}
	for _, en := range ch.Entries {
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance) VALUES (?, ?, ?, ?, ?)`,
			en.Account, en.Seq, txID, en.Amount, en.Balance); err != nil {
			return false, wrap("post", err)
		}
	}
	for _, a := range ch.Accounts {
		if _, err := tx.ExecContext(ctx, `UPDATE accounts SET balance = ?, entries = ? WHERE id = ?`, a.Balance, a.Entries, a.ID); err != nil {
			return false, wrap("post", err)
		}
	}
	if _, err := appendAudit(ctx, tx, e); err != nil {
		return false, err
	}
	return true, wrap("commit", tx.Commit())
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
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("create account", err)
	}
	defer tx.Rollback()
	tables, _ := json.Marshal(nonNil(a.Tables))
	_, err = tx.ExecContext(ctx, `INSERT INTO principals (id, role, name, tables, disabled, epoch, created, currency, language)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, string(a.Role), a.Name, string(tables), a.Disabled, int64(a.Epoch), a.Created.UnixNano(), a.Currency, a.Language)
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY {
		return baccarat.Errorf(baccarat.CodeConflict, "account %s already exists", a.ID)
	}
	if err != nil {
		return wrap("create account", err)
	}
	if _, err := appendAudit(ctx, tx, e); err != nil {
		return err
	}
	return wrap("create account", tx.Commit())
}

// UpdateAccountAudited changes an account and appends the entry change returns, together;
// see backoffice.Store.
func (db *DB) UpdateAccountAudited(ctx context.Context, id string, change func(*access.Account) (backoffice.Entry, error)) (access.Account, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return access.Account{}, wrap("update account", err)
	}
	defer tx.Rollback()
	a, err := scanAccount(tx.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM principals WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return a, baccarat.Errorf(baccarat.CodeNotFound, "no account %q", id)
	}
	if err != nil {
		return a, wrap("update account", err)
	}
	e, err := change(&a)
	if err != nil {
		return access.Account{}, err
	}
	a.ID = id
	if err := a.Validate(); err != nil {
		return access.Account{}, err
	}
	if err := e.Validate(); err != nil {
		return access.Account{}, err
	}
	tables, _ := json.Marshal(nonNil(a.Tables))
	if _, err := tx.ExecContext(ctx, `UPDATE principals SET role = ?, name = ?, tables = ?, disabled = ?, epoch = ?, currency = ?, language = ? WHERE id = ?`,
		string(a.Role), a.Name, string(tables), a.Disabled, int64(a.Epoch), a.Currency, a.Language, id); err != nil {
		return access.Account{}, wrap("update account", err)
	}
	if _, err := appendAudit(ctx, tx, e); err != nil {
		return access.Account{}, err
	}
	return a, wrap("update account", tx.Commit())
}

// SearchAccounts finds accounts by id or name; see backoffice.Store.
func (db *DB) SearchAccounts(ctx context.Context, q string, limit int) ([]access.Account, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	p := likePattern(q)
	rows, err := db.r.QueryContext(ctx, `SELECT `+accountColumns+` FROM principals
		WHERE lower(id) LIKE ? ESCAPE '\' OR lower(name) LIKE ? ESCAPE '\' ORDER BY id LIMIT ?`, p, p, limit)
	if err != nil {
		return nil, wrap("search accounts", err)
	}
	defer rows.Close()
	out := []access.Account{}
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, wrap("search accounts", err)
		}
		out = append(out, a)
	}
	return out, wrap("search accounts", rows.Err())
}

// SaveTemplate keeps a template with its entry; see backoffice.Store.
func (db *DB) SaveTemplate(ctx context.Context, t backoffice.Template, e backoffice.Entry) error {
	if err := backoffice.CheckTemplate(t); err != nil {
		return err
	}
	if err := e.Validate(); err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("template", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO bo_templates (name, spec, by_whom, updated) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET spec = excluded.spec, by_whom = excluded.by_whom, updated = excluded.updated`,
		t.Name, string(t.Spec), t.By, t.Updated.UnixNano()); err != nil {
		return wrap("template", err)
	}
	if _, err := appendAudit(ctx, tx, e); err != nil {
		return err
	}
	return wrap("template", tx.Commit())
}

// DeleteTemplate removes a template with its entry; see backoffice.Store.
func (db *DB) DeleteTemplate(ctx context.Context, name string, e backoffice.Entry) error {
	if err := e.Validate(); err != nil {
		return err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("template", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM bo_templates WHERE name = ?`, name)
	if err != nil {
		return wrap("template", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return baccarat.Errorf(baccarat.CodeNotFound, "no template %q", name)
	}
	if _, err := appendAudit(ctx, tx, e); err != nil {
		return err
	}
	return wrap("template", tx.Commit())
}

// Templates lists the templates; see backoffice.Store.
func (db *DB) Templates(ctx context.Context) ([]backoffice.Template, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT name, spec, by_whom, updated FROM bo_templates ORDER BY name`)
	if err != nil {
		return nil, wrap("templates", err)
	}
	defer rows.Close()
	out := []backoffice.Template{}
	for rows.Next() {
		var t backoffice.Template
		var spec string
		var at int64
		if err := rows.Scan(&t.Name, &spec, &t.By, &at); err != nil {
			return nil, wrap("templates", err)
		}
		t.Spec, t.Updated = json.RawMessage(spec), time.Unix(0, at).UTC()
		out = append(out, t)
	}
	return out, wrap("templates", rows.Err())
}

// BookTotals adds up the books by currency and kind; see backoffice.Store.
func (db *DB) BookTotals(ctx context.Context) ([]backoffice.BookTotal, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT currency, kind, COUNT(*), COALESCE(SUM(balance), 0) FROM accounts
		GROUP BY currency, kind ORDER BY currency, kind`)
	if err != nil {
		return nil, wrap("book totals", err)
	}
	defer rows.Close()
	out := []backoffice.BookTotal{}
	for rows.Next() {
		var b backoffice.BookTotal
		if err := rows.Scan(&b.Currency, &b.Kind, &b.Accounts, &b.Balance); err != nil {
			return nil, wrap("book totals", err)
		}
		out = append(out, b)
	}
	return out, wrap("book totals", rows.Err())
}

// Transaction finds a ledger transaction's or a wallet call's table and round; see
// backoffice.Store.
func (db *DB) Transaction(ctx context.Context, key string) (string, uint64, error) {
	var table string
	var round int64
	err := db.r.QueryRowContext(ctx, `SELECT table_id, round FROM ledger_transactions WHERE key = ?`, key).Scan(&table, &round)
	if errors.Is(err, sql.ErrNoRows) {
		err = db.r.QueryRowContext(ctx, `SELECT table_id, round FROM wallet_calls WHERE tx = ?`, key).Scan(&table, &round)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", 0, baccarat.Errorf(baccarat.CodeNotFound, "no transaction or wallet call %q", key)
	}
	return table, uint64(round), wrap("transaction", err)
}

// WagerCalls lists the wallet calls of wagers of a table, by the wallet calls' own indexes
// (a debit by its table and wager, its closer by the debit); see backoffice.Store.
func (db *DB) WagerCalls(ctx context.Context, table string, wagers []uint64) ([]journal.WalletCall, error) {
	out := []journal.WalletCall{}
	for _, w := range wagers {
		debit, err := scanCall(db.r.QueryRowContext(ctx, `SELECT `+callColumns+` FROM wallet_calls
			WHERE table_id = ? AND table_wager = ? AND kind = 'debit' AND table_wager IS NOT NULL`, table, int64(w)))
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, wrap("wager calls", err)
		}
		out = append(out, debit)
		rows, err := db.r.QueryContext(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE debit_tx = ?
			UNION ALL SELECT `+callColumns+` FROM wallet_calls WHERE replaces IN (SELECT tx FROM wallet_calls WHERE debit_tx = ?)`, debit.Tx, debit.Tx)
		if err != nil {
			return nil, wrap("wager calls", err)
		}
		more, err := scanCalls(rows)
		if err != nil {
			return nil, wrap("wager calls", err)
		}
		out = append(out, more...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}
