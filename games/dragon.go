package games

import "github.com/tablehouse/baccarat"

// DragonRule says which streaks a Dragon bet counts.
type DragonRule struct {
	Banker, Player bool
}

// The streak lengths of the Dragon tiers (Dragon 1.1.3, 1.1.11, 1.1.12).
const (
	RubyStreak   = 5
	GoldenStreak = 6
	RoyalStreak  = 7
)

// Streaks returns the longest run of consecutive Banker wins and of consecutive Player wins
// in a session's results. A Tie neither breaks nor extends a run (Dragon 3.11); voided hands
// are not results and must not be passed.
func Streaks(results []baccarat.Winner) (banker, player int) {
	var side baccarat.Winner
	run := 0
	for _, w := range results {
		switch w {
		case baccarat.Tie, baccarat.NoWinner:
			continue
		case side:
			run++
		default:
			side, run = w, 1
		}
		if side == baccarat.BankerWins {
			banker = max(banker, run)
		} else {
			player = max(player, run)
		}
	}
	return banker, player
}

// Longest is the longest streak this rule counts.
func (d DragonRule) Longest(results []baccarat.Winner) int {
	b, p := Streaks(results)
	n := 0
	if d.Banker {
		n = b
	}
	if d.Player {
		n = max(n, p)
	}
	return n
}

// TierFor is the Dragon tier a longest streak reaches: 0 Ruby, 1 Golden, 2 Royal, −1 none.
func TierFor(longest int) int {
	switch {
	case longest >= RoyalStreak:
		return 2
	case longest == GoldenStreak:
		return 1
	case longest == RubyStreak:
		return 0
	}
	return -1
}

// SettleDragon decides a Dragon bet at the end of its session: paid once, on the highest tier
// the longest streak reached; below five it loses (Dragon 3.12, 4.2).
func SettleDragon(b *Bet, stake baccarat.Money, results []baccarat.Winner) Settlement {
	tier := TierFor(b.Dragon.Longest(results))
	if tier < 0 {
		return Settlement{Outcome: Lose, Tier: -1, Net: -stake}
	}
	pays := b.Tiers[tier].Pays
	return Settlement{Outcome: Win, Tier: tier, Pays: pays, Net: pays.Net(stake)}
}
