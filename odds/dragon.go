package odds

import (
	"context"
	"math"
	"math/big"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// DragonSession is a Dragon bet's exact figures for a session of a number of hands (Dragon
// 3.12): paid once at the session's end on the longest streak it counts, Ruby (5), Golden (6)
// or Royal (7 or more); below 5 it loses. Hands are taken as independent, each with the exact
// single-coup probabilities of the analysed shoe (the model every Dragon pay table is
// priced on; a real shoe depletes, which sim measures).
type DragonSession struct {
	Bet   *games.Bet
	Hands int
	// Tiers are Ruby, Golden and Royal, as the bet's tiers.
	Tiers     []TierSheet
	Win, Lose Fraction
	// Longest[k] is the probability that the longest counted streak is k (0–6); Longest[7]
	// that it is 7 or more.
	Longest                             [8]Fraction
	Return, HouseEdge, Variance, StdDev float64
}

// dragonChain is the Markov chain of one Dragon bet over hands: the state is the side of the
// current run (none, Banker, Player), its length capped at 7, and the longest counted run so
// far capped at 7. A Tie neither breaks nor extends a run (Dragon 3.11). Once the longest run
// reaches 7 the bet is a Royal whatever follows, so those states merge into one absorbing
// state. Weights are the integer ways of Banker, Player and Tie of one coup, so after n hands
// each state holds an exact integer over (ways of a coup)ⁿ.
type dragonChain struct {
	rule       games.DragonRule
	wB, wP, wT *big.Int
	den        *big.Int // wB + wP + wT
}

const (
	dragonStates = 3 * 8 * 8 // side·64 + run·8 + longest
	royalState   = dragonStates
)

func newDragonChain(a *Analysis, b *games.Bet) (*dragonChain, error) {
	if b.Dragon == nil || len(b.Tiers) != 3 {
		return nil, baccarat.Errorf(baccarat.CodeUnknownBet, "%s is not a Dragon bet", b.ID)
	}
	ev := a.Events()
	bw, pw, tw := ev.BankerWin.Rat(), ev.PlayerWin.Rat(), ev.Tie.Rat()
	// common denominator, then divide out common factors to keep the numbers small
	den := new(big.Int).Set(bw.Denom())
	for _, r := range []*big.Rat{pw, tw} {
		g := new(big.Int).GCD(nil, nil, den, r.Denom())
		den.Mul(den, new(big.Int).Quo(r.Denom(), g))
	}
	num := func(r *big.Rat) *big.Int {
		n := new(big.Int).Mul(r.Num(), den)
		return n.Quo(n, r.Denom())
	}
	return &dragonChain{rule: *b.Dragon, wB: num(bw), wP: num(pw), wT: num(tw), den: den}, nil
}

// step moves side s (1 Banker, 2 Player) on from state i: the next state index.
func (dc *dragonChain) step(i, s int) int {
	side, run, long := i/64, i/8%8, i%8
	if side == s {
		run = min(run+1, 7)
	} else {
		side, run = s, 1
	}
	if s == 1 && dc.rule.Banker || s == 2 && dc.rule.Player {
		long = max(long, run)
	}
	if long >= 7 {
		return royalState
	}
	return side*64 + run*8 + long
}

// run advances the chain hands times from the start, exactly; each, if not nil, is called
// with the states after every hand.
func (dc *dragonChain) run(ctx context.Context, hands int, each func(h int, st []big.Int)) ([]big.Int, error) {
	cur, next := make([]big.Int, dragonStates+1), make([]big.Int, dragonStates+1)
	cur[0].SetInt64(1)
	var tmp big.Int
	for h := 0; h < hands; h++ {
		if h%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if each != nil && h > 0 {
			each(h, cur)
		}
		for i := range next {
			next[i].SetInt64(0)
		}
		for i := range cur {
			x := &cur[i]
			if x.Sign() == 0 {
				continue
			}
			if i == royalState {
				next[i].Add(&next[i], tmp.Mul(x, dc.den))
				continue
			}
			next[i].Add(&next[i], tmp.Mul(x, dc.wT))
			j := dc.step(i, 1)
			next[j].Add(&next[j], tmp.Mul(x, dc.wB))
			j = dc.step(i, 2)
			next[j].Add(&next[j], tmp.Mul(x, dc.wP))
		}
		cur, next = next, cur
	}
	if each != nil && hands > 0 {
		each(hands, cur)
	}
	return cur, nil
}

// edge is the house edge of the bet given the chain's states after some hands, whose
// probabilities are the states over total.
func dragonEdge(b *games.Bet, st []big.Int, total *big.Int) *big.Rat {
	num := new(big.Rat)
	for i := range st {
		l := 7
		if i != royalState {
			l = i % 8
		}
		net := big.NewRat(-1, 1)
		if t := games.TierFor(l); t >= 0 {
			net = big.NewRat(b.Tiers[t].Pays.Num, max(b.Tiers[t].Pays.Den, 1))
		}
		num.Add(num, new(big.Rat).Mul(new(big.Rat).SetInt(&st[i]), net))
	}
	return num.Neg(num.Quo(num, new(big.Rat).SetInt(total)))
}

// DragonEdges gives a Dragon bet's house edge for every session length from 1 to maxHands
// (index n−1), each computed exactly from one run of the chain and rounded to float64.
func (a *Analysis) DragonEdges(ctx context.Context, b *games.Bet, maxHands int) ([]float64, error) {
	dc, err := newDragonChain(a, b)
	if err != nil {
		return nil, err
	}
	edges := make([]float64, 0, max(maxHands, 0))
	total := big.NewInt(1)
	_, err = dc.run(ctx, maxHands, func(h int, st []big.Int) {
		total.Mul(total, dc.den)
		e, _ := dragonEdge(b, st, total).Float64()
		edges = append(edges, e)
	})
	return edges, err
}

// MaxSessionHands is the longest Dragon session the platform prices and plays: a table's
// session_hands, a tournament session's hands and analyze --hands all run from 1 to it. A
// session's exact figures come from running the chain hand by hand over integers that grow
// with every hand, so their cost grows with the square of the length (seconds at 1000
// hands, hours at 100,000): callers that count on a request's behalf stay within it.
const MaxSessionHands = 1000

// Dragon gives a Dragon bet's figures for a session of the given number of hands.
func (a *Analysis) Dragon(ctx context.Context, b *games.Bet, hands int) (*DragonSession, error) {
	if hands < 1 {
		return nil, baccarat.Errorf(baccarat.CodeBadRequest, "a session has at least one hand, not %d", hands)
	}
	dc, err := newDragonChain(a, b)
	if err != nil {
		return nil, err
	}
	st, err := dc.run(ctx, hands, nil)
	if err != nil {
		return nil, err
	}
	total := new(big.Int).Exp(dc.den, big.NewInt(int64(hands)), nil)
	var longest [8]big.Int
	for i := range st {
		l := 7
		if i != royalState {
			l = i % 8
		}
		longest[l].Add(&longest[l], &st[i])
	}
	ds := &DragonSession{Bet: b, Hands: hands}
	for l := range longest {
		ds.Longest[l] = fracBig(&longest[l], total)
	}
	lose := new(big.Int)
	for l := 0; l < games.RubyStreak; l++ {
		lose.Add(lose, &longest[l])
	}
	ds.Lose = fracBig(lose, total)
	ret, sq := new(big.Rat).Neg(ds.Lose.Rat()), ds.Lose.Rat()
	win := new(big.Int)
	for t, tier := range b.Tiers {
		p := fracBig(&longest[games.RubyStreak+t], total)
		ds.Tiers = append(ds.Tiers, TierSheet{Event: tier.Event, Pays: tier.Pays, Probability: p})
		win.Add(win, &longest[games.RubyStreak+t])
		pay := big.NewRat(tier.Pays.Num, max(tier.Pays.Den, 1))
		ret.Add(ret, new(big.Rat).Mul(p.Rat(), pay))
		sq.Add(sq, new(big.Rat).Mul(p.Rat(), new(big.Rat).Mul(pay, pay)))
	}
	ds.Win = fracBig(win, total)
	ds.Return, _ = ret.Float64()
	ds.HouseEdge = -ds.Return
	v, _ := sq.Sub(sq, ret.Mul(ret, ret)).Float64()
	ds.Variance, ds.StdDev = v, math.Sqrt(max(v, 0))
	return ds, nil
}

// DragonBreakEven is the shortest session, in hands, for which the Dragon bet's house edge is
// negative (the player has the advantage), searching up to limit hands; ok is false when
// there is none that short. A float64 run of the chain finds the candidate, the exact chain
// confirms it (and steps on if rounding misled the float run).
func (a *Analysis) DragonBreakEven(ctx context.Context, b *games.Bet, limit int) (hands int, ok bool, err error) {
	dc, err := newDragonChain(a, b)
	if err != nil {
		return 0, false, err
	}
	cand := dc.floatBreakEven(b, limit)
	if cand == 0 {
		return 0, false, nil
	}
	for n := max(cand-1, 1); n <= limit; n++ {
		ds, err := a.Dragon(ctx, b, n)
		if err != nil {
			return 0, false, err
		}
		if edgeNegative(ds, b) {
			return n, true, nil
		}
	}
	return 0, false, nil
}

// edgeNegative decides the sign of the edge exactly.
func edgeNegative(ds *DragonSession, b *games.Bet) bool {
	ret := new(big.Rat).Neg(ds.Lose.Rat())
	for t, tier := range b.Tiers {
		ret.Add(ret, new(big.Rat).Mul(ds.Tiers[t].Probability.Rat(), big.NewRat(tier.Pays.Num, max(tier.Pays.Den, 1))))
	}
	return ret.Sign() > 0
}

// floatBreakEven runs the chain in float64 and returns the first session length whose edge
// is below a small negative tolerance band's upper end, or 0 for none up to limit. The band
// (1e-12) only widens the search a step: the exact check decides.
func (dc *dragonChain) floatBreakEven(b *games.Bet, limit int) int {
	d, _ := new(big.Rat).SetFrac(dc.wB, dc.den).Float64()
	pB := d
	pP, _ := new(big.Rat).SetFrac(dc.wP, dc.den).Float64()
	pT, _ := new(big.Rat).SetFrac(dc.wT, dc.den).Float64()
	var pay [3]float64
	for t, tier := range b.Tiers {
		pay[t] = float64(tier.Pays.Num) / float64(max(tier.Pays.Den, 1))
	}
	cur, next := make([]float64, dragonStates+1), make([]float64, dragonStates+1)
	cur[0] = 1
	for n := 1; n <= limit; n++ {
		clear(next)
		for i, x := range cur {
			if x == 0 {
				continue
			}
			if i == royalState {
				next[i] += x
				continue
			}
			next[i] += x * pT
			next[dc.step(i, 1)] += x * pB
			next[dc.step(i, 2)] += x * pP
		}
		cur, next = next, cur
		var byLong [8]float64
		for i, x := range cur {
			if i == royalState {
				byLong[7] += x
			} else {
				byLong[i%8] += x
			}
		}
		lose := 0.0
		for l := 0; l < games.RubyStreak; l++ {
			lose += byLong[l]
		}
		ret := -lose + byLong[5]*pay[0] + byLong[6]*pay[1] + byLong[7]*pay[2]
		if ret > -1e-12 {
			return n
		}
	}
	return 0
}
