package web

import (
	"context"
	"math/big"
	"sync"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
)

// BetEdge is the player's exact edge on one bet of a tournament game played for cash
// (SPEC §5): the expected net result of one unit staked, from the odds engine, for the
// table's full shoe; positive means the player has the advantage. A Dragon bet's is over a
// session of the table's length.
type BetEdge struct {
	Bet        string `json:"bet"`
	PlayerEdge string `json:"player_edge"`     // "+1.2351%"
	Exact      string `json:"exact,omitempty"` // the fraction, for single-coup bets
	Hands      int    `json:"hands,omitempty"` // Dragon bets: the session's hands
}

// PlayerEdges is the exact player edge of every bet of a tournament game's cash table, nil
// for any other table: a tournament game pays Banker 1:1 and Dragon bets generously for
// chips, so a cash table of one shows what it gives away (SPEC §5).
func PlayerEdges(cfg table.Config, cur string) []BetEdge {
	g, err := games.ByID(cfg.Game)
	if err != nil || !g.Rules.Tournament || ledger.Currency(cur).IsChips() {
		return nil
	}
	decks, hands := cfg.Decks, cfg.SessionHands
	if decks == 0 {
		decks = g.Decks.Default
	}
	if hands == 0 && g.Rules.DragonSessions {
		hands = table.DefaultSessionHands
	}
	key := edgeKey{g.ID, decks, hands}
	edgeCache.Lock()
	defer edgeCache.Unlock()
	if e, ok := edgeCache.m[key]; ok {
		return e
	}
	e := computeEdges(g, decks, hands)
	edgeCache.m[key] = e
	return e
}

type edgeKey struct {
	game         string
	decks, hands int
}

var edgeCache = struct {
	sync.Mutex
	m map[edgeKey][]BetEdge
}{m: map[edgeKey][]BetEdge{}}

func computeEdges(g *games.Game, decks, hands int) []BetEdge {
	ctx := context.Background()
	a, err := odds.Analyze(ctx, baccarat.NewCounts(decks), nil)
	if err != nil {
		return nil
	}
	var out []BetEdge
	for _, bs := range a.Sheet(g, nil).Bets {
		if bs.Err != nil {
			continue
		}
		r := bs.ExactReturn()
		out = append(out, BetEdge{Bet: bs.Bet.ID, PlayerEdge: percent(r), Exact: r.RatString()})
	}
	for _, b := range g.Bets {
		if b.Kind != games.Dragon {
			continue
		}
		if ds, err := a.Dragon(ctx, b, hands); err == nil {
			out = append(out, BetEdge{Bet: b.ID, PlayerEdge: percent(new(big.Rat).SetFloat64(ds.Return)), Hands: hands})
		}
	}
	return out
}

// percent writes a return as a signed percentage with four decimals: "+1.2351%".
func percent(r *big.Rat) string {
	p := new(big.Rat).Mul(r, big.NewRat(100, 1))
	s := p.FloatString(4)
	if p.Sign() >= 0 {
		s = "+" + s
	}
	return s + "%"
}

// tableEdges is what a table view shows of PlayerEdges.
func tableEdges(spec live.Spec) []BetEdge {
	return PlayerEdges(spec.Config, string(spec.Currency))
}

// CheckCash refuses a table of a tournament game that plays for money without saying so:
// its pay table gives players the edge, so a cash table of one needs "cash": true in its
// configuration (SPEC §5). Tables that play for a tournament's chips need nothing.
func CheckCash(spec live.Spec) error {
	g, err := games.ByID(spec.Config.Game)
	if err != nil || !g.Rules.Tournament || spec.Config.Cash || ledger.Currency(spec.Currency).IsChips() || spec.Tournament != nil {
		return nil
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "table %s: %s is a tournament game that gives players the edge when played for money; "+
		"it runs in tournaments (baccarat serve runs demo ones), and a cash table of it needs \"cash\": true in its config", spec.ID, g.Name)
}
