package baccarat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Error is the platform's one error type: a stable machine-readable Code and a Message for
// people. Codes never change once published; each is declared once with its Kind (codes.go),
// and web answers each kind with one HTTP status.
// Params are what a refusal names (the maximum, the stake, the bet), so that a page can say
// it in its reader's language with the amounts formatted there: the English Message names
// them too, but a page cannot take words apart. Which code carries which params is in
// web/API.md, "Errors".
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	Params  Params `json:"params,omitempty"`
}

// Params are a refusal's particulars, each a JSON string or integer: amounts are integer
// minor units (Money) beside a "currency" param that says whose, never formatted text;
// bets are ids ("banker"); times are RFC 3339. A page formats them for its language.
type Params map[string]any

// Money says whose minor units the params' amounts are: the currency, and its decimals
// (minor_units) so that a page shows 1.001 BHD or ¥101 without a table of its own.
func (p Params) Money(currency string) Params {
	p["currency"] = currency
	p["minor_units"] = MinorUnits(currency)
	return p
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an *Error with the given code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Refuse is Errorf with the params the refusal names. It is built only when a request is
// refused, so the map costs nothing on the way a request is taken.
func Refuse(code Code, params Params, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Params: params}
}

// UnmarshalJSON reads an error as another server sent it (cluster answers): its integer
// params stay exact (json.Number, an int64 when they fit), not float64s that would round
// an amount past 2^53 and write it back in exponent form.
func (e *Error) UnmarshalJSON(b []byte) error {
	var raw struct {
		Code    Code           `json:"code"`
		Message string         `json:"message"`
		Params  map[string]any `json:"params"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	*e = Error{Code: raw.Code, Message: raw.Message}
	if len(raw.Params) > 0 {
		e.Params = make(Params, len(raw.Params))
		for k, v := range raw.Params {
			if n, ok := v.(json.Number); ok {
				if i, err := n.Int64(); err == nil {
					v = i
				}
			}
			e.Params[k] = v
		}
	}
	return nil
}

// ErrorCode returns the code of err if it is (or wraps) an *Error, "internal" otherwise and
// "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}
