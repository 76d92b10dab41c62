package games

import "fmt"

// Description is a game as people and pages read it: what `baccarat games --json` prints
// and what the server sends a table page.
type Description struct {
	ID    string    `json:"id"`
	Name  string    `json:"name"`
	Seed  string    `json:"seed"`
	Decks [3]int    `json:"decks"` // minimum, maximum, default
	Rules []string  `json:"rules"`
	Bets  []BetDesc `json:"bets"`
	// BettingRounds is 3 for Bet on Baccarat, 1 otherwise.
	BettingRounds int `json:"betting_rounds"`
}

// BetDesc is one bet and what it pays.
type BetDesc struct {
	ID    string     `json:"id"`
	Name  string     `json:"name"`
	Kind  string     `json:"kind"`
	Rule  string     `json:"rule"`
	Tiers []TierDesc `json:"tiers"`
}

// TierDesc is one way a bet wins. ID is the tier's stable name, which the pages translate the
// event by; Event is its English.
type TierDesc struct {
	ID    string `json:"id"`
	Event string `json:"event"`
	Pays  string `json:"pays"`
}

// Describe returns the game's description.
func Describe(g *Game) Description {
	d := Description{ID: g.ID, Name: g.Name, Seed: g.Seed, Decks: [3]int{g.Decks.Min, g.Decks.Max, g.Decks.Default},
		Rules: g.Rules.Lines(), BettingRounds: max(g.Rules.BettingRounds, 1)}
	for _, b := range g.Bets {
		bd := BetDesc{ID: b.ID, Name: b.Name, Kind: b.Kind.String(), Rule: b.Rule}
		for _, t := range b.Tiers {
			pays := t.Pays.String()
			if b.Decimal {
				pays = "decimal odds"
			}
			bd.Tiers = append(bd.Tiers, TierDesc{ID: t.ID, Event: t.Event, Pays: pays})
		}
		d.Bets = append(d.Bets, bd)
	}
	return d
}

// Lines states the placement rules in words.
func (r Rules) Lines() []string {
	s := []string{}
	if r.OneSide {
		s = append(s, "Player or Banker in a round, never both (one side only)")
	}
	if r.SideNeedsMain {
		s = append(s, "side bets only beside your own Player or Banker wager")
	}
	if r.TieRides {
		s = append(s, "on a Tie, Player/Banker wagers ride into the next round and may be withdrawn there")
	}
	if r.MaxWagersPerArea > 0 {
		s = append(s, fmt.Sprintf("at most %d wagers per playing area (the pit may set fewer)", r.MaxWagersPerArea))
	}
	if r.TableDifferential {
		s = append(s, "table differential limit on |total Player - total Banker|")
	}
	if r.DragonSessions {
		s = append(s, "Dragon bets only before a session's first hand, settled at its end")
	}
	if r.BettingRounds > 1 {
		s = append(s, fmt.Sprintf("%d betting rounds: before any card, after P1, after B1; odds follow the exact probability", r.BettingRounds))
	}
	if r.ShoeChangeBelow > 0 {
		s = append(s, fmt.Sprintf("shoe changed when fewer than %d cards remain", r.ShoeChangeBelow))
	}
	if r.TournamentChips {
		s = append(s, "pay table for tournament chips (players have the edge on Banker at 1:1)")
	}
	return s
}
