package roads

import (
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

func TestParseRounds(t *testing.T) {
	B, P, T := baccarat.BankerWins, baccarat.PlayerWins, baccarat.Tie
	for _, tc := range []struct {
		name, in string
		want     []Round
	}{
		{"plain letters", "TBP", []Round{{Winner: T}, {Winner: B}, {Winner: P}}},
		{"spaces and commas are ignored", " T, B  P ", []Round{{Winner: T}, {Winner: B}, {Winner: P}}},
		{"flags follow their letter in any order", "BpPnbTb", []Round{
			{Winner: B, PlayerPair: true}, {Winner: P, Natural: true, BankerPair: true}, {Winner: T, BankerPair: true}}},
		{"empty is an empty shoe", "", []Round{}},
	} {
		t.Run("notation: "+tc.name, func(t *testing.T) {
			got, err := ParseRounds(tc.in)
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("ParseRounds(%q) = %v, %v", tc.in, got, err)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("round %d = %+v, want %+v", i+1, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestParseRoundsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"an unknown letter names its position", "BPX", "position 3: 'X'"},
		{"positions count every character, separators included", "B, P x", "position 6: 'x'"},
		{"a lower-case result is refused", "BPt", "position 3: 't': results are upper-case"},
		{"a flag needs a result before it", "pB", "position 1: 'p': a flag must directly follow"},
		{"a flag cut off from its result by a space", "B p", "position 3: 'p'"},
		{"a repeated flag", "Bpp", "position 3: 'p': the flag is repeated"},
		{"a digit", "BB3", "position 3: '3'"},
	} {
		t.Run("notation error: "+tc.name, func(t *testing.T) {
			rs, err := ParseRounds(tc.in)
			if baccarat.ErrorCode(err) != baccarat.CodeBadRequest || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseRounds(%q) = %v, %v; want a bad_request containing %q", tc.in, rs, err, tc.want)
			}
		})
	}
}

func TestRoundText(t *testing.T) {
	r := Round{Winner: baccarat.PlayerWins, BankerPair: true, Natural: true}
	b, err := r.MarshalText()
	if err != nil || string(b) != "Pbn" {
		t.Fatalf("MarshalText = %s, %v", b, err)
	}
	var back Round
	if err := back.UnmarshalText(b); err != nil || back != r {
		t.Errorf("UnmarshalText(%s) = %+v, %v", b, back, err)
	}
	if err := back.UnmarshalText([]byte("BP")); err == nil {
		t.Error("two rounds were read as one")
	}
	if _, err := (Round{}).MarshalText(); err == nil {
		t.Error("a round without a winner was written")
	}
}

// FuzzParseRounds: outside input never panics, and whatever parses writes back to the same
// rounds.
func FuzzParseRounds(f *testing.F) {
	for _, s := range []string{workedExample, "Bp Pbn, T", "pB", "Bpp", "ｂ", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, err := ParseRounds(s)
		if err != nil {
			return
		}
		back, err := ParseRounds(FormatRounds(rs))
		if err != nil || len(back) != len(rs) {
			t.Fatalf("%q: %v does not round-trip: %v, %v", s, rs, back, err)
		}
		for i := range rs {
			if back[i] != rs[i] {
				t.Fatalf("%q: round %d %v read back as %v", s, i, rs[i], back[i])
			}
		}
	})
}
