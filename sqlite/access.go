package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var _ access.Store = (*DB)(nil)

// CreateAccount adds an account; see access.Store.
func (db *DB) CreateAccount(ctx context.Context, a access.Account) error {
	if err := a.Validate(); err != nil {
		return err
	}
	tables, _ := json.Marshal(nonNil(a.Tables))
	_, err := db.w.ExecContext(ctx, `INSERT INTO principals (id, role, name, tables, disabled, epoch, created, currency, language)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, string(a.Role), a.Name, string(tables), a.Disabled, int64(a.Epoch), a.Created.UnixNano(), a.Currency, a.Language)
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY {
		return baccarat.Errorf(baccarat.CodeConflict, "account %s already exists", a.ID)
	}
	return wrap("create account", err)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type scanner interface{ Scan(dest ...any) error }

func scanAccount(row scanner) (access.Account, error) {
	var a access.Account
	var role, tables string
	var epoch, created int64
	if err := row.Scan(&a.ID, &role, &a.Name, &tables, &a.Disabled, &epoch, &created, &a.Currency, &a.Language); err != nil {
		return a, err
	}
	a.Role, a.Epoch, a.Created = access.Role(role), uint32(epoch), time.Unix(0, created).UTC()
	if err := json.Unmarshal([]byte(tables), &a.Tables); err != nil {
		return a, err
	}
	if len(a.Tables) == 0 {
		a.Tables = nil
	}
	return a, nil
}

const accountColumns = `id, role, name, tables, disabled, epoch, created, currency, language`

// Account reads one account; see access.Store.
func (db *DB) Account(ctx context.Context, id string) (access.Account, error) {
	a, err := scanAccount(db.queryRow(ctx, `SELECT `+accountColumns+` FROM principals WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return a, baccarat.Errorf(baccarat.CodeNotFound, "no account %q", id)
	}
	return a, wrap("account", err)
}

// UpdateAccount changes an account in one write transaction; see access.Store.
func (db *DB) UpdateAccount(ctx context.Context, id string, change func(*access.Account) error) (access.Account, error) {
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
	if err := change(&a); err != nil {
		return access.Account{}, err
	}
	a.ID = id
	if err := a.Validate(); err != nil {
		return access.Account{}, err
	}
	tables, _ := json.Marshal(nonNil(a.Tables))
	if _, err := tx.ExecContext(ctx, `UPDATE principals SET role = ?, name = ?, tables = ?, disabled = ?, epoch = ?, currency = ?, language = ? WHERE id = ?`,
		string(a.Role), a.Name, string(tables), a.Disabled, int64(a.Epoch), a.Currency, a.Language, id); err != nil {
		return access.Account{}, wrap("update account", err)
	}
	return a, wrap("update account", tx.Commit())
}

// ListAccounts lists accounts by id; see access.Store.
func (db *DB) ListAccounts(ctx context.Context, after string, limit int) ([]access.Account, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	rows, err := db.r.QueryContext(ctx, `SELECT `+accountColumns+` FROM principals WHERE id > ? ORDER BY id LIMIT ?`, after, limit)
	if err != nil {
		return nil, wrap("accounts", err)
	}
	defer rows.Close()
	out := []access.Account{}
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, wrap("accounts", err)
		}
		out = append(out, a)
	}
	return out, wrap("accounts", rows.Err())
}
