package seamless

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/tablehouse/baccarat"
)

// Code is an operator's refusal code, the "error" of an ErrorAnswer.
type Code string

// The refusal codes. Each has one HTTP status, in Code.Status.
const (
	CodeBadRequest        Code = "bad_request"        // a body that is not the call's JSON, or breaks its rules
	CodeBadSignature      Code = "bad_signature"      // no X-Signature, or a wrong one: nothing was read
	CodeInsufficientFunds Code = "insufficient_funds" // a debit over the balance
	CodeUnknownPlayer     Code = "unknown_player"     // no such player in that currency
	CodeUnknownDebit      Code = "unknown_debit"      // a credit naming no applied debit
	CodeTxConflict        Code = "tx_conflict"        // a tx id already used for another body
	CodeRolledBack        Code = "rolled_back"        // a debit whose tx a rollback closed first
	CodeDebitClosed       Code = "debit_closed"       // a debit already credited or rolled back
	CodeDebitMismatch     Code = "debit_mismatch"     // a credit or rollback that does not match its debit
	CodeTooLarge          Code = "too_large"          // a body over MaxBody
	CodeInternal          Code = "internal"           // the operator failed; the call was not applied
)

// Codes lists every refusal code.
func Codes() []Code {
	return []Code{CodeBadRequest, CodeBadSignature, CodeInsufficientFunds, CodeUnknownPlayer, CodeUnknownDebit,
		CodeTxConflict, CodeRolledBack, CodeDebitClosed, CodeDebitMismatch, CodeTooLarge, CodeInternal}
}

var statuses = map[Code]int{
	CodeBadRequest: 400, CodeBadSignature: 401, CodeInsufficientFunds: 402, CodeUnknownPlayer: 404,
	CodeUnknownDebit: 404, CodeTxConflict: 409, CodeRolledBack: 409, CodeDebitClosed: 409, CodeDebitMismatch: 409,
	CodeTooLarge: 413, CodeInternal: 500,
}

// Status is the HTTP status an operator answers a refusal with: the one place codes meet
// statuses. A code not in the table is a 500.
func (c Code) Status() int {
	if s, ok := statuses[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// RefusedError is a definite "no": the operator refused the call (Status is its HTTP
// status), or the client refused to send it (Status 0). Nothing was applied.
type RefusedError struct {
	Status  int
	Code    Code
	Message string
}

func (e *RefusedError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.Status == 0 {
		return fmt.Sprintf("seamless: not sent: %s [%s]", msg, e.Code)
	}
	return fmt.Sprintf("seamless: refused (%d): %s [%s]", e.Status, msg, e.Code)
}

// Refuse builds a refusal with code's status.
func Refuse(code Code, format string, args ...any) *RefusedError {
	return &RefusedError{Status: code.Status(), Code: code, Message: fmt.Sprintf(format, args...)}
}

// InsufficientFundsError is a debit refused for want of money: nothing moved. Balance is
// the player's balance as the operator gave it. It unwraps to the platform's
// insufficient_funds error, so baccarat.ErrorCode reads it.
type InsufficientFundsError struct {
	Balance baccarat.Money
}

func (e *InsufficientFundsError) Error() string {
	return fmt.Sprintf("seamless: insufficient funds: the balance is %d", e.Balance)
}

func (e *InsufficientFundsError) Unwrap() error {
	return baccarat.Errorf(baccarat.CodeInsufficientFunds, "insufficient funds in the operator's wallet")
}

// OutcomeUnknownError is a call without an answer that can be trusted: it may or may not
// have been applied. Op is the path ("/debit"), Tx the call's tx id ("" for /balance).
// A debit in this state must be rolled back; a credit or rollback retried with its tx id.
type OutcomeUnknownError struct {
	Op  string
	Tx  string
	Err error
}

func (e *OutcomeUnknownError) Error() string {
	if e.Tx == "" {
		return fmt.Sprintf("seamless: %s: no answer: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("seamless: %s tx %s: outcome unknown: %v", e.Op, e.Tx, e.Err)
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// Definite reports whether err is a definite refusal of a call: the operator's own word
// that it will not apply the call, which it gives again to every retry of the same tx id
// (the protocol answers a repeated id with its first answer, status included), so that
// sending the call again is pointless and a person must decide. signed says the answer is
// known to be the operator's: its signature was checked. A Client believes no unsigned
// answer (it returns one as an *OutcomeUnknownError), so every refusal with a Status it
// returns was signed; a refusal whose signature was not checked may have come from anyone
// on the way (a proxy's 429, a gateway's 409) and is never definite.
//
// Only a definite refusal stops a credit or a rollback from being retried. The decisions,
// for a credit or a rollback (the protocol code's status in brackets):
//
//	the answer                                                  the call
//	200 with a balance                                          done
//	signed bad_request (400), unknown_player (404),             refused: the same tx id gets
//	  unknown_debit (404), tx_conflict (409), rolled_back (409),  the same answer for ever;
//	  debit_closed (409), debit_mismatch (409), too_large (413),  a person resends it (a new
//	  insufficient_funds (402), or a 4xx with a code of the       tx id) or settles it
//	  operator's own (not 408, 425 or 429)
//	signed bad_signature (401)                                  retried: nothing was read (a
//	                                                              secret out of step)
//	signed 408, 425 or 429, whatever its code                   retried: "ask again later"
//	signed 4xx whose protocol code has another status,          retried: not the protocol's
//	  or without a code (a body that does not decode),            answer
//	  or internal
//	any unsigned answer, whatever its status                    retried
//	5xx, 3xx, 200 without a balance, a wrong signature,         retried: no answer
//	  a timeout, a dropped connection (*OutcomeUnknownError)
//	not sent (Status 0: the client's own refusal, a context     retried: nothing was sent
//	  done before sending)
//
// A debit is the other way round: what is not definitely refused may have been taken, and
// is rolled back.
func Definite(err error, signed bool) bool {
	if !signed || err == nil {
		return false
	}
	var ie *InsufficientFundsError
	if errors.As(err, &ie) {
		return true
	}
	var re *RefusedError
	return errors.As(err, &re) && re.definite()
}

// laterStatuses are the 4xx statuses that ask a caller to try again later: a refusal with
// one of them is never definite, whatever its code.
var laterStatuses = map[int]bool{http.StatusRequestTimeout: true, http.StatusTooEarly: true, http.StatusTooManyRequests: true}

func (e *RefusedError) definite() bool {
	switch {
	case e.Status < 400 || e.Status > 499 || laterStatuses[e.Status]:
		return false
	case e.Code == "" || e.Code == CodeBadSignature || e.Code == CodeInternal:
		return false
	}
	if s, ok := statuses[e.Code]; ok && s != e.Status {
		return false
	}
	return true
}
