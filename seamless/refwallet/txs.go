package refwallet

import (
	"bytes"
	"context"
	"database/sql"
	"errors"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/seamless"
)

// Reply is the answer to a tx call as it was first given: the status and the body, byte
// for byte. Replayed says this is a repeat of a tx id already answered.
type Reply struct {
	Status   int
	Body     []byte
	Replayed bool
}

// call is a debit, credit or rollback as the books see it.
type call struct {
	kind    string
	tx      string
	request []byte // the canonical body
	seamless.DebitRequest
	debitTx string // credit and rollback
}

// outcome is what a rule decided: a refusal (err), or a move of the balance, and the
// debit an accepted credit or rollback closes.
type outcome struct {
	err     error
	moved   baccarat.Money
	closes  string
	balance baccarat.Money // after the move
}

// Debit applies a debit once. Its error is a refusal not recorded (tx_conflict) or a
// failure of the database; every other answer, refusals included, is recorded as the tx's.
func (s *Store) Debit(ctx context.Context, q seamless.DebitRequest) (Reply, error) {
	return s.exec(ctx, call{kind: "debit", tx: q.Tx, request: seamless.Canonical(q), DebitRequest: q}, s.debit)
}

// Credit applies a credit once, as Debit does.
func (s *Store) Credit(ctx context.Context, q seamless.CreditRequest) (Reply, error) {
	d := seamless.DebitRequest{Tx: q.Tx, Player: q.Player, Currency: q.Currency, Amount: q.Amount, Table: q.Table,
		Round: q.Round, Wager: q.Wager}
	return s.exec(ctx, call{kind: "credit", tx: q.Tx, request: seamless.Canonical(q), DebitRequest: d, debitTx: q.DebitTx}, s.credit)
}

// Rollback applies a rollback once, as Debit does.
func (s *Store) Rollback(ctx context.Context, q seamless.RollbackRequest) (Reply, error) {
	d := q.Debit()
	d.Tx = q.Tx
	return s.exec(ctx, call{kind: "rollback", tx: q.Tx, request: seamless.Canonical(q), DebitRequest: d, debitTx: q.DebitTx}, s.rollback)
}

// exec answers a repeated tx id with its first answer, or runs rule and records its answer,
// in one transaction.
func (s *Store) exec(ctx context.Context, c call, rule func(*sql.Tx, *call) (outcome, error)) (Reply, error) {
	t, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Reply{}, err
	}
	defer func() { _ = t.Rollback() }()
	var kind string
	var request []byte
	var r Reply
	err = t.QueryRowContext(ctx, `SELECT kind, request, status, answer FROM txs WHERE tx = ?`, c.tx).Scan(&kind, &request, &r.Status, &r.Body)
	switch {
	case err == nil && (kind != c.kind || !bytes.Equal(request, c.request)):
		return Reply{}, seamless.Refuse(seamless.CodeTxConflict, "tx %s was a %s with another body: a tx id is one call, retried with the same body", c.tx, kind)
	case err == nil:
		r.Replayed = true
		return r, nil
	case !errors.Is(err, sql.ErrNoRows):
		return Reply{}, err
	}
	o, err := rule(t, &c)
	if err != nil {
		return Reply{}, err
	}
	if o.moved != 0 {
		if _, err := t.ExecContext(ctx, `UPDATE players SET balance = balance + ? WHERE player = ? AND currency = ?`,
			o.moved, c.Player, c.Currency); err != nil {
			return Reply{}, err
		}
	}
	r = Reply{Status: 200, Body: seamless.AnswerBody(o.balance)}
	code := ""
	if o.err != nil {
		r.Status, r.Body = seamless.ErrorBody(o.err)
		code = string(errorCode(o.err))
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO txs (tx, kind, request, player, currency, amount, table_id, round, wager,
		debit_tx, closes, moved, status, error, answer, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.tx, c.kind, c.request, c.Player, c.Currency, c.Amount, c.Table, int64(c.Round), int64(c.Wager),
		nullable(c.debitTx), nullable(o.closes), o.moved, r.Status, code, r.Body, s.now().UTC().Format(timeFormat)); err != nil {
		return Reply{}, err
	}
	return r, t.Commit()
}

const timeFormat = "2006-01-02T15:04:05.000000Z07:00"

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func errorCode(err error) seamless.Code {
	var ie *seamless.InsufficientFundsError
	var re *seamless.RefusedError
	switch {
	case errors.As(err, &ie):
		return seamless.CodeInsufficientFunds
	case errors.As(err, &re):
		return re.Code
	}
	return seamless.CodeInternal
}

// debit: refused when a rollback closed its id first, for an unknown player, or over the
// balance; else it takes the amount.
func (s *Store) debit(t *sql.Tx, c *call) (outcome, error) {
	if kind, err := closer(t, c.tx); err != nil || kind != "" {
		return outcome{err: seamless.Refuse(seamless.CodeRolledBack,
			"debit %s was rolled back before it arrived: it is refused, and stays refused", c.tx)}, err
	}
	bal, ok, err := balanceOf(t, c.Player, c.Currency)
	switch {
	case err != nil:
		return outcome{}, err
	case !ok:
		return outcome{err: unknownPlayer(c.Player, c.Currency)}, nil
	case bal < c.Amount:
		return outcome{err: &seamless.InsufficientFundsError{Balance: bal}, balance: bal}, nil
	}
	return outcome{moved: -c.Amount, balance: bal - c.Amount}, nil
}

// credit: the debit it names must have been applied, match it, and be open.
func (s *Store) credit(t *sql.Tx, c *call) (outcome, error) {
	d, err := debitOf(t, c.debitTx)
	if err != nil {
		return outcome{}, err
	}
	kind, err := closer(t, c.debitTx)
	switch {
	case err != nil:
		return outcome{}, err
	case kind != "":
		return outcome{err: closed(c.debitTx, kind)}, nil
	case d == nil || d.moved == 0:
		return outcome{err: seamless.Refuse(seamless.CodeUnknownDebit, "credit %s names debit %s, which was never applied", c.tx, c.debitTx)}, nil
	case !d.matches(c, false):
		return outcome{err: mismatch(c, d)}, nil
	}
	bal, _, err := balanceOf(t, c.Player, c.Currency)
	if err != nil {
		return outcome{}, err
	}
	if bal > MaxBalance-c.Amount {
		return outcome{err: seamless.Refuse(seamless.CodeBadRequest, "the credit would take the balance over %d", MaxBalance)}, nil
	}
	return outcome{moved: c.Amount, closes: c.debitTx, balance: bal + c.Amount}, nil
}

// rollback: OK for a debit never seen or never applied (it closes the id, so a late debit
// is refused); gives an applied debit's amount back; refused once the debit is closed.
func (s *Store) rollback(t *sql.Tx, c *call) (outcome, error) {
	kind, err := closer(t, c.debitTx)
	if err != nil || kind != "" {
		return outcome{err: closed(c.debitTx, kind)}, err
	}
	d, err := debitOf(t, c.debitTx)
	if err != nil {
		return outcome{}, err
	}
	bal, _, err := balanceOf(t, c.Player, c.Currency)
	switch {
	case err != nil:
		return outcome{}, err
	case d == nil:
		if other, err := kindOf(t, c.debitTx); err != nil || other != "" {
			return outcome{err: seamless.Refuse(seamless.CodeUnknownDebit, "rollback %s names %s, a %s, not a debit", c.tx, c.debitTx, other)}, err
		}
		return outcome{closes: c.debitTx, balance: bal}, nil
	case !d.matches(c, true):
		return outcome{err: mismatch(c, d)}, nil
	case d.moved == 0:
		return outcome{closes: c.debitTx, balance: bal}, nil
	}
	return outcome{moved: c.Amount, closes: c.debitTx, balance: bal + c.Amount}, nil
}

func closed(debitTx, by string) error {
	return seamless.Refuse(seamless.CodeDebitClosed, "debit %s was already closed by a %s: a debit is credited or rolled back once", debitTx, by)
}

func mismatch(c *call, d *debitRow) error {
	return seamless.Refuse(seamless.CodeDebitMismatch, "%s %s does not match debit %s (%s %s %d, table %s round %d wager %d)",
		c.kind, c.tx, d.tx, d.player, d.currency, d.amount, d.table, d.round, d.wager)
}

// debitRow is a recorded debit.
type debitRow struct {
	tx, player, currency, table string
	amount, moved               baccarat.Money
	round, wager                uint64
}

// matches: a credit or rollback is for the debit's player, currency, table, round and
// wager; a rollback for its amount too.
func (d *debitRow) matches(c *call, amount bool) bool {
	return d.player == c.Player && d.currency == c.Currency && d.table == c.Table && d.round == c.Round &&
		d.wager == c.Wager && (!amount || d.amount == c.Amount)
}

func debitOf(t *sql.Tx, id string) (*debitRow, error) {
	d := debitRow{tx: id}
	var round, wager int64
	err := t.QueryRow(`SELECT player, currency, amount, table_id, round, wager, moved FROM txs WHERE tx = ? AND kind = 'debit'`, id).
		Scan(&d.player, &d.currency, &d.amount, &d.table, &round, &wager, &d.moved)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	d.round, d.wager = uint64(round), uint64(wager)
	return &d, err
}

// closer is the kind of the tx that closed debit id ("" when it is open).
func closer(t *sql.Tx, id string) (string, error) {
	var kind string
	err := t.QueryRow(`SELECT kind FROM txs WHERE closes = ?`, id).Scan(&kind)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return kind, err
}

func kindOf(t *sql.Tx, id string) (string, error) {
	var kind string
	err := t.QueryRow(`SELECT kind FROM txs WHERE tx = ?`, id).Scan(&kind)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return kind, err
}

func balanceOf(t *sql.Tx, player, currency string) (baccarat.Money, bool, error) {
	var b baccarat.Money
	err := t.QueryRow(`SELECT balance FROM players WHERE player = ? AND currency = ?`, player, currency).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return b, err == nil, err
}
