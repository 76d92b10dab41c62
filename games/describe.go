package games

import "fmt"

// Description is a game as people and pages read it: what `baccarat games --json` prints
// and what the server sends a table page.
type Description struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`
	Seed  string   `json:"seed"`
	Decks [3]int   `json:"decks"` // minimum, maximum, default
	Rules []string `json:"rules"` // the lines' English, as RuleLines has them
	// RuleLines are the rules with their stable ids, which pages translate them by.
	RuleLines []RuleLine `json:"rule_lines"`
	Bets      []BetDesc  `json:"bets"`
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
		Rules: Texts(g.Rules.Lines()), RuleLines: g.Rules.Lines(), BettingRounds: max(g.Rules.BettingRounds, 1)}
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

// RuleLine is one of a game's rules in words. ID is the line's stable name, which the pages
// translate it by ("rule.one_side"), so that rewording the English loses no translation; Text
// is its English. A line's numbers are the game's, so a game that states a rule with other
// numbers needs a line of its own.
type RuleLine struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// Texts are the lines' English, in order: the "rules" of a game's description, as it was
// before lines had ids, for the clients that read it so.
func Texts(lines []RuleLine) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// Lines states the placement rules in words, one line a rule.
func (r Rules) Lines() []RuleLine {
	s := []RuleLine{}
	line := func(id, text string) { s = append(s, RuleLine{ID: id, Text: text}) }
	if r.OneSide {
		line("one_side", "Player or Banker in a round, never both (one side only)")
	}
	if r.SideNeedsMain {
		line("side_needs_main", "side bets only beside your own Player or Banker wager")
	}
	if r.TieRides {
		line("tie_rides", "on a Tie, Player/Banker wagers ride into the next round and may be withdrawn there")
	}
	if r.MaxWagersPerArea > 0 {
		line("max_wagers_per_area", fmt.Sprintf("at most %d wagers per playing area (the pit may set fewer)", r.MaxWagersPerArea))
	}
	if r.TableDifferential {
		line("table_differential", "table differential limit on |total Player - total Banker|")
	}
	if r.DragonSessions {
		line("dragon_sessions", "Dragon bets only before a session's first hand, settled at its end")
	}
	if r.BettingRounds > 1 {
		line("betting_rounds", fmt.Sprintf("%d betting rounds: before any card, after P1, after B1; odds follow the exact probability", r.BettingRounds))
	}
	if r.ShoeChangeBelow > 0 {
		line("shoe_change_below", fmt.Sprintf("shoe changed when fewer than %d cards remain", r.ShoeChangeBelow))
	}
	if r.TournamentChips {
		line("tournament_chips", "pay table for tournament chips (players have the edge on Banker at 1:1)")
	}
	return s
}
