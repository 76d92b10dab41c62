package tabletop

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/tournament"
)

// Strategy names how a house bot bets.
type Strategy string

// The strategies. Stakes are in units of the round's minimum stake, always within the
// hand's maximum and the bot's chips.
const (
	// Flat: the same stake (one to three units, drawn once per bot) on Banker every hand.
	Flat Strategy = "flat"
	// Martingale: one unit on one side (Player or Banker, drawn once per bot), doubled after
	// every losing hand, back to one after a win.
	Martingale Strategy = "martingale"
	// Random: one to four units on Player or Banker, drawn from the seed, and one hand in
	// four a unit on Tie or a pair beside it.
	Random Strategy = "random"
	// DragonHunter: one unit on each Dragon bet on a Dragon session's first hand; on every hand
	// the side of the current streak (Banker when there is none), two units once it has
	// run three hands.
	DragonHunter Strategy = "dragon"
)

// Strategies lists every strategy; bots take them in turn.
var Strategies = []Strategy{Flat, Martingale, Random, DragonHunter}

// ParseStrategy checks a strategy's name.
func ParseStrategy(s string) (Strategy, error) {
	if slices.Contains(Strategies, Strategy(s)) {
		return Strategy(s), nil
	}
	return "", baccarat.Errorf(baccarat.CodeBadRequest, "strategy %q: choose flat, martingale, random or dragon", s)
}

// Bot is a house player: labelled as a bot wherever it is shown. Its ID is a house bot's
// (tournament.IsBot: "bot.house-1"), which no account can have.
type Bot struct {
	ID       string   `json:"id"`
	Strategy Strategy `json:"strategy"`
}

// Bots makes n bots with ids bot.<prefix>1, bot.<prefix>2, … taking the strategies in turn.
func Bots(prefix string, n int) []Bot {
	out := make([]Bot, n)
	for i := range out {
		out[i] = Bot{ID: tournament.BotPrefix + prefix + strconv.Itoa(i+1), Strategy: Strategies[i%len(Strategies)]}
	}
	return out
}

// BotSeed is a bot's seed drawn from the house's secret for a tournament (tournament's
// Commitment): HMAC-SHA256 keyed by the secret over the bot's id. Without the secret, which
// is revealed only when the tournament is over, nothing predicts a bot's wagers; with it,
// anyone can replay them.
func BotSeed(secret, botID string) uint64 {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(botID))
	return binary.BigEndian.Uint64(m.Sum(nil))
}

// Hand is what a bot knows when betting opens.
type Hand struct {
	Game    *games.Game
	Stakes  tournament.Stakes
	Chips   baccarat.Money    // what it may stake now
	Dragon  bool              // Dragon bets are taken on this hand
	Riding  bool              // a wager of its rides on the layout (RWS 3.9): it adds nothing
	LastNet baccarat.Money    // its net on its last hand (0 before the first)
	Results []baccarat.Winner // the session's results so far, in order
}

// Wager is one wager a bot places.
type Wager struct {
	Bet   string
	Stake baccarat.Money
}

// Player plays one bot: its strategy and its own random numbers, drawn from a seed.
type Player struct {
	Bot   Bot
	rng   *rand.Rand
	last  baccarat.Money // martingale: its last main stake
	units int            // flat: its stake in units
	side  string         // martingale: its side
}

// NewPlayer returns a bot's player; the same bot and seed bet the same way on the same hands.
func NewPlayer(b Bot, seed uint64) (*Player, error) {
	if _, err := ParseStrategy(string(b.Strategy)); err != nil {
		return nil, err
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(b.ID))
	p := &Player{Bot: b, rng: rand.New(rand.NewPCG(seed, h.Sum64())), side: "player"}
	p.units = 1 + p.rng.IntN(3)
	if p.rng.IntN(2) == 1 {
		p.side = "banker"
	}
	return p, nil
}

// Wagers decides the bot's wagers on a hand: main bet first (RWS takes side bets only beside
// one), nothing when it cannot make the minimum.
func (p *Player) Wagers(h Hand) []Wager {
	unit := h.Stakes.Min
	if h.Riding || unit <= 0 || h.Chips < unit {
		return nil
	}
	b := budget{hand: min(h.Stakes.Max, h.Chips), chips: h.Chips, min: unit}
	switch p.Bot.Strategy {
	case Flat:
		b.add("banker", baccarat.Money(p.units)*unit)
	case Martingale:
		stake := unit
		if h.LastNet < 0 && p.last > 0 {
			stake = 2 * p.last
		}
		p.last = b.add(p.side, stake)
	case Random:
		side := "player"
		if p.rng.IntN(2) == 1 {
			side = "banker"
		}
		b.add(side, unit*baccarat.Money(1+p.rng.IntN(4)))
		if p.rng.IntN(4) == 0 {
			extras := []string{"tie", "player_pair", "banker_pair"}
			if bet := extras[p.rng.IntN(len(extras))]; h.Game.Bet(bet) != nil {
				b.add(bet, unit)
			}
		}
	case DragonHunter:
		side, run := streak(h.Results)
		stake := unit
		if run >= 3 {
			stake = 2 * unit
		}
		b.add(side, stake)
		if h.Dragon {
			for _, d := range []string{"banker_dragon", "player_dragon", "any_dragon"} {
				if h.Game.Bet(d) != nil && b.chips >= 3*unit { // keep chips to play the session
					b.dragon(d, unit)
				}
			}
		}
	}
	return b.out
}

// streak is the side of the current run of wins (ties neither break nor extend it) and its
// length; Banker and 0 when nothing has been won yet.
func streak(results []baccarat.Winner) (string, int) {
	side, run := baccarat.NoWinner, 0
	for i := len(results) - 1; i >= 0; i-- {
		w := results[i]
		switch {
		case w == baccarat.Tie || w == baccarat.NoWinner:
			continue
		case side == baccarat.NoWinner:
			side, run = w, 1
		case w == side:
			run++
		default:
			i = 0
		}
	}
	if side == baccarat.PlayerWins {
		return "player", run
	}
	return "banker", run
}

// budget keeps a bot's wagers within the hand's maximum and its chips, each at least the
// minimum.
type budget struct {
	hand, chips, min baccarat.Money
	out              []Wager
}

// add places up to stake on bet, as much as the hand and the chips allow; it returns the
// stake placed (0 when not even the minimum fits).
func (b *budget) add(bet string, stake baccarat.Money) baccarat.Money {
	stake = min(stake, b.hand, b.chips)
	if stake < b.min {
		return 0
	}
	b.hand -= stake
	b.chips -= stake
	b.out = append(b.out, Wager{Bet: bet, Stake: stake})
	return stake
}

// dragon places a Dragon bet: outside the hand's maximum, within the chips.
func (b *budget) dragon(bet string, stake baccarat.Money) {
	if stake < b.min || stake > b.chips {
		return
	}
	b.chips -= stake
	b.out = append(b.out, Wager{Bet: bet, Stake: stake})
}
