package odds

import (
	"context"
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// Margin is a Bet on Baccarat margin in basis points (500 = 5%): the share of the stake the
// offered odds keep back from a fair price (SPEC §3.5).
type Margin int

// DefaultMargins are the margins a Bet on Baccarat table uses when its operator sets none
// (read-only: pass a map of your own to change them).
// They sit near the edges the same bets carry at a land-based table (Player 1.24%, Banker
// 1.06%, Tie 14.4%, pairs 10–11%) but lower on the side bets, as a betting product with
// fair-priced odds can afford, and round to whole quarter percents:
// Player, Banker, Big and Small 2.5%; Tie and the pair bets 5%. A bet missing from the map a
// caller passes takes its default here, and a bet missing here takes FallbackMargin.
var DefaultMargins = map[string]Margin{
	"player": 250, "banker": 250, "big": 250, "small": 250,
	"tie": 500, "player_pair": 500, "banker_pair": 500, "either_pair": 500, "perfect_pair": 500,
}

// FallbackMargin is the margin of a decimal bet that neither the caller's margins nor
// DefaultMargins name.
const FallbackMargin Margin = 500

func marginFor(bet string, margins map[string]Margin) Margin {
	if m, ok := margins[bet]; ok {
		return m
	}
	if m, ok := DefaultMargins[bet]; ok {
		return m
	}
	return FallbackMargin
}

// Price is one bet's offer in one betting round.
type Price struct {
	Bet string `json:"bet"`
	// Offered is false when the bet cannot win (p = 0) or its odds come out below 1.01
	// or above baccarat.MaxOdds.
	Offered bool `json:"offered"`
	// Odds are floor to 0.01 of (1 − m − r)/p (SPEC §3.5); 0 when p = 0.
	Odds baccarat.Odds `json:"odds"`
	// Win and Refund are the exact probabilities p and r (r: a Tie for Player and Banker).
	Win    Fraction `json:"win"`
	Refund Fraction `json:"refund"`
	Margin Margin   `json:"margin"` // basis points
}

// priceOf computes the odds exactly: with p = W/T and r = R/T,
// 100·(1 − m/10⁴ − r)/p = (T·(10⁴ − m) − 10⁴·R) / (100·W), floored, in 128-bit integers.
func priceOf(bet string, m Margin, win, refund Fraction) Price {
	p := Price{Bet: bet, Win: win, Refund: refund, Margin: m}
	if win.IsZero() {
		return p
	}
	W, T, ok1 := win.Uint64()
	R, T2, ok2 := refund.Uint64()
	var o uint64
	if ok1 && ok2 && T == T2 {
		o = oddsFast(W, R, T, m)
	} else {
		o = oddsBig(win, refund, m)
	}
	p.Odds = baccarat.Odds(min(o, math.MaxInt64))
	p.Offered = p.Odds >= 101 && p.Odds <= baccarat.MaxOdds
	return p
}

func oddsFast(W, R, T uint64, m Margin) uint64 {
	num := mul64(T, uint64(10000-m))
	sub := mul64(R, 10000)
	if num.cmp(sub) <= 0 {
		return 0
	}
	num = num.sub(sub)
	den := mul64(W, 100)
	if den.hi != 0 {
		return oddsBig(NewFraction(W, T), NewFraction(R, T), m)
	}
	if num.hi >= den.lo {
		return math.MaxUint64
	}
	q, _ := bits.Div64(num.hi, num.lo, den.lo)
	return q
}

func oddsBig(win, refund Fraction, m Margin) uint64 {
	x := new(big.Rat).SetFrac64(int64(10000-m), 10000)
	x.Sub(x, refund.Rat())
	x.Quo(x, win.Rat())
	x.Mul(x, big.NewRat(100, 1))
	if x.Sign() <= 0 {
		return 0
	}
	q := new(big.Int).Quo(x.Num(), x.Denom())
	if !q.IsUint64() {
		return math.MaxUint64
	}
	return q.Uint64()
}

// Prices prices every decimal bet of g (Bet on Baccarat) for one betting round. counts is the
// composition of the cards not yet dealt, the revealed cards already removed; revealed are the
// current coup's cards in deal order: none (first round), P1 (second) or P1 and B1 (third).
// margins may be nil (DefaultMargins). A Perfect Pair from a composition without suits is not
// offered; a game without decimal bets gets no prices. Errors: more than two revealed cards
// or a margin outside 0–9999 bp (CodeBadRequest), a shoe with fewer cards than the coup may
// need (CodeBadShoe). PricesInto and Pricer price without allocating.
func Prices(counts baccarat.Counts, revealed []baccarat.Card, g *games.Game, margins map[string]Margin) ([]Price, error) {
	return PricesInto(nil, counts, revealed, g, margins)
}

var pricers = sync.Pool{New: func() any { return new(Pricer) }}

// PricesInto is Prices appending to dst[:0]; with room in dst it allocates nothing.
func PricesInto(dst []Price, counts baccarat.Counts, revealed []baccarat.Card, g *games.Game, margins map[string]Margin) ([]Price, error) {
	p := pricers.Get().(*Pricer)
	dst, err := p.Prices(dst, &counts, revealed, g, margins)
	pricers.Put(p)
	return dst, err
}

// Pricer holds the counter's scratch space, so a table that keeps one prices every betting
// round without allocating. It is not safe for concurrent use; the zero value is ready.
type Pricer struct {
	c      counter
	groups [nCells]uint64
	d      dist
}

// Prices is the package's Prices, appending to dst[:0].
func (p *Pricer) Prices(dst []Price, counts *baccarat.Counts, revealed []baccarat.Card, g *games.Game, margins map[string]Margin) ([]Price, error) {
	dst = dst[:0]
	if err := checkShoe(counts, revealed, 2); err != nil {
		return dst, err
	}
	for id, m := range margins {
		if m < 0 || m >= 10000 {
			return dst, baccarat.Errorf(baccarat.CodeBadRequest, "margin %d bp for %s: a margin is 0 to 9999 basis points", m, id)
		}
	}
	gp := planFor(g)
	c := &p.c
	c.setValues(counts)
	if !fallingFits(c.N, 6-len(revealed)) {
		return p.pricesBig(dst, counts, revealed, g, gp, margins)
	}
	var vals [2]int
	for i, k := range revealed {
		vals[i] = k.Value()
	}
	c.countCells(vals[:len(revealed)])
	pc := newPairComp(counts)
	c.t6.pairTotal = countPairs(&pc, revealed, &c.t6.pairs)
	c.t6.groupSums(gp, p.groups[:])
	for i := range gp.bets {
		bp := &gp.bets[i]
		if !bp.bet.Decimal {
			continue
		}
		if bp.err != nil {
			return dst, bp.err
		}
		if bp.perfect && !pc.suited {
			dst = append(dst, Price{Bet: bp.bet.ID, Margin: marginFor(bp.bet.ID, margins)})
			continue
		}
		c.t6.betDist(gp, i, p.groups[:], &p.d)
		var w uint64
		for t := codeWin; t < bp.codes; t++ {
			w += p.d.ways[t]
		}
		dst = append(dst, priceOf(bp.bet.ID, marginFor(bp.bet.ID, margins),
			NewFraction(w, p.d.total), NewFraction(p.d.ways[codePush], p.d.total)))
	}
	return dst, nil
}

// pricesBig prices from a shoe too large for 64-bit counts (allocates).
func (p *Pricer) pricesBig(dst []Price, counts *baccarat.Counts, revealed []baccarat.Card, g *games.Game,
	gp *gamePlan, margins map[string]Margin) ([]Price, error) {
	a, err := p.c.analyze(context.Background(), counts, revealed)
	if err != nil {
		return dst, err
	}
	s := a.Sheet(g, margins)
	for i := range s.Bets {
		b := &s.Bets[i]
		switch {
		case b.Price != nil:
			dst = append(dst, *b.Price)
		case b.Bet.Decimal && gp.bets[i].perfect && !a.suited:
			dst = append(dst, Price{Bet: b.Bet.ID, Margin: marginFor(b.Bet.ID, margins)})
		case b.Bet.Decimal:
			return dst, b.Err
		}
	}
	return dst, nil
}
