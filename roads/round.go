package roads

import (
	"strings"

	"github.com/tablehouse/baccarat"
)

// Round is one settled, non-void round as the roads see it: who won, and the flags the Bead
// Plate and the statistics show. Pairs and naturals never move a road (ROADS.md, derived
// roads: "Ties and pairs do not affect derived roads").
type Round struct {
	Winner     baccarat.Winner // PlayerWins, BankerWins or Tie
	PlayerPair bool
	BankerPair bool
	Natural    bool
}

// FromResult is the Round of a finished coup, so a table feeds the roads from the cards it
// dealt (the cards prevail, Tiger 6.3).
func FromResult(r baccarat.Result) Round {
	return Round{Winner: r.Winner, PlayerPair: r.PlayerPair, BankerPair: r.BankerPair, Natural: r.Natural}
}

// Valid reports an error unless the round has a decided winner: an undecided or void round
// has no place on a scoreboard.
func (r Round) Valid() error {
	switch r.Winner {
	case baccarat.PlayerWins, baccarat.BankerWins, baccarat.Tie:
		return nil
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "a round on the roads needs a winner (B, P or T), not %s", r.Winner)
}

// String is the round's notation: the result letter and its flags in the order p, b, n
// ("B", "Bp", "Pbn").
func (r Round) String() string {
	var sb strings.Builder
	r.appendTo(&sb)
	return sb.String()
}

func (r Round) appendTo(sb *strings.Builder) {
	sb.WriteString(r.Winner.Letter())
	if r.PlayerPair {
		sb.WriteByte('p')
	}
	if r.BankerPair {
		sb.WriteByte('b')
	}
	if r.Natural {
		sb.WriteByte('n')
	}
}

// MarshalText writes the round's notation.
func (r Round) MarshalText() ([]byte, error) {
	if err := r.Valid(); err != nil {
		return nil, err
	}
	return []byte(r.String()), nil
}

// UnmarshalText reads exactly one round in notation.
func (r *Round) UnmarshalText(b []byte) error {
	rs, err := ParseRounds(string(b))
	if err != nil {
		return err
	}
	if len(rs) != 1 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%q is %d rounds, not one", b, len(rs))
	}
	*r = rs[0]
	return nil
}

// FormatRounds writes rounds in notation with no separators ("TBpPPn"); ParseRounds reads it
// back to the same rounds.
func FormatRounds(rs []Round) string {
	var sb strings.Builder
	for _, r := range rs {
		r.appendTo(&sb)
	}
	return sb.String()
}

// ParseRounds reads rounds in notation (see the package documentation): upper-case B, P or T,
// each directly followed by optional flags p, b, n; spaces and commas are ignored. An error is
// a CodeBadRequest naming the 1-based character position and the offending character, so a
// dealer can find the typo in a long shoe.
func ParseRounds(s string) ([]Round, error) {
	out := make([]Round, 0, len(s))
	attached := false // the previous character was a result letter or one of its flags
	pos := 0
	for _, ch := range s {
		pos++
		switch ch {
		case ' ', ',', '\t', '\n', '\r':
			attached = false
		case 'B':
			out, attached = append(out, Round{Winner: baccarat.BankerWins}), true
		case 'P':
			out, attached = append(out, Round{Winner: baccarat.PlayerWins}), true
		case 'T':
			out, attached = append(out, Round{Winner: baccarat.Tie}), true
		case 'p', 'b', 'n':
			if !attached {
				return nil, badChar(pos, ch, "a flag must directly follow its result letter; results are upper-case B, P, T")
			}
			if !setFlag(&out[len(out)-1], ch) {
				return nil, badChar(pos, ch, "the flag is repeated")
			}
		case 't':
			return nil, badChar(pos, ch, "results are upper-case B, P, T")
		default:
			return nil, badChar(pos, ch, "expected a result B, P, T or, after one, a flag p (Player pair), b (Banker pair), n (natural)")
		}
	}
	return out, nil
}

// setFlag sets the flag ch on r and reports false when it was already set.
func setFlag(r *Round, ch rune) bool {
	f := &r.Natural
	switch ch {
	case 'p':
		f = &r.PlayerPair
	case 'b':
		f = &r.BankerPair
	}
	if *f {
		return false
	}
	*f = true
	return true
}

func badChar(pos int, ch rune, why string) error {
	return baccarat.Errorf(baccarat.CodeBadRequest, "position %d: %q: %s", pos, ch, why)
}
