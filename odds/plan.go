package odds

import (
	"sync"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// A bet's outcome on a coup is coded as 0 lose, 1 push, 2+t a win on tier t.
const (
	codeLose = 0
	codePush = 1
	codeWin  = 2
	maxCodes = 8 // lose, push and up to six tiers
)

// betPlan says how the counter's output decides one bet: through the cell (hand outcome) or
// through the pair class, and with which outcome for each. It is derived once per bet by
// asking the bet's own Resolve about a representative result of every (cell, class)
// combination, so games stay data: a new bet needs no change here, as long as it depends on
// the cell or on the pairs and not on both at once.
type betPlan struct {
	bet  *games.Bet
	pair bool // decided by the pair class (else by the cell)
	// perfect: the bet tells an identical pair from a plain one, so it needs a composition
	// with suits.
	perfect bool
	codes   int // 2 + number of tiers
	cell    [nCells]uint8
	class   [nPairClasses]uint8
	err     error
}

// gamePlan is the plans of a game's single-coup bets, and the cells grouped by the codes of
// all its cell bets together, so that a game's bets are read off a few group sums rather than
// the 400 cells one bet at a time.
type gamePlan struct {
	bets      []betPlan
	cellGroup [nCells]uint16
	groups    int
	groupCode [][]uint8 // [bet][group]
}

var plans sync.Map // *games.Game → *gamePlan

func planFor(g *games.Game) *gamePlan {
	if p, ok := plans.Load(g); ok {
		return p.(*gamePlan)
	}
	p, _ := plans.LoadOrStore(g, buildPlan(g))
	return p.(*gamePlan)
}

func buildPlan(g *games.Game) *gamePlan {
	gp := &gamePlan{}
	for _, b := range g.CoupBets() {
		gp.bets = append(gp.bets, classify(b))
	}
	gp.groupCode = make([][]uint8, len(gp.bets))
	index := map[string]uint16{}
	sig := make([]byte, len(gp.bets))
	for c := 0; c < nCells; c++ {
		for i := range gp.bets {
			sig[i] = gp.bets[i].cell[c]
		}
		id, ok := index[string(sig)]
		if !ok {
			id = uint16(len(index))
			index[string(sig)] = id
			for i := range gp.bets {
				gp.groupCode[i] = append(gp.groupCode[i], sig[i])
			}
		}
		gp.cellGroup[c] = id
	}
	gp.groups = len(index)
	return gp
}

// classify resolves the bet on a representative result of each of the 400×13 (cell, pair
// class) combinations and decides which of the two the bet depends on.
func classify(b *games.Bet) betPlan {
	bp := betPlan{bet: b, codes: 2 + len(b.Tiers)}
	if b.Resolve == nil || bp.codes > maxCodes {
		bp.err = baccarat.Errorf(baccarat.CodeUnknownBet, "bet %s is not settled on one coup", b.ID)
		return bp
	}
	var codes [nCells][nPairClasses]uint8
	for c := 0; c < nCells; c++ {
		for k := 0; k < nPairClasses; k++ {
			r := representative(c, k)
			o, t := b.Resolve(&r)
			switch {
			case o == games.Lose:
				codes[c][k] = codeLose
			case o == games.Push:
				codes[c][k] = codePush
			case o == games.Win && t >= 0 && t < len(b.Tiers):
				codes[c][k] = uint8(codeWin + t)
			default:
				bp.err = baccarat.Errorf(baccarat.CodeInternal, "bet %s resolves to %s tier %d", b.ID, o, t)
				return bp
			}
		}
	}
	byCell, byClass := true, true
	for c := 0; c < nCells; c++ {
		for k := 0; k < nPairClasses; k++ {
			byCell = byCell && codes[c][k] == codes[c][0]
			byClass = byClass && codes[c][k] == codes[0][k]
		}
	}
	switch {
	case byCell:
		for c := range bp.cell {
			bp.cell[c] = codes[c][0]
		}
	case byClass:
		bp.pair = true
		bp.class = codes[0]
		for k := 0; k < nPairClasses; k++ {
			pk, bk, same := pairKinds(k)
			if pk == 1 && bp.class[pairClass(2, bk, same)] != bp.class[k] ||
				bk == 1 && bp.class[pairClass(pk, 2, same)] != bp.class[k] {
				bp.perfect = true
			}
		}
	default:
		bp.err = baccarat.Errorf(baccarat.CodeInternal,
			"bet %s depends on the hand totals and the pairs together: the exact counter does not price it", b.ID)
	}
	return bp
}

// Representative cards: hands that pair or not as a pair class says.
var (
	repNoPair  = [2]baccarat.Card{baccarat.NewCard(baccarat.Ten, baccarat.Clubs), baccarat.NewCard(baccarat.King, baccarat.Clubs)}
	repNoPairB = [2]baccarat.Card{baccarat.NewCard(baccarat.Ten, baccarat.Diamonds), baccarat.NewCard(baccarat.Queen, baccarat.Diamonds)}
	repThird   = baccarat.NewCard(baccarat.Jack, baccarat.Spades)
)

func repHand(kind int, r baccarat.Rank, s1, s2 baccarat.Suit, none [2]baccarat.Card, third bool) baccarat.Hand {
	cards := none[:]
	switch kind {
	case 1:
		cards = []baccarat.Card{baccarat.NewCard(r, s1), baccarat.NewCard(r, s2)}
	case 2:
		cards = []baccarat.Card{baccarat.NewCard(r, s1), baccarat.NewCard(r, s1)}
	}
	if third {
		cards = append(cards[:2:2], repThird)
	}
	return baccarat.NewHand(cards...)
}

// representative builds a result with the cell's totals, draws and winner and the pair class's
// first two cards. It sets every field a bet reads (totals, winner, naturals, pair flags,
// hand lengths, first cards); the hands' own card values do not add up to the totals, which
// is why bets must read the Result's fields, as all of games' resolvers do. The slow twin
// tests (real coups, every bet) would catch a resolver that did otherwise.
func representative(cell, class int) baccarat.Result {
	P, B, pd, bd := cellParts(cell)
	pk, bk, same := pairKinds(class)
	br := baccarat.Two
	if same {
		br = baccarat.Ace
	}
	r := baccarat.Result{
		Player:      repHand(pk, baccarat.Ace, baccarat.Clubs, baccarat.Diamonds, repNoPair, pd),
		Banker:      repHand(bk, br, baccarat.Hearts, baccarat.Spades, repNoPairB, bd),
		PlayerTotal: P, BankerTotal: B,
		PlayerPair: pk > 0, BankerPair: bk > 0,
		PlayerPerfectPair: pk == 2, BankerPerfectPair: bk == 2,
	}
	r.PlayerNatural = !pd && !bd && P >= 8
	r.BankerNatural = !pd && !bd && B >= 8
	r.Natural = r.PlayerNatural || r.BankerNatural
	switch {
	case P > B:
		r.Winner = baccarat.PlayerWins
	case B > P:
		r.Winner = baccarat.BankerWins
	default:
		r.Winner = baccarat.Tie
	}
	return r
}
