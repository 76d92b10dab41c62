package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var _ journal.WalletCalls = (*DB)(nil)

const callColumns = `seq, tx, kind, player, currency, amount, table_id, round, wager, COALESCE(debit_tx, ''), state,
	COALESCE(request_id, ''), attempt, COALESCE(digest, ''), COALESCE(table_wager, 0), balance, attempts, error,
	created, updated, next_at, COALESCE(replaces, ''), resolution, resolved_by, resolved_at, reason, COALESCE(resent_as, '')`

func scanCall(row scanner) (journal.WalletCall, error) {
	var c journal.WalletCall
	var kind, state string
	var round, wager, tw, created, updated, next, resolvedAt int64
	var bal sql.NullInt64
	var r journal.Resolution
	err := row.Scan(&c.Seq, &c.Tx, &kind, &c.Player, &c.Currency, &c.Amount, &c.Table, &round, &wager, &c.DebitTx, &state,
		&c.RequestID, &c.Attempt, &c.Digest, &tw, &bal, &c.Attempts, &c.Error, &created, &updated, &next,
		&c.Replaces, &r.Action, &r.By, &resolvedAt, &r.Reason, &r.ResentAs)
	if err != nil {
		return c, err
	}
	if r.Action != "" {
		r.At = time.Unix(0, resolvedAt).UTC()
		c.Resolution = &r
	}
	c.Kind, c.State = journal.CallKind(kind), journal.CallState(state)
	c.Round, c.Wager, c.TableWager = uint64(round), uint64(wager), uint64(tw)
	if bal.Valid {
		b := baccarat.Money(bal.Int64)
		c.Balance = &b
	}
	c.Created, c.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	if next != 0 {
		c.NextAt = time.Unix(0, next).UTC()
	}
	return c, nil
}

// BeginDebit writes a debit before it is sent; see journal.WalletCalls.
func (db *DB) BeginDebit(ctx context.Context, c journal.WalletCall) (journal.WalletCall, bool, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return c, false, wrap("begin debit", err)
	}
	defer tx.Rollback()
	last, err := scanCall(tx.QueryRowContext(ctx, `SELECT `+callColumns+` FROM wallet_calls
		WHERE kind = 'debit' AND player = ? AND request_id = ? ORDER BY attempt DESC LIMIT 1`, c.Player, c.RequestID))
	attempt := 1
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return c, false, wrap("begin debit", err)
	case last.Digest != c.Digest:
		return c, false, journal.DuplicateRequest(c.Player, c.RequestID)
	case last.State == journal.CallPending || last.State == journal.CallPlaced:
		return last, false, nil
	default:
		attempt = last.Attempt + 1
	}
	c, err = journal.NewDebit(c, attempt)
	if err != nil {
		return c, false, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM wallet_calls`).Scan(&c.Seq); err != nil {
		return c, false, wrap("begin debit", err)
	}
	c.Wager = uint64(c.Seq)
	_, err = tx.ExecContext(ctx, `INSERT INTO wallet_calls (seq, tx, kind, player, currency, amount, table_id, round, wager,
		state, request_id, attempt, digest, created, updated) VALUES (?, ?, 'debit', ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
		c.Seq, c.Tx, c.Player, c.Currency, c.Amount, c.Table, int64(c.Round), int64(c.Wager), c.RequestID, c.Attempt, c.Digest,
		c.Created.UnixNano(), c.Updated.UnixNano())
	if isConstraint(err) {
		return c, false, baccarat.Errorf(baccarat.CodeConflict, "debit %s: a wallet call with this tx exists", c.Tx)
	}
	if err != nil {
		return c, false, wrap("begin debit", err)
	}
	return c, true, wrap("begin debit", tx.Commit())
}

func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// inStates is "state IN (?, ?)" and its arguments.
func inStates(from []journal.CallState) (string, []any) {
	args := make([]any, len(from))
	for i, s := range from {
		args[i] = string(s)
	}
	return "state IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(from)), ", ") + ")", args
}

// UpdateCall changes a call in one of the states from; see journal.WalletCalls.
func (db *DB) UpdateCall(ctx context.Context, tx string, from []journal.CallState, u journal.CallUpdate) (bool, error) {
	return updateCall(ctx, db.w, tx, from, u)
}

// UpdateCalls makes a deliverer's changes in one transaction; see journal.WalletCalls.
func (db *DB) UpdateCalls(ctx context.Context, changes []journal.CallChange) (int, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap("update calls", err)
	}
	defer tx.Rollback()
	n := 0
	for _, c := range changes {
		ok, err := updateCall(ctx, tx, c.Tx, []journal.CallState{journal.CallPending}, c.CallUpdate)
		if err != nil {
			return 0, err
		}
		if ok {
			n++
		}
	}
	return n, wrap("update calls", tx.Commit())
}

// execer is a connection or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func updateCall(ctx context.Context, db execer, tx string, from []journal.CallState, u journal.CallUpdate) (bool, error) {
	if len(from) == 0 {
		return false, baccarat.Errorf(baccarat.CodeBadRequest, "update call %s: from which states?", tx)
	}
	cond, args := inStates(from)
	var bal any
	if u.Balance != nil {
		bal = *u.Balance
	}
	var next int64
	if !u.NextAt.IsZero() {
		next = u.NextAt.UnixNano()
	}
	attempts := 0
	if u.AddAttempt {
		attempts = 1
	}
	res, err := db.ExecContext(ctx, `UPDATE wallet_calls SET state = COALESCE(NULLIF(?, ''), state),
		balance = COALESCE(?, balance), error = ?, attempts = attempts + ?, next_at = CASE WHEN ? = 0 THEN next_at ELSE ? END,
		updated = ? WHERE tx = ? AND `+cond,
		append([]any{string(u.State), bal, u.Error, attempts, next, next, u.At.UnixNano(), tx}, args...)...)
	if err != nil {
		return false, wrap("update call", err)
	}
	n, err := res.RowsAffected()
	return n == 1, wrap("update call", err)
}

// CancelDebit gives a pending debit back; see journal.WalletCalls.
func (db *DB) CancelDebit(ctx context.Context, debitTx, rollbackTx string, at time.Time) (bool, error) {
	if err := baccarat.CheckID("rollback tx", rollbackTx); err != nil {
		return false, err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return false, wrap("cancel debit", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE wallet_calls SET state = 'cancelled', updated = ?
		WHERE tx = ? AND kind = 'debit' AND state = 'pending'`, at.UnixNano(), debitTx)
	if err != nil {
		return false, wrap("cancel debit", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, wrap("cancel debit", err)
	}
	if err := db.insertCloser(ctx, tx, journal.WalletCall{Tx: rollbackTx, Kind: journal.CallRollback, DebitTx: debitTx,
		Created: at}, `d.state = 'cancelled'`); err != nil {
		return false, err
	}
	return true, wrap("cancel debit", tx.Commit())
}

// insertCloser writes a credit or rollback with the fields of the debit it closes (named
// by DebitTx, or by Table and TableWager) found in the state cond allows. A rollback takes
// the debit's amount. No such debit, or one already closed, is an integrity error.
func (db *DB) insertCloser(ctx context.Context, tx *sql.Tx, c journal.WalletCall, cond string) error {
	where, args := `d.tx = ?`, []any{c.DebitTx}
	if c.DebitTx == "" {
		where, args = `d.table_id = ? AND d.table_wager = ?`, []any{c.Table, int64(c.TableWager)}
	}
	at := c.Created.UnixNano()
	res, err := tx.ExecContext(ctx, `INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager,
		debit_tx, state, table_wager, created, updated, next_at)
		SELECT ?, ?, d.player, d.currency,
			CASE WHEN ? = 'rollback' THEN d.amount ELSE ? END, d.table_id, d.round, d.wager, d.tx, 'pending', d.table_wager, ?, ?, ?
		FROM wallet_calls d WHERE d.kind = 'debit' AND `+cond+` AND `+where,
		append([]any{c.Tx, string(c.Kind), string(c.Kind), c.Amount, at, at, at}, args...)...)
	if isConstraint(err) {
		return baccarat.Errorf(baccarat.CodeIntegrity, "wallet call %s: its debit is closed already (or the tx is taken)", c.Tx)
	}
	if err != nil {
		return wrap("wallet call", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return baccarat.Errorf(baccarat.CodeIntegrity, "wallet call %s: no debit to close (%s)", c.Tx, describeDebit(c))
	}
	return nil
}

func describeDebit(c journal.WalletCall) string {
	if c.DebitTx != "" {
		return "debit " + c.DebitTx
	}
	return fmt.Sprintf("the placed debit of wager %d at table %s", c.TableWager, c.Table)
}

// writeWallet writes a batch's placed debits and the credits and rollbacks it owes, inside
// the commit's transaction.
func (db *DB) writeWallet(ctx context.Context, tx *sql.Tx, placed []journal.PlacedDebit, calls []journal.WalletCall) error {
	for _, p := range placed {
		var bal any
		if p.Balance != nil {
			bal = *p.Balance
		}
		res, err := tx.ExecContext(ctx, `UPDATE wallet_calls SET state = 'placed', table_wager = ?, balance = COALESCE(?, balance),
			updated = ? WHERE tx = ? AND kind = 'debit' AND state = 'pending'`, int64(p.TableWager), bal, p.At.UnixNano(), p.Tx)
		if isConstraint(err) {
			return baccarat.Errorf(baccarat.CodeIntegrity, "debit %s: wager %d is placed with another debit", p.Tx, p.TableWager)
		}
		if err != nil {
			return wrap("placed debit", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return journal.DebitNotPending(p.Tx)
		}
	}
	for _, c := range calls {
		if err := db.insertCloser(ctx, tx, c, `d.state = 'placed'`); err != nil {
			return err
		}
	}
	return nil
}

// ClaimCalls takes the credits and rollbacks due; see journal.WalletCalls.
func (db *DB) ClaimCalls(ctx context.Context, now, until time.Time, limit int) ([]journal.WalletCall, error) {
	if limit <= 0 || limit > journal.MaxCalls {
		limit = journal.MaxCalls
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap("claim calls", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT `+callColumns+` FROM wallet_calls
		WHERE state = 'pending' AND kind <> 'debit' AND next_at <= ? ORDER BY next_at, seq LIMIT ?`, now.UnixNano(), limit)
	if err != nil {
		return nil, wrap("claim calls", err)
	}
	out, err := scanCalls(rows)
	if err != nil || len(out) == 0 {
		return out, err
	}
	for i := range out {
		if _, err := tx.ExecContext(ctx, `UPDATE wallet_calls SET next_at = ? WHERE seq = ?`, until.UnixNano(), out[i].Seq); err != nil {
			return nil, wrap("claim calls", err)
		}
		out[i].NextAt = until
	}
	return out, wrap("claim calls", tx.Commit())
}

func scanCalls(rows *sql.Rows) ([]journal.WalletCall, error) {
	defer rows.Close()
	out := []journal.WalletCall{}
	for rows.Next() {
		c, err := scanCall(rows)
		if err != nil {
			return nil, wrap("wallet calls", err)
		}
		out = append(out, c)
	}
	return out, wrap("wallet calls", rows.Err())
}

// Call reads one call; see journal.WalletCalls.
func (db *DB) Call(ctx context.Context, tx string) (journal.WalletCall, error) {
	c, err := scanCall(db.r.QueryRowContext(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE tx = ?`, tx))
	if errors.Is(err, sql.ErrNoRows) {
		return c, baccarat.Errorf(baccarat.CodeNotFound, "no wallet call %s", tx)
	}
	return c, wrap("wallet call", err)
}

// Calls lists calls; see journal.WalletCalls.
func (db *DB) Calls(ctx context.Context, f journal.CallFilter) ([]journal.WalletCall, error) {
	q, args := callQuery(f)
	rows, err := db.r.QueryContext(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE `+q, args...)
	if err != nil {
		return nil, wrap("wallet calls", err)
	}
	return scanCalls(rows)
}

// callQuery is the condition and order of a CallFilter.
func callQuery(f journal.CallFilter) (string, []any) {
	conds, args := []string{"seq > ?"}, []any{f.After}
	if !f.From.IsZero() {
		conds, args = append(conds, "created >= ?"), append(args, f.From.UnixNano())
	}
	if !f.To.IsZero() {
		conds, args = append(conds, "created < ?"), append(args, f.To.UnixNano())
	}
	if f.Open {
		conds = append(conds, "state = 'pending'")
	}
	if f.Kind != "" {
		conds, args = append(conds, "kind = ?"), append(args, string(f.Kind))
	}
	if !f.StaleBefore.IsZero() {
		conds, args = append(conds, "state = 'pending' AND updated < ?"), append(args, f.StaleBefore.UnixNano())
	}
	return strings.Join(conds, " AND ") + " ORDER BY seq LIMIT ?", append(args, journal.Limit(f.Limit))
}

// ResolveCall records an admin's action on a refused call; see journal.WalletCalls.
func (db *DB) ResolveCall(ctx context.Context, callTx string, r journal.Resolution) (journal.WalletCall, error) {
	if err := r.Validate(); err != nil {
		return journal.WalletCall{}, err
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return journal.WalletCall{}, wrap("resolve call", err)
	}
	defer tx.Rollback()
	var resentAs any
	if r.Action == journal.ActionResend {
		resentAs = r.ResentAs
	}
	at := r.At.UnixNano()
	res, err := tx.ExecContext(ctx, `UPDATE wallet_calls SET state = ?, resolution = ?, resolved_by = ?, resolved_at = ?,
		reason = ?, resent_as = ?, updated = ? WHERE tx = ? AND kind <> 'debit' AND state = 'failed'`,
		string(r.State()), string(r.Action), r.By, at, r.Reason, resentAs, at, callTx)
	if err != nil {
		return journal.WalletCall{}, wrap("resolve call", err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return journal.WalletCall{}, whyNotResolved(ctx, tx, callTx, err)
	}
	if r.Action == journal.ActionResend {
		_, err := tx.ExecContext(ctx, `INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager,
			debit_tx, state, table_wager, created, updated, next_at, replaces)
			SELECT ?, kind, player, currency, amount, table_id, round, wager, debit_tx, 'pending', table_wager, ?, ?, ?, tx
			FROM wallet_calls WHERE tx = ?`, r.ResentAs, at, at, at, callTx)
		if isConstraint(err) {
			return journal.WalletCall{}, baccarat.Errorf(baccarat.CodeConflict, "resending %s: a wallet call %s exists already", callTx, r.ResentAs)
		}
		if err != nil {
			return journal.WalletCall{}, wrap("resolve call", err)
		}
	}
	c, err := scanCall(tx.QueryRowContext(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE tx = ?`, callTx))
	if err != nil {
		return c, wrap("resolve call", err)
	}
	return c, wrap("resolve call", tx.Commit())
}

// whyNotResolved is the error of a ResolveCall that changed no row: the call is unknown,
// or not a refused credit or rollback.
func whyNotResolved(ctx context.Context, tx *sql.Tx, callTx string, err error) error {
	if err != nil {
		return wrap("resolve call", err)
	}
	c, err := scanCall(tx.QueryRowContext(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE tx = ?`, callTx))
	if errors.Is(err, sql.ErrNoRows) {
		return baccarat.Errorf(baccarat.CodeNotFound, "no wallet call %s", callTx)
	}
	if err != nil {
		return wrap("resolve call", err)
	}
	return journal.CallNotRefused(c)
}
