package baccarat_test

import (
	"fmt"
	"testing"

	"github.com/tablehouse/baccarat"
)

// TestCodesAreDeclaredOnceWithAKind: every code is declared with its kind, once; a name
// declared twice, a name that is not lower snake case and a kind that does not exist are
// refused at start-up; a code nobody declared is internal.
func TestCodesAreDeclaredOnceWithAKind(t *testing.T) {
	seen := map[baccarat.Code]bool{}
	for _, c := range baccarat.Codes() {
		if seen[c] {
			t.Errorf("%s listed twice", c)
		}
		seen[c] = true
		if !c.Declared() {
			t.Errorf("%s listed but not declared", c)
		}
	}
	for _, c := range []struct {
		code baccarat.Code
		kind baccarat.Kind
	}{
		{baccarat.CodeBettingClosed, baccarat.KindConflict},
		{baccarat.CodeAboveMaximum, baccarat.KindInvalid},
		{baccarat.CodeInsufficientFunds, baccarat.KindFunds},
		{baccarat.CodeExcluded, baccarat.KindForbidden},
		{baccarat.CodeLeaseLost, baccarat.KindUnavailable},
		{baccarat.CodeIntegrity, baccarat.KindInternal},
		{"never_declared", baccarat.KindInternal},
	} {
		if got := c.code.Kind(); got != c.kind {
			t.Errorf("%s is %s, want %s", c.code, got, c.kind)
		}
	}
	if baccarat.Code("never_declared").Declared() {
		t.Error("an undeclared code says it is declared")
	}
	for _, c := range []struct {
		rule, name string
		kind       baccarat.Kind
	}{
		{"a code is declared once", "betting_closed", baccarat.KindConflict},
		{"a code is declared once, whatever the kind", "betting_closed", baccarat.KindInvalid},
		{"a code is lower snake case", "Betting-Closed", baccarat.KindConflict},
		{"a code has a name", "", baccarat.KindConflict},
		{"a code has a kind that exists", "a_new_code", baccarat.Kind(200)},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Declare(%q, %v) did not panic", c.rule, c.name, c.kind)
				}
			}()
			baccarat.Declare(c.name, c.kind)
		}()
	}
	if baccarat.Code("a_new_code").Declared() {
		t.Error("a refused declaration was kept")
	}
}

// A package declares its codes as variables, each with its kind; web answers each kind
// with one HTTP status.
func ExampleDeclare() {
	codeSeatTaken := baccarat.Declare("example_seat_taken", baccarat.KindConflict)
	err := baccarat.Errorf(codeSeatTaken, "seat %d is taken", 3)
	fmt.Println(baccarat.ErrorCode(err), baccarat.ErrorCode(err).Kind())
	// Output: example_seat_taken conflict
}
