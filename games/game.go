// Package games describes the six games of the platform as data (SPEC §3): each game is a
// registered description of its bets, their pay rules and the placement rules its tables
// enforce. Adding a bet is adding one row; nothing elsewhere switches on a game's id.
package games

import (
	"slices"

	"github.com/tablehouse/baccarat"
)

// Kind groups bets by how they are placed and settled.
type Kind uint8

const (
	// Main bets are Player and Banker: the two sides of the coup.
	Main Kind = iota
	// Side bets settle on one coup, beside the main bets (Tie, pairs, Tiger, Big/Small...).
	Side
	// Dragon bets settle on a whole session's sequence of results (Dragon 3.12).
	Dragon
)

func (k Kind) String() string { return [...]string{"main", "side", "dragon"}[k] }

// MarshalText writes the kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Tier is one way a bet can win and what it pays then.
type Tier struct {
	// ID names the tier for the pages, which translate its event by it ("tier.banker_on_six"):
	// lower snake case, unique within its bet, and one id says one Event in every game, so the
	// English can be reworded without losing its translations.
	ID    string
	Event string
	Pays  baccarat.Ratio
}

// Outcome is how a wager ends.
type Outcome uint8

// The outcomes of SPEC §4.
const (
	Lose Outcome = iota
	Win
	Push
	Void
)

var outcomeNames = [...]string{"lose", "win", "push", "void"}

func (o Outcome) String() string {
	if int(o) >= len(outcomeNames) {
		return "?"
	}
	return outcomeNames[o]
}

// MarshalText writes the outcome as its name: win, lose, push, void.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, n := range outcomeNames {
		if n == string(b) {
			*o = Outcome(i)
			return nil
		}
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "%q is not an outcome (win, lose, push, void)", b)
}

// Resolver decides a single-coup bet: its outcome and, on a win, the index of the tier paid.
type Resolver func(r *baccarat.Result) (Outcome, int)

// Bet is one bet of a game.
type Bet struct {
	ID   string
	Name string
	Kind Kind
	// Rule names the seed rules the bet comes from.
	Rule  string
	Tiers []Tier
	// Resolve decides the bet on one coup (nil for Dragon bets).
	Resolve Resolver
	// Dragon says which streaks a Dragon bet counts (nil for other bets).
	Dragon *DragonRule
	// Decimal bets are paid at the decimal odds locked when they were placed (Bet on
	// Baccarat); their Tiers name the event only.
	Decimal bool
	// Side is the side of the coup a main bet backs (PlayerWins or BankerWins); NoWinner
	// for every other bet. Placement rules ask it (one side only, the table differential)
	// rather than a bet's id.
	Side baccarat.Winner
}

// Main reports whether the bet is Player or Banker.
func (b *Bet) Main() bool { return b.Kind == Main }

// DeckRange is how many decks a game may be played with, and its default.
type DeckRange struct {
	Min, Max, Default int
}

// Rules are the placement rules a table of the game enforces (SPEC §3–§4).
type Rules struct {
	// OneSide: a participant holds Player or Banker in a round, never both (RWS 3.3).
	OneSide bool
	// SideNeedsMain: side bets only alongside the participant's own Player or Banker wager
	// (RWS 3.4).
	SideNeedsMain bool
	// TieRides: on a Tie, Player and Banker wagers stay on the layout into the next round and
	// may be withdrawn during its betting; the only withdrawal the game allows (RWS 3.9).
	TieRides bool
	// MaxWagersPerArea is the most wagers one playing area (a seat's spot for one bet) holds,
	// 0 for no limit; the pit may set it lower (Tiger 3.6, 3.6.1).
	MaxWagersPerArea int
	// TableDifferential: the table enforces a limit on |ΣPlayer − ΣBanker| (Tiger 5.18).
	TableDifferential bool
	// DragonSessions: Dragon bets are placed only before a session's first hand and settled
	// at its end (Dragon 3.12).
	DragonSessions bool
	// BettingRounds is 1, or 3 for Bet on Baccarat: before any card, after the Player's
	// first card, after the Banker's first card (BoB 3.1–3.3).
	BettingRounds int
	// ShoeChangeBelow: when fewer cards than this remain after a draw, the shoe is changed
	// before the next draw (BoB 3.4: 40); 0 means the cut card ends the shoe.
	ShoeChangeBelow int
	// TournamentChips: the pay table gives players an edge and is meant for tournament
	// chips; the platform warns when such a table is set up for cash (SPEC §3.1).
	TournamentChips bool
	// Tournament: the rule document is a tournament's (MBS Tournament, RWS Non-Commission,
	// MBS Dragon): its tables run inside tournaments for chips by default (SPEC §5).
	Tournament bool
}

// Game is one game of the platform.
type Game struct {
	ID    string
	Name  string
	Seed  string // the rule document in shared/seeds
	Decks DeckRange
	Bets  []*Bet
	Rules Rules
}

// Bet returns the game's bet with the given id, or nil.
func (g *Game) Bet(id string) *Bet {
	for _, b := range g.Bets {
		if b.ID == id {
			return b
		}
	}
	return nil
}

// CoupBets returns the bets settled on every coup (all but the Dragon bets).
func (g *Game) CoupBets() []*Bet {
	return slices.DeleteFunc(slices.Clone(g.Bets), func(b *Bet) bool { return b.Kind == Dragon })
}

// DragonBets returns the session bets, if the game has them.
func (g *Game) DragonBets() []*Bet {
	return slices.DeleteFunc(slices.Clone(g.Bets), func(b *Bet) bool { return b.Kind != Dragon })
}

var registry []*Game

func register(g *Game) *Game {
	registry = append(registry, g)
	return g
}

// All returns every game, in the order of SPEC §3.
func All() []*Game { return slices.Clone(registry) }

// ByID returns the game with the given id, or an error with code unknown_game listing the ids.
func ByID(id string) (*Game, error) {
	for _, g := range registry {
		if g.ID == id {
			return g, nil
		}
	}
	return nil, baccarat.Errorf(baccarat.CodeUnknownGame, "unknown game %q: choose one of %s", id, IDs())
}

// IDs lists the game ids, comma-separated.
func IDs() string {
	s := ""
	for i, g := range registry {
		if i > 0 {
			s += ", "
		}
		s += g.ID
	}
	return s
}
