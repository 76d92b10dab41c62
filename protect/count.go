package protect

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// Tags are a card count: the integer a counter adds to the running count for each card dealt,
// by rank, index 0 (Ace) to 12 (King).
type Tags [13]int

// String writes the tags as rank:tag pairs, "A:+1 2:+1 … K:-1".
func (t Tags) String() string {
	var b strings.Builder
	for i, v := range t {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(baccarat.Ranks[i].String())
		b.WriteByte(':')
		if v >= 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
}

// MarshalJSON writes {"A":1,…,"K":-1}, in rank order.
func (t Tags) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, v := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, baccarat.Ranks[i].String()...)
		b = append(b, '"', ':')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, '}'), nil
}

// MaxLevel is the largest tag a derived count uses: a level-4 count is the most a person
// keeps at a table.
const MaxLevel = 4

// GoodCorrelation is the betting correlation at which a derived count stops adding levels.
const GoodCorrelation = 0.95

// noGain is the largest effect of removal still taken for rounding noise: a bet whose
// effects are all below it (the pair bets: by symmetry every rank's removal changes them
// alike, so by not at all) has no linear count.
const noGain = 1e-12

// DeriveTags turns the effect of removal of one card of each rank on a bet's expectation
// (gain[r] > 0: taking a card of rank r out of the shoe is good for the player) into integer
// tags, and gives their betting correlation. A card dealt is a card removed, so a rank whose
// removal helps the player counts up.
//
// Candidates are the gains scaled (a fine grid of scales) and rounded, then balanced, so that
// the tags of a full deck sum to 0 and the true count of a fresh shoe is 0: when rounding
// leaves a sum, the tags it moved furthest move back one step at a time. The count kept is
// the best of the smallest level (largest tag) whose betting correlation reaches
// GoodCorrelation, else the best up to MaxLevel, where a count that gives ranks of equal
// effect (Ten and the face cards) different tags is held splitPenalty lower. A bet without effects of removal (pair
// bets) gets zero tags and correlation 0.
func DeriveTags(gain [13]float64) (Tags, float64) {
	top := 0.0
	for _, g := range gain {
		top = max(top, math.Abs(g))
	}
	if top < noGain {
		return Tags{}, 0
	}
	type candidate struct {
		t         Tags
		bc, score float64
		ok        bool
	}
	var byLevel [MaxLevel + 1]candidate
	const steps = 800
	for i := 0; i <= steps; i++ {
		t := roundBalanced(gain, (0.5+float64(MaxLevel)*float64(i)/steps)/top)
		level := 0
		for _, v := range t {
			level = max(level, v, -v)
		}
		if level == 0 || level > MaxLevel {
			continue
		}
		bc := BettingCorrelation(t, gain)
		score := bc
		if !even(t, gain) {
			score -= splitPenalty
		}
		if !byLevel[level].ok || score > byLevel[level].score {
			byLevel[level] = candidate{t, bc, score, true}
		}
	}
	best := candidate{score: math.Inf(-1)}
	for _, c := range byLevel[1:] {
		if c.ok && c.score >= GoodCorrelation {
			return c.t, c.bc
		}
		if c.ok && c.score > best.score {
			best = c
		}
	}
	return best.t, best.bc
}

// splitPenalty is the betting correlation a count may give up to keep equal tags for ranks
// whose removal has the same effect.
const splitPenalty = 0.01

// even reports whether ranks with the same gain have the same tag.
func even(t Tags, gain [13]float64) bool {
	for i := range t {
		for j := range t {
			if gain[i] == gain[j] && t[i] != t[j] {
				return false
			}
		}
	}
	return true
}

// roundTags rounds gain·scale, with the largest tag and the sum.
func roundTags(gain [13]float64, scale float64) (t Tags, level, sum int) {
	for i, g := range gain {
		t[i] = int(math.Round(g * scale))
		level = max(level, t[i], -t[i])
		sum += t[i]
	}
	return t, level, sum
}

// BettingCorrelation is the usual measure of a count: the correlation, over the 13 ranks,
// between the tags and the effects of removal on the player's expectation (1 for tags
// exactly proportional to them). It is 0 when either is constant.
func BettingCorrelation(t Tags, gain [13]float64) float64 {
	var mt, mg float64
	for i := range t {
		mt += float64(t[i])
		mg += gain[i]
	}
	mt, mg = mt/13, mg/13
	var sxy, sxx, syy float64
	for i := range t {
		dx, dy := float64(t[i])-mt, gain[i]-mg
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

// Counts are the derived count of each of a game's single-coup bets (in the order of
// odds.Expecter's Bets) from a full shoe of the given number of decks, with the effects of
// removal they come from: Gains[b][r] is the change of bet b's expected return when one card
// of rank r leaves the shoe (odds.EffectOfRemoval, sign turned to the player's side).
type Counts struct {
	Tags  []Tags
	BC    []float64
	Gains [][13]float64
}

// DeriveCounts computes every bet's count for g at the given number of decks.
func DeriveCounts(ctx context.Context, g *games.Game, decks int) (*Counts, error) {
	_, eor, err := odds.EffectOfRemoval(ctx, baccarat.NewCounts(decks), nil, g, nil)
	if err != nil {
		return nil, err
	}
	nb := len(g.CoupBets())
	c := &Counts{Tags: make([]Tags, nb), BC: make([]float64, nb), Gains: make([][13]float64, nb)}
	for _, rm := range eor {
		for b := 0; b < nb; b++ {
			c.Gains[b][rm.Rank-1] = -rm.Delta[b]
		}
	}
	for b := 0; b < nb; b++ {
		c.Tags[b], c.BC[b] = DeriveTags(c.Gains[b])
	}
	return c, nil
}

// roundBalanced rounds gain·scale to integers whose sum is 0, moving back the tags that
// rounding moved furthest. Of tags moved about as far, it moves first a rank whose gain no
// other rank shares (so Ten and the face cards, alike for every bet but the pairs, keep one
// tag as long as can be), then the lowest rank.
func roundBalanced(gain [13]float64, scale float64) Tags {
	t, _, sum := roundTags(gain, scale)
	var shared [13]bool
	for i := range gain {
		for j := range gain {
			if i != j && math.Abs(gain[i]-gain[j]) <= 1e-9*math.Abs(gain[i]) {
				shared[i] = true
			}
		}
	}
	for sum != 0 {
		step := -1
		if sum < 0 {
			step = 1
		}
		j, far := 0, math.Inf(-1)
		for i := range t {
			// how far rounding moved tag i against step
			d := (float64(t[i]) - gain[i]*scale) * float64(-step)
			if d > far+1e-9 || math.Abs(d-far) <= 1e-9 && shared[j] && !shared[i] {
				j, far = i, d
			}
		}
		t[j] += step
		sum += step
	}
	return t
}
