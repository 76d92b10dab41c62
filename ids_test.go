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
