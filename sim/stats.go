package sim

import (
	"math"
	"math/big"
	"math/bits"
)

// Z99 is the two-sided 99% quantile of the standard normal distribution.
const Z99 = 2.5758293035489

// batch accumulates one bet's result shoe by shoe: the shoe is the batch. Coups of one shoe
// are not independent (they share its cards), shoes are; so the confidence interval comes
// from the spread of per-shoe totals around the ratio estimate (batch means with unequal batch
// sizes). All sums are exact integers, so workers merge in any order to the same figures.
type batch struct {
	shoes uint64
	h     uint64 // Σ H: coups
	h2    u128   // Σ H²
	s     int64  // Σ S: net result, in units of 1/scale of the stake
	s2    u128   // Σ S²
	shPos u128   // Σ S·H over shoes with S > 0
	shNeg u128   // Σ −S·H over shoes with S < 0
}

type u128 struct{ hi, lo uint64 }

func (x *u128) addMul(a, b uint64) {
	hi, lo := bits.Mul64(a, b)
	var c uint64
	x.lo, c = bits.Add64(x.lo, lo, 0)
	x.hi += hi + c
}

func (x *u128) add(y u128) {
	var c uint64
	x.lo, c = bits.Add64(x.lo, y.lo, 0)
	x.hi += y.hi + c
}

func (x u128) big() *big.Int {
	b := new(big.Int).SetUint64(x.hi)
	return b.Lsh(b, 64).Or(b, new(big.Int).SetUint64(x.lo))
}

func (b *batch) add(s int64, h uint64) {
	b.shoes++
	b.h += h
	b.h2.addMul(h, h)
	b.s += s
	a := uint64(s)
	if s < 0 {
		a = uint64(-s)
		b.shNeg.addMul(a, h)
	} else {
		b.shPos.addMul(a, h)
	}
	b.s2.addMul(a, a)
}

func (b *batch) merge(o *batch) {
	b.shoes += o.shoes
	b.h += o.h
	b.h2.add(o.h2)
	b.s += o.s
	b.s2.add(o.s2)
	b.shPos.add(o.shPos)
	b.shNeg.add(o.shNeg)
}

// estimate returns the mean net result per coup per unit staked, R = ΣS/(scale·ΣH), and the
// half-width of its 99% confidence interval, Z99·√(Σ(S_i − R·H_i)² / (k(k−1)·H̄²)) / scale
// for k shoes, computed exactly in big.Rat up to the square root.
func (b *batch) estimate(scale int64) (mean, ci float64) {
	if b.h == 0 {
		return 0, 0
	}
	H := new(big.Rat).SetInt(new(big.Int).SetUint64(b.h))
	R := new(big.Rat).Quo(big.NewRat(b.s, 1), H) // per coup, in 1/scale units
	mean, _ = new(big.Rat).Quo(R, big.NewRat(scale, 1)).Float64()
	if b.shoes < 2 {
		return mean, math.Inf(1)
	}
	sh := new(big.Rat).SetInt(new(big.Int).Sub(b.shPos.big(), b.shNeg.big()))
	q := new(big.Rat).SetInt(b.s2.big())                                  // ΣS²
	q.Sub(q, new(big.Rat).Mul(big.NewRat(2, 1), new(big.Rat).Mul(R, sh))) // − 2R·ΣSH
	q.Add(q, new(big.Rat).Mul(new(big.Rat).Mul(R, R), new(big.Rat).SetInt(b.h2.big())))
	k := new(big.Rat).SetInt(new(big.Int).SetUint64(b.shoes))
	hbar := new(big.Rat).Quo(H, k)
	den := new(big.Rat).Mul(k, new(big.Rat).Sub(k, big.NewRat(1, 1)))
	den.Mul(den, new(big.Rat).Mul(hbar, hbar))
	v, _ := q.Quo(q, den).Float64()
	return mean, Z99 * math.Sqrt(max(v, 0)) / float64(scale)
}
