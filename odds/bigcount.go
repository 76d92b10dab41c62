package odds

import (
	"context"
	"math/big"

	"github.com/tablehouse/baccarat"
)

// countCellsBig is the plain counter: it walks every ordered sequence of point values for the
// unknown initial cards (weights are falling products of the value counts), plays the Table
// of Play on each from the rules engine's own functions, and counts in math/big. It serves
// shoes too large for 64-bit counts (more than 1625 cards) and is the slow twin the fast
// counter is checked against. The counts are the same as countCells's.
func countCellsBig(ctx context.Context, n [10]uint64, N uint64, vals []int) ([]big.Int, *big.Int, error) {
	cells := make([]big.Int, nCells)
	b := bigWalk{ctx: ctx, n: n, N: N, cells: cells}
	var known [4]int
	copy(known[:], vals)
	b.walk(known, len(vals), big.NewInt(1))
	if b.err != nil {
		return nil, nil, b.err
	}
	return cells, fallingBig(N, 6-len(vals)), nil
}

type bigWalk struct {
	ctx   context.Context
	n     [10]uint64
	used  [10]uint64
	N     uint64
	cells []big.Int
	local [nCells]uint64
	tmp   big.Int
	steps int
	err   error
}

// walk fills positions i..3 of the initial cards; w is the ordered ways so far.
func (b *bigWalk) walk(vals [4]int, i int, w *big.Int) {
	if b.err != nil {
		return
	}
	if i == 4 {
		b.leaf(vals, w)
		return
	}
	for v := 0; v < 10; v++ {
		left := b.n[v] - b.used[v]
		if b.n[v] <= b.used[v] {
			continue
		}
		vals[i] = v
		b.used[v]++
		b.walk(vals, i+1, new(big.Int).Mul(w, new(big.Int).SetUint64(left)))
		b.used[v]--
	}
}

// leaf counts the third cards after one sequence of four initial values, in uint64 (at most
// N² ways), and adds them to the cells times the sequence's ways.
func (b *bigWalk) leaf(vals [4]int, w *big.Int) {
	if b.steps++; b.steps%512 == 0 {
		if b.err = b.ctx.Err(); b.err != nil {
			return
		}
	}
	var rem [10]uint64
	left := uint64(0)
	for v := range rem {
		rem[v] = b.n[v] - b.used[v]
		left += rem[v]
	}
	p, q := (vals[0]+vals[2])%10, (vals[1]+vals[3])%10
	b.local = [nCells]uint64{}
	switch {
	case p >= 8 || q >= 8 || !baccarat.PlayerDraws(p) && !baccarat.BankerDraws(q, -1):
		b.local[cellIndex(p, q, false, false)] = left * (left - 1)
	case !baccarat.PlayerDraws(p):
		for y := 0; y < 10; y++ {
			b.local[cellIndex(p, (q+y)%10, false, true)] += rem[y] * (left - 1)
		}
	default:
		for x := 0; x < 10; x++ {
			if rem[x] == 0 {
				continue
			}
			P := (p + x) % 10
			if !baccarat.BankerDraws(q, x) {
				b.local[cellIndex(P, q, true, false)] += rem[x] * (left - 1)
				continue
			}
			for y := 0; y < 10; y++ {
				ry := rem[y]
				if y == x {
					ry--
				}
				b.local[cellIndex(P, (q+y)%10, true, true)] += rem[x] * ry
			}
		}
	}
	for i, v := range b.local {
		if v != 0 {
			b.tmp.SetUint64(v)
			b.tmp.Mul(&b.tmp, w)
			b.cells[i].Add(&b.cells[i], &b.tmp)
		}
	}
}
