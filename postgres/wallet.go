package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

var _ journal.WalletCalls = (*DB)(nil)

const callColumns = `seq, tx, kind, player, currency, amount, table_id, round, wager, COALESCE(debit_tx, ''), state,
	COALESCE(request_id, ''), attempt, COALESCE(digest, ''), COALESCE(table_wager, 0), balance, attempts, error,
	created, updated, next_at, COALESCE(replaces, ''), resolution, resolved_by, resolved_at, reason, COALESCE(resent_as, '')`

func scanCall(row pgx.Row) (journal.WalletCall, error) {
	var c journal.WalletCall
	var kind, state, action string
	var round, wager, tw, created, updated, next, resolvedAt int64
	var bal *baccarat.Money
	var r journal.Resolution
	err := row.Scan(&c.Seq, &c.Tx, &kind, &c.Player, &c.Currency, &c.Amount, &c.Table, &round, &wager, &c.DebitTx, &state,
		&c.RequestID, &c.Attempt, &c.Digest, &tw, &bal, &c.Attempts, &c.Error, &created, &updated, &next,
		&c.Replaces, &action, &r.By, &resolvedAt, &r.Reason, &r.ResentAs)
	if err != nil {
		return c, err
	}
	if action != "" {
		r.Action, r.At = journal.CallAction(action), time.Unix(0, resolvedAt).UTC()
		c.Resolution = &r
	}
	c.Kind, c.State, c.Balance = journal.CallKind(kind), journal.CallState(state), bal
	c.Round, c.Wager, c.TableWager = uint64(round), uint64(wager), uint64(tw)
	c.Created, c.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	if next != 0 {
		c.NextAt = time.Unix(0, next).UTC()
	}
	return c, nil
}

func collectCalls(rows pgx.Rows) ([]journal.WalletCall, error) {
	defer rows.Close()
	out := []journal.WalletCall{}
	for rows.Next() {
		c, err := scanCall(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// BeginDebit writes a debit before it is sent; see journal.WalletCalls. Two servers
// beginning the same request's debit at once: one inserts, the other (retried by inTx)
// reads its row.
func (db *DB) BeginDebit(ctx context.Context, c journal.WalletCall) (journal.WalletCall, bool, error) {
	var got journal.WalletCall
	created := false
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		last, err := scanCall(tx.QueryRow(ctx, `SELECT `+callColumns+` FROM wallet_calls
			WHERE kind = 'debit' AND player = $1 AND request_id = $2 ORDER BY attempt DESC LIMIT 1 FOR UPDATE`, c.Player, c.RequestID))
		attempt := 1
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		case last.Digest != c.Digest:
			return journal.DuplicateRequest(c.Player, c.RequestID)
		case last.State == journal.CallPending || last.State == journal.CallPlaced:
			got = last
			return nil
		default:
			attempt = last.Attempt + 1
		}
		d, err := journal.NewDebit(c, attempt)
		if err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `INSERT INTO wallet_calls (seq, tx, kind, player, currency, amount, table_id, round, wager,
			state, request_id, attempt, digest, created, updated)
			VALUES (nextval('wallet_calls_seq_seq'), $1, 'debit', $2, $3, $4, $5, $6, currval('wallet_calls_seq_seq'),
			'pending', $7, $8, $9, $10, $10) ON CONFLICT DO NOTHING RETURNING seq`,
			d.Tx, d.Player, d.Currency, d.Amount, d.Table, int64(d.Round), d.RequestID, d.Attempt, d.Digest,
			d.Created.UnixNano()).Scan(&d.Seq)
		if errors.Is(err, pgx.ErrNoRows) {
			return errRetry // another server began this attempt first: read its row
		}
		if err != nil {
			return err
		}
		d.Wager = uint64(d.Seq)
		got, created = d, true
		return nil
	})
	if err != nil {
		return c, false, wrap("begin debit", err)
	}
	return got, created, nil
}

func stateArgs(from []journal.CallState) []string {
	out := make([]string, len(from))
	for i, s := range from {
		out[i] = string(s)
	}
	return out
}

// UpdateCall changes a call in one of the states from; see journal.WalletCalls.
func (db *DB) UpdateCall(ctx context.Context, tx string, from []journal.CallState, u journal.CallUpdate) (bool, error) {
	if len(from) == 0 {
		return false, baccarat.Errorf(baccarat.CodeBadRequest, "update call %s: from which states?", tx)
	}
	var n int64
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		b := &pgx.Batch{}
		queueUpdate(b, tx, from, u).Exec(func(tag pgconn.CommandTag) error {
			n = tag.RowsAffected()
			return nil
		})
		return c.SendBatch(ctx, b).Close()
	})
	return n == 1, wrap("update call", err)
}

// queueUpdate adds a change of a call in one of the states from to a batch.
func queueUpdate(b *pgx.Batch, tx string, from []journal.CallState, u journal.CallUpdate) *pgx.QueuedQuery {
	var next int64
	if !u.NextAt.IsZero() {
		next = u.NextAt.UnixNano()
	}
	attempts := 0
	if u.AddAttempt {
		attempts = 1
	}
	return b.Queue(`UPDATE wallet_calls SET state = COALESCE(NULLIF($1, ''), state),
		balance = COALESCE($2, balance), error = $3, attempts = attempts + $4,
		next_at = CASE WHEN $5::bigint = 0 THEN next_at ELSE $5 END, updated = $6
		WHERE tx = $7 AND state = ANY($8)`,
		string(u.State), u.Balance, u.Error, attempts, next, u.At.UnixNano(), tx, stateArgs(from))
}

// UpdateCalls makes a deliverer's changes in one transaction; see journal.WalletCalls.
func (db *DB) UpdateCalls(ctx context.Context, changes []journal.CallChange) (int, error) {
	n := 0
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		n = 0
		b := &pgx.Batch{}
		for _, c := range changes {
			queueUpdate(b, c.Tx, []journal.CallState{journal.CallPending}, c.CallUpdate).Exec(func(tag pgconn.CommandTag) error {
				n += int(tag.RowsAffected())
				return nil
			})
		}
		return tx.SendBatch(ctx, b).Close()
	})
	return n, wrap("update calls", err)
}

// CancelDebit gives a pending debit back; see journal.WalletCalls.
func (db *DB) CancelDebit(ctx context.Context, debitTx, rollbackTx string, at time.Time) (bool, error) {
	if err := baccarat.CheckID("rollback tx", rollbackTx); err != nil {
		return false, err
	}
	done := false
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		done = false
		tag, err := tx.Exec(ctx, `UPDATE wallet_calls SET state = 'cancelled', updated = $1
			WHERE tx = $2 AND kind = 'debit' AND state = 'pending'`, at.UnixNano(), debitTx)
		if err != nil || tag.RowsAffected() != 1 {
			return err
		}
		b := &pgx.Batch{}
		queueCloser(b, journal.WalletCall{Tx: rollbackTx, Kind: journal.CallRollback, DebitTx: debitTx, Created: at}, `d.state = 'cancelled'`)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		done = true
		return nil
	})
	return done, wrap("cancel debit", err)
}

// queueCloser adds a credit or rollback to a batch, with the fields of the debit it closes
// (named by DebitTx, or by Table and TableWager) in the state cond allows; a rollback takes
// the debit's amount. No such debit, or one already closed, is an integrity error.
func queueCloser(b *pgx.Batch, c journal.WalletCall, cond string) {
	where, args := `d.tx = $8`, []any{c.DebitTx}
	if c.DebitTx == "" {
		where, args = `d.table_id = $8 AND d.table_wager = $9`, []any{c.Table, int64(c.TableWager)}
	}
	at := c.Created.UnixNano()
	b.Queue(`INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager,
		debit_tx, state, table_wager, created, updated, next_at)
		SELECT $1, $2, d.player, d.currency, CASE WHEN $3 = 'rollback' THEN d.amount ELSE $4 END,
			d.table_id, d.round, d.wager, d.tx, 'pending', d.table_wager, $5, $6, $7
		FROM wallet_calls d WHERE d.kind = 'debit' AND `+cond+` AND `+where+` ON CONFLICT DO NOTHING`,
		append([]any{c.Tx, string(c.Kind), string(c.Kind), c.Amount, at, at, at}, args...)...).Exec(func(tag pgconn.CommandTag) error {
		if tag.RowsAffected() != 1 {
			return baccarat.Errorf(baccarat.CodeIntegrity, "wallet call %s: no open debit to close (%s), or its tx is taken", c.Tx, describeDebit(c))
		}
		return nil
	})
}

func describeDebit(c journal.WalletCall) string {
	if c.DebitTx != "" {
		return "debit " + c.DebitTx
	}
	return fmt.Sprintf("the placed debit of wager %d at table %s", c.TableWager, c.Table)
}

// queueWallet adds a batch's placed debits and the credits and rollbacks it owes to a
// commit's writes.
func queueWallet(b *pgx.Batch, placed []journal.PlacedDebit, calls []journal.WalletCall) {
	for _, p := range placed {
		b.Queue(`UPDATE wallet_calls SET state = 'placed', table_wager = $1, balance = COALESCE($2, balance), updated = $3
			WHERE tx = $4 AND kind = 'debit' AND state = 'pending'`, int64(p.TableWager), p.Balance, p.At.UnixNano(), p.Tx).Exec(
			func(tag pgconn.CommandTag) error {
				if tag.RowsAffected() != 1 {
					return journal.DebitNotPending(p.Tx)
				}
				return nil
			})
	}
	for _, c := range calls {
		queueCloser(b, c, `d.state = 'placed'`)
	}
}

// ClaimCalls takes the credits and rollbacks due, skipping rows another server is
// claiming; see journal.WalletCalls.
func (db *DB) ClaimCalls(ctx context.Context, now, until time.Time, limit int) ([]journal.WalletCall, error) {
	var out []journal.WalletCall
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `UPDATE wallet_calls SET next_at = $1 WHERE seq IN (
			SELECT seq FROM wallet_calls WHERE state = 'pending' AND kind <> 'debit' AND next_at <= $2
			ORDER BY next_at, seq LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING `+callColumns,
			until.UnixNano(), now.UnixNano(), journal.Limit(limit))
		if err != nil {
			return err
		}
		out, err = collectCalls(rows)
		return err
	})
	slices.SortFunc(out, func(a, b journal.WalletCall) int { return int(a.Seq - b.Seq) })
	return out, wrap("claim calls", err)
}

// Call reads one call; see journal.WalletCalls.
func (db *DB) Call(ctx context.Context, tx string) (journal.WalletCall, error) {
	var out journal.WalletCall
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var err error
		out, err = scanCall(c.QueryRow(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE tx = $1`, tx))
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return out, baccarat.Errorf(baccarat.CodeNotFound, "no wallet call %s", tx)
	}
	return out, wrap("wallet call", err)
}

// Calls lists calls; see journal.WalletCalls.
func (db *DB) Calls(ctx context.Context, f journal.CallFilter) ([]journal.WalletCall, error) {
	conds, args := []string{"seq > $1"}, []any{f.After}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if !f.From.IsZero() {
		conds = append(conds, "created >= "+arg(f.From.UnixNano()))
	}
	if !f.To.IsZero() {
		conds = append(conds, "created < "+arg(f.To.UnixNano()))
	}
	if f.Open {
		conds = append(conds, "state = 'pending'")
	}
	if f.Kind != "" {
		conds = append(conds, "kind = "+arg(string(f.Kind)))
	}
	if !f.StaleBefore.IsZero() {
		conds = append(conds, "state = 'pending' AND updated < "+arg(f.StaleBefore.UnixNano()))
	}
	q := `SELECT ` + callColumns + ` FROM wallet_calls WHERE ` + strings.Join(conds, " AND ") + ` ORDER BY seq LIMIT ` + arg(journal.Limit(f.Limit))
	var out []journal.WalletCall
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, q, args...)
		if err != nil {
			return err
		}
		out, err = collectCalls(rows)
		return err
	})
	return out, wrap("wallet calls", err)
}

// ResolveCall records an admin's action on a refused call; see journal.WalletCalls. Two
// admins at once: the row lock orders them, and the second finds the call resolved.
func (db *DB) ResolveCall(ctx context.Context, callTx string, r journal.Resolution) (journal.WalletCall, error) {
	if err := r.Validate(); err != nil {
		return journal.WalletCall{}, err
	}
	var out journal.WalletCall
	var resentAs *string
	if r.Action == journal.ActionResend {
		resentAs = &r.ResentAs
	}
	at := r.At.UnixNano()
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE wallet_calls SET state = $1, resolution = $2, resolved_by = $3, resolved_at = $4,
			reason = $5, resent_as = $6, updated = $4 WHERE tx = $7 AND kind <> 'debit' AND state = 'failed'`,
			string(r.State()), string(r.Action), r.By, at, r.Reason, resentAs, callTx)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return whyNotResolved(ctx, tx, callTx)
		}
		if r.Action == journal.ActionResend {
			tag, err := tx.Exec(ctx, `INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager,
				debit_tx, state, table_wager, created, updated, next_at, replaces)
				SELECT $1, kind, player, currency, amount, table_id, round, wager, debit_tx, 'pending', table_wager, $2, $2, $2, tx
				FROM wallet_calls WHERE tx = $3 ON CONFLICT DO NOTHING`, r.ResentAs, at, callTx)
			if err != nil {
				return err
			}
			if tag.RowsAffected() != 1 {
				return baccarat.Errorf(baccarat.CodeConflict, "resending %s: a wallet call %s exists already", callTx, r.ResentAs)
			}
		}
		out, err = scanCall(tx.QueryRow(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE tx = $1`, callTx))
		return err
	})
	return out, wrap("resolve call", err)
}

// whyNotResolved is the error of a ResolveCall that changed no row: the call is unknown,
// or not a refused credit or rollback.
func whyNotResolved(ctx context.Context, tx pgx.Tx, callTx string) error {
	c, err := scanCall(tx.QueryRow(ctx, `SELECT `+callColumns+` FROM wallet_calls WHERE tx = $1`, callTx))
	if errors.Is(err, pgx.ErrNoRows) {
		return baccarat.Errorf(baccarat.CodeNotFound, "no wallet call %s", callTx)
	}
	if err != nil {
		return err
	}
	return journal.CallNotRefused(c)
}
