package protect

import (
	"math"
	"math/bits"
)

// fixedScale is the fixed point expectations are summed in: 2⁵⁰ to the unit staked. An
// expectation rounds to the nearest 2⁻⁵⁰ (about 9·10⁻¹⁶) once, and sums of them are exact
// integers, so workers merge in any order to the same report.
const fixedScale = 1 << 50

func toFixed(ev float64) int64 { return int64(math.Round(ev * fixedScale)) }

// sum is a signed 128-bit integer: sums of fixed-point expectations over any number of hands.
type sum struct {
	hi int64
	lo uint64
}

func (s *sum) add(v int64) {
	var c uint64
	s.lo, c = bits.Add64(s.lo, uint64(v), 0)
	s.hi += int64(c)
	if v < 0 {
		s.hi-- // the sign extension of v
	}
}

func (s *sum) merge(o sum) {
	var c uint64
	s.lo, c = bits.Add64(s.lo, o.lo, 0)
	s.hi += o.hi + int64(c)
}

// units is the sum in units staked (its magnitude converted, so small negative sums keep
// their low bits).
func (s sum) units() float64 {
	if s.hi < 0 {
		var neg sum
		var b uint64
		neg.lo, b = bits.Sub64(0, s.lo, 0)
		neg.hi = -s.hi - int64(b)
		return -neg.units()
	}
	return (float64(s.hi)*0x1p64 + float64(s.lo)) / fixedScale
}

// positive reports whether the sum is above 0.
func (s sum) positive() bool { return s.hi > 0 || s.hi == 0 && s.lo > 0 }

// less reports whether s < o.
func (s sum) less(o sum) bool { return s.hi < o.hi || s.hi == o.hi && s.lo < o.lo }

// True count bins: the true count (running count per deck left) in steps of 1/tcSteps,
// from −tcRange to +tcRange, the outermost bins holding everything beyond.
const (
	tcSteps = 4
	tcRange = 40
	tcBins  = 2*tcRange*tcSteps + 1
)

// tcBin is the bin of running count rc with left cards left: ⌊tcSteps·52·rc/left⌋, clamped,
// in integers so the bin edges are exact.
func tcBin(rc, left int) int {
	num := tcSteps * 52 * rc
	q := num / left
	if num%left != 0 && num < 0 {
		q-- // floor, not truncation
	}
	return min(max(q, -tcRange*tcSteps), tcRange*tcSteps) + tcRange*tcSteps
}

// binThreshold is the true count at which bin k starts.
func binThreshold(k int) float64 { return float64(k-tcRange*tcSteps) / tcSteps }

// tcCell is what a count bin holds: the hands and the sum of their expectations.
type tcCell struct {
	n  uint64
	ev sum
}

// Expectation histograms for the bands (Report.WriteSVG): bins on an asinh scale around the
// bet's expectation from a full shoe, fine near it (about 3·10⁻⁵ of a unit) and coarser
// further away (about 6% of the distance), reaching ±40 units.
const (
	histBins  = 384
	histPer   = 16     // bins per unit of asinh
	histScale = 0.0005 // the distance from the centre where the scale turns logarithmic
)

func histBin(ev, centre float64) int {
	h := int(math.Floor(math.Asinh((ev-centre)/histScale)*histPer)) + histBins/2
	return min(max(h, 0), histBins-1)
}

func histValue(h int, centre float64) float64 {
	return centre + histScale*math.Sinh((float64(h-histBins/2)+0.5)/histPer)
}

// tally is everything a worker accumulates. Positions are indexed by the cards left before
// the hand (0 to the longest shoe), so any cut card's figures are sums over the positions
// with more cards left than its depth.
type tally struct {
	nb, maxLeft int
	shoes       uint64
	hands       []uint64 // [left]
	positive    []uint64 // [left·nb + bet]: hands with a positive expectation
	plus        []sum    // [left·nb + bet]: their expectations
	cuts        []tcCell // [(cut·nb + bet)·tcBins + bin]
	hist        []uint32 // [(left·nb + bet)·histBins + h] (bands only)
	positions   []Position
}

func newTally(nb, maxLeft, cuts int, bands bool) *tally {
	t := &tally{nb: nb, maxLeft: maxLeft, hands: make([]uint64, maxLeft+1),
		positive: make([]uint64, (maxLeft+1)*nb), plus: make([]sum, (maxLeft+1)*nb),
		cuts: make([]tcCell, cuts*nb*tcBins)}
	if bands {
		t.hist = make([]uint32, (maxLeft+1)*nb*histBins)
	}
	return t
}

func (t *tally) merge(o *tally) {
	t.shoes += o.shoes
	for i, v := range o.hands {
		t.hands[i] += v
	}
	for i, v := range o.positive {
		t.positive[i] += v
	}
	for i, v := range o.plus {
		t.plus[i].merge(v)
	}
	for i := range o.cuts {
		t.cuts[i].n += o.cuts[i].n
		t.cuts[i].ev.merge(o.cuts[i].ev)
	}
	for i, v := range o.hist {
		t.hist[i] += v
	}
	t.positions = append(t.positions, o.positions...)
}
