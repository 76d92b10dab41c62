package baccarat

import "unicode/utf8"

// MaxIDLen is the longest id of any kind the platform takes or stores: an outside id
// (ValidID) and a stored one (ValidStoredID) alike, so either costs at most 64 bytes
// wherever it is kept.
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
func ValidID(s string) bool { return validID(s, false) }

// ValidStoredID reports whether s is an id the books and the journal may hold: an account's
// owner ("wallet/<owner>/EUR"), a journal's table id and record type, a lease's owner. It is
// ValidID's set and two characters more, '.' and '@', because the platform names some of
// what it stores itself, outside CheckID: a house bot owns wallets as "bot.house-1"
// (tournament.BotPrefix, whose dot no outside id can have), and a server holds leases under
// its name, by default its host name ("web-1.example.com-…", serve --owner), which may carry
// '.' and '@'. What was stored once must load and verify forever, so this rule never
// narrows. It still leaves out '/' and ':', so an account id splits unambiguously at its
// slashes and a chip currency at its colon, and spaces and controls, so ids print safely in
// logs and statements. Check what comes from outside with CheckID, never with this.
func ValidStoredID(s string) bool { return validID(s, true) }

func validID(s string, stored bool) bool {
	if len(s) == 0 || len(s) > MaxIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-':
		case stored && (c == '.' || c == '@'):
		default:
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
