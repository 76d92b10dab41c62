package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
)

var _ access.Store = (*DB)(nil)

// CreateAccount adds an account; see access.Store.
func (db *DB) CreateAccount(ctx context.Context, a access.Account) error {
	if err := a.Validate(); err != nil {
		return err
	}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		_, err := c.Exec(ctx, `INSERT INTO principals (id, role, name, tables, disabled, epoch, created, currency, language)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			a.ID, string(a.Role), a.Name, nonNil(a.Tables), a.Disabled, int64(a.Epoch), a.Created.UnixNano(), a.Currency, a.Language)
		return err
	})
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
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

const accountColumns = `id, role, name, tables, disabled, epoch, created, currency, language`

func scanAccount(row pgx.Row) (access.Account, error) {
	var a access.Account
	var role string
	var epoch, created int64
	if err := row.Scan(&a.ID, &role, &a.Name, &a.Tables, &a.Disabled, &epoch, &created, &a.Currency, &a.Language); err != nil {
		return a, err
	}
	a.Role, a.Epoch, a.Created = access.Role(role), uint32(epoch), time.Unix(0, created).UTC()
	if len(a.Tables) == 0 {
		a.Tables = nil
	}
	return a, nil
}

// Account reads one account; see access.Store.
func (db *DB) Account(ctx context.Context, id string) (access.Account, error) {
	var a access.Account
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var err error
		a, err = scanAccount(c.QueryRow(ctx, `SELECT `+accountColumns+` FROM principals WHERE id = $1`, id))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return a, baccarat.Errorf(baccarat.CodeNotFound, "no account %q", id)
	}
	return a, wrap("account", err)
}

// UpdateAccount changes an account under SELECT … FOR UPDATE; see access.Store.
func (db *DB) UpdateAccount(ctx context.Context, id string, change func(*access.Account) error) (access.Account, error) {
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
		if err := change(&a); err != nil {
			return err
		}
		a.ID = id
		if err := a.Validate(); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE principals SET role = $1, name = $2, tables = $3, disabled = $4, epoch = $5, currency = $6, language = $7
			WHERE id = $8`, string(a.Role), a.Name, nonNil(a.Tables), a.Disabled, int64(a.Epoch), a.Currency, a.Language, id)
		return err
	})
	if err != nil {
		return access.Account{}, wrap("update account", err)
	}
	return a, nil
}

// ListAccounts lists accounts by id; see access.Store.
func (db *DB) ListAccounts(ctx context.Context, after string, limit int) ([]access.Account, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	out := []access.Account{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT `+accountColumns+` FROM principals WHERE id > $1 ORDER BY id LIMIT $2`, after, limit)
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
	return out, wrap("accounts", err)
}
