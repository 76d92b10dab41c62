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
// What every bet's batches share, the shoes and their coups, is kept once (shoeSums).
type batch struct {
	s  int64 // Σ S: net result, in units of 1/scale of the stake
	s2 u128  // Σ S²
	sh u128  // Σ S·H, in two's complement
}

// shoeSums are the shoes of every bet's batches.
type shoeSums struct {
	shoes uint64
	h     uint64 // Σ H: coups
	h2    u128   // Σ H²
}

type u128 struct{ hi, lo uint64 }

func (x *u128) addMul(a, b uint64) {
	hi, lo := bits.Mul64(a, b)
	x.add(u128{hi, lo})
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

// signed is x read as a two's complement number.
func (x u128) signed() *big.Int {
	b := x.big()
	if int64(x.hi) < 0 {
		b.Sub(b, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	return b
}

func (t *shoeSums) add(h uint64) {
	t.shoes++
	t.h += h
	t.h2.addMul(h, h)
}

func (t *shoeSums) merge(o *shoeSums) {
	t.shoes += o.shoes
	t.h += o.h
	t.h2.add(o.h2)
}

// addShoe counts a shoe of h coups for every bet, bets[i] having made net[i] − lost, and
// clears net. It has no branch on the sign of a result, which is as likely either way for
// some bets.
func addShoe(bets []batch, net *[maxBets]int64, lost int64, h uint64) {
	for i := range bets {
		b := &bets[i]
		s := net[i&(maxBets-1)] - lost
		net[i&(maxBets-1)] = 0
		b.s += s
		neg := uint64(s >> 63) // all ones if s < 0
		a := (uint64(s) ^ neg) - neg
		b.s2.addMul(a, a)
		hi, lo := bits.Mul64(uint64(s), h) // uint64(s) is s + 2⁶⁴ if s < 0: take 2⁶⁴·h back off
		b.sh.add(u128{hi - h&neg, lo})
	}
}

func (b *batch) merge(o *batch) {
	b.s += o.s
	b.s2.add(o.s2)
	b.sh.add(o.sh)
}

// estimate returns the mean net result per coup per unit staked, ΣS/(scale·ΣH), and the
// half-width of its 99% confidence interval, Z99·√(Σ(S_i − R·H_i)² / (k(k−1)·H̄²)) / scale
// for k shoes, with R = ΣS/ΣH and H̄ = ΣH/k. The variance is computed exactly, as one integer
// fraction, k·(ΣS²·(ΣH)² − 2·ΣS·ΣH·ΣSH + (ΣS)²·ΣH²) / ((k−1)·(ΣH)⁴), reduced once rather than
// at every step; only the square root is in floating point.
func (b *batch) estimate(t *shoeSums, scale int64) (mean, ci float64) {
	if t.h == 0 {
		return 0, 0
	}
	H := new(big.Int).SetUint64(t.h)
	S := big.NewInt(b.s)
	mean, _ = new(big.Rat).SetFrac(S, new(big.Int).Mul(H, big.NewInt(scale))).Float64()
	if t.shoes < 2 {
		return mean, math.Inf(1)
	}
	H2 := new(big.Int).Mul(H, H)
	cross := new(big.Int).Mul(new(big.Int).Mul(S, H), b.sh.signed())
	num := new(big.Int).Mul(b.s2.big(), H2)                            // ΣS²·(ΣH)²
	num.Sub(num, cross.Lsh(cross, 1))                                  // − 2·ΣS·ΣH·ΣSH
	num.Add(num, new(big.Int).Mul(new(big.Int).Mul(S, S), t.h2.big())) // + (ΣS)²·ΣH²
	k := new(big.Int).SetUint64(t.shoes)
	num.Mul(num, k)
	den := new(big.Int).Mul(new(big.Int).Sub(k, big.NewInt(1)), new(big.Int).Mul(H2, H2))
	v, _ := new(big.Rat).SetFrac(num, den).Float64()
	return mean, Z99 * math.Sqrt(max(v, 0)) / float64(scale)
}
