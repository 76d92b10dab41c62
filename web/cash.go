package web

import (
	"context"
	"math/big"
	"slices"

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
	PlayerEdge string `json:"player_edge"`     // "+1.2351%"; the Status while there is no figure
	Exact      string `json:"exact,omitempty"` // the fraction, for single-coup bets
	Hands      int    `json:"hands,omitempty"` // Dragon bets: the session's hands
	// Status is set when a Dragon bet's figure is not there (StatusComputing,
	// StatusUnavailable): its session is counted in the background, and nobody waits for it.
	Status string `json:"status,omitempty"`
}

// The status of a Dragon bet's figures (BetEdge.Status, BetRules.Status).
const (
	// StatusComputing: the session is being counted; ask again in a moment.
	StatusComputing = "computing"
	// StatusUnavailable: the session is not counted: it is longer than odds.MaxSessionHands
	// (a tournament's timed session, or a table created before that range), or its count
	// failed.
	StatusUnavailable = "unavailable"
)

// PlayerEdges is the exact player edge of every bet of a tournament game's cash table, nil
// for any other table: a tournament game pays Banker 1:1 and Dragon bets generously for
// chips, so a cash table of one shows what it gives away (SPEC §5). It waits for the count
// of a Dragon session (at most odds.MaxSessionHands hands; one count per shoe and length,
// shared with every other caller); the lobby does not wait (tableEdges).
func PlayerEdges(cfg table.Config, cur string) []BetEdge {
	return playerEdges(context.Background(), cfg, cur, true)
}

// tableEdges is what a table view shows of PlayerEdges, at once: a Dragon bet still being
// counted shows StatusComputing. It also starts the count of a Dragon table's session, for
// its rules page too, so that a table is counted when it is first shown (its creation
// answers with its view), not when someone first asks for its rules.
func tableEdges(spec live.Spec) []BetEdge {
	if g, err := games.ByID(spec.Config.Game); err == nil && len(g.DragonBets()) > 0 {
		sessionCounts.of(sessionKeyOf(g, spec.Config))
	}
	return playerEdges(context.Background(), spec.Config, string(spec.Currency), false)
}

// playerEdges is PlayerEdges, waiting for a Dragon session's count (until ctx is done) or
// not.
func playerEdges(ctx context.Context, cfg table.Config, cur string, wait bool) []BetEdge {
	g, err := games.ByID(cfg.Game)
	if err != nil || !g.Rules.Tournament || ledger.Currency(cur).IsChips() {
		return nil
	}
	k := sessionKeyOf(g, cfg)
	coup, err := coupCounts.start(coupKey{g.ID, k.decks}, func(ctx context.Context) ([]BetEdge, error) {
		return coupEdges(ctx, g, k.decks)
	}).wait(ctx)
	if err != nil {
		return nil
	}
	out := slices.Clone(coup)
	if len(g.DragonBets()) == 0 {
		return out
	}
	c := sessionCounts.of(k)
	if wait {
		_, _ = c.wait(ctx)
	}
	bets, status := c.look()
	for i, b := range g.DragonBets() {
		e := BetEdge{Bet: b.ID, PlayerEdge: status, Hands: k.hands, Status: status}
		if bets != nil {
			e = bets[i].edge
		}
		out = append(out, e)
	}
	return out
}

// coupKey is what the single-coup bets' edges depend on.
type coupKey struct {
	game  string
	decks int
}

// coupCounts keeps each game and shoe's single-coup edges: a full shoe's PAR sheet, a
// millisecond's count.
var coupCounts = newCounts[coupKey, []BetEdge](coupSlots)

func coupEdges(ctx context.Context, g *games.Game, decks int) ([]BetEdge, error) {
	a, err := odds.Analyze(ctx, baccarat.NewCounts(decks), nil)
	if err != nil {
		return nil, err
	}
	var out []BetEdge
	for _, bs := range a.Sheet(g, nil).Bets {
		if bs.Err != nil {
			continue
		}
		r := bs.ExactReturn()
		out = append(out, BetEdge{Bet: bs.Bet.ID, PlayerEdge: percent(r), Exact: r.RatString()})
	}
	return out, nil
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
