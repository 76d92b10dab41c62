package odds

import (
	"math/big"
	"math/bits"
	"strings"

	"github.com/tablehouse/baccarat"
)

// Fraction is an exact probability: the number of ordered card sequences in which an event
// happens over the number counted. It is kept unreduced, so Num and Den are the counts
// themselves (the "ways" that published tables print), on both paths; String reduces it.
// Counts that fit in a uint64 are held as such, so building and comparing fractions on the hot
// path allocates nothing; only shoes too large for 64-bit counts use math/big, and there too
// the counts are kept as they are, never reduced (a big.Rat would reduce them, and its
// numerator would no longer be the ways).
type Fraction struct {
	num, den uint64
	bn, bd   *big.Int // non-nil when the counts need math/big: num and den are unused then
}

// NewFraction returns num/den. A den of 0 makes the zero Fraction.
func NewFraction(num, den uint64) Fraction {
	if den == 0 {
		return Fraction{}
	}
	return Fraction{num: num, den: den}
}

// fracBig returns num/den from big counts, as uint64 counts when both fit.
func fracBig(num, den *big.Int) Fraction {
	if num.IsUint64() && den.IsUint64() {
		return NewFraction(num.Uint64(), den.Uint64())
	}
	if den.Sign() == 0 {
		return Fraction{}
	}
	return Fraction{bn: new(big.Int).Set(num), bd: new(big.Int).Set(den)}
}

// frac128 returns num/den from 128-bit counts.
func frac128(num, den u128) Fraction {
	if num.hi == 0 && den.hi == 0 {
		return NewFraction(num.lo, den.lo)
	}
	return fracBig(num.big(), den.big())
}

// Rat is the fraction as a big.Rat (a new value the caller owns).
func (f Fraction) Rat() *big.Rat {
	if f.bn != nil {
		return new(big.Rat).SetFrac(f.bn, f.bd)
	}
	if f.den == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(f.num), new(big.Int).SetUint64(f.den))
}

// Num is the numerator: the count of sequences in which the event happens, never reduced.
func (f Fraction) Num() *big.Int {
	if f.bn != nil {
		return new(big.Int).Set(f.bn)
	}
	return new(big.Int).SetUint64(f.num)
}

// Den is the denominator: the count of sequences counted (1 for the zero Fraction).
func (f Fraction) Den() *big.Int {
	if f.bn != nil {
		return new(big.Int).Set(f.bd)
	}
	if f.den == 0 {
		return big.NewInt(1)
	}
	return new(big.Int).SetUint64(f.den)
}

// Uint64 returns the counts when they fit in 64 bits.
func (f Fraction) Uint64() (num, den uint64, ok bool) {
	if f.bn != nil {
		return 0, 0, false
	}
	if f.den == 0 {
		return 0, 1, true
	}
	return f.num, f.den, true
}

// IsZero reports whether the probability is exactly 0: the event cannot happen.
func (f Fraction) IsZero() bool {
	if f.bn != nil {
		return f.bn.Sign() == 0
	}
	return f.num == 0
}

// IsOne reports whether the probability is exactly 1: the event is certain.
func (f Fraction) IsOne() bool {
	if f.bn != nil {
		return f.bn.Cmp(f.bd) == 0
	}
	return f.den != 0 && f.num == f.den
}

// Float64 is the nearest float64 (correctly rounded while both counts are below 2^53, which
// covers every shoe of up to 8 decks; within a few units in the last place beyond).
func (f Fraction) Float64() float64 {
	if f.bn != nil {
		v, _ := f.Rat().Float64()
		return v
	}
	return ratio(f.num, f.den)
}

// Cmp compares f and g: −1, 0 or +1.
func (f Fraction) Cmp(g Fraction) int {
	if f.bn == nil && g.bn == nil {
		a := mul64(f.num, max(g.den, 1))
		b := mul64(g.num, max(f.den, 1))
		return a.cmp(b)
	}
	return f.Rat().Cmp(g.Rat())
}

// String is the reduced fraction "a/b" ("0" and "1" for the certain cases).
func (f Fraction) String() string {
	r := f.Rat()
	if r.IsInt() {
		return r.Num().String()
	}
	return r.String()
}

// MarshalText writes the reduced fraction, as String: exact, so a Price or a BetChance
// recorded in JSON keeps its probabilities.
func (f Fraction) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads "a/b" or "a" with 0 ≤ a ≤ b.
func (f *Fraction) UnmarshalText(b []byte) error {
	r, ok := new(big.Rat).SetString(string(b))
	if !ok || r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 || strings.ContainsAny(string(b), ".eE") {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a probability written as a fraction a/b", b)
	}
	*f = fracBig(r.Num(), r.Denom())
	return nil
}

// ratio is num/den as a float64; exact operands below 2^53 make one correctly rounded division.
func ratio(num, den uint64) float64 {
	if den == 0 || num == 0 {
		return 0
	}
	if num < 1<<53 && den < 1<<53 {
		return float64(num) / float64(den)
	}
	return u128{lo: num}.float64() / u128{lo: den}.float64()
}

// u128 is an unsigned 128-bit integer. Counts of 4-card prefixes (N⁴ < 2¹²⁸ for any shoe an
// int32 can hold) and the numerators of expected returns live in it; arithmetic wraps modulo
// 2¹²⁸, which is harmless when the final value fits, as every count does.
type u128 struct{ hi, lo uint64 }

func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	return u128{x.hi + y.hi + c, lo}
}

func (x u128) sub(y u128) u128 {
	lo, b := bits.Sub64(x.lo, y.lo, 0)
	return u128{x.hi - y.hi - b, lo}
}

// mul is x·y modulo 2¹²⁸.
func (x u128) mul(y uint64) u128 {
	hi, lo := bits.Mul64(x.lo, y)
	return u128{hi + x.hi*y, lo}
}

// mulw is x·y modulo 2¹²⁸ for a 128-bit y.
func (x u128) mulw(y u128) u128 {
	hi, lo := bits.Mul64(x.lo, y.lo)
	return u128{hi + x.hi*y.lo + x.lo*y.hi, lo}
}

func (x u128) cmp(y u128) int {
	switch {
	case x.hi < y.hi || x.hi == y.hi && x.lo < y.lo:
		return -1
	case x == y:
		return 0
	}
	return 1
}

func (x u128) float64() float64 {
	return float64(x.hi)*0x1p64 + float64(x.lo)
}

func (x u128) big() *big.Int {
	b := new(big.Int).SetUint64(x.hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(x.lo))
}

// neg is −x modulo 2¹²⁸ (the two's complement), for signed sums.
func (x u128) neg() u128 { return u128{}.sub(x) }

// signedFloat reads x as a two's-complement signed 128-bit integer.
func (x u128) signedFloat() float64 {
	if x.hi>>63 != 0 {
		return -x.neg().float64()
	}
	return x.float64()
}

// falling is the falling factorial n(n−1)…(n−k+1): the ordered ways to draw k cards from n,
// 0 when k > n. It wraps modulo 2⁶⁴ beyond; callers check fits first.
func falling(n uint64, k int) uint64 {
	r := uint64(1)
	for i := 0; i < k; i++ {
		if n < uint64(i) {
			return 0
		}
		r *= n - uint64(i)
	}
	return r
}

// falling128 is falling for 128-bit results.
func falling128(n uint64, k int) u128 {
	r := u128{lo: 1}
	for i := 0; i < k; i++ {
		if n < uint64(i) {
			return u128{}
		}
		r = r.mul(n - uint64(i))
	}
	return r
}

// fallingFits reports whether n(n−1)…(n−k+1) fits in a uint64.
func fallingFits(n uint64, k int) bool {
	r := u128{lo: 1}
	for i := 0; i < k && uint64(i) < n; i++ {
		r = r.mul(n - uint64(i))
		if r.hi != 0 {
			return false
		}
	}
	return true
}

func fallingBig(n uint64, k int) *big.Int {
	r := big.NewInt(1)
	for i := 0; i < k; i++ {
		if n < uint64(i) {
			return new(big.Int)
		}
		r.Mul(r, new(big.Int).SetUint64(n-uint64(i)))
	}
	return r
}
