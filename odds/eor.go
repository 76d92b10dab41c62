package odds

import (
	"context"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// Removal is the effect of removing one card of a rank from the shoe on each bet's house
// edge: Delta[i] is the change of the edge of the sheet's bet i (positive: better for the
// house), 0 for a bet that cannot be counted.
type Removal struct {
	Rank  baccarat.Rank
	Delta []float64
}

// EffectOfRemoval computes, for each rank the shoe holds, the change of every single-coup bet's
// house edge when one card of that rank is removed: the card counter's and the game
// protection analyst's first table. When suits are known the card removed is a random one of
// the rank, so the effect is averaged over its suits weighted by their counts (only Perfect
// Pair can tell them apart). Decimal bets keep the odds of the full shoe, since the effect
// asked is what the removal is worth against a posted price. base is the full shoe's sheet.
func EffectOfRemoval(ctx context.Context, counts baccarat.Counts, revealed []baccarat.Card, g *games.Game,
	margins map[string]Margin) (base *Sheet, eor []Removal, err error) {
	c := counters.Get().(*counter)
	defer counters.Put(c)
	a, err := c.analyze(ctx, &counts, revealed)
	if err != nil {
		return nil, nil, err
	}
	base = a.Sheet(g, margins)
	baseEdge := make([]float64, len(base.Bets))
	for i := range base.Bets {
		baseEdge[i] = base.Bets[i].HouseEdge
	}
	for _, r := range baccarat.Ranks {
		n := counts.Rank(r)
		if n == 0 || counts.Total()-1 < 6-len(revealed) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		rm := Removal{Rank: r, Delta: make([]float64, len(base.Bets))}
		suits := []baccarat.Suit{baccarat.Clubs}
		if counts.Suited() {
			suits = baccarat.Suits[:]
		}
		for _, s := range suits {
			k := baccarat.NewCard(r, s)
			weight := 1.0
			if counts.Suited() {
				if counts.Card(k) == 0 {
					continue
				}
				weight = float64(counts.Card(k)) / float64(n)
			}
			less := counts
			if err := less.Remove(k); err != nil {
				return nil, nil, err
			}
			if err := c.count(ctx, &less, revealed, a); err != nil {
				return nil, nil, err
			}
			a.cards = less.Total()
			sh := a.Sheet(g, margins)
			for i := range sh.Bets {
				bs, b0 := &sh.Bets[i], &base.Bets[i]
				if bs.Err != nil || b0.Err != nil {
					continue
				}
				edge := bs.HouseEdge
				if b0.Price != nil {
					edge = edgeAtOdds(bs.Win, bs.Push, b0.Price.Odds)
				}
				rm.Delta[i] += weight * (edge - baseEdge[i])
			}
		}
		eor = append(eor, rm)
	}
	return base, eor, nil
}

// edgeAtOdds is the house edge of a decimal bet at fixed odds o: 1 − r − p·o.
func edgeAtOdds(win, push Fraction, o baccarat.Odds) float64 {
	return 1 - push.Float64() - win.Float64()*float64(o)/100
}
