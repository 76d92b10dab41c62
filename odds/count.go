package odds

import "github.com/tablehouse/baccarat"

// The hand outcome of a coup is one of 400 cells: the Player's and the Banker's final totals
// and whether each drew a third card. Every single-coup bet of every game other than the
// pair-type bets is a function of the cell (Tiger: Banker wins with 6 on two or three cards;
// Big/Small: 4 cards or more; ...), so one count serves every game.
const nCells = 400

// cellIndex is ((pd·2 + bd)·10 + P)·10 + B.
func cellIndex(P, B int, pd, bd bool) int {
	i := 0
	if pd {
		i += 200
	}
	if bd {
		i += 100
	}
	return i + P*10 + B
}

func cellParts(i int) (P, B int, pd, bd bool) {
	return i % 100 / 10, i % 10, i >= 200, i%200 >= 100
}

// tally is the result of one count: ways per cell over total, ways per pair class over
// pairTotal. The hand outcomes count ordered prefixes up to the sixth card of the coup (the
// convention of published tables: a full 8-deck shoe totals 416·415·414·413·412·411); the
// pair classes count ordered prefixes up to the fourth card.
type tally struct {
	cells     [nCells]uint64
	total     uint64
	pairs     [nPairClasses]u128
	pairTotal u128
}

// The Table of Play after the initial four cards, by group g = p·10 + q of the two-card
// totals: 0 nobody draws (a natural, or both stand on 6–7), 1 the Player stands and the Banker
// draws, 2 the Player draws.
var groupKind = func() (k [100]uint8) {
	for p := 0; p < 10; p++ {
		for q := 0; q < 10; q++ {
			switch {
			case p >= 8 || q >= 8:
			case baccarat.PlayerDraws(p):
				k[p*10+q] = 2
			case baccarat.BankerDraws(q, -1):
				k[p*10+q] = 1
			}
		}
	}
	return k
}()

// draws[q][x]: the Banker on two-card total q (0–7) draws after the Player's third card x.
var draws = func() (d [10][10]bool) {
	for q := 0; q < 8; q++ {
		for x := 0; x < 10; x++ {
			d[q][x] = baccarat.BankerDraws(q, x)
		}
	}
	return d
}()

// mod10[i] = i mod 10 for the sums of up to two point values.
var mod10 = func() (m [20]uint8) {
	for i := range m {
		m[i] = uint8(i % 10)
	}
	return m
}()

// rot[q][y] = (q + y) mod 10: where a third card y lands on a two-card total q.
var rot = func() (r [10][10]uint8) {
	for q := range r {
		for y := range r[q] {
			r[q][y] = uint8((q + y) % 10)
		}
	}
	return r
}()

// counter is the exact hand-outcome counter: value counts in, cells out. Everything lives in
// fixed arrays, so a count allocates nothing; keep a counter to reuse its scratch space.
//
// Arithmetic is in uint64 and wraps modulo 2⁶⁴. Every cell is a polynomial in the counts with
// integer coefficients, so wrapping in the middle (a correction subtracted before the term it
// corrects is added) is harmless: the final value is right whenever it fits, which the caller
// checks first ((N)₆ < 2⁶⁴ for N up to 1625 cards).
type counter struct {
	n [10]uint64 // cards of each point value not yet dealt
	N uint64

	// moments, by group g = p·10 + q of two-card totals (moments.go); index 10 of a value
	// axis is scratch for a removed card that is not there.
	w  [100]uint64
	m1 [100][11]uint64
	s2 [48][11][11]uint64 // groups p ≤ 5, q ≤ 7 (index p·8 + q)
	t  [10][10]uint64     // [P][q]: Banker third card still to convolve
	bw [10]uint64         // Banker's ordered two-card ways by total, whole composition

	// direct accumulators (direct.go), by [P][q]
	t01, t11 [10][10]uint64

	t6 tally
}

func (c *counter) setValues(counts *baccarat.Counts) {
	v := counts.Values()
	for i, x := range v {
		c.n[i] = uint64(x)
	}
	c.N = uint64(counts.Total())
}

// countCells fills c.t6.cells and c.t6.total for a coup whose first len(vals) cards (0–4, in
// deal order P1 B1 P2 B2; 4 only when nobody has a natural) are known by value: moments for
// 0 and 1 known cards (55×55 or 10×55 states), one state at a time for 2 to 4 (at most 100).
func (c *counter) countCells(vals []int) {
	c.t6.cells = [nCells]uint64{}
	k := 4 - len(vals)
	c.t6.total = falling(c.N, 6-len(vals))
	switch len(vals) {
	case 0:
		c.clearMoments()
		c.moments0()
		c.finishMoments(k)
	case 1:
		c.clearMoments()
		c.moments1(vals[0])
		c.finishMoments(k)
	default:
		c.clearDirect()
		c.enumerateDirect(vals)
		c.finishDirect(k)
	}
}

// convolve adds t[P][q]·n[y] to cells[base + P·10 + (q+y) mod 10]: a Banker third card
// counted on the whole composition, before the corrections for the cards a state removed.
func (c *counter) convolve(t *[10][10]uint64, base int) {
	var n2 [20]uint64
	copy(n2[:10], c.n[:])
	copy(n2[10:], c.n[:])
	for P := 0; P < 10; P++ {
		row := (*[10]uint64)(c.t6.cells[base+P*10 : base+P*10+10])
		for q, w := range t[P] {
			if w == 0 {
				continue
			}
			src := (*[10]uint64)(n2[10-q : 20-q]) // src[B] = n[(B−q) mod 10]
			for B := 0; B < 10; B++ {
				row[B] += w * src[B]
			}
		}
	}
}
