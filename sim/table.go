package sim

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// A coup's key says everything any single-coup bet settles on: the cell (final totals, who
// drew) and how the first two cards of each hand pair. The simulator settles every bet of the
// game on every coup by looking its key up in a settlement table built from the bets' own
// Resolve, the first time the key comes up (see worker.newClass): no per-bet function calls
// in the dealing loop, and nothing shared with the exact counter it is meant to check.
//
//	key = ((pk·3 + bk)·2 + sameRank)·nCells + (pd + 2·bd)·100 + P·10 + B
//
// with pk, bk = 0 no pair, 1 pair, 2 identical cards. The cell comes last so that the dealing
// loop reads it, all but the Banker's final total when both hands draw, from one table.
const (
	nCells = 400
	nKeys  = 18 * nCells
)

var _ = [keySpace - nKeys]struct{}{} // keySpace must hold every key

// keySpace is nKeys rounded up to a power of two, for a mask instead of a bounds check.
const keySpace = 8192

// table is what every worker of a run shares, read-only: the shoe, card tables, the bets and
// what each pays.
type table struct {
	game     *games.Game
	bets     []*games.Bet // the single-coup bets
	nets     [][]int64    // [bet][tier]: net win in units of 1/scale of the stake
	scale    int64
	shoe     []uint32 // the shoe in its unshuffled order, as card words
	cut      int      // a round starts only while fewer cards than this have been dealt
	dragon   bool
	sessions []int
	block    int // the sessions' greatest common divisor (see countSessions)
	// verify has every coup of the dealing loop dealt again by the rules engine and checked
	// against its key (tests; it costs a rules-engine deal per coup).
	verify bool
}

func newTable(cfg *Config) (*table, error) {
	t := &table{game: cfg.Game, bets: cfg.Game.CoupBets(), scale: 1, dragon: len(cfg.Game.DragonBets()) > 0,
		verify: cfg.verify}
	for _, b := range t.bets {
		if b.Decimal {
			o, ok := cfg.Odds[b.ID]
			if !ok {
				return nil, baccarat.Errorf(baccarat.CodeBadRequest, "decimal bet %s needs the odds it is paid at", b.ID)
			}
			if o < 100 {
				return nil, baccarat.Errorf(baccarat.CodeBadRequest, "odds %s for %s: decimal odds are at least 1.00", o, b.ID)
			}
			t.scale = lcm(t.scale, 100)
			continue
		}
		for _, tier := range b.Tiers {
			t.scale = lcm(t.scale, max(tier.Pays.Den, 1))
		}
	}
	for _, b := range t.bets {
		nets := make([]int64, len(b.Tiers))
		for i, tier := range b.Tiers {
			if b.Decimal {
				nets[i] = (int64(cfg.Odds[b.ID]) - 100) * (t.scale / 100)
			} else {
				nets[i] = tier.Pays.Num * (t.scale / max(tier.Pays.Den, 1))
			}
		}
		t.nets = append(t.nets, nets)
	}
	for d := 0; d < cfg.Decks; d++ {
		for k := baccarat.Card(0); k < baccarat.NumCards; k++ {
			t.shoe = append(t.shoe, cardWord(k))
		}
	}
	t.cut = len(t.shoe) - cfg.CutCard
	if t.dragon {
		t.sessions = cfg.Sessions
	}
	for _, L := range t.sessions {
		t.block = int(gcd(int64(t.block), int64(L)))
	}
	t.block = max(t.block, 1)
	return t, nil
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int64) int64 { return a / gcd(a, b) * b }

// class is one settlement row: how every bet ends on a coup, and the coup's main events.
type class struct {
	winner baccarat.Winner
	cards  int            // cards dealt: 4, 5 or 6
	codes  [maxBets]uint8 // per bet: 0 lose, 1 push, 2+t won tier t
	// The bets the coup does not lose, up[:ups], and what each gets above a lost stake: its
	// net result + scale, in units of 1/scale of the stake. Most bets lose most coups, so a
	// shoe's results are summed over these.
	ups   int
	up    [maxBets]uint8
	upNet [maxBets]int64
}

// classSums is what endShoe reads and adds to for a class: its coups over all shoes, and
// where the bets it does not lose are in worker.ups, each as the bet | what the class's coups
// get on it above a lost stake<<upShift (class.upNet).
type classSums struct {
	total    uint64
	from, to uint32
}

const upShift = 4 // maxBets fits below

var _ = [1<<upShift - maxBets]struct{}{}

// signature identifies a settlement row across workers.
type signature [2 + maxBets]uint8

func (c *class) sig() signature {
	s := signature{uint8(c.winner), uint8(c.cards)}
	copy(s[2:], c.codes[:])
	return s
}

// coupKey computes the key of a finished coup from its result.
func coupKey(r *baccarat.Result) int {
	cell := r.PlayerTotal*10 + r.BankerTotal
	if r.Player.Len() == 3 {
		cell += 100
	}
	if r.Banker.Len() == 3 {
		cell += 200
	}
	pk, bk := kind(r.Player), kind(r.Banker)
	same := 0
	if r.Player.Card(0).Rank() == r.Banker.Card(0).Rank() {
		same = 1
	}
	return ((pk*3+bk)*2+same)*nCells + cell
}

func kind(h baccarat.Hand) int {
	switch {
	case h.PerfectPair():
		return 2
	case h.Pair():
		return 1
	}
	return 0
}

// settle builds the settlement row of a coup by resolving every bet on it.
func (t *table) settle(r *baccarat.Result) class {
	c := class{winner: r.Winner, cards: r.Cards()}
	for i, b := range t.bets {
		o, tier := b.Resolve(r)
		var up int64 // above a lost stake
		switch o {
		case games.Win:
			c.codes[i], up = uint8(2+tier), t.nets[i][tier]+t.scale
		case games.Push, games.Void:
			c.codes[i], up = 1, t.scale
		default:
			continue
		}
		c.up[c.ups], c.upNet[c.ups] = uint8(i), up
		c.ups++
	}
	return c
}
