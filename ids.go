package baccarat

import "unicode/utf8"

// MaxIDLen is the longest identifier the platform takes from outside.
const MaxIDLen = 64

// CheckID checks an identifier that comes from outside (a player, table, seat, tournament
// or request id): 1 to MaxIDLen characters of A–Z, a–z, 0–9, '_' and '-'. Nothing else is
// taken: no dots (tokens are dot-separated), no spaces, no control or direction-changing
// characters, so an id prints the same in a log, a page and a database, and costs at most
// 64 bytes wherever it is stored. what names the field in the error ("seat", "request_id").
func CheckID(what, s string) error {
	if ValidID(s) {
		return nil
	}
	if len(s) > MaxIDLen {
		return Errorf(CodeBadRequest, "%s is %d characters long: use at most %d letters, digits, _ and -", what, len(s), MaxIDLen)
	}
	return Errorf(CodeBadRequest, "%s %q: use 1 to %d letters (A–Z, a–z), digits, _ and -", what, Truncate(s, 80), MaxIDLen)
}

// ValidID reports whether s is a well-formed outside identifier (see CheckID).
func ValidID(s string) bool {
	if len(s) == 0 || len(s) > MaxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Truncate shortens s to at most n bytes and an ellipsis, for an error message or a log line
// that quotes what a peer sent: never mid-character, so valid UTF-8 stays valid.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
