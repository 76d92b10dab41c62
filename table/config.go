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
//
// Every setting has a range, which Check enforces on a new table (README, "Settings and
// their ranges"): wide enough for any table an operator runs, narrow enough that no single
// table can hold the process up.
type Config struct {
	Game string `json:"game"`
	// Decks: the game's range (SPEC §2: 4–10, RWS 4–8, Bet on Baccarat 6); 0 takes its default.
	Decks int `json:"decks,omitempty"`
	// Mode is how cards come: the server's RNG shoe (auto) or a dealer (dealer). It is
	// journalled with the table and decides who may send dealing commands (Authorize).
	Mode Mode `json:"mode,omitempty"`
	// Currency is what the table plays for (ISO 4217, XXX play money, CHIPS:<id> chips);
	// the table uses it to write amounts in its messages as people read them.
	Currency string `json:"currency,omitempty"`
	// Limits per bet id; bets without an entry use DefaultLimit. A minimum is 0 or more, a
	// maximum 0 (as much as the books allow) or at least the minimum, and neither above
	// MaxStake of the bet, so that its largest win can be posted in one amount.
	Limits       map[string]Limit `json:"limits,omitempty"`
	DefaultLimit Limit            `json:"default_limit"`
	// MaxWagersPerArea: at most this many wagers in one playing area (Tiger 3.6); the pit
	// may set fewer than the game allows, never more: 1 to the game's (Tiger: 3). 0 takes
	// the game's value; a game without the rule takes none.
	MaxWagersPerArea int `json:"max_wagers_per_area,omitempty"`
	// Differential is the table differential limit D of Tiger 5.18: 0 (no limit) to
	// baccarat.MaxAmount, the most one posting of the books moves.
	Differential baccarat.Money `json:"differential,omitempty"`
	// SessionHands is the length of a Dragon session in hands (Dragon 1.1.13); voided hands
	// do not count. 1 to MaxSessionHands, the longest session whose exact player edge the
	// odds engine counts on a request's behalf (analyze --hands takes the same range); 0
	// takes DefaultSessionHands. A pit can also end a session early.
	SessionHands int `json:"session_hands,omitempty"`
	// Margins for Bet on Baccarat, per bet (nil: odds.DefaultMargins): 0 to 9999 basis
	// points, on the game's decimal bets only.
	Margins map[string]odds.Margin `json:"margins,omitempty"`
	// CutCard is how many cards lie behind the cut card of an RNG shoe: 1 to the shoe's
	// cards less minRoundCards, so that a shoe deals at least one round (the range of
	// simulate --cut-card); 0 takes DefaultCutCard.
	CutCard int `json:"cut_card,omitempty"`
	// Cash marks a table that plays for money rather than tournament chips.
	Cash bool `json:"cash,omitempty"`
	// Squeeze: the highest stake on each hand squeezes its first two cards before they are
	// shown to all (SPEC §4, Method A online), for SqueezeSeconds: 1 to MaxSqueezeSeconds
	// (0: DefaultSqueezeSeconds).
	Squeeze        bool `json:"squeeze,omitempty"`
	SqueezeSeconds int  `json:"squeeze_seconds,omitempty"`
	// ShoeToPlayer: Method C (Tiger 3.11, methodc.go), Tiger's alone and never with the
	// squeeze: a player holds the shoe and chooses when each card is drawn, for DrawSeconds
	// a card (1 to MaxDrawSeconds; 0: DefaultDrawSeconds), after which the table draws it.
	// The server's RNG shoe deals the cards, so a dealer table does not play it.
	// ShoeWithoutWager lets a player without a valid wager hold the shoe (Tiger 3.11.2: the
	// Assistant Casino Manager's discretion), off unless set.
	ShoeToPlayer     bool `json:"shoe_to_player,omitempty"`
	DrawSeconds      int  `json:"draw_seconds,omitempty"`
	ShoeWithoutWager bool `json:"shoe_without_wager,omitempty"`
}

// Defaults the platform chooses where the seeds are silent.
const (
	DefaultSessionHands = 30
	DefaultCutCard      = 14
)

// Bounds of the settings (Check).
const (
	// MaxSessionHands is the longest Dragon session a table plays: the odds engine's bound,
	// so that a cash table's exact player edge over its session can always be counted.
	MaxSessionHands = odds.MaxSessionHands
	// MaxSqueezeSeconds is the longest squeeze window: the squeezer holds up the round for
	// everyone at the table, and a minute is longer than any squeeze in a pit.
	MaxSqueezeSeconds = 60
	// minRoundCards is the most cards a round can need: a shoe whose cut card leaves fewer
	// before it could not deal one round.
	minRoundCards = 6
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
			if err := checkLimitAs("default_limit (for "+b.Name+")", b, c.DefaultLimit, c.Currency); err != nil {
				return nil, nil, err
			}
		}
	}
	for bet, l := range c.Limits {
		b := g.Bet(bet)
		if b == nil {
			return nil, nil, baccarat.Errorf(baccarat.CodeUnknownBet, "limit for %q: %s has no such bet", bet, g.Name)
		}
		if err := checkLimitAs("limits."+bet, b, l, c.Currency); err != nil {
			return nil, nil, err
		}
	}
	if c.MaxWagersPerArea == 0 || (g.Rules.MaxWagersPerArea > 0 && c.MaxWagersPerArea > g.Rules.MaxWagersPerArea) {
		c.MaxWagersPerArea = g.Rules.MaxWagersPerArea
	}
	if c.Differential < 0 {
		return nil, nil, baccarat.Errorf(baccarat.CodeBadRequest, "differential is %d: give 0 (no limit) to %d minor units", c.Differential, baccarat.MaxAmount)
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
	if err := c.normalizeMethodC(g); err != nil {
		return nil, nil, err
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

// Check is what a new table's configuration must pass: Normalize's checks, and every
// setting within its range (see Config), refused with a bad_request naming the setting and
// its range. It leaves c as it is. Table creation runs it (live.Host.Create); it is kept out
// of Normalize, which also rebuilds tables from their journals, so that a table journalled
// before a range was set still recovers, stakes and all.
func (c Config) Check() error {
	raw := c
	g, _, err := c.Normalize()
	if err != nil {
		return err
	}
	return raw.checkRanges(g, c.Decks)
}

// checkRanges checks the settings as given (0 takes a default) against their ranges for the
// game g played with a shoe of decks.
func (c *Config) checkRanges(g *games.Game, decks int) error {
	cut := decks*baccarat.NumCards - minRoundCards
	area := g.Rules.MaxWagersPerArea
	switch {
	case c.SessionHands < 0 || c.SessionHands > MaxSessionHands:
		return badSetting("session_hands is %d: give 1 to %d hands (0: the default, %d)", c.SessionHands, MaxSessionHands, DefaultSessionHands)
	case c.CutCard < 0 || c.CutCard > cut:
		return badSetting("cut_card is %d: give 1 to %d cards behind the cut card in a shoe of %d decks, so that a round of up to %d cards is dealt before it (0: the default, %d)",
			c.CutCard, cut, decks, minRoundCards, DefaultCutCard)
	case c.SqueezeSeconds < 0 || c.SqueezeSeconds > MaxSqueezeSeconds:
		return badSetting("squeeze_seconds is %d: give 1 to %d seconds (0: the default, %d)", c.SqueezeSeconds, MaxSqueezeSeconds, DefaultSqueezeSeconds)
	case c.DrawSeconds < 0 || c.DrawSeconds > MaxDrawSeconds:
		return badSetting("draw_seconds is %d: give 1 to %d seconds (0: the default, %d)", c.DrawSeconds, MaxDrawSeconds, DefaultDrawSeconds)
	case c.Differential > baccarat.MaxAmount:
		return badSetting("differential is %d: give 0 (no limit) to %d minor units", c.Differential, baccarat.MaxAmount)
	case area == 0 && c.MaxWagersPerArea != 0:
		return badSetting("max_wagers_per_area is %d: %s has no limit of wagers per area (Tiger 3.6 is Tiger's rule): leave it out", c.MaxWagersPerArea, g.Name)
	case c.ShoeToPlayer && c.Mode == ModeDealer:
		return badSetting("shoe_to_player: a player draws from the server's shoe, which only an automatic table has (mode %q, not %q)", ModeAuto, ModeDealer)
	case c.MaxWagersPerArea < 0 || c.MaxWagersPerArea > area:
		return badSetting("max_wagers_per_area is %d: give 1 to %d, the most %s allows (Tiger 3.6; 0: the game's)", c.MaxWagersPerArea, area, g.Name)
	}
	return nil
}

func badSetting(format string, args ...any) error {
	return baccarat.Errorf(baccarat.CodeBadRequest, format, args...)
}

// checkLimit refuses a limit that makes no sense or whose largest wager could win more
// than the books can post in one amount (baccarat.MaxAmount): a round holding such a
// wager could never be committed.
func checkLimit(b *games.Bet, l Limit, currency string) error {
	return checkLimitAs("limit for "+b.Name, b, l, currency)
}

// checkLimitAs is checkLimit naming the setting as what.
func checkLimitAs(what string, b *games.Bet, l Limit, currency string) error {
	if l.Min < 0 || l.Max < 0 || (l.Max > 0 && l.Max < l.Min) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s: minimum %d and maximum %d make no sense: the minimum is 0 or more, the maximum 0 (as much as the books allow) or at least the minimum (amounts are in minor units)",
			what, l.Min, l.Max)
	}
	if most := MaxStake(b); l.Max > most || l.Min > most {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s: the most a wager may be is %s, so that its largest win (%s) can be paid; lower the maximum",
			what, baccarat.FormatMoney(most, currency), bestPays(b))
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
