package odds

import (
	"context"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// Expecter gives the expected net result per unit staked of every single-coup bet of a game
// from a shoe composition, before any card of the coup is seen: what game protection asks at
// every position of a shoe. It is Analyze followed by Sheet with the PAR sheet's rows left
// out, so it allocates nothing and its figures are BetSheet.Return bit for bit (the same
// counter, the same outcome counts and the same conversion, BetSheet.stats). Decimal bets
// (Bet on Baccarat) are valued at the odds their first betting round offers from that very
// composition, as Sheet values them.
//
// An Expecter keeps the counter's scratch space (about 70 KB); it is not safe for concurrent
// use: keep one per goroutine.
type Expecter struct {
	c       counter
	g       *games.Game
	gp      *gamePlan
	margins map[string]Margin
	groups  [nCells]uint64
	bs      BetSheet
	fixed   []fixedNets // per bet: the pay table's nets (fixed-odds bets)
}

type fixedNets struct {
	sc   int64
	nets [maxCodes]int64
}

// NewExpecter prepares an Expecter for g's single-coup bets (Dragon bets are left out: they
// settle on a session, not on a coup). margins are Bet on Baccarat's (nil: DefaultMargins).
func NewExpecter(g *games.Game, margins map[string]Margin) (*Expecter, error) {
	for id, m := range margins {
		if m < 0 || m >= 10000 {
			return nil, baccarat.Errorf(baccarat.CodeBadRequest, "margin %d bp for %s: a margin is 0 to 9999 basis points", m, id)
		}
	}
	gp := planFor(g)
	e := &Expecter{g: g, gp: gp, margins: margins, fixed: make([]fixedNets, len(gp.bets))}
	for i := range gp.bets {
		bp := &gp.bets[i]
		if bp.err != nil {
			return nil, bp.err
		}
		if !bp.bet.Decimal {
			e.fixed[i].sc, e.fixed[i].nets = payNets(bp.bet)
			e.fixed[i].nets[codeLose] = -e.fixed[i].sc
		}
	}
	return e, nil
}

// Bets are the bets Returns values, in the order it writes them: the game's CoupBets.
func (e *Expecter) Bets() []*games.Bet {
	out := make([]*games.Bet, len(e.gp.bets))
	for i := range e.gp.bets {
		out[i] = e.gp.bets[i].bet
	}
	return out
}

// Returns writes into out[i] the expected net result of one unit staked on bet i of Bets,
// for a coup dealt from counts (the cards not yet dealt; at least six). It allocates nothing
// for shoes of up to 1625 cards; larger ones take the math/big path of Analyze. A Perfect
// Pair from a composition without suits cannot be valued (CodeBadShoe).
func (e *Expecter) Returns(counts *baccarat.Counts, out []float64) error {
	if err := checkShoe(counts, nil, 0); err != nil {
		return err
	}
	gp := e.gp
	if len(out) < len(gp.bets) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "room for %d returns, the game has %d bets", len(out), len(gp.bets))
	}
	c := &e.c
	c.setValues(counts)
	if !fallingFits(c.N, 6) {
		return e.returnsBig(counts, out)
	}
	c.countCells(nil)
	pc := newPairComp(counts)
	c.t6.pairTotal = countPairs(&pc, nil, &c.t6.pairs)
	c.t6.groupSums(gp, e.groups[:])
	bs := &e.bs
	for i := range gp.bets {
		bp := &gp.bets[i]
		if bp.perfect && !pc.suited {
			return baccarat.Errorf(baccarat.CodeBadShoe,
				"%s needs to know suits: give the shoe card by card (Ah:8,...) or by decks", bp.bet.ID)
		}
		bs.Bet = bp.bet
		c.t6.betDist(gp, i, e.groups[:], &bs.d)
		var w uint64
		for t := codeWin; t < bp.codes; t++ {
			w += bs.d.ways[t]
		}
		bs.Win = NewFraction(w, bs.d.total)
		if bp.bet.Decimal {
			p := priceOf(bp.bet.ID, marginFor(bp.bet.ID, e.margins), bs.Win, NewFraction(bs.d.ways[codePush], bs.d.total))
			bs.sc = 100
			bs.nets = [maxCodes]int64{}
			for t := codeWin; t < bp.codes; t++ {
				bs.nets[t] = int64(p.Odds) - 100
			}
			bs.nets[codeLose] = -bs.sc
		} else {
			bs.sc, bs.nets = e.fixed[i].sc, e.fixed[i].nets
		}
		bs.stats()
		out[i] = bs.Return
	}
	return nil
}

// returnsBig values a shoe too large for 64-bit counts through Analyze and Sheet (allocates).
func (e *Expecter) returnsBig(counts *baccarat.Counts, out []float64) error {
	a, err := e.c.analyze(context.Background(), counts, nil)
	if err != nil {
		return err
	}
	s := a.Sheet(e.g, e.margins)
	for i := range s.Bets {
		if s.Bets[i].Err != nil {
			return s.Bets[i].Err
		}
		out[i] = s.Bets[i].Return
	}
	return nil
}
