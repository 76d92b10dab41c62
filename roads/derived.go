package roads

import (
	"github.com/tablehouse/baccarat"
)

// Colour is a derived-road mark. Red means "the road repeats", blue "the road is choppy";
// neither means Banker or Player (ROADS.md). None is "no mark": an Ask entry for a road that
// would still not exist after that result.
type Colour uint8

// The marks of the derived roads.
const (
	None Colour = iota
	Red
	Blue
)

// String is "red", "blue" or "none".
func (c Colour) String() string {
	switch c {
	case Red:
		return "red"
	case Blue:
		return "blue"
	}
	return "none"
}

// Letter is ROADS.md's shorthand: R for red, b for blue, "" for None.
func (c Colour) Letter() string {
	switch c {
	case Red:
		return "R"
	case Blue:
		return "b"
	}
	return ""
}

// MarshalJSON writes "red" or "blue", and null for None: that is how an Ask entry for a road
// that would still not exist after that result is written.
func (c Colour) MarshalJSON() ([]byte, error) {
	if c == None {
		return []byte("null"), nil
	}
	return []byte(`"` + c.String() + `"`), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Colour) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		*c = None
	case `"red"`:
		*c = Red
	case `"blue"`:
		*c = Blue
	default:
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s is not a road colour: red, blue or null", b)
	}
	return nil
}

// Kind names a derived road by its k, the column distance it compares over: Big Eye Boy 1,
// Small Road 2, Cockroach Pig 3 (ROADS.md).
type Kind int

// The three derived roads.
const (
	BigEyeBoy    Kind = 1
	SmallRoad    Kind = 2
	CockroachPig Kind = 3
)

// Kinds lists the derived roads in display order; Ask results are indexed the same way.
var Kinds = [3]Kind{BigEyeBoy, SmallRoad, CockroachPig}

// String is the road's name as players know it.
func (k Kind) String() string {
	switch k {
	case BigEyeBoy:
		return "Big Eye Boy"
	case SmallRoad:
		return "Small Road"
	case CockroachPig:
		return "Cockroach Pig"
	}
	return "?"
}

// Key is the road's snake_case name used in JSON ("big_eye_boy").
func (k Kind) Key() string {
	switch k {
	case BigEyeBoy:
		return "big_eye_boy"
	case SmallRoad:
		return "small_road"
	case CockroachPig:
		return "cockroach_pig"
	}
	return "?"
}

// markFor is the mark road k gets from a new Big Road cell at logical column c, row r, where
// length(i) is the length of logical column i — or None when the cell adds no mark. It is the
// table of ROADS.md, read on logical lengths only:
//
//   - a cell adds a mark exactly when (r ≥ 1 and c ≥ k) or (r = 0 and c ≥ k+1);
//   - a new column (r = 0) is red when len(c−1) = len(c−1−k), blue otherwise;
//   - a cell down a column (r ≥ 1) is blue when len(c−k) = r (the compared column ended just
//     above), red otherwise (a match, or a straight drop past the compared column).
func markFor(length func(int) int, c, r, k int) Colour {
	switch {
	case r == 0 && c >= k+1:
		if length(c-1) == length(c-1-k) {
			return Red
		}
		return Blue
	case r >= 1 && c >= k:
		if length(c-k) == r {
			return Blue
		}
		return Red
	}
	return None
}

// derivedRoad is one derived road: its marks oldest first, and their display grid, where a run
// of one colour is a column (ROADS.md: "drawn like a Big Road of red/blue marks").
type derivedRoad struct {
	marks []Colour
	grid  grid
}

func (d *derivedRoad) add(m Colour) {
	d.grid.add(len(d.marks) == 0 || d.marks[len(d.marks)-1] != m)
	d.marks = append(d.marks, m)
}

func (d *derivedRoad) reset() {
	d.marks = d.marks[:0]
	d.grid.reset()
}

// Ask is the mark each derived road (in Kinds order) would get if the next result were side
// (BankerWins or PlayerWins): Ask-Banker and Ask-Player (ROADS.md: "Ask-X equals the last entry
// of the road after appending X"). That includes the result that would start a road: with the
// Big Road at k+1 columns, the last a single cell, road k has no mark yet, but either next
// result gives it its first one, and Ask shows that mark. An entry is None exactly when the
// road would still not exist after side, which is while the Big Road has at most k columns,
// whichever side comes next; so the two Asks of a road are both None or opposite colours.
// Any other side gives three Nones.
func (b *Board) Ask(side baccarat.Winner) [3]Colour {
	var out [3]Colour
	last := len(b.cols) - 1
	if last < 0 || (side != baccarat.BankerWins && side != baccarat.PlayerWins) {
		return out
	}
	c, r := last, b.cols[last].n // the next cell extends the last column ...
	if side != b.cols[last].side {
		c, r = last+1, 0 // ... or starts a new one
	}
	// markFor reads only columns left of c, so the hypothetical new column is never read; it
	// is None exactly when the hypothetical cell would add no mark, so a road that has not
	// started gets the mark it would start with.
	length := func(i int) int { return b.cols[i].n }
	for i, k := range Kinds {
		out[i] = markFor(length, c, r, int(k))
	}
	return out
}

// Road is derived road k's marks, oldest first (a copy).
func (b *Board) Road(k Kind) []Colour {
	d := b.derivedRoad(k)
	if d == nil {
		return nil
	}
	return append(make([]Colour, 0, len(d.marks)), d.marks...)
}

// Mark is one derived-road mark placed on its display grid.
type Mark struct {
	Pos
	Colour Colour `json:"colour"`
}

// RoadGrid is derived road k as drawn: its marks in order, each with its grid cell.
func (b *Board) RoadGrid(k Kind) []Mark {
	d := b.derivedRoad(k)
	if d == nil {
		return nil
	}
	out := make([]Mark, len(d.marks))
	for i, m := range d.marks {
		out[i] = Mark{Pos: d.grid.at[i], Colour: m}
	}
	return out
}

func (b *Board) derivedRoad(k Kind) *derivedRoad {
	if k < BigEyeBoy || k > CockroachPig {
		return nil
	}
	return &b.derived[k-1]
}
