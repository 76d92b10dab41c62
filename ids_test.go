package baccarat

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCheckID(t *testing.T) {
	for _, c := range []struct {
		id string
		ok bool
	}{
		{"ann", true}, {"Seat_7-b", true}, {strings.Repeat("a", 64), true},
		{"", false}, {strings.Repeat("a", 65), false}, {"ann.smith", false}, {"ann smith", false},
		{"ann\x00", false}, {"ann\u202e", false}, {"anné", false}, {"a/b", false},
	} {
		err := CheckID("seat", c.id)
		if (err == nil) != c.ok {
			t.Errorf("CheckID(%q) = %v, want ok=%v", c.id, err, c.ok)
		}
		if err != nil && ErrorCode(err) != CodeBadRequest {
			t.Errorf("CheckID(%q) code %s, want bad_request", c.id, ErrorCode(err))
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("CheckID(%q): the message is %d bytes: a long id must not be echoed whole", c.id[:10], len(err.Error()))
		}
	}
}

// TestTruncateNeverCutsACharacter: a quoted value shortened for a message stays valid UTF-8.
func TestTruncateNeverCutsACharacter(t *testing.T) {
	for _, c := range []struct {
		name, in string
		n        int
		want     string
	}{
		{"short enough: as it is", "abc", 3, "abc"},
		{"ASCII cut at n", "abcdef", 3, "abc…"},
		{"a Chinese character is not split", "庄闲和", 4, "庄…"},
		{"at a character's start", "庄闲和", 3, "庄…"},
		{"inside the first character: nothing of it", "庄闲", 2, "…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Truncate(c.in, c.n)
			if got != c.want || !utf8.ValidString(got) {
				t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
			}
		})
	}
}

// TestTheIDRules: an outside id (ValidID, CheckID) and a stored id (ValidStoredID) share
// their length and letters; a stored id also takes the '.' and '@' the platform puts in
// what it names itself, and neither takes what would split an account id or a chip currency.
func TestTheIDRules(t *testing.T) {
	for _, c := range []struct {
		name, id        string
		outside, stored bool
	}{
		{"letters, digits, _ and - are an id", "Seat_7-b", true, true},
		{"MaxIDLen characters are an id", strings.Repeat("a", MaxIDLen), true, true},
		{"one past MaxIDLen is not", strings.Repeat("a", MaxIDLen+1), false, false},
		{"empty is not", "", false, false},
		{"a house bot's dot is stored, never taken from outside", "bot.house-1", false, true},
		{"a host name in a lease owner is stored", "web-1.example.com-4242-0a1b2c3d", false, true},
		{"an @ is stored, never taken from outside", "ops@web-1", false, true},
		{"a slash would split an account id: neither", "a/b", false, false},
		{"a colon would split a chip currency: neither", "CHIPS:t1", false, false},
		{"a space: neither", "ann smith", false, false},
		{"a control character: neither", "ann\x00", false, false},
		{"a direction override: neither", "ann\u202e", false, false},
		{"a letter outside ASCII: neither", "anné", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ValidID(c.id); got != c.outside {
				t.Errorf("ValidID(%.20q) = %v, want %v", c.id, got, c.outside)
			}
			if got := CheckID("id", c.id) == nil; got != c.outside {
				t.Errorf("CheckID(%.20q) ok = %v, want %v", c.id, got, c.outside)
			}
			if got := ValidStoredID(c.id); got != c.stored {
				t.Errorf("ValidStoredID(%.20q) = %v, want %v", c.id, got, c.stored)
			}
		})
	}
}
