package tournament

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// Config is how a tournament is set up. Its JSON form is what an organiser writes; New
// checks it with Normalize and refuses it with a bad_request error naming the field and its
// range. Every setting has one (README, "Settings and their ranges"), and the schedule as a
// whole has one more: what its hands can report, which the tournament's journal holds and a
// server reads back whole when it recovers the tournament, is at most MaxHandReports reports
// carrying MaxSeatHands chip changes.
type Config struct {
	ID   string `json:"id"`   // 1–64 of A–Z a–z 0–9 _ -; chips are ledger.Chips(ID)
	Name string `json:"name"` // shown to players
	// Names: the name in the pages' other languages, each page showing its own
	// (baccarat.CheckNames; web/API.md, "Names in other languages").
	Names baccarat.Names `json:"names,omitempty"`
	Game  string         `json:"game"` // a tournament game: mbs-tournament, rws-no-commission, mbs-dragon
	// Currency of the entry fee, the rebuys and the prizes: ISO 4217, or XXX play money.
	Currency string `json:"currency"`
	// EntryFee goes to the prize pool (minor units of Currency); 0 is a freeroll. 0 to
	// baccarat.MaxAmount, as the guarantee; the starting chips 1 to it.
	EntryFee baccarat.Money `json:"entry_fee"`
	// Guarantee: the house tops the pool up to this amount if fees and rebuys fall short.
	Guarantee     baccarat.Money `json:"guarantee,omitempty"`
	StartingChips baccarat.Money `json:"starting_chips"`
	// Registration is open from RegistrationOpens until RegistrationCloses (which is at or
	// before Start); the tournament starts at Start, at most MaxLead after registration opens.
	RegistrationOpens  time.Time `json:"registration_opens"`
	RegistrationCloses time.Time `json:"registration_closes"`
	Start              time.Time `json:"start"`
	// MinEntrants: with fewer at the start the tournament is cancelled and fees refunded
	// (0 takes DefaultMinEntrants; at least 2). MaxEntrants is required: MinEntrants to
	// MaxEntrantsLimit.
	MinEntrants int `json:"min_entrants,omitempty"`
	MaxEntrants int `json:"max_entrants"`
	// TableSize is the most players at one table (K): 2 to MaxTableSize.
	TableSize int `json:"table_size"`
	// Break is the pause before each session (after seating or after the table's previous
	// session): 0 to MaxBreak.
	Break Duration `json:"break,omitempty"`
	// Stakes are every round's limits unless the round sets its own.
	Stakes Stakes  `json:"stakes"`
	Rounds []Round `json:"rounds"`
	Rebuy  *Rebuy  `json:"rebuy,omitempty"`
	// Prizes are shares of the pool by final rank, in basis points: [5000, 3000, 2000] pays
	// 50%, 30% and 20% to the first three. They sum to exactly 10000 and never increase;
	// 1 to MaxEntrants of them.
	Prizes []int `json:"prizes"`
	// Dragon allows Dragon bets (mbs-dragon only). The session's last report then carries
	// their settlement, and busts are judged at session ends (see the package doc).
	Dragon bool `json:"dragon,omitempty"`
}

// Stakes are the per-hand limits in chips: a player's stakes on one hand total at least
// Min and at most Max. Required: a player must wager every hand.
type Stakes struct {
	Min      baccarat.Money `json:"min"`
	Max      baccarat.Money `json:"max"`
	Required bool           `json:"required,omitempty"`
}

// Round is one stage of the tournament: every table of the round plays its Sessions in
// order; then Advance players go on to the next round, per table or overall. The last round
// is the final: one table, nobody advances. A tournament has 1 to maxRounds rounds.
type Round struct {
	Name string `json:"name,omitempty"` // at most 100 printable characters
	// Names: the round's name in the pages' other languages, as the tournament's Names: a
	// round's name is the operator's words ("Heats"), which no page can know, so the
	// operator gives their translations (baccarat.CheckNames; only beside a name).
	Names    baccarat.Names `json:"names,omitempty"`
	Sessions []Session      `json:"sessions,omitempty"` // 1 to maxSessions
	// Hands or Duration: shorthand for a round of one session (Normalize expands it).
	Hands    int      `json:"hands,omitempty"`
	Duration Duration `json:"duration,omitempty"`
	// Advance: how many go on to the next round, from each table (1 to TableSize) or
	// (AdvanceOverall) from the whole round (1 to MaxEntrants). 0 in the final.
	Advance        int  `json:"advance,omitempty"`
	AdvanceOverall bool `json:"advance_overall,omitempty"`
	// CarryChips: players enter this round with the chips they ended the last one with,
	// instead of StartingChips. Not for the first round.
	CarryChips bool    `json:"carry_chips,omitempty"`
	Stakes     *Stakes `json:"stakes,omitempty"` // nil: the tournament's Stakes
}

// Session is a number of hands (voided hands do not count) or a length of time (the
// session ends after the hand in play when the time is up). Exactly one is set: 1 to
// MaxSessionHands hands, the longest Dragon session a table plays (a Dragon tournament's
// session is its table's), or MinSessionTime to MaxSessionTime.
type Session struct {
	Hands    int      `json:"hands,omitempty"`
	Duration Duration `json:"duration,omitempty"`
}

// Rebuy lets a busted player buy chips again: at most Max times (1 to maxRebuys), for Price
// (to the pool, 0 to baccarat.MaxAmount), receiving Chips (1 to baccarat.MaxAmount), until
// hand Until.Hand of session Until.Session of round Until.Round has ended.
type Rebuy struct {
	Max   int            `json:"max"`
	Price baccarat.Money `json:"price"`
	Chips baccarat.Money `json:"chips"`
	Until Point          `json:"until"`
}

// Point is a moment of play: after Hand counted hands of Session of Round (all 1-based;
// Hand 0 is before the session's first hand).
type Point struct {
	Round   int `json:"round"`
	Session int `json:"session"`
	Hand    int `json:"hand"`
}

// Before reports whether p comes before q.
func (p Point) Before(q Point) bool {
	if p.Round != q.Round {
		return p.Round < q.Round
	}
	if p.Session != q.Session {
		return p.Session < q.Session
	}
	return p.Hand < q.Hand
}

// Defaults where the organiser says nothing, and the bounds of every setting.
const (
	DefaultMinEntrants = 2
	// MaxEntrantsLimit is the most entrants a tournament takes, MaxTableSize the most
	// players at one of its tables (an online table seats any number).
	MaxEntrantsLimit = 100_000
	MaxTableSize     = 1000
	maxRounds        = 20
	maxSessions      = 100
	maxRebuys        = 100
	maxNameLen       = 100
	// MaxSessionHands is the longest session of hands: the longest Dragon session the odds
	// engine prices, which a Dragon tournament's session is at its table.
	MaxSessionHands = odds.MaxSessionHands
	// MinSessionTime and MaxSessionTime bound a timed session, MaxBreak the pause before a
	// session: a day is longer than any session or break an organiser plans.
	MinSessionTime = Duration(time.Second)
	MaxSessionTime = Duration(24 * time.Hour)
	MaxBreak       = Duration(24 * time.Hour)
	// MaxLead is the longest from registration opening to the start: a year, so that a
	// mistyped year is caught.
	MaxLead     = maxLeadDays * 24 * time.Hour
	maxLeadDays = 366
	// MaxSeatHands and MaxHandReports bound the whole schedule: the hand reports it can
	// journal (every table's every hand) and the chip changes they carry (every seated
	// player's, every hand). They are the bulk of the tournament's journal, which a server
	// reads back whole when it recovers the tournament: at most a few hundred bytes a report
	// and a few dozen a change, so a couple of hundred MB. Two million changes is 100,000
	// entrants playing 20 hands, or 10,000 playing 200.
	MaxSeatHands   = 2_000_000
	MaxHandReports = 400_000
	// QuickestHand is how long a hand takes at least, as the schedule's bound counts a
	// timed session: betting, four to six cards and the result at the quickest pace an
	// organiser runs a tournament table at.
	QuickestHand = 10 * time.Second
	// FullShare is the sum of the prize shares: 100% in basis points.
	FullShare = 10_000
)

// Normalize checks the configuration and returns it with defaults filled: MinEntrants, a
// round's shorthand session expanded, every round's Stakes set. It works on a copy; the
// result normalizes to itself.
func (c Config) Normalize() (Config, *games.Game, error) { return c.normalize(false) }

// normalize is Normalize; for a tournament's history (history true, Replay) the settings'
// ranges are not checked, only what the tournament cannot be played without.
func (c Config) normalize(history bool) (Config, *games.Game, error) {
	c = c.clone()
	if c.MinEntrants == 0 {
		c.MinEntrants = DefaultMinEntrants
	}
	for i := range c.Rounds {
		r := &c.Rounds[i]
		if len(r.Sessions) == 0 && (r.Hands != 0 || r.Duration != 0) { // checkRound judges the values
			r.Sessions = []Session{{Hands: r.Hands, Duration: r.Duration}}
			r.Hands, r.Duration = 0, 0
		}
		if r.Stakes == nil {
			s := c.Stakes
			r.Stakes = &s
		}
	}
	g, err := c.check(history)
	if err != nil {
		return Config{}, nil, err
	}
	return c, g, nil
}

func (c Config) clone() Config {
	c.Rounds = slices.Clone(c.Rounds)
	for i := range c.Rounds {
		r := &c.Rounds[i]
		r.Sessions = slices.Clone(r.Sessions)
		r.Names = maps.Clone(r.Names)
		if r.Stakes != nil {
			s := *r.Stakes
			r.Stakes = &s
		}
	}
	if c.Rebuy != nil {
		rb := *c.Rebuy
		c.Rebuy = &rb
	}
	c.Prizes = slices.Clone(c.Prizes)
	c.Names = maps.Clone(c.Names)
	return c
}

func (c *Config) check(history bool) (*games.Game, error) {
	g, err := c.checkGame()
	if err != nil {
		return nil, err
	}
	for _, f := range []func() error{c.checkMoney, c.checkTimes, c.checkEntrants, c.checkRounds,
		c.checkFinalTable, c.checkSchedule, c.checkRebuy, c.checkPrizes, c.checkPool} {
		if err := f(); err != nil && !(history && isRange(err)) {
			return nil, err
		}
	}
	return g, nil
}

func (c *Config) checkGame() (*games.Game, error) {
	if err := baccarat.CheckID("id", c.ID); err != nil {
		return nil, err
	}
	if c.Name == "" || len(c.Name) > maxNameLen || hasControl(c.Name) {
		return nil, badRequest("name: give 1 to %d printable characters", maxNameLen)
	}
	if err := baccarat.CheckNames("names", c.Names); err != nil {
		return nil, err
	}
	g, err := games.ByID(c.Game)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(Games, g.ID) {
		return nil, badRequest("%s is not a tournament game: choose one of %s", g.Name, TournamentGames())
	}
	if c.Dragon && !g.Rules.DragonSessions {
		return nil, badRequest("dragon: %s has no Dragon bets (only mbs-dragon has)", g.Name)
	}
	return g, nil
}

// Games are the games tournaments are played in (SPEC §5): the three whose rule documents
// are tournaments', marked games.Rules.Tournament, in the games' order. Rules.TournamentChips
// is not the test: it marks pay tables that give players an edge, and RWS's Banker pays 1:2
// on a six, so it has none, yet it is played in tournaments too.
var Games = tournamentGames()

func tournamentGames() []string {
	var ids []string
	for _, g := range games.All() {
		if g.Rules.Tournament {
			ids = append(ids, g.ID)
		}
	}
	return ids
}

// TournamentGames lists the ids of Games, comma-separated.
func TournamentGames() string { return strings.Join(Games, ", ") }

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}
