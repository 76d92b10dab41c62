package roads

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

// workedExample is the shoe of ROADS.md's worked example.
const workedExample = "T B P P T B B B P B P P B T T B P B B B B B B B B P P P P P P B"

func mustBoard(t testing.TB, notation string) *Board {
	t.Helper()
	rs, err := ParseRounds(notation)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(rs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// marks writes colours in ROADS.md's shorthand: R red, b blue, - none.
func marks(cs []Colour) string {
	var sb strings.Builder
	for _, c := range cs {
		if c == None {
			sb.WriteString("-")
		}
		sb.WriteString(c.Letter())
	}
	return sb.String()
}

// columnsString writes the logical Big Road as ROADS.md does: side and length per column,
// with "/n" after a cell followed by n ties, e.g. "B1 P2(2/1) ...".
func columnsString(br BigRoad) string {
	var parts []string
	for _, c := range br.Columns {
		s := c.Side.Letter() + strconv.Itoa(len(c.Cells))
		for i, cell := range c.Cells {
			if cell.Ties > 0 {
				s += "(" + strconv.Itoa(i+1) + "/" + strconv.Itoa(cell.Ties) + ")"
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func TestWorkedExample(t *testing.T) {
	b := mustBoard(t, workedExample)
	br := b.BigRoad()
	t.Run("ROADS.md worked example: 32 rounds on the Bead Plate", func(t *testing.T) {
		if got := len(b.BeadPlate()); got != 32 {
			t.Errorf("bead cells = %d, want 32", got)
		}
	})
	t.Run("ROADS.md worked example: Big Road has one leading tie", func(t *testing.T) {
		if br.LeadingTies != 1 {
			t.Errorf("leading ties = %d, want 1", br.LeadingTies)
		}
	})
	t.Run("ROADS.md worked example: Big Road columns with their ties", func(t *testing.T) {
		want := "B1 P2(2/1) B3 P1 B1 P2 B2(1/2) P1 B8 P6 B1"
		if got := columnsString(br); got != want {
			t.Errorf("columns\n got %s\nwant %s", got, want)
		}
	})
	for _, tc := range []struct {
		k    Kind
		want string
	}{
		{BigEyeBoy, "bbRbbbRbbRRbbRRRRRRbRRRRRb"},
		{SmallRoad, "bRbbbbbbbbRbRRRRRbbRRRRb"},
		{CockroachPig, "RbRbbbRRbRRRRRbRbRRRb"},
	} {
		t.Run("ROADS.md worked example: "+tc.k.String(), func(t *testing.T) {
			if got := marks(b.Road(tc.k)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
	t.Run("ROADS.md worked example: Ask Banker is R, R, b", func(t *testing.T) {
		if got := ask(b, baccarat.BankerWins); got != "RRb" {
			t.Errorf("Ask Banker = %s, want RRb", got)
		}
	})
	t.Run("ROADS.md worked example: Ask Player is b, b, R", func(t *testing.T) {
		if got := ask(b, baccarat.PlayerWins); got != "bbR" {
			t.Errorf("Ask Player = %s, want bbR", got)
		}
	})
}

// TestAskIsTheMarkTheNextResultWouldMake: ROADS.md, "Ask-X equals the last entry of the road
// after appending X", including when X starts the road; none only where the road would still
// not exist after X.
func TestAskIsTheMarkTheNextResultWouldMake(t *testing.T) {
	for _, tc := range []struct {
		name, rounds string
		banker       string // Ask-Banker for k = 1, 2, 3, "-" for none
		player       string
	}{
		{"empty shoe: no road would exist after the next result", "", "---", "---"},
		{"leading ties only: no road would exist after the next result", "TT", "---", "---"},
		{"one column: no road would exist after the next result", "BBB", "---", "---"},
		{"two columns of one: the next result starts Big Eye Boy, red across, blue down", "BP", "R--", "b--"},
		{"two columns, the last a single cell: the next result starts Big Eye Boy", "BBP", "b--", "R--"},
		{"a long first column: the next result starts Big Eye Boy", "BBBP", "b--", "R--"},
		{"three columns of one: Big Eye Boy has started, the next result starts Small Road", "BPB", "bb-", "RR-"},
		{"four columns of one: the next result starts Cockroach Pig", "BPBP", "RRR", "bbb"},
		{"the next result starts Cockroach Pig with blue (Banker) or red (Player)", "BBPBP", "RRb", "bbR"},
		{"ties after the last cell change nothing", "BPBPTT", "RRR", "bbb"},
		{"two columns, the last of three: Small Road would still not exist", "BPPP", "b--", "R--"},
		{"one past the end of the compared column is blue", "BBPP", "R--", "b--"},
	} {
		t.Run("ROADS.md Ask: "+tc.name, func(t *testing.T) {
			b := mustBoard(t, tc.rounds)
			if got := ask(b, baccarat.BankerWins); got != tc.banker {
				t.Errorf("Ask Banker = %s, want %s", got, tc.banker)
			}
			if got := ask(b, baccarat.PlayerWins); got != tc.player {
				t.Errorf("Ask Player = %s, want %s", got, tc.player)
			}
			for side, want := range map[baccarat.Winner]string{baccarat.BankerWins: tc.banker, baccarat.PlayerWins: tc.player} {
				if got := lastMarks(t, tc.rounds, side); got != want {
					t.Errorf("the roads after appending %s end %s, but the table says Ask %s", side, got, want)
				}
			}
		})
	}
	t.Run("Ask for a tie or no winner is none", func(t *testing.T) {
		b := mustBoard(t, workedExample)
		for _, w := range []baccarat.Winner{baccarat.Tie, baccarat.NoWinner} {
			if got := b.Ask(w); got != [3]Colour{} {
				t.Errorf("Ask(%s) = %v, want none", w, got)
			}
		}
	})
}

func TestInvalidRoundChangesNothing(t *testing.T) {
	t.Run("Append refuses a round without a winner and leaves the board as it was", func(t *testing.T) {
		b := mustBoard(t, workedExample)
		before := b.View(Settings{}, -1)
		err := b.Append(Round{Winner: baccarat.NoWinner})
		if baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
			t.Fatalf("err = %v, want %s", err, baccarat.CodeBadRequest)
		}
		if after := b.View(Settings{}, -1); !viewsEqual(before, after) {
			t.Error("the refused round changed the board")
		}
	})
	t.Run("New refuses a list with a bad round, naming it", func(t *testing.T) {
		rs := []Round{{Winner: baccarat.BankerWins}, {Winner: 7}}
		_, err := New(rs)
		if baccarat.ErrorCode(err) != baccarat.CodeBadRequest || !strings.Contains(err.Error(), "round 2") {
			t.Errorf("err = %v, want a bad_request naming round 2", err)
		}
	})
}

func TestResetReusesTheBoard(t *testing.T) {
	b := mustBoard(t, "BBBBBBBBPPPPPPPPBT")
	b.Reset()
	for _, r := range mustBoard(t, workedExample).Rounds() {
		if err := b.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if !viewsEqual(b.View(Settings{}, -1), mustBoard(t, workedExample).View(Settings{}, -1)) {
		t.Error("a reset board that replays a shoe differs from a new board of that shoe")
	}
}

func TestFromResult(t *testing.T) {
	r, err := baccarat.ParseCoup("P 9h 9d | B 2c 3s")
	if err != nil {
		t.Fatal(err)
	}
	got := FromResult(r)
	want := Round{Winner: baccarat.PlayerWins, PlayerPair: true, Natural: true}
	if got != want {
		t.Errorf("FromResult = %+v, want %+v", got, want)
	}
}

func viewsEqual(a, b View) bool {
	ja, _ := jsonOf(a)
	jb, _ := jsonOf(b)
	return slices.Equal(ja, jb)
}

// ask is b.Ask(side) in ROADS.md's shorthand.
func ask(b *Board, side baccarat.Winner) string {
	a := b.Ask(side)
	return marks(a[:])
}

// lastMarks is, in ROADS.md's shorthand, the last entry of each derived road after appending
// side to the shoe, "-" for a road that still has none: what Ask must say.
func lastMarks(t *testing.T, notation string, side baccarat.Winner) string {
	b := mustBoard(t, notation)
	if err := b.Append(Round{Winner: side}); err != nil {
		t.Fatal(err)
	}
	var out [3]Colour
	for i, k := range Kinds {
		if road := b.Road(k); len(road) > 0 {
			out[i] = road[len(road)-1]
		}
	}
	return marks(out[:])
}
