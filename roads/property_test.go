package roads

import (
	"slices"
	"testing"

	"github.com/tablehouse/baccarat"
	"pgregory.net/rapid"
)

// genRounds draws a shoe. Half the time results are independent; otherwise they come in runs
// of up to 14, so long streaks, dragon tails and tails blocking tails are common.
func genRounds() *rapid.Generator[[]Round] {
	return rapid.Custom(func(t *rapid.T) []Round {
		flags := func(w baccarat.Winner) Round {
			return Round{Winner: w, PlayerPair: rapid.Bool().Draw(t, "pp"),
				BankerPair: rapid.Bool().Draw(t, "bp"), Natural: rapid.Bool().Draw(t, "nat")}
		}
		winner := rapid.SampledFrom([]baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins, baccarat.Tie})
		var rs []Round
		if rapid.Bool().Draw(t, "independent") {
			for range rapid.IntRange(0, 90).Draw(t, "n") {
				rs = append(rs, flags(winner.Draw(t, "w")))
			}
			return rs
		}
		side := baccarat.BankerWins
		for range rapid.IntRange(0, 30).Draw(t, "runs") {
			side = baccarat.BankerWins + baccarat.PlayerWins - side
			for range rapid.IntRange(1, 14).Draw(t, "run") {
				rs = append(rs, flags(side))
				if rapid.IntRange(0, 9).Draw(t, "tie") == 0 {
					rs = append(rs, flags(baccarat.Tie))
				}
			}
		}
		return rs
	})
}

func build(t *rapid.T, rs []Round) *Board {
	b, err := New(rs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPropertyMatchesSlowTwin(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRounds().Draw(t, "rounds")
		b, s := build(t, rs), slowBuild(rs)
		br := b.BigRoad()
		if br.LeadingTies != s.leading || len(br.Columns) != len(s.cols) {
			t.Fatalf("Big Road: %d leading ties, %d columns; slow twin %d, %d", br.LeadingTies, len(br.Columns), s.leading, len(s.cols))
		}
		for i, c := range br.Columns {
			for j, cell := range c.Cells {
				if c.Side != s.sides[i] || len(c.Cells) != len(s.cols[i]) || cell.Ties != s.cols[i][j] {
					t.Fatalf("Big Road column %d differs from the slow twin", i)
				}
			}
		}
		for i, k := range Kinds {
			if got := b.Road(k); !slices.Equal(got, s.roads[i]) {
				t.Fatalf("%s\n got %s\nslow %s", k, marks(got), marks(s.roads[i]))
			}
			if got := positions(b.RoadGrid(k)); !slices.Equal(got, s.grids[i]) {
				t.Fatalf("%s grid\n got %v\nslow %v", k, got, s.grids[i])
			}
		}
		if got := bigPositions(b.BigRoadGrid()); !slices.Equal(got, s.grid) {
			t.Fatalf("Big Road grid\n got %v\nslow %v", got, s.grid)
		}
		for _, side := range []baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins} {
			if got, want := b.Ask(side), slowAsk(rs, side); got != want {
				t.Fatalf("Ask %s = %v, slow twin %v", side, got, want)
			}
		}
	})
}

func TestPropertyCellCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRounds().Draw(t, "rounds")
		b := build(t, rs)
		ties := 0
		for _, r := range rs {
			ties += btoi(r.Winner == baccarat.Tie)
		}
		if n := len(b.BeadPlate()); n != len(rs) {
			t.Fatalf("ROADS.md: Bead Plate cells = rounds: %d cells, %d rounds", n, len(rs))
		}
		br := b.BigRoad()
		cells, tied := 0, br.LeadingTies
		for _, c := range br.Columns {
			cells += len(c.Cells)
			for _, cell := range c.Cells {
				tied += cell.Ties
			}
		}
		if cells != len(rs)-ties {
			t.Fatalf("ROADS.md: Big Road cells = B/P rounds: %d cells, %d rounds", cells, len(rs)-ties)
		}
		if tied != ties {
			t.Fatalf("ROADS.md: tie counts sum to the ties: %d counted, %d ties", tied, ties)
		}
	})
}

func TestPropertyTiesDoNotMoveDerivedRoads(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRounds().Draw(t, "rounds")
		with := slices.Clone(rs)
		for range rapid.IntRange(1, 10).Draw(t, "ties") {
			at := rapid.IntRange(0, len(with)).Draw(t, "at")
			with = slices.Insert(with, at, Round{Winner: baccarat.Tie, PlayerPair: rapid.Bool().Draw(t, "pair")})
		}
		a, b := build(t, rs), build(t, with)
		for _, k := range Kinds {
			if !slices.Equal(a.Road(k), b.Road(k)) {
				t.Fatalf("ROADS.md: inserting ties changed %s", k)
			}
		}
		for _, side := range []baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins} {
			if a.Ask(side) != b.Ask(side) {
				t.Fatalf("inserting ties changed Ask %s", side)
			}
		}
	})
}

func TestPropertySwappingSidesKeepsDerivedRoads(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRounds().Draw(t, "rounds")
		swapped := slices.Clone(rs)
		for i, r := range swapped {
			if r.Winner != baccarat.Tie {
				swapped[i].Winner = baccarat.BankerWins + baccarat.PlayerWins - r.Winner
			}
		}
		a, b := build(t, rs), build(t, swapped)
		for _, k := range Kinds {
			if !slices.Equal(a.Road(k), b.Road(k)) {
				t.Fatalf("ROADS.md: swapping B and P changed %s", k)
			}
		}
		if a.Ask(baccarat.BankerWins) != b.Ask(baccarat.PlayerWins) {
			t.Fatal("swapping B and P did not swap the Asks")
		}
	})
}

func TestPropertyDerivedRoadLength(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := build(t, genRounds().Draw(t, "rounds"))
		br := b.BigRoad()
		cells := 0
		for _, c := range br.Columns {
			cells += len(c.Cells)
		}
		for _, k := range Kinds {
			want := cells
			for c, col := range br.Columns {
				switch {
				case c < int(k):
					want -= len(col.Cells)
				case c == int(k):
					want-- // the cell at (k, 0)
				}
			}
			if got := len(b.Road(k)); got != want {
				t.Fatalf("ROADS.md: len(%s) = %d, want cells − cells with c < k − (c = k, r = 0) = %d", k, got, want)
			}
		}
	})
}

func TestPropertyAskIsTheNextMark(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRounds().Draw(t, "rounds")
		b := build(t, rs)
		var ask [2][3]Colour
		for j, side := range []baccarat.Winner{baccarat.BankerWins, baccarat.PlayerWins} {
			ask[j] = b.Ask(side)
			next := build(t, append(slices.Clip(rs), Round{Winner: side}))
			for i, k := range Kinds {
				road, before := next.Road(k), len(b.Road(k))
				last := None
				if len(road) > 0 {
					last = road[len(road)-1]
				}
				if ask[j][i] != last {
					t.Fatalf("ROADS.md: Ask %s for %s = %s, but the road after appending ends %s", side, k, ask[j][i], last)
				}
				if (ask[j][i] == None) != (len(road) == before) {
					t.Fatalf("Ask %s for %s = %s, but appending added %d marks", side, k, ask[j][i], len(road)-before)
				}
			}
		}
		for i, k := range Kinds {
			if (ask[0][i] == None) != (ask[1][i] == None) || (ask[0][i] != None && ask[0][i] == ask[1][i]) {
				t.Fatalf("ROADS.md: Ask Banker %s and Ask Player %s for %s are neither both none nor opposite", ask[0][i], ask[1][i], k)
			}
			if len(b.Road(k)) > 0 && ask[0][i] == None {
				t.Fatalf("ROADS.md: %s has started, but its Ask is none", k)
			}
		}
	})
}

func TestPropertyNoTwoItemsShareACell(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := build(t, genRounds().Draw(t, "rounds"))
		var beads []Pos
		for _, bd := range b.BeadPlate() {
			beads = append(beads, bd.Pos)
		}
		checkGrid(t, "Bead Plate", beads)
		checkGrid(t, "Big Road", bigPositions(b.BigRoadGrid()))
		for _, k := range Kinds {
			checkGrid(t, k.String(), positions(b.RoadGrid(k)))
		}
	})
}

// checkGrid fails unless every item is inside the 6 rows and no two share a cell.
func checkGrid(t *rapid.T, name string, ps []Pos) {
	seen := map[Pos]bool{}
	for i, p := range ps {
		if p.Row < 0 || p.Row >= Rows || p.Column < 0 {
			t.Fatalf("ROADS.md: %s item %d at %+v is outside the 6-row grid", name, i, p)
		}
		if seen[p] {
			t.Fatalf("ROADS.md: no two display items share a grid cell: %s item %d at %+v", name, i, p)
		}
		seen[p] = true
	}
}

func TestPropertyGridShape(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := build(t, genRounds().Draw(t, "rounds"))
		br := b.BigRoad()
		ps := bigPositions(b.BigRoadGrid())
		i, prevStart := 0, -1
		for _, col := range br.Columns {
			first := ps[i]
			if first.Row != 0 || first.Column <= prevStart {
				t.Fatalf("a logical column starts at %+v, after a start at column %d", first, prevStart)
			}
			prevStart = first.Column
			for j := 1; j < len(col.Cells); j++ {
				p, q := ps[i+j-1], ps[i+j]
				down := q.Column == p.Column && q.Row == p.Row+1
				right := q.Row == p.Row && q.Column > p.Column
				if !down && !right {
					t.Fatalf("a streak steps from %+v to %+v: neither down nor right along its row", p, q)
				}
			}
			i += len(col.Cells)
		}
	})
}

func TestPropertyNotationRoundTrips(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := genRounds().Draw(t, "rounds")
		back, err := ParseRounds(FormatRounds(rs))
		if err != nil || !slices.Equal(back, rs) && len(rs) > 0 {
			t.Fatalf("%s read back as %v, %v", FormatRounds(rs), back, err)
		}
	})
}

func positions(ms []Mark) []Pos {
	var out []Pos
	for _, m := range ms {
		out = append(out, m.Pos)
	}
	return out
}

func bigPositions(ps []Placed) []Pos {
	var out []Pos
	for _, p := range ps {
		out = append(out, p.Pos)
	}
	return out
}
