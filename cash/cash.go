// Package cash is the policy for tables that play a tournament game for money (SPEC §5).
// A tournament game's pay table (Banker 1:1, generous Dragon bets) gives players the edge,
// which is harmless for a tournament's chips and a loss for the house in money: such a
// table must say so in its configuration (Check), and it shows the exact player edge of
// each bet (BetEdge), counted by the odds engine. The package does no I/O; the web layer
// keeps the counts it makes, and decides when to wait for them.
package cash

import (
	"context"
	"math/big"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
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

// The status of a Dragon bet's figures (BetEdge.Status, and the rules page's).
const (
	// StatusComputing: the session is being counted; ask again in a moment.
	StatusComputing = "computing"
	// StatusUnavailable: the session is not counted: it is longer than odds.MaxSessionHands
	// (a tournament's timed session, or a table created before that range), or its count
	// failed.
	StatusUnavailable = "unavailable"
)

// ForMoney reports whether a table of g playing for cur plays a tournament game for money:
// the tables that need "cash": true (Check) and show their player edges. A tournament's
// chips are not money.
func ForMoney(g *games.Game, cur ledger.Currency) bool {
	return g.Rules.Tournament && !cur.IsChips()
}

// Check refuses table id, configured as cfg and playing for cur, when it plays a tournament
// game for money without saying so: its pay table gives players the edge, so a cash table
// of one needs "cash": true in its configuration (SPEC §5). A tournament's session table
// (inTournament) and tables that play for a tournament's chips need nothing; an unknown
// game is left to the table's own check.
func Check(id string, cfg table.Config, cur ledger.Currency, inTournament bool) error {
	g, err := games.ByID(cfg.Game)
	if err != nil || !ForMoney(g, cur) || cfg.Cash || inTournament {
		return nil
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "table %s: %s is a tournament game that gives players the edge when played for money; "+
		"it runs in tournaments (baccarat serve runs demo ones), and a cash table of it needs \"cash\": true in its config", id, g.Name)
}

// CoupEdges counts the edge of every single-coup bet of g over a full shoe of decks: the
// exact return of the game's PAR sheet, a millisecond's count. Bets the sheet cannot price
// are left out.
func CoupEdges(ctx context.Context, g *games.Game, decks int) ([]BetEdge, error) {
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

// DragonEdge is a Dragon bet's edge over a session, from the odds engine's count of it.
func DragonEdge(ds *odds.DragonSession) BetEdge {
	return BetEdge{Bet: ds.Bet.ID, PlayerEdge: percent(new(big.Rat).SetFloat64(ds.Return)), Hands: ds.Hands}
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
