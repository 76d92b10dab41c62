package odds

import (
	"context"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// BetChance is the exact probability that a wager on a bet wins, pushes (is refunded) and
// loses, given the cards of the coup dealt so far.
type BetChance struct {
	Bet             string
	Win, Push, Lose Fraction
}

// Certain reports whether the wager's result is already decided: one of its probabilities
// is 1.
func (b BetChance) Certain() bool { return b.Win.IsOne() || b.Push.IsOne() || b.Lose.IsOne() }

// Chances gives, for a coup in progress, the exact probability that each single-coup bet of
// g wins, pushes and loses. revealed are the coup's cards so far in deal order (P1 B1 P2 B2,
// then third cards as the Table of Play calls for them: 0 to 6 cards), counts the cards not
// yet dealt. A table uses it during an interruption to see whether any wager's result is
// already certain (Tiger 5.17): once the coup is complete every probability is 0 or 1, and
// pair bets are decided as soon as four cards are known.
//
// The counting convention is Analyze's, extended mid-coup: ordered sequences of as many more
// cards as the coup may still need. A shoe with fewer cards than that is refused
// (CodeBadShoe): the round could not be completed and would be void.
func Chances(counts baccarat.Counts, revealed []baccarat.Card, g *games.Game) ([]BetChance, error) {
	var co baccarat.Coup
	for _, k := range revealed {
		if err := co.Add(k); err != nil {
			return nil, err
		}
	}
	gp := planFor(g)
	for i := range gp.bets {
		if err := gp.bets[i].err; err != nil {
			return nil, err
		}
	}
	if co.Done() {
		return certainChances(gp, co.Result()), nil
	}
	n := len(revealed)
	need := 6 - n
	switch {
	case n == 4 && co.Next() == baccarat.P3:
		need = 2
	case n >= 4:
		need = 1
	}
	if counts.Total() < need {
		return nil, baccarat.Errorf(baccarat.CodeBadShoe,
			"the shoe holds %d cards and the coup may need %d more: it cannot be completed", counts.Total(), need)
	}
	a, err := chanceTally(&counts, revealed, &co)
	if err != nil {
		return nil, err
	}
	out := make([]BetChance, len(gp.bets))
	groups := make([]uint64, gp.groups)
	if a.big == nil {
		a.t.groupSums(gp, groups)
	}
	for i := range gp.bets {
		bp := &gp.bets[i]
		if bp.pair && bp.perfect && !a.suited && n < 4 {
			return nil, baccarat.Errorf(baccarat.CodeBadShoe, "%s needs to know suits: give the shoe card by card", bp.bet.ID)
		}
		var d dist
		a.betDist(gp, i, groups, &d)
		win := dist{total: d.total, btot: d.btot}
		for t := codeWin; t < bp.codes; t++ {
			if d.big != nil {
				win.bigAdd(1, 0, &d.big[t])
			} else {
				win.ways[0] += d.ways[t]
			}
		}
		out[i] = BetChance{Bet: bp.bet.ID, Win: win.fraction(0), Push: d.fraction(codePush), Lose: d.fraction(codeLose)}
	}
	return out, nil
}

func certainChances(gp *gamePlan, r baccarat.Result) []BetChance {
	out := make([]BetChance, len(gp.bets))
	one, zero := NewFraction(1, 1), NewFraction(0, 1)
	for i := range gp.bets {
		b := gp.bets[i].bet
		o, _ := b.Resolve(&r)
		out[i] = BetChance{Bet: b.ID, Win: zero, Push: zero, Lose: zero}
		switch o {
		case games.Win:
			out[i].Win = one
		case games.Push:
			out[i].Push = one
		default:
			out[i].Lose = one
		}
	}
	return out
}

// chanceTally counts the rest of a coup that is not complete.
func chanceTally(counts *baccarat.Counts, revealed []baccarat.Card, co *baccarat.Coup) (*Analysis, error) {
	a := &Analysis{cards: counts.Total(), revealed: revealed, suited: counts.Suited()}
	c := counters.Get().(*counter)
	defer counters.Put(c)
	c.setValues(counts)
	n := len(revealed)
	var vals [4]int
	for i := 0; i < min(n, 4); i++ {
		vals[i] = revealed[i].Value()
	}
	switch {
	case n < 4 || co.Next() == baccarat.P3:
		if !fallingFits(c.N, 6-n) {
			cells, total, err := countCellsBig(context.Background(), c.n, c.N, vals[:n])
			if err != nil {
				return nil, err
			}
			a.big, a.bigTotal = cells, total
			break
		}
		c.countCells(vals[:n])
		a.t.cells, a.t.total = c.t6.cells, c.t6.total
	default:
		// Only the Banker's third card is to come: after the Player stood (4 cards known) or
		// drew (5 known).
		p := co.Player()
		P, q, pd := p.Total(), co.Banker().Total(), p.Len() == 3
		for y := 0; y < 10; y++ {
			a.t.cells[cellIndex(P, (q+y)%10, pd, true)] += c.n[y]
		}
		a.t.total = c.N
	}
	if n >= 4 {
		pk := cardKind(revealed[0], revealed[2])
		bk := cardKind(revealed[1], revealed[3])
		a.t.pairs[pairClass(pk, bk, revealed[0].Rank() == revealed[1].Rank())] = u128{lo: 1}
		a.t.pairTotal = u128{lo: 1}
		return a, nil
	}
	pc := newPairComp(counts)
	a.t.pairTotal = countPairs(&pc, revealed, &a.t.pairs)
	return a, nil
}
