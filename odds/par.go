package odds

import (
	"math"
	"math/big"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// Sheet is a PAR sheet: for every single-coup bet of a game, the probability of each paying
// tier, of a push and of a loss, the expected return, house edge, variance, standard
// deviation and hit rate, from one shoe state. Dragon bets settle on a whole session and are
// priced by Dragon.
type Sheet struct {
	Game     *games.Game
	Cards    int
	Revealed []baccarat.Card
	Events   Events
	Bets     []BetSheet
}

// BetSheet is one bet's row of a PAR sheet. Return is the expected net result of one unit
// staked; HouseEdge is −Return (positive: the house has the advantage), with pushes counted
// in the denominator (per bet placed, not per bet resolved). Variance and StdDev are of the
// net result per unit staked.
type BetSheet struct {
	Bet                                 *games.Bet
	Tiers                               []TierSheet
	Win, Push, Lose                     Fraction
	Return, HouseEdge, Variance, StdDev float64
	// HitRate is the probability that the bet wins (any tier).
	HitRate float64
	// Price is the Bet on Baccarat offer for a decimal bet in this betting round (the figures
	// above are then at its odds); nil for fixed-odds bets.
	Price *Price
	// Err says why a bet cannot be counted from this shoe (a Perfect Pair from a composition
	// without suits); the figures are zero then.
	Err error

	d    dist
	nets [maxCodes]int64 // net result by outcome code, in units of 1/sc of the stake
	sc   int64
}

// TierSheet is one paying tier of a bet.
type TierSheet struct {
	Event       string
	Pays        baccarat.Ratio // zero for decimal bets: they pay their Price's odds
	Probability Fraction
}

// Sheet builds the PAR sheet of g's single-coup bets. margins set Bet on Baccarat margins per
// bet (nil: DefaultMargins).
func (a *Analysis) Sheet(g *games.Game, margins map[string]Margin) *Sheet {
	gp := planFor(g)
	s := &Sheet{Game: g, Cards: a.cards, Revealed: a.Revealed(), Events: a.Events(),
		Bets: make([]BetSheet, len(gp.bets))}
	var groups [nCells]uint64
	if a.big == nil {
		a.t.groupSums(gp, groups[:])
	}
	tiers, decimal := 0, 0
	for i := range gp.bets {
		tiers += len(gp.bets[i].bet.Tiers)
		if gp.bets[i].bet.Decimal {
			decimal++
		}
	}
	// one allocation each for every bet's tiers and prices
	ts, ps := make([]TierSheet, tiers), make([]Price, decimal)
	for i := range gp.bets {
		n := len(gp.bets[i].bet.Tiers)
		bs := &s.Bets[i]
		if gp.bets[i].bet.Decimal {
			bs.Price, ps = &ps[0], ps[1:]
		}
		a.betSheet(gp, i, groups[:], margins, bs, ts[:n:n])
		ts = ts[n:]
	}
	return s
}

// Bet returns the row of the bet with the given id, or nil.
func (s *Sheet) Bet(id string) *BetSheet {
	for i := range s.Bets {
		if s.Bets[i].Bet.ID == id {
			return &s.Bets[i]
		}
	}
	return nil
}

func (a *Analysis) betSheet(gp *gamePlan, i int, groups []uint64, margins map[string]Margin, bs *BetSheet, tiers []TierSheet) {
	bp := &gp.bets[i]
	b := bp.bet
	bs.Bet = b
	if bs.Err = bp.err; bs.Err == nil && bp.perfect && !a.suited {
		bs.Err = baccarat.Errorf(baccarat.CodeBadShoe,
			"%s needs to know suits: give the shoe card by card (Ah:8,...) or by decks", b.ID)
	}
	if bs.Err != nil {
		bs.Price = nil
		return
	}
	a.betDist(gp, i, groups, &bs.d)
	bs.Push, bs.Lose = bs.d.fraction(codePush), bs.d.fraction(codeLose)
	bs.Tiers = tiers
	win := dist{total: bs.d.total, btot: bs.d.btot}
	for t, tier := range b.Tiers {
		bs.Tiers[t] = TierSheet{Event: tier.Event, Pays: tier.Pays, Probability: bs.d.fraction(codeWin + t)}
		if bs.d.big != nil {
			win.bigAdd(1, 0, &bs.d.big[codeWin+t])
		} else {
			win.ways[0] += bs.d.ways[codeWin+t]
		}
	}
	bs.Win = win.fraction(0)
	if b.Decimal {
		*bs.Price = priceOf(b.ID, marginFor(b.ID, margins), bs.Win, bs.Push)
		p := bs.Price
		bs.sc = 100
		for t := range b.Tiers {
			bs.nets[codeWin+t] = int64(p.Odds) - 100
		}
	} else {
		bs.sc, bs.nets = payNets(b)
	}
	bs.nets[codeLose] = -bs.sc
	bs.stats()
}

// payNets writes each tier's payout over a common denominator: scale = lcm of the ratios'
// denominators, nets[2+t] = scale·Num/Den.
func payNets(b *games.Bet) (scale int64, nets [maxCodes]int64) {
	scale = 1
	for _, t := range b.Tiers {
		scale = lcm(scale, max(t.Pays.Den, 1))
	}
	for t, tier := range b.Tiers {
		nets[codeWin+t] = tier.Pays.Num * (scale / max(tier.Pays.Den, 1))
	}
	return scale, nets
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int64) int64 { return a / gcd(a, b) * b }

// stats computes the moments. On the fast path the numerators Σ ways·net and Σ ways·net² are
// exact 128-bit integers, so the one rounding is the final division: no cancellation between
// the winning and losing sides even for bets whose edge is near zero.
func (bs *BetSheet) stats() {
	bs.HitRate = bs.Win.Float64()
	nets := bs.nets[:2+len(bs.Bet.Tiers)]
	small := bs.d.big == nil
	for _, v := range nets {
		small = small && v < 1<<31 && v > -(1<<31) // net² < 2⁶²
	}
	if !small {
		r, v := bs.ExactReturn(), bs.ExactVariance()
		bs.Return, _ = r.Float64()
		bs.Variance, _ = v.Float64()
	} else {
		var sum, sq u128
		for code, net := range nets {
			w := bs.d.ways[code]
			if net < 0 {
				sum = sum.sub(mul64(w, uint64(-net)))
			} else {
				sum = sum.add(mul64(w, uint64(net)))
			}
			sq = sq.add(mul64(w, uint64(net*net)))
		}
		den := u128{lo: bs.d.total}.float64() * float64(bs.sc)
		bs.Return = sum.signedFloat() / den
		bs.Variance = sq.float64()/(den*float64(bs.sc)) - bs.Return*bs.Return
	}
	bs.HouseEdge = -bs.Return
	bs.StdDev = math.Sqrt(max(bs.Variance, 0))
}

// ExactReturn is the expected net result of one unit staked, as an exact fraction.
func (bs *BetSheet) ExactReturn() *big.Rat {
	r, _ := bs.exactMoments()
	return r
}

// ExactHouseEdge is −ExactReturn.
func (bs *BetSheet) ExactHouseEdge() *big.Rat { return new(big.Rat).Neg(bs.ExactReturn()) }

// ExactVariance is the variance of the net result per unit staked, as an exact fraction.
func (bs *BetSheet) ExactVariance() *big.Rat {
	r, sq := bs.exactMoments()
	return sq.Sub(sq, new(big.Rat).Mul(r, r))
}

func (bs *BetSheet) exactMoments() (ret, sq *big.Rat) {
	ret, sq = new(big.Rat), new(big.Rat)
	if bs.Err != nil || bs.sc == 0 {
		return ret, sq
	}
	for code, net := range bs.nets[:2+len(bs.Bet.Tiers)] {
		p := bs.d.fraction(code).Rat()
		v := big.NewRat(net, bs.sc)
		ret.Add(ret, new(big.Rat).Mul(p, v))
		sq.Add(sq, new(big.Rat).Mul(p, new(big.Rat).Mul(v, v)))
	}
	return ret, sq
}
