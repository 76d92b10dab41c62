package seamless

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tablehouse/baccarat"
)

// The paths of the calls, under the operator's base URL.
const (
	PathBalance  = "/balance"
	PathDebit    = "/debit"
	PathCredit   = "/credit"
	PathRollback = "/rollback"
)

// MaxBody is the largest request or answer body either side reads (64 KiB): every message
// of the protocol is a few hundred bytes.
const MaxBody = 64 << 10

// MaxCount is the largest round or wager number a message carries (2^53−1), so that every
// JSON reader, JavaScript's included, reads it exactly.
const MaxCount = 1<<53 - 1

// BalanceRequest asks for a player's balance in a currency.
type BalanceRequest struct {
	Player   string `json:"player"`
	Currency string `json:"currency"`
}

// DebitRequest takes a wager's stake from the player's wallet.
type DebitRequest struct {
	Tx       string         `json:"tx"`
	Player   string         `json:"player"`
	Currency string         `json:"currency"`
	Amount   baccarat.Money `json:"amount"` // 1 to baccarat.MaxAmount
	Table    string         `json:"table"`
	Round    uint64         `json:"round"`
	Wager    uint64         `json:"wager"`
}

// CreditRequest pays a wager's return (stake and winnings; 0 for a lost wager) into the
// player's wallet, closing the debit it names.
type CreditRequest struct {
	Tx       string         `json:"tx"`
	Player   string         `json:"player"`
	Currency string         `json:"currency"`
	Amount   baccarat.Money `json:"amount"` // 0 to baccarat.MaxAmount
	Table    string         `json:"table"`
	Round    uint64         `json:"round"`
	Wager    uint64         `json:"wager"`
	DebitTx  string         `json:"debit_tx"`
}

// RollbackRequest gives back a debit's stake (a withdrawn wager, a voided round, a debit
// whose outcome is unknown), closing the debit it names.
type RollbackRequest struct {
	Tx       string         `json:"tx"`
	Player   string         `json:"player"`
	Currency string         `json:"currency"`
	Amount   baccarat.Money `json:"amount"` // the debit's amount
	Table    string         `json:"table"`
	Round    uint64         `json:"round"`
	Wager    uint64         `json:"wager"`
	DebitTx  string         `json:"debit_tx"`
}

// Answer is the answer to every call that was applied (or, for a rollback of a debit never
// seen, recorded): the player's balance after it.
type Answer struct {
	Balance baccarat.Money `json:"balance"`
}

// ErrorAnswer is the body of a refusal. Balance is set for insufficient funds only.
type ErrorAnswer struct {
	Error   Code            `json:"error"`
	Message string          `json:"message,omitempty"`
	Balance *baccarat.Money `json:"balance,omitempty"`
}

// Check refuses a request that breaks the protocol's rules for its fields.
func (q *BalanceRequest) Check() error {
	return firstErr(checkID("player", q.Player), checkCurrency(q.Currency))
}

// Check refuses a debit that breaks the protocol's rules for its fields.
func (q *DebitRequest) Check() error { return q.check(1) }

// check checks the fields a debit, a credit and a rollback share, amounts from least.
func (q *DebitRequest) check(least baccarat.Money) error {
	return firstErr(checkID("tx", q.Tx), checkID("player", q.Player), checkCurrency(q.Currency),
		checkAmount(q.Amount, least), checkID("table", q.Table), checkCount("round", q.Round), checkCount("wager", q.Wager))
}

// Check refuses a credit that breaks the protocol's rules for its fields.
func (q *CreditRequest) Check() error {
	d := DebitRequest{Tx: q.Tx, Player: q.Player, Currency: q.Currency, Amount: q.Amount, Table: q.Table,
		Round: q.Round, Wager: q.Wager}
	return closing(d.check(0), q.Tx, q.DebitTx)
}

// Check refuses a rollback that breaks the protocol's rules for its fields.
func (q *RollbackRequest) Check() error {
	d := q.Debit()
	d.Tx = q.Tx
	return closing(d.check(1), q.Tx, q.DebitTx)
}

// Debit is the debit a rollback names, as the rollback describes it.
func (q *RollbackRequest) Debit() DebitRequest {
	return DebitRequest{Tx: q.DebitTx, Player: q.Player, Currency: q.Currency, Amount: q.Amount, Table: q.Table,
		Round: q.Round, Wager: q.Wager}
}

// closing checks what a credit or rollback adds to a debit's fields: debit_tx, an id other
// than the call's own.
func closing(err error, tx, debitTx string) error {
	if err != nil {
		return err
	}
	if err := checkID("debit_tx", debitTx); err != nil {
		return err
	}
	if debitTx == tx {
		return Refuse(CodeBadRequest, "debit_tx %q is the call's own tx: name the debit this closes", tx)
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func checkID(what, s string) error {
	if err := baccarat.CheckID(what, s); err != nil {
		return Refuse(CodeBadRequest, "%s", err.Error())
	}
	return nil
}

// checkCurrency takes money, an ISO 4217 code (baccarat.CheckMoneyCurrency): tournament
// chips never leave the platform, so they have no business with an operator's wallet.
func checkCurrency(s string) error {
	if err := baccarat.CheckMoneyCurrency(s); err != nil {
		return Refuse(CodeBadRequest, "%s", err.Error())
	}
	return nil
}

func checkAmount(m, least baccarat.Money) error {
	if m < least || m > baccarat.MaxAmount {
		return Refuse(CodeBadRequest, "amount %d: want %d to %d minor units", m, least, baccarat.MaxAmount)
	}
	return nil
}

func checkCount(what string, n uint64) error {
	if n < 1 || n > MaxCount {
		return Refuse(CodeBadRequest, "%s %d: want 1 to %d", what, n, uint64(MaxCount))
	}
	return nil
}

// request is any of the four requests (and anything else Decode reads).
type request interface {
	Check() error
}

// DecodeBalance reads a /balance body: exactly one JSON object of the request's fields
// (unknown fields and anything after the object are refused), then Check.
func DecodeBalance(body []byte) (BalanceRequest, error) {
	var q BalanceRequest
	return q, decode(body, &q)
}

// DecodeDebit reads a /debit body as DecodeBalance reads its own.
func DecodeDebit(body []byte) (DebitRequest, error) {
	var q DebitRequest
	return q, decode(body, &q)
}

// DecodeCredit reads a /credit body as DecodeBalance reads its own.
func DecodeCredit(body []byte) (CreditRequest, error) {
	var q CreditRequest
	return q, decode(body, &q)
}

// DecodeRollback reads a /rollback body as DecodeBalance reads its own.
func DecodeRollback(body []byte) (RollbackRequest, error) {
	var q RollbackRequest
	return q, decode(body, &q)
}

// Decode is the one strict reader of outside bodies: exactly one JSON object of q's fields,
// nothing after it, at most MaxBody bytes, then q.Check(). Errors are *RefusedError with
// CodeBadRequest or CodeTooLarge (or whatever Check returns).
func Decode(body []byte, q interface{ Check() error }) error { return decode(body, q) }

func decode(body []byte, q request) error {
	if len(body) > MaxBody {
		return Refuse(CodeTooLarge, "the body is %d bytes, over %d: a call is one small JSON object", len(body), MaxBody)
	}
	if t := bytes.TrimSpace(body); len(t) == 0 || t[0] != '{' {
		return Refuse(CodeBadRequest, "the body must be one JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(q); err != nil {
		return Refuse(CodeBadRequest, "the body is not this call's JSON: %s", baccarat.Truncate(err.Error(), 200))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Refuse(CodeBadRequest, "the body holds more than one JSON value: send exactly one object")
	}
	return q.Check()
}

// encode is the canonical body of a request or answer: encoding/json of the typed value,
// so equal values have equal bytes.
func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("seamless: encoding %T: %v", v, err)) // plain structs of strings and integers
	}
	return b
}

// Canonical is a request's canonical body: the bytes the Client sends, and what an operator
// compares when a tx id comes again.
func Canonical(q any) []byte { return encode(q) }
