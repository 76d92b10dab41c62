package tablejson

import (
	"time"
	"unicode/utf8"
)

// safe[b] is true for the ASCII bytes encoding/json writes as they are in a string: every
// printable byte but the quote, the backslash and the HTML characters < > &, which it
// escapes by default (json.Marshal, and json.Encoder unless told otherwise).
var safe = func() (s [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		s[b] = true
	}
	for _, b := range `"\<>&` {
		s[b] = false
	}
	return s
}()

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, escaped exactly as encoding/json escapes it: \"
// \\ \b \f \n \r \t, other control bytes and < > & as \u00XX, U+2028 and U+2029 as \u2028
// and \u2029, and each byte of invalid UTF-8 as \ufffd.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape appends the escape of an ASCII byte that is not safe.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendTime appends t as time.Time's MarshalJSON writes it (RFC 3339 with nanoseconds);
// false when it cannot (a year beyond 9999), and encoding/json must say why.
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	b = append(b, '"')
	tb, err := t.AppendText(b)
	if err != nil {
		return b, false
	}
	return append(tb, '"'), true
}
