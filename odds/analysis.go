package odds

import (
	"context"
	"math/big"
	"slices"
	"sync"

	"github.com/tablehouse/baccarat"
)

// Analysis is the exact distribution of one coup's outcome from a given shoe: the ways of
// each of the 400 hand outcomes (cells) and of the 13 pair classes, over the number of
// ordered card sequences counted. Every bet of every game is read off it (Sheet, Prices).
type Analysis struct {
	ev       Events // computed with the count
	cards    int
	revealed []baccarat.Card
	suited   bool
	t        tally
	big      []big.Int // the cells on the math/big path (shoes over 1625 cards); nil otherwise
	bigTotal *big.Int
}

// Analyze counts the outcomes of the next coup. counts is the composition of the cards not
// yet dealt; revealed are the coup's cards already seen, in deal order: none, the Player's
// first card, or the Player's and the Banker's first cards (the three betting rounds of Bet
// on Baccarat, SPEC §3.5), already removed from counts.
//
// Counting convention (the one published tables use): hand outcomes count ordered prefixes up
// to the coup's sixth card, pair bets ordered prefixes up to its fourth, so a full 8-deck shoe
// totals 416·415·414·413·412·411 hand sequences. Shoes of up to 1625 cards count in uint64
// without allocating; larger ones in math/big, checking ctx as they go.
func Analyze(ctx context.Context, counts baccarat.Counts, revealed []baccarat.Card) (*Analysis, error) {
	c := counters.Get().(*counter)
	defer counters.Put(c)
	return c.analyze(ctx, &counts, revealed)
}

// counters keeps counters (70 KB of scratch each) for reuse, rather than zeroing one on the
// stack for every count and growing the goroutine's stack to hold it.
var counters = sync.Pool{New: func() any { return new(counter) }}

func (c *counter) analyze(ctx context.Context, counts *baccarat.Counts, revealed []baccarat.Card) (*Analysis, error) {
	if err := checkShoe(counts, revealed, 2); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a := &Analysis{cards: counts.Total(), revealed: slices.Clone(revealed), suited: counts.Suited()}
	if err := c.count(ctx, counts, revealed, a); err != nil {
		return nil, err
	}
	return a, nil
}

// count fills a's tallies; a.big is set on the math/big path.
func (c *counter) count(ctx context.Context, counts *baccarat.Counts, revealed []baccarat.Card, a *Analysis) error {
	var vals [4]int
	for i, k := range revealed {
		vals[i] = k.Value()
	}
	c.setValues(counts)
	if fallingFits(c.N, 6-len(revealed)) {
		c.countCells(vals[:len(revealed)])
		a.t.cells, a.t.total = c.t6.cells, c.t6.total
		a.big, a.bigTotal = nil, nil
	} else {
		cells, total, err := countCellsBig(ctx, c.n, c.N, vals[:len(revealed)])
		if err != nil {
			return err
		}
		a.big, a.bigTotal = cells, total
	}
	pc := newPairComp(counts)
	a.t.pairTotal = countPairs(&pc, revealed, &a.t.pairs)
	a.ev = a.events()
	return nil
}

// checkShoe refuses what cannot be counted: more revealed cards than allowed, cards that are
// not cards, or a shoe with too few cards to finish the coup under the 6-card convention.
func checkShoe(counts *baccarat.Counts, revealed []baccarat.Card, maxRevealed int) error {
	if len(revealed) > maxRevealed {
		return baccarat.Errorf(baccarat.CodeBadRequest,
			"%d cards revealed: at most %d (the Player's first card, then the Banker's)", len(revealed), maxRevealed)
	}
	for _, k := range revealed {
		if !k.Valid() {
			return baccarat.Errorf(baccarat.CodeBadCard, "revealed card %d is not one of the 52 cards", k)
		}
	}
	if need := 6 - len(revealed); counts.Total() < need {
		return baccarat.Errorf(baccarat.CodeBadShoe,
			"the shoe holds %d cards: the coup may need %d more, so at least %d are required", counts.Total(), need, need)
	}
	return nil
}

// Cards is the number of cards not yet dealt that the analysis counted from.
func (a *Analysis) Cards() int { return a.cards }

// Revealed returns the coup's cards already seen, in deal order.
func (a *Analysis) Revealed() []baccarat.Card { return slices.Clone(a.revealed) }

// Suited reports whether the composition knew suits (else perfect pairs are not counted).
func (a *Analysis) Suited() bool { return a.suited }

// Total is the number of ordered card sequences the hand outcomes count: (N)₆ from a fresh
// coup, (N)₅ or (N)₄ with one or two cards revealed.
func (a *Analysis) Total() *big.Int {
	if a.big != nil {
		return new(big.Int).Set(a.bigTotal)
	}
	return new(big.Int).SetUint64(a.t.total)
}

// PairTotal is the number of ordered sequences the pair bets count: up to the fourth card.
func (a *Analysis) PairTotal() *big.Int { return a.t.pairTotal.big() }

// Events are the probabilities of the coup's main events.
type Events struct {
	PlayerWin, BankerWin, Tie Fraction
	// Cards4, Cards5, Cards6: how many cards the coup deals.
	Cards4, Cards5, Cards6 Fraction
	// Natural: either two-card total is 8 or 9.
	Natural Fraction
	// PlayerPair, BankerPair: that hand's first two cards have the same rank.
	PlayerPair, BankerPair Fraction
}

// cellEvents[c] are the event indices a cell counts towards: winner (0 Player, 1 Banker,
// 2 Tie), cards dealt (3, 4, 5 for 4, 5, 6 cards), and 6 for a natural (else 7, unused).
var cellEvents = func() (e [nCells][3]uint8) {
	for c := range e {
		P, B, pd, bd := cellParts(c)
		switch {
		case P > B:
			e[c][0] = 0
		case B > P:
			e[c][0] = 1
		default:
			e[c][0] = 2
		}
		e[c][1], e[c][2] = 3, 7
		switch {
		case pd && bd:
			e[c][1] = 5
		case pd || bd:
			e[c][1] = 4
		case P >= 8 || B >= 8:
			e[c][2] = 6
		}
	}
	return e
}()

// Events are the probabilities of the coup's main events.
func (a *Analysis) Events() Events { return a.ev }

// events sums the cells into the main events.
func (a *Analysis) events() Events {
	var fast [8]uint64
	var sums []big.Int
	if a.big != nil {
		sums = make([]big.Int, 8)
		for c := range a.big {
			for _, e := range cellEvents[c] {
				sums[e].Add(&sums[e], &a.big[c])
			}
		}
	} else {
		for _, c := range liveCells {
			w := a.t.cells[c]
			e := &cellEvents[c]
			fast[e[0]] += w
			fast[e[1]] += w
			fast[e[2]] += w
		}
	}
	f := func(i int) Fraction {
		if a.big != nil {
			return fracBig(&sums[i], a.bigTotal)
		}
		return NewFraction(fast[i], a.t.total)
	}
	var pp, bp u128
	for k := 0; k < nPairClasses; k++ {
		pk, bk, _ := pairKinds(k)
		if pk > 0 {
			pp = pp.add(a.t.pairs[k])
		}
		if bk > 0 {
			bp = bp.add(a.t.pairs[k])
		}
	}
	return Events{PlayerWin: f(0), BankerWin: f(1), Tie: f(2), Cards4: f(3), Cards5: f(4), Cards6: f(5),
		Natural: f(6), PlayerPair: frac128(pp, a.t.pairTotal), BankerPair: frac128(bp, a.t.pairTotal)}
}

// dist is one bet's outcome counts by code (lose, push, tiers) over its total.
type dist struct {
	ways  [maxCodes]uint64
	total uint64
	big   []big.Int // on the math/big path
	btot  *big.Int
}

func (d *dist) fraction(code int) Fraction {
	if d.big != nil {
		return fracBig(&d.big[code], d.btot)
	}
	return NewFraction(d.ways[code], d.total)
}

// liveCells are the cells the Table of Play can reach (210 of the 400): nobody draws only on a
// natural or when both stand on 6–7; the Player draws unless on 6–7; the Banker stands after
// a Player's third card only on 3–7.
var liveCells = func() (live []uint16) {
	for c := 0; c < nCells; c++ {
		P, B, pd, bd := cellParts(c)
		ok := true
		switch {
		case !pd && !bd:
			ok = P >= 8 || B >= 8 || P >= 6 && B >= 6
		case !pd:
			ok = P == 6 || P == 7
		case !bd:
			ok = B >= 3 && B <= 7
		}
		if ok {
			live = append(live, uint16(c))
		}
	}
	return live
}()

// groupSums adds the cells into the game's groups (fast path only).
func (t *tally) groupSums(gp *gamePlan, out []uint64) {
	clear(out[:gp.groups])
	for _, c := range liveCells {
		out[gp.cellGroup[c]] += t.cells[c]
	}
}

// betDist reads one bet's outcome counts off the tally, whose counts all fit in uint64;
// groups are the game's group sums.
func (t *tally) betDist(gp *gamePlan, i int, groups []uint64, d *dist) {
	bp := &gp.bets[i]
	*d = dist{}
	if bp.pair {
		for k, w := range t.pairs {
			d.ways[bp.class[k]] += w.lo
		}
		d.total = t.pairTotal.lo
		return
	}
	codes := gp.groupCode[i]
	for g, w := range groups[:gp.groups] {
		d.ways[codes[g]] += w
	}
	d.total = t.total
}

// betDist reads one bet's outcome counts off the analysis; groups are the game's group sums
// (unused on the math/big path).
func (a *Analysis) betDist(gp *gamePlan, i int, groups []uint64, d *dist) {
	bp := &gp.bets[i]
	switch {
	case a.big == nil && a.t.pairTotal.hi == 0:
		a.t.betDist(gp, i, groups, d)
	case bp.pair:
		*d = dist{btot: a.t.pairTotal.big()}
		for k, w := range a.t.pairs {
			d.bigAdd(bp.codes, int(bp.class[k]), w.big())
		}
	case a.big != nil:
		*d = dist{btot: a.bigTotal}
		for c := range a.big {
			d.bigAdd(bp.codes, int(bp.cell[c]), &a.big[c])
		}
	default:
		a.t.betDist(gp, i, groups, d)
	}
}

func (d *dist) bigAdd(codes, code int, w *big.Int) {
	if d.big == nil {
		d.big = make([]big.Int, codes)
	}
	d.big[code].Add(&d.big[code], w)
}
