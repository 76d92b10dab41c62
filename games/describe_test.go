package games

import (
	"strings"
	"testing"
)

// ruleLineProblems lists what keeps the games' rule lines from being translated by their ids:
// an id must be lower snake case and once in its game, and one id must say one English line
// in every game, since the pages translate every use by the one key "rule.<id>".
func ruleLineProblems(gs []*Game) []string {
	var problems []string
	said := map[string]string{} // rule line id → its English
	for _, g := range gs {
		lines := g.Rules.Lines()
		ids := make([][2]string, len(lines))
		for i, l := range lines {
			ids[i] = [2]string{l.ID, l.Text}
		}
		problems = append(problems, idProblems(g.ID+" rule line", "game", ids, said)...)
	}
	return problems
}

// TestEveryRuleLineHasAStableID: every rule a game can state has a line with an id fit for a
// translation key, the games' lines agree on what each id says, and a game's description
// carries its lines with their ids.
func TestEveryRuleLineHasAStableID(t *testing.T) {
	every := &Game{ID: "every-rule", Rules: Rules{OneSide: true, SideNeedsMain: true, TieRides: true, MaxWagersPerArea: 3,
		TableDifferential: true, DragonSessions: true, BettingRounds: 3, ShoeChangeBelow: 40, TournamentChips: true}}
	if n := len(every.Rules.Lines()); n != 9 {
		t.Errorf("a game with every rule states %d lines, want 9", n)
	}
	for _, p := range ruleLineProblems(append(All(), every)) {
		t.Error(p)
	}
	d := Describe(MBSTiger)
	if len(d.RuleLines) == 0 || d.RuleLines[0].ID != "max_wagers_per_area" || len(d.Rules) != len(d.RuleLines) || d.Rules[0] != d.RuleLines[0].Text {
		t.Errorf("Tiger 3.6 described with rule lines %+v and rules %q, want max_wagers_per_area first, the same lines in both", d.RuleLines, d.Rules)
	}
}

// TestRuleLineCheckCatchesPlantedFaults: ruleLineProblems names a game whose line says other
// words under an id another game uses (a rule stated with other numbers needs its own id).
func TestRuleLineCheckCatchesPlantedFaults(t *testing.T) {
	three := &Game{ID: "three", Rules: Rules{MaxWagersPerArea: 3}}
	five := &Game{ID: "five", Rules: Rules{MaxWagersPerArea: 5}}
	p := ruleLineProblems([]*Game{three, five})
	if want := `id "max_wagers_per_area" says "at most 3 wagers`; !strings.Contains(strings.Join(p, "\n"), want) {
		t.Errorf("problems %q, want one with %q", p, want)
	}
}
