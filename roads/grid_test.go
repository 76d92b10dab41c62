package roads

import (
	"fmt"
	"strings"
	"testing"
)

// drawn writes grid positions as "column.row" in order, one logical column per group.
func drawn(b *Board) string {
	var groups []string
	i := 0
	ps := b.BigRoadGrid()
	for _, col := range b.BigRoad().Columns {
		var g []string
		for range col.Cells {
			g = append(g, fmt.Sprintf("%d.%d", ps[i].Column, ps[i].Row))
			i++
		}
		groups = append(groups, col.Side.Letter()+":"+strings.Join(g, " "))
	}
	return strings.Join(groups, " | ")
}

func TestDragonTail(t *testing.T) {
	for _, tc := range []struct {
		name, rounds, want string
	}{
		{
			"a streak of six fills one display column",
			"BBBBBB P",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 | P:1.0",
		},
		{
			"a streak longer than 6 turns right along the bottom row",
			"BBBBBBBBB",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 1.5 2.5 3.5",
		},
		{
			"ties never take a cell, even in a tail",
			"TBBBBBBTTBT",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 1.5",
		},
		{
			"a streak blocked by an earlier tail turns right one row higher",
			"BBBBBBBB PPPPPPP B",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 1.5 2.5 | P:1.0 1.1 1.2 1.3 1.4 2.4 3.4 | B:2.0",
		},
		{
			"a streak blocked by an earlier tail turns even when it could go down later",
			"BBBBBBB PPPPPPP",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 1.5 | P:1.0 1.1 1.2 1.3 1.4 2.4 3.4",
		},
		{
			"a long tail runs under the next columns' starts and blocks each of them",
			"BBBBBBBBBB P BBBBBB PP",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 1.5 2.5 3.5 4.5 | P:1.0 | B:2.0 2.1 2.2 2.3 2.4 3.4 | P:3.0 3.1",
		},
		{
			// Tails on rows 5, 4, 3, 2 and 1 leave the sixth column only row 0, so its tail runs
			// through the cells where the next column would start; that column starts at the
			// first free row-0 cell instead.
			"a tail on row 0 running into the next column's start",
			"BBBBBBB PPPPPP BBBBB PPPP BBB PPP B P",
			"B:0.0 0.1 0.2 0.3 0.4 0.5 1.5 | P:1.0 1.1 1.2 1.3 1.4 2.4 | B:2.0 2.1 2.2 2.3 3.3 | " +
				"P:3.0 3.1 3.2 4.2 | B:4.0 4.1 5.1 | P:5.0 6.0 7.0 | B:8.0 | P:9.0",
		},
	} {
		t.Run("ROADS.md dragon tail: "+tc.name, func(t *testing.T) {
			if got := drawn(mustBoard(t, tc.rounds)); got != tc.want {
				t.Errorf("\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestDerivedRoadGrid(t *testing.T) {
	t.Run("ROADS.md: a derived road is drawn like a Big Road of its marks", func(t *testing.T) {
		b := mustBoard(t, workedExample)
		// Big Eye Boy bbRbbbRbbRRbbRRRRRRbRRRRRb: runs b2 R1 b3 R1 b2 R2 b2 R6 b1 R5 b1.
		var got []string
		for _, m := range b.RoadGrid(BigEyeBoy) {
			got = append(got, fmt.Sprintf("%s%d.%d", m.Colour.Letter(), m.Column, m.Row))
		}
		want := "b0.0 b0.1 R1.0 b2.0 b2.1 b2.2 R3.0 b4.0 b4.1 R5.0 R5.1 b6.0 b6.1 " +
			"R7.0 R7.1 R7.2 R7.3 R7.4 R7.5 b8.0 R9.0 R9.1 R9.2 R9.3 R9.4 b10.0"
		if s := strings.Join(got, " "); s != want {
			t.Errorf("\n got %s\nwant %s", s, want)
		}
	})
}

func TestBeadPlate(t *testing.T) {
	t.Run("ROADS.md Bead Plate: round i at column i/6, row i%6, ties included", func(t *testing.T) {
		b := mustBoard(t, "TBpPPT BBbBnP")
		beads := b.BeadPlate()
		for i, bd := range beads {
			if bd.Column != i/6 || bd.Row != i%6 {
				t.Errorf("round %d at %+v", i, bd.Pos)
			}
		}
		if !beads[1].Round.PlayerPair || !beads[6].Round.BankerPair || !beads[7].Round.Natural || beads[0].Round.Winner.Letter() != "T" {
			t.Errorf("bead flags lost: %+v", beads)
		}
	})
}
