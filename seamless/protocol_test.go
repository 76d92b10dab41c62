package seamless

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

const debitBody = `{"tx":"d-1","player":"ann","currency":"EUR","amount":1000,"table":"tiger-1","round":12,"wager":5}`

func TestSeamlessDecodeDebit(t *testing.T) {
	q, err := DecodeDebit([]byte(debitBody))
	want := DebitRequest{Tx: "d-1", Player: "ann", Currency: "EUR", Amount: 1000, Table: "tiger-1", Round: 12, Wager: 5}
	if err != nil || q != want {
		t.Fatalf("DecodeDebit: %+v, %v; want %+v", q, err, want)
	}
	if got := string(Canonical(q)); got != debitBody {
		t.Errorf("canonical body %s, want %s", got, debitBody)
	}
}

// TestSeamlessDecodeRefuses: the edge decodes only what a caller may send, into the
// call's own type, and checks every field.
func TestSeamlessDecodeRefuses(t *testing.T) {
	with := func(old, new string) string { return strings.Replace(debitBody, old, new, 1) }
	for _, c := range []struct {
		name, body string
		code       Code
	}{
		{"an empty body", ``, CodeBadRequest},
		{"not an object", `[1]`, CodeBadRequest},
		{"an unknown field (a credit's debit_tx on a debit)", with(`}`, `,"debit_tx":"x"}`), CodeBadRequest},
		{"two objects", debitBody + debitBody, CodeBadRequest},
		{"a fractional amount", with(`1000`, `10.5`), CodeBadRequest},
		{"a zero debit", with(`1000`, `0`), CodeBadRequest},
		{"a negative debit", with(`1000`, `-5`), CodeBadRequest},
		{"an amount over what the books move at once", with(`1000`, `1000000000000001`), CodeBadRequest},
		{"a tx id with a space", with(`d-1`, `d 1`), CodeBadRequest},
		{"a tx id over 64 characters", with(`d-1`, strings.Repeat("x", 65)), CodeBadRequest},
		{"a missing player", with(`"player":"ann",`, ``), CodeBadRequest},
		{"a lower-case currency", with(`EUR`, `eur`), CodeBadRequest},
		{"a code of three capitals that is not ISO 4217", with(`EUR`, `ABC`), CodeBadRequest},
		{"tournament chips", with(`EUR`, `CHIPS:t1`), CodeBadRequest},
		{"round 0", with(`"round":12`, `"round":0`), CodeBadRequest},
		{"a negative wager", with(`"wager":5`, `"wager":-5`), CodeBadRequest},
		{"a wager past 2^53", with(`"wager":5`, `"wager":9007199254740992`), CodeBadRequest},
		{"a body over 64 KiB", with(`"ann"`, `"`+strings.Repeat("a", MaxBody)+`"`), CodeTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeDebit([]byte(c.body))
			var re *RefusedError
			if !errors.As(err, &re) || re.Code != c.code || re.Status != c.code.Status() {
				t.Fatalf("DecodeDebit(%.80s): %v; want a %s refusal", c.body, err, c.code)
			}
		})
	}
}

func TestSeamlessCreditAndRollbackRules(t *testing.T) {
	credit := `{"tx":"c-1","player":"ann","currency":"EUR","amount":0,"table":"t","round":1,"wager":1,"debit_tx":"d-1"}`
	if _, err := DecodeCredit([]byte(credit)); err != nil {
		t.Errorf("a credit of 0 (a lost wager closing its debit) is refused: %v", err)
	}
	if _, err := DecodeRollback([]byte(credit)); err == nil {
		t.Error("a rollback of 0 is taken: a rollback gives back a debit, at least 1")
	}
	if _, err := DecodeCredit([]byte(strings.Replace(credit, `"d-1"`, `"c-1"`, 1))); err == nil {
		t.Error("a credit naming itself as its debit is taken")
	}
	if _, err := DecodeCredit([]byte(strings.Replace(credit, `,"debit_tx":"d-1"`, ``, 1))); err == nil {
		t.Error("a credit without debit_tx is taken")
	}
	if _, err := DecodeBalance([]byte(`{"player":"ann","currency":"EUR","tx":"x"}`)); err == nil {
		t.Error("a balance call with a tx is taken")
	}
}

func TestSeamlessCodesHaveStatuses(t *testing.T) {
	for _, c := range Codes() {
		if s := c.Status(); s < 400 || s > 599 || c != CodeInternal && s == 500 {
			t.Errorf("%s has status %d", c, s)
		}
	}
	if Code("nonsense").Status() != 500 {
		t.Error("an unknown code is not a 500")
	}
	if got := baccarat.ErrorCode(&InsufficientFundsError{Balance: 5}); got != baccarat.CodeInsufficientFunds {
		t.Errorf("insufficient funds reads as %q on the platform", got)
	}
}

// FuzzSeamlessDecode: no body panics a decoder; a body one accepts passes Check and
// comes back the same through its canonical form.
func FuzzSeamlessDecode(f *testing.F) {
	f.Add([]byte(debitBody))
	f.Add([]byte(`{"tx":"c","player":"a","currency":"USD","amount":0,"table":"t","round":1,"wager":1,"debit_tx":"d"}`))
	f.Add([]byte(`{"player":"a","currency":"JPY"}`))
	f.Add([]byte(`{"amount":1e3}`))
	f.Add([]byte(`{"tx":"\u0064"} {}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		fuzzOne(t, body, DecodeBalance)
		fuzzOne(t, body, DecodeDebit)
		fuzzOne(t, body, DecodeCredit)
		fuzzOne(t, body, DecodeRollback)
	})
}

func fuzzOne[T any, P interface {
	*T
	Check() error
}](t *testing.T, body []byte, decode func([]byte) (T, error)) {
	q, err := decode(body)
	if err != nil {
		var re *RefusedError
		if !errors.As(err, &re) || re.Code != CodeBadRequest && re.Code != CodeTooLarge {
			t.Fatalf("%T: error %v is not a bad_request or too_large refusal", q, err)
		}
		return
	}
	if err := P(&q).Check(); err != nil {
		t.Fatalf("%T accepted but fails Check: %v", q, err)
	}
	again, err := decode(Canonical(q))
	if err != nil || !reflect.DeepEqual(again, q) {
		t.Fatalf("%T: canonical form %s reads back as %+v, %v", q, Canonical(q), again, err)
	}
	if bytes.Contains(Canonical(q), []byte("\n")) {
		t.Fatalf("canonical form has a newline")
	}
}
