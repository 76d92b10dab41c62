package table

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// Limit is a bet's minimum and maximum stake in minor units (0 maximum: no maximum).
type Limit struct {
	Min baccarat.Money `json:"min"`
	Max baccarat.Money `json:"max"`
}

// Config is how a table is set up. The zero values of the optional fields take the game's
// defaults (see Normalize).
type Config struct {
	Game  string `json:"game"`
	Decks int    `json:"decks,omitempty"`
	// Mode is how cards come: the server's RNG shoe (auto) or a dealer (dealer). It is
	// journalled with the table and decides who may send dealing commands (Authorize).
	Mode Mode `json:"mode,omitempty"`
	// Currency is what the table plays for (ISO 4217, XXX play money, CHIPS:<id> chips);
	// the table uses it to write amounts in its messages as people read them.
	Currency string `json:"currency,omitempty"`
	// Limits per bet id; bets without an entry use DefaultLimit.
	Limits       map[string]Limit `json:"limits,omitempty"`
	DefaultLimit Limit            `json:"default_limit"`
	// MaxWagersPerArea: at most this many wagers in one playing area (Tiger 3.6); the pit
	// may set fewer than the game allows, never more. 0 takes the game's value.
	MaxWagersPerArea int `json:"max_wagers_per_area,omitempty"`
	// Differential is the table differential limit D of Tiger 5.18 (0: no limit).
	Differential baccarat.Money `json:"differential,omitempty"`
	// SessionHands is the length of a Dragon session in hands (Dragon 1.1.13); voided hands
	// do not count. 0 takes DefaultSessionHands; a pit can also end a session early.
	SessionHands int `json:"session_hands,omitempty"`
	// Margins for Bet on Baccarat, per bet (nil: odds.DefaultMargins).
	Margins map[string]odds.Margin `json:"margins,omitempty"`
	// CutCard is how many cards lie behind the cut card of an RNG shoe (0: DefaultCutCard).
	CutCard int `json:"cut_card,omitempty"`
	// Cash marks a table that plays for money rather than tournament chips.
	Cash bool `json:"cash,omitempty"`
	// Squeeze: the highest stake on each hand squeezes its first two cards before they are
	// shown to all (SPEC §4, Method A online), for SqueezeSeconds (0: DefaultSqueezeSeconds).
	Squeeze        bool `json:"squeeze,omitempty"`
	SqueezeSeconds int  `json:"squeeze_seconds,omitempty"`
}

// Defaults the platform chooses where the seeds are silent.
const (
	DefaultSessionHands = 30
	DefaultCutCard      = 14
)

// DefaultTableLimit is the limit of a bet with none configured: 1.00 to 10,000.00.
var DefaultTableLimit = Limit{Min: 100, Max: 1_000_000}

// Normalize checks the configuration against the game and fills defaults. It returns the
// game and any warning an operator should see (such as a tournament pay table played for
// cash, SPEC §3.1).
func (c *Config) Normalize() (*games.Game, []string, error) {
	g, err := games.ByID(c.Game)
	if err != nil {
		return nil, nil, err
	}
	if c.Decks == 0 {
		c.Decks = g.Decks.Default
	}
	if c.Decks < g.Decks.Min || c.Decks > g.Decks.Max {
		return nil, nil, baccarat.Errorf(baccarat.CodeBadRequest, "%s is played with %d to %d decks, not %d", g.Name, g.Decks.Min, g.Decks.Max, c.Decks)
	}
	if c.Mode == "" {
		c.Mode = ModeDealer
	}
	if err := c.Mode.check(); err != nil {
		return nil, nil, err
	}
	if c.DefaultLimit == (Limit{}) {
		c.DefaultLimit = DefaultTableLimit
	}
	for _, b := range g.Bets {
		if _, ok := c.Limits[b.ID]; !ok {
			if err := checkLimit(b, c.DefaultLimit, c.Currency); err != nil {
				return nil, nil, err
			}
		}
	}
	for bet, l := range c.Limits {
		b := g.Bet(bet)
		if b == nil {
			return nil, nil, baccarat.Errorf(baccarat.CodeUnknownBet, "limit for %q: %s has no such bet", bet, g.Name)
		}
		if err := checkLimit(b, l, c.Currency); err != nil {
			return nil, nil, err
		}
	}
	if c.MaxWagersPerArea == 0 || (g.Rules.MaxWagersPerArea > 0 && c.MaxWagersPerArea > g.Rules.MaxWagersPerArea) {
		c.MaxWagersPerArea = g.Rules.MaxWagersPerArea
	}
	if c.Differential < 0 {
		return nil, nil, baccarat.Errorf(baccarat.CodeBadRequest, "the table differential cannot be negative")
	}
	if g.Rules.DragonSessions && c.SessionHands <= 0 {
		c.SessionHands = DefaultSessionHands
	}
	if c.CutCard <= 0 {
		c.CutCard = DefaultCutCard
	}
	if c.Squeeze && g.Rules.BettingRounds > 1 {
		return nil, nil, baccarat.Errorf(baccarat.CodeBadRequest, "%s shows each card as it comes (its odds follow them): it has no squeeze", g.Name)
	}
	if c.Squeeze && c.SqueezeSeconds <= 0 {
		c.SqueezeSeconds = DefaultSqueezeSeconds
	}
	for bet, m := range c.Margins {
		if b := g.Bet(bet); b == nil || !b.Decimal || m < 0 || m >= 10000 {
			return nil, nil, baccarat.Errorf(baccarat.CodeBadRequest, "margin for %q: only Bet on Baccarat bets take a margin, from 0 to 9999 basis points", bet)
		}
	}
	var warnings []string
	if c.Cash && g.Rules.TournamentChips {
		warnings = append(warnings, g.Name+" pays Banker 1:1, which gives players an edge of about 1.24%: it is meant for tournament chips, not cash (SPEC §3.1)")
	}
	return g, warnings, nil
}

// checkLimit refuses a limit that makes no sense or whose largest wager could win more
// than the books can post in one amount (baccarat.MaxAmount): a round holding such a
// wager could never be committed.
func checkLimit(b *games.Bet, l Limit, currency string) error {
	if l.Min < 0 || l.Max < 0 || (l.Max > 0 && l.Max < l.Min) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "limit for %s: minimum %d and maximum %d make no sense (amounts are in minor units)", b.Name, l.Min, l.Max)
	}
	if most := MaxStake(b); l.Max > most || l.Min > most {
		return baccarat.Errorf(baccarat.CodeBadRequest, "limit for %s: the most a wager on it may be is %s, so that its largest win (%s) can be paid; lower the maximum",
			b.Name, baccarat.FormatMoney(most, currency), bestPays(b))
	}
	return nil
}

// MaxStake is the largest stake on b whose return at its best payout fits baccarat.MaxAmount:
// the effective maximum of a limit that sets none (Max 0).
func MaxStake(b *games.Bet) baccarat.Money {
	if b.Decimal {
		return baccarat.Ratio{Num: int64(baccarat.MaxOdds) - 100, Den: 100}.MaxStakeFor()
	}
	most := baccarat.MaxAmount
	for _, t := range b.Tiers {
		most = min(most, t.Pays.MaxStakeFor())
	}
	return most
}

func bestPays(b *games.Bet) string {
	if b.Decimal {
		return "odds up to " + baccarat.MaxOdds.String()
	}
	best := baccarat.Ratio{Num: 0, Den: 1}
	for _, t := range b.Tiers {
		if t.Pays.Num*best.Den > best.Num*t.Pays.Den {
			best = t.Pays
		}
	}
	return best.String()
}

// LimitFor is the limit of a bet at this table.
func (c *Config) LimitFor(bet string) Limit {
	if l, ok := c.Limits[bet]; ok {
		return l
	}
	return c.DefaultLimit
}
