package refwallet

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the driver, pure Go

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/seamless"
)

// Store is the wallet's books in one SQLite file: players with a balance per currency, and
// every tx with the first answer it got. Every call is one transaction on the one
// connection, so calls are applied one at a time, in the order they reach the database.
type Store struct {
	db  *sql.DB
	now func() time.Time
}

// MaxBalance is the largest balance a player may hold (10^18 minor units): far beyond any
// demo, and far from int64's end, so no sum of balances and amounts can wrap around.
const MaxBalance baccarat.Money = 1_000_000_000_000_000_000

const schema = `
CREATE TABLE IF NOT EXISTS players (
	player   TEXT NOT NULL,
	currency TEXT NOT NULL,
	balance  INTEGER NOT NULL CHECK (balance >= 0 AND balance <= 1000000000000000000),
	opening  INTEGER NOT NULL, -- the net of every admin change: opening + Σ moved = balance
	PRIMARY KEY (player, currency)
);
CREATE TABLE IF NOT EXISTS txs (
	seq      INTEGER PRIMARY KEY,
	tx       TEXT NOT NULL UNIQUE,
	kind     TEXT NOT NULL CHECK (kind IN ('debit', 'credit', 'rollback')),
	request  BLOB NOT NULL, -- the canonical body: a repeat must match it
	player   TEXT NOT NULL,
	currency TEXT NOT NULL,
	amount   INTEGER NOT NULL,
	table_id TEXT NOT NULL,
	round    INTEGER NOT NULL,
	wager    INTEGER NOT NULL,
	debit_tx TEXT,
	closes   TEXT UNIQUE, -- the debit an accepted credit or rollback closed: one closer per debit
	moved    INTEGER NOT NULL, -- what it did to the balance
	status   INTEGER NOT NULL,
	error    TEXT NOT NULL, -- the refusal code, '' when accepted
	answer   BLOB NOT NULL, -- the first answer, byte for byte
	at       TEXT NOT NULL
);
`

// Open opens (creating if need be) the wallet's database file: WAL, synchronous=FULL (an
// answer is sent after its tx is on disk), a busy timeout, one connection.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || path == ":memory:" || strings.ContainsAny(path, "?#") {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "refwallet: %q is not a database file name", path)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "FULL")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, err
	}
	return &Store{db: db, now: time.Now}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Player is a player's wallet in one currency.
type Player struct {
	Player   string         `json:"player"`
	Currency string         `json:"currency"`
	Balance  baccarat.Money `json:"balance"`
}

// Check refuses a player the wallet cannot hold.
func (p *Player) Check() error {
	if err := (&seamless.BalanceRequest{Player: p.Player, Currency: p.Currency}).Check(); err != nil {
		return err
	}
	if p.Balance < 0 || p.Balance > MaxBalance {
		return seamless.Refuse(seamless.CodeBadRequest, "balance %d: want 0 to %d", p.Balance, MaxBalance)
	}
	return nil
}

// SetPlayer creates a player with a balance, or sets an existing player's balance. The
// change counts in the player's opening, so the books still add up.
func (s *Store) SetPlayer(ctx context.Context, p Player) error {
	if err := p.Check(); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO players (player, currency, balance, opening) VALUES (?, ?, ?, ?)
		ON CONFLICT (player, currency) DO UPDATE SET opening = opening + excluded.balance - balance, balance = excluded.balance`,
		p.Player, p.Currency, p.Balance, p.Balance)
	return err
}

// AddPlayer creates a player with a balance unless the player exists; it reports whether
// it did.
func (s *Store) AddPlayer(ctx context.Context, p Player) (bool, error) {
	if err := p.Check(); err != nil {
		return false, err
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO players (player, currency, balance, opening) VALUES (?, ?, ?, ?)
		ON CONFLICT (player, currency) DO NOTHING`, p.Player, p.Currency, p.Balance, p.Balance)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Balance is a player's balance; an unknown player is refused (unknown_player).
func (s *Store) Balance(ctx context.Context, q seamless.BalanceRequest) (baccarat.Money, error) {
	var b baccarat.Money
	err := s.db.QueryRowContext(ctx, `SELECT balance FROM players WHERE player = ? AND currency = ?`, q.Player, q.Currency).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, unknownPlayer(q.Player, q.Currency)
	}
	return b, err
}

func unknownPlayer(player, currency string) error {
	return seamless.Refuse(seamless.CodeUnknownPlayer, "no player %s with a %s wallet", player, currency)
}
