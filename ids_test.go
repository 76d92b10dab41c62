package baccarat

import (
	"strings"
	"testing"
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
