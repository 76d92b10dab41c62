package seamless

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestDefiniteRefusals is the table of Definite: only a signed 4xx with a code the
// operator gives again to every retry of the tx stops a credit or rollback.
func TestDefiniteRefusals(t *testing.T) {
	refused := func(status int, code Code) error { return &RefusedError{Status: status, Code: code, Message: "m"} }
	for _, tc := range []struct {
		name   string
		err    error
		signed bool
		want   bool
	}{
		{"a signed 409 of a conflict code is definite", refused(409, CodeDebitClosed), true, true},
		{"a signed 409 tx_conflict is definite", refused(409, CodeTxConflict), true, true},
		{"a signed 409 debit_mismatch is definite", refused(409, CodeDebitMismatch), true, true},
		{"a signed 409 rolled_back is definite", refused(409, CodeRolledBack), true, true},
		{"a signed 404 unknown_player is definite", refused(404, CodeUnknownPlayer), true, true},
		{"a signed 404 unknown_debit is definite", refused(404, CodeUnknownDebit), true, true},
		{"a signed 400 bad_request is definite", refused(400, CodeBadRequest), true, true},
		{"a signed 413 too_large is definite", refused(413, CodeTooLarge), true, true},
		{"a signed insufficient_funds is definite", &InsufficientFundsError{Balance: 5}, true, true},
		{"a signed 4xx of the operator's own code is definite", refused(409, "account_locked"), true, true},
		{"a definite refusal wrapped is still definite", fmt.Errorf("crediting: %w", refused(404, CodeUnknownPlayer)), true, true},
		{"an unsigned 409 is not", refused(409, CodeDebitClosed), false, false},
		{"an unsigned insufficient_funds is not", &InsufficientFundsError{}, false, false},
		{"a 429 is not, signed or not", refused(429, CodeDebitClosed), true, false},
		{"a 408 is not", refused(408, CodeBadRequest), true, false},
		{"a 425 is not", refused(425, "too_early"), true, false},
		{"a signed 401 bad_signature is not: nothing was read", refused(401, CodeBadSignature), true, false},
		{"bad_signature under another status is not", refused(400, CodeBadSignature), true, false},
		{"a protocol code under another status is not the protocol's answer", refused(404, CodeDebitClosed), true, false},
		{"a 4xx without a code (a body that does not decode) is not", refused(400, ""), true, false},
		{"internal is never a refusal", refused(409, CodeInternal), true, false},
		{"a 5xx is not", refused(503, "unavailable"), true, false},
		{"not sent is not", &RefusedError{Code: CodeBadRequest}, true, false},
		{"no answer is not", &OutcomeUnknownError{Op: PathCredit, Tx: "c1", Err: errors.New("timeout")}, true, false},
		{"a context done before sending is not", context.Canceled, true, false},
		{"no error is not a refusal", nil, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Definite(tc.err, tc.signed); got != tc.want {
				t.Fatalf("Definite(%v, signed %v) = %v, want %v", tc.err, tc.signed, got, tc.want)
			}
		})
	}
}

// TestEveryCodeHasADecision: each protocol code, signed under its own status, is decided
// one way or the other on purpose: the codes that are retried are listed here.
func TestEveryCodeHasADecision(t *testing.T) {
	retried := map[Code]bool{CodeBadSignature: true, CodeInternal: true}
	for _, c := range Codes() {
		var err error = &RefusedError{Status: c.Status(), Code: c}
		if c == CodeInsufficientFunds {
			err = &InsufficientFundsError{}
		}
		if got := Definite(err, true); got == retried[c] {
			t.Errorf("%s (%d): definite %v", c, c.Status(), got)
		}
	}
}
