package web

import (
	"context"
	"slices"

	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// A cash table of a tournament game (package cash: which tables need "cash": true, which
// show their player edges, and what an edge is) shows the edges the odds engine counts;
// this file keeps those counts, one per game and shoe, and decides who waits for them.

// checkCash is cash.Check for a table's spec, as creating a table checks it.
func checkCash(spec live.Spec) error {
	return cash.Check(spec.ID, spec.Config, spec.Currency, spec.Tournament != nil)
}

// PlayerEdges is the exact player edge of every bet of a tournament game's cash table, nil
// for any other table: a tournament game pays Banker 1:1 and Dragon bets generously for
// chips, so a cash table of one shows what it gives away (SPEC §5). It waits for the count
// of a Dragon session (at most odds.MaxSessionHands hands; one count per shoe and length,
// shared with every other caller, the lobby's included); the lobby does not wait
// (tableEdges).
func PlayerEdges(cfg table.Config, cur string) []cash.BetEdge {
	return playerEdges(context.Background(), cfg, cur, true)
}

// tableEdges is what a table view shows of PlayerEdges, at once: a Dragon bet still being
// counted shows cash.StatusComputing. It also starts the count of a Dragon table's session,
// for its rules page too, so that a table is counted when it is first shown (its creation
// answers with its view), not when someone first asks for its rules.
func tableEdges(spec live.Spec) []cash.BetEdge {
	if g, err := games.ByID(spec.Config.Game); err == nil && len(g.DragonBets()) > 0 {
		sessionCounts.of(sessionKeyOf(g, spec.Config))
	}
	return playerEdges(context.Background(), spec.Config, string(spec.Currency), false)
}

// playerEdges is PlayerEdges, waiting for a Dragon session's count (until ctx is done) or
// not.
func playerEdges(ctx context.Context, cfg table.Config, cur string, wait bool) []cash.BetEdge {
	g, err := games.ByID(cfg.Game)
	if err != nil || !cash.ForMoney(g, ledger.Currency(cur)) {
		return nil
	}
	k := sessionKeyOf(g, cfg)
	coup, err := coupCounts.start(coupKey{g.ID, k.decks}, func(ctx context.Context) ([]cash.BetEdge, error) {
		return cash.CoupEdges(ctx, g, k.decks)
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
		e := cash.BetEdge{Bet: b.ID, PlayerEdge: status, Hands: k.hands, Status: status}
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
var coupCounts = newCounts[coupKey, []cash.BetEdge](coupSlots)
