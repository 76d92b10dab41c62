package refwallet

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/tablehouse/baccarat"
)

// Report is everything the wallet holds, for a test or an auditor to check by their own
// arithmetic: for every player, Opening plus the Moved of their txs is their Balance, and
// no tx id appears twice.
type Report struct {
	Players []PlayerReport `json:"players"`
	Txs     []TxReport     `json:"txs"`
}

// PlayerReport is a player's wallet in one currency. Opening is the net of every admin
// change (creation included).
type PlayerReport struct {
	Player   string         `json:"player"`
	Currency string         `json:"currency"`
	Balance  baccarat.Money `json:"balance"`
	Opening  baccarat.Money `json:"opening"`
}

// TxReport is one recorded tx in the order the wallet took it. Moved is what it did to
// the balance: −amount for an applied debit, +amount for an applied credit or rollback, 0
// for a refusal or a rollback of a debit never applied. Closes is the debit an accepted
// credit or rollback closed. Error is the refusal code ("" when accepted); Answer the
// first answer, byte for byte.
type TxReport struct {
	Seq      int64           `json:"seq"`
	Tx       string          `json:"tx"`
	Kind     string          `json:"kind"`
	Player   string          `json:"player"`
	Currency string          `json:"currency"`
	Amount   baccarat.Money  `json:"amount"`
	Table    string          `json:"table"`
	Round    uint64          `json:"round"`
	Wager    uint64          `json:"wager"`
	DebitTx  string          `json:"debit_tx,omitempty"`
	Closes   string          `json:"closes,omitempty"`
	Moved    baccarat.Money  `json:"moved"`
	Status   int             `json:"status"`
	Error    string          `json:"error,omitempty"`
	Answer   json.RawMessage `json:"answer"`
	At       string          `json:"at"`
}

// Report reads every player and every tx, in one read transaction.
func (s *Store) Report(ctx context.Context) (*Report, error) {
	t, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer func() { _ = t.Rollback() }()
	rep := &Report{Players: []PlayerReport{}, Txs: []TxReport{}}
	rows, err := t.QueryContext(ctx, `SELECT player, currency, balance, opening FROM players ORDER BY player, currency`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var p PlayerReport
		if err := rows.Scan(&p.Player, &p.Currency, &p.Balance, &p.Opening); err != nil {
			rows.Close()
			return nil, err
		}
		rep.Players = append(rep.Players, p)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	rows, err = t.QueryContext(ctx, `SELECT seq, tx, kind, player, currency, amount, table_id, round, wager,
		COALESCE(debit_tx, ''), COALESCE(closes, ''), moved, status, error, answer, at FROM txs ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var x TxReport
		var round, wager int64
		var answer []byte
		if err := rows.Scan(&x.Seq, &x.Tx, &x.Kind, &x.Player, &x.Currency, &x.Amount, &x.Table, &round, &wager,
			&x.DebitTx, &x.Closes, &x.Moved, &x.Status, &x.Error, &answer, &x.At); err != nil {
			return nil, err
		}
		x.Round, x.Wager, x.Answer = uint64(round), uint64(wager), answer
		rep.Txs = append(rep.Txs, x)
	}
	return rep, rows.Err()
}
