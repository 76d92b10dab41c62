package roads

import (
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
)

// slowRoads is the obviously-correct twin of Board: it rebuilds everything from the whole list,
// on a 2-D picture of the logical Big Road, with the derived-road rules in their "look at the
// compared column" form rather than as length arithmetic:
//
//   - a new column is red when the two columns before it (k apart) are the same depth: the
//     older one has a cell at the last row of the newer one and none below it;
//   - a cell down a column is red when the column k to the left has a cell on the same row,
//     blue when it has one only on the row above, red when it has neither (a straight drop).
//
// Its grid places items by searching a set of taken cells.
type slowRoads struct {
	leading int
	cols    [][]int // ties after each cell, per column
	sides   []baccarat.Winner
	roads   [3][]Colour
	grid    []Pos
	grids   [3][]Pos
}

func slowBuild(rs []Round) slowRoads {
	var s slowRoads
	var runs []int // length of each Big Road column, for the grid
	for _, r := range rs {
		switch {
		case r.Winner == baccarat.Tie && len(s.cols) == 0:
			s.leading++
		case r.Winner == baccarat.Tie:
			last := s.cols[len(s.cols)-1]
			last[len(last)-1]++
		case len(s.sides) > 0 && s.sides[len(s.sides)-1] == r.Winner:
			s.cols[len(s.cols)-1] = append(s.cols[len(s.cols)-1], 0)
		default:
			s.cols, s.sides = append(s.cols, []int{0}), append(s.sides, r.Winner)
		}
	}
	for _, c := range s.cols {
		runs = append(runs, len(c))
	}
	has := func(c, r int) bool { return c >= 0 && r >= 0 && r < len(s.cols[c]) }
	for k := 1; k <= 3; k++ {
		for c := range s.cols {
			for r := range s.cols[c] {
				var m Colour
				switch {
				case r == 0 && c >= k+1:
					depth := len(s.cols[c-1])
					m = pick(has(c-1-k, depth-1) && !has(c-1-k, depth))
				case r >= 1 && c >= k:
					m = pick(has(c-k, r) || !has(c-k, r-1))
				default:
					continue
				}
				s.roads[k-1] = append(s.roads[k-1], m)
			}
		}
		s.grids[k-1] = slowGrid(runsOf(s.roads[k-1]))
	}
	s.grid = slowGrid(runs)
	return s
}

func pick(red bool) Colour {
	if red {
		return Red
	}
	return Blue
}

// runsOf is the lengths of the runs of one colour: a derived road's logical columns.
func runsOf(ms []Colour) []int {
	var runs []int
	for i, m := range ms {
		if i == 0 || ms[i-1] != m {
			runs = append(runs, 0)
		}
		runs[len(runs)-1]++
	}
	return runs
}

// slowGrid places logical columns of the given lengths on a 6-row grid, literally as ROADS.md
// describes it, with a set of taken cells.
func slowGrid(runs []int) []Pos {
	taken := map[Pos]bool{}
	var out []Pos
	start := -1
	for _, n := range runs {
		p := Pos{Column: start + 1}
		for taken[p] {
			p.Column++
		}
		start = p.Column
		down := true
		for i := 0; i < n; i++ {
			if i > 0 {
				below := Pos{Column: p.Column, Row: p.Row + 1}
				if down && below.Row < Rows && !taken[below] {
					p = below
				} else {
					down = false
					for p.Column++; taken[p]; p.Column++ {
					}
				}
			}
			taken[p] = true
			out = append(out, p)
		}
	}
	return out
}

// slowAsk is Ask by ROADS.md's definition, word for word: "Ask-X equals the last entry of the
// road after appending X", none where the road would still not exist after X. A road that the
// appended result starts has its first entry as its Ask.
func slowAsk(rs []Round, side baccarat.Winner) [3]Colour {
	after := slowBuild(append(rs[:len(rs):len(rs)], Round{Winner: side}))
	var out [3]Colour
	for i := range out {
		if n := len(after.roads[i]); n > 0 {
			out[i] = after.roads[i][n-1]
		}
	}
	return out
}

// TestMatchesSlowTwinEverywhere compares Board with the slow twin on every Banker/Player shoe
// of up to 14 rounds (ties cannot move a derived road or a grid cell; the rapid tests cover
// them), roads, grids and both Asks.
func TestMatchesSlowTwinEverywhere(t *testing.T) {
	checked := 0
	var b Board
	for n := 0; n <= 14; n++ {
		for bits := 0; bits < 1<<n; bits++ {
			rs := make([]Round, n)
			for i := range rs {
				rs[i].Winner = baccarat.PlayerWins + baccarat.Winner(bits>>i&1)
			}
			b.Reset()
			for _, r := range rs {
				b.append(r)
			}
			s := slowBuild(rs)
			for i, k := range Kinds {
				if !slices.Equal(b.Road(k), s.roads[i]) || !slices.Equal(positions(b.RoadGrid(k)), s.grids[i]) {
					t.Fatalf("%s: %s differs from the slow twin", FormatRounds(rs), k)
				}
			}
			if !slices.Equal(bigPositions(b.BigRoadGrid()), s.grid) {
				t.Fatalf("%s: Big Road grid differs from the slow twin", FormatRounds(rs))
			}
			for _, side := range []baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins} {
				if b.Ask(side) != slowAsk(rs, side) {
					t.Fatalf("%s: Ask %s differs from the slow twin", FormatRounds(rs), side)
				}
			}
			checked++
		}
	}
	t.Logf("%d shoes checked", checked)
}
