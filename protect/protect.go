// Package protect is game protection: how much the fixed-odds bets of a game are worth to a
// player who watches the cards. It deals real shoes (seeded, or given card by card for an
// audit), and before every hand computes from the cards left the exact expected value per
// unit staked of every single-coup bet of the game (odds.Expecter: the same count, bit for
// bit, as `baccarat analyze --shoe` of those cards). From those it reports, per bet and cut
// card:
//
//   - the perfect counter: the share of hands where the bet's expectation is positive, the
//     mean edge on those hands, and the win per shoe of a player who bets one unit only then;
//   - a practical count: integer tags per rank from the effect of removal, a true count
//     (running count per deck left), the best threshold, the win per shoe of a counter who
//     bets one unit when the true count reaches it, and the count's betting correlation;
//   - the safe cut card: the fewest cards behind the cut card that keep the perfect
//     counter's win per shoe below a given level.
//
// Wins per shoe are expectations: the sum over the hands bet of the bet's exact expected
// value at that hand, per shoe dealt. Averaged over every ordering of a shoe they equal what
// the counter would win on the felt (the tests check this by brute force on tiny shoes).
//
// Bet on Baccarat's prices follow the cards (SPEC §3.5): its bets are valued at the odds its
// first betting round offers from the same cards, so their expectation is never positive,
// which the report shows as a check. Dragon bets (mbs-dragon) settle on a session, not on a
// hand: they are left out.
//
// Every figure is accumulated in integers (expectations in fixed point, 2⁻⁵⁰ of a unit), so
// a seeded run gives the same report whatever the number of workers; memory does not grow
// with the number of shoes unless every position is asked for.
package protect

import (
	"runtime"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/sim"
)

// MinCutCard is the fewest cards the report allows behind a cut card: a round starts only
// while more cards than the cut card's depth are left, so every hand then starts with at
// least six, and the next coup can be counted the way odds counts it (ordered 6-card
// prefixes).
const MinCutCard = 5

// DefaultSafe is the perfect counter's win per shoe, in units staked, below which a cut card
// counts as safe when Config.Safe is not set.
const DefaultSafe = 0.01

// Config is one analysis.
type Config struct {
	Game *games.Game
	// Decks per shoe; 0 means the game's default. It must be within the game's range.
	Decks int
	// CutCards are the depths to report, each the number of cards behind the cut card, as
	// sim and baccarat.Shoe.SetCut count it: a round starts only while the cut card has not
	// come out, that is while more cards than that are left; a round started is completed.
	// Empty means DefaultCutCard of the game.
	CutCards []int
	// Shoes is the number of seeded shoes to deal (at least 1); unused with Orders.
	Shoes int
	Seed  uint64
	// Orders, if set, gives the shoes instead of the seed: each is a whole shoe in deal
	// order, and its cards are its composition.
	Orders OrderSource
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Positions keeps every hand position (memory grows with the shoes).
	Positions bool
	// Bands keeps, per bet and number of cards left, a histogram of the expectation, for
	// its median and 5–95% band across shoes (Report.WriteSVG).
	Bands bool
	// Safe is the win per shoe below which a cut card is safe; 0 means DefaultSafe.
	Safe float64
	// Progress, if set, is called now and then with the shoes done so far, from one
	// goroutine at a time.
	Progress func(shoes int)
}

// DefaultCutCard is the cut card of sim.Config's rule: Bet on Baccarat changes the shoe when
// fewer than 40 cards remain after a draw (BoB 3.4), a cut card with 39 behind it; the other
// games use sim.DefaultCutCard.
func DefaultCutCard(g *games.Game) int {
	if b := g.Rules.ShoeChangeBelow; b > 0 {
		return b - 1
	}
	return sim.DefaultCutCard
}

// setup checks the configuration and fills its defaults.
func (cfg *Config) setup() error {
	g := cfg.Game
	if g == nil {
		return baccarat.Errorf(baccarat.CodeUnknownGame, "no game to analyse: choose one of %s", games.IDs())
	}
	if cfg.Decks == 0 {
		cfg.Decks = g.Decks.Default
	}
	if cfg.Decks < g.Decks.Min || cfg.Decks > g.Decks.Max {
		return baccarat.Errorf(baccarat.CodeBadShoe, "%d decks: %s is played with %d to %d decks (SPEC §2)",
			cfg.Decks, g.ID, g.Decks.Min, g.Decks.Max)
	}
	if cfg.Orders == nil && cfg.Shoes < 1 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%d shoes: deal at least one", cfg.Shoes)
	}
	if len(cfg.CutCards) == 0 {
		cfg.CutCards = []int{DefaultCutCard(g)}
	}
	n := cfg.Decks * baccarat.NumCards
	for _, c := range cfg.CutCards {
		if c < MinCutCard || c > n-6 {
			return baccarat.Errorf(baccarat.CodeBadRequest,
				"a cut card with %d cards behind it: in a %d-card shoe it takes %d to %d (every hand must start with six cards or more, and one hand at least must be dealt)",
				c, n, MinCutCard, n-6)
		}
	}
	switch {
	case cfg.Safe == 0:
		cfg.Safe = DefaultSafe
	case !(cfg.Safe > 0):
		return baccarat.Errorf(baccarat.CodeBadRequest, "safe level %v: a win per shoe above 0", cfg.Safe)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	return nil
}

// maxCut is the largest depth asked for: every shoe must be long enough to deal a hand there.
func (cfg *Config) maxCut() int {
	m := 0
	for _, c := range cfg.CutCards {
		m = max(m, c)
	}
	return m
}
