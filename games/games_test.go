package games

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

// Coups used below, each legal under the Table of Play.
const (
	playerNatural9   = "P 9h Kc | B 8d Ks"       // Player 9 beats Banker natural 8
	bankerTwoCard6   = "P 2h 3c 9d | B 3d 3s"    // Banker 6 (two cards, a pair of 3s) beats Player 4
	bankerThreeCard6 = "P Kh 2c Kd | B Qd 2s 4c" // Banker 2 draws to 6, beats Player 2
	bankerSeven      = "P 2h 3c 9d | B 3d 4s"    // Banker 7 beats Player 4
	tieAtSix         = "P Kh 6c | B Qd 6s"       // Tie, both 6 on two cards
	tieAtNine        = "P 7h 2c | B Kd 9s"       // Tie at 9, naturals
	pairsDifferent   = "P 9h 9c | B Qd Qs"       // both hands pair, different ranks; Player 8 wins
	pairsTwin        = "P 4h 4c | B 4d 4s"       // both hands pair, same rank; Tie at 8
	playerPairOnly   = "P 6h 6c 2s | B 3d 4d"    // Player pair; Banker 7 beats Player 4
	tenKingNoPair    = "P Th Kc 5h | B Jd Qs 4c" // T-K and J-Q are not pairs; Player 5 beats Banker 4
	perfectPairs     = "P 5h 5h 7c | B 2d 2d 3c" // identical cards in both hands
	bankerThreeCard5 = "P 2h 3c 2d | B 3d Ks 2c" // six cards: Player 7 beats Banker 5
)

type betCase struct {
	rule  string
	game  *Game
	coup  string
	bet   string
	want  Outcome
	tier  int
	stake baccarat.Money
	net   baccarat.Money
}

func cases() []betCase {
	var cs []betCase
	add := func(rule string, g *Game, coup, bet string, want Outcome, tier int, stake, net baccarat.Money) {
		cs = append(cs, betCase{rule, g, coup, bet, want, tier, stake, net})
	}
	classic := []*Game{MBSTournament, RWSNoCommission, MBSTiger, MBSDragon, PuntoBanco}
	for _, g := range classic {
		add := func(rule string, g *Game, coup, bet string, want Outcome, tier int, stake, net baccarat.Money) {
			if g.Bet(bet) != nil { // Tiger has Tiger Pair instead of the pair bets (Tiger 3.5)
				add(rule, g, coup, bet, want, tier, stake, net)
			}
		}
		add("MBS 4.1 player wins pays 1:1", g, playerNatural9, "player", Win, 0, 100, 100)
		add("MBS 3.10.1 player pushes on a tie", g, tieAtNine, "player", Push, -1, 100, 0)
		add("MBS 3.10 player loses when banker higher", g, bankerSeven, "player", Lose, -1, 100, -100)
		add("MBS 3.10.1 banker pushes on a tie", g, tieAtSix, "banker", Push, -1, 100, 0)
		add("MBS 3.10 banker loses when player higher", g, playerNatural9, "banker", Lose, -1, 100, -100)
		add("MBS 4.1 tie pays 8:1", g, tieAtNine, "tie", Win, 0, 100, 800)
		add("MBS 4.1 tie loses otherwise", g, bankerSeven, "tie", Lose, -1, 100, -100)
		add("MBS 3.8.1 player pair pays 11:1", g, playerPairOnly, "player_pair", Win, 0, 100, 1100)
		add("MBS 3.8.2 banker pair pays 11:1", g, bankerTwoCard6, "banker_pair", Win, 0, 100, 1100)
		add("MBS 3.8.2 banker pair loses without a pair", g, playerPairOnly, "banker_pair", Lose, -1, 100, -100)
		add("SPEC §1 a ten with a king is not a player pair", g, tenKingNoPair, "player_pair", Lose, -1, 100, -100)
		add("SPEC §1 a jack with a queen is not a banker pair", g, tenKingNoPair, "banker_pair", Lose, -1, 100, -100)
	}
	for _, g := range []*Game{MBSTournament, MBSDragon} {
		add("MBS 4.1 banker pays 1:1 with no commission", g, bankerSeven, "banker", Win, 0, 100, 100)
		add("MBS 4.1 banker on six still pays 1:1", g, bankerTwoCard6, "banker", Win, 0, 101, 101)
	}
	for _, g := range []*Game{RWSNoCommission, MBSTiger} {
		add("RWS 4.1.1 banker wins on other points pays 1:1", g, bankerSeven, "banker", Win, 0, 100, 100)
		add("RWS 4.1.1 banker wins on six pays 1:2", g, bankerTwoCard6, "banker", Win, 1, 100, 50)
		add("RWS 4.1.1 banker on six with an odd stake rounds down", g, bankerThreeCard6, "banker", Win, 1, 15, 7)
	}
	add("SPEC §3.6 banker pays 19:20 (5% commission)", PuntoBanco, bankerSeven, "banker", Win, 0, 100, 95)
	add("SPEC §3.6 commission rounds down", PuntoBanco, bankerSeven, "banker", Win, 0, 15, 14)

	tg := MBSTiger
	add("Tiger 4.3 tiger pays 12:1 on a two-card 6", tg, bankerTwoCard6, "tiger", Win, 0, 100, 1200)
	add("Tiger 4.3 tiger pays 20:1 on a three-card 6", tg, bankerThreeCard6, "tiger", Win, 1, 100, 2000)
	add("Tiger 1.1.12 tiger loses when banker wins on 7", tg, bankerSeven, "tiger", Lose, -1, 100, -100)
	add("Tiger 1.1.12 tiger loses on a tie at 6", tg, tieAtSix, "tiger", Lose, -1, 100, -100)
	add("Tiger 1.1.7 small tiger pays 22:1 on a two-card 6", tg, bankerTwoCard6, "small_tiger", Win, 0, 100, 2200)
	add("Tiger 1.1.7 small tiger loses on a three-card 6", tg, bankerThreeCard6, "small_tiger", Lose, -1, 100, -100)
	add("Tiger 1.1.1 big tiger pays 50:1 on a three-card 6", tg, bankerThreeCard6, "big_tiger", Win, 0, 100, 5000)
	add("Tiger 1.1.1 big tiger loses on a two-card 6", tg, bankerTwoCard6, "big_tiger", Lose, -1, 100, -100)
	add("Tiger 1.1.14 tiger tie pays 35:1 on a tie at 6", tg, tieAtSix, "tiger_tie", Win, 0, 100, 3500)
	add("Tiger 1.1.14 tiger tie loses on a tie at 9", tg, tieAtNine, "tiger_tie", Lose, -1, 100, -100)
	add("Tiger 3.15.1 tie wager wins on any tie", tg, tieAtSix, "tie", Win, 0, 100, 800)
	add("Tiger 1.1.13.1 single tiger pair pays 4:1", tg, playerPairOnly, "tiger_pair", Win, 0, 100, 400)
	add("Tiger 1.1.13.1 single tiger pair on the banker side", tg, bankerTwoCard6, "tiger_pair", Win, 0, 100, 400)
	add("Tiger 1.1.13.2 double tiger pair pays 20:1", tg, pairsDifferent, "tiger_pair", Win, 1, 100, 2000)
	add("Tiger 1.1.13.3 twin tiger pair pays 100:1", tg, pairsTwin, "tiger_pair", Win, 2, 100, 10000)
	add("SPEC §1 tiger pair: a ten with a king is not a pair", tg, tenKingNoPair, "tiger_pair", Lose, -1, 100, -100)
	add("Tiger 1.1.13 tiger pair loses with no pair", tg, bankerSeven, "tiger_pair", Lose, -1, 100, -100)

	bob := BetOnBaccarat
	add("BoB 2.3 player wins", bob, playerNatural9, "player", Win, 0, 100, 0)
	add("BoB 2.3.1 player stake returned on a tie", bob, tieAtNine, "player", Push, -1, 100, 0)
	add("BoB 2.3.1 banker stake returned on a tie", bob, tieAtSix, "banker", Push, -1, 100, 0)
	add("BoB 2.3 banker wins", bob, bankerSeven, "banker", Win, 0, 100, 0)
	add("BoB 2.3.1 tie wins", bob, tieAtSix, "tie", Win, 0, 100, 0)
	add("BoB 1.14 player pair", bob, playerPairOnly, "player_pair", Win, 0, 100, 0)
	add("BoB 1.15 banker pair is the banker's cards", bob, bankerTwoCard6, "banker_pair", Win, 0, 100, 0)
	add("BoB 1.15 banker pair loses on a player pair", bob, playerPairOnly, "banker_pair", Lose, -1, 100, -100)
	add("BoB 1.13 either pair wins on a player pair", bob, playerPairOnly, "either_pair", Win, 0, 100, 0)
	add("BoB 1.13 either pair wins on a banker pair", bob, bankerTwoCard6, "either_pair", Win, 0, 100, 0)
	add("BoB 1.13 either pair loses on T-K and J-Q", bob, tenKingNoPair, "either_pair", Lose, -1, 100, -100)
	add("BoB 1.16 perfect pair wins on identical cards", bob, perfectPairs, "perfect_pair", Win, 0, 100, 0)
	add("BoB 1.16 perfect pair loses on a suited-different pair", bob, pairsTwin, "perfect_pair", Lose, -1, 100, -100)
	add("BoB 1.17 small wins on four cards", bob, tieAtSix, "small", Win, 0, 100, 0)
	add("BoB 1.17 small loses on five cards", bob, bankerSeven, "small", Lose, -1, 100, -100)
	add("BoB 1.18 big wins on five cards", bob, bankerSeven, "big", Win, 0, 100, 0)
	add("BoB 1.18 big wins on six cards", bob, bankerThreeCard5, "big", Win, 0, 100, 0)
	add("BoB 1.18 big loses on four cards", bob, tieAtNine, "big", Lose, -1, 100, -100)
	return cs
}

func TestEveryBetOfEveryGame(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.game.ID+" "+c.rule, func(t *testing.T) {
			r, err := baccarat.ParseCoup(c.coup)
			if err != nil {
				t.Fatal(err)
			}
			b := c.game.Bet(c.bet)
			if b == nil {
				t.Fatalf("%s has no bet %q", c.game.ID, c.bet)
			}
			var s Settlement
			if b.Decimal {
				s = SettleAtOdds(b, c.stake, 250, &r)
				if c.want == Win {
					c.net = 150 * c.stake / 100 // at 2.50
				}
			} else {
				s = Settle(b, c.stake, &r)
			}
			if s.Outcome != c.want || s.Tier != c.tier || s.Net != c.net {
				t.Errorf("%s on %s: %s tier %d net %d; want %s tier %d net %d", c.bet, c.coup, s.Outcome, s.Tier, s.Net, c.want, c.tier, c.net)
			}
		})
	}
}

func TestGamesAsData(t *testing.T) {
	want := []string{"mbs-tournament", "rws-no-commission", "mbs-tiger", "mbs-dragon", "bet-on-baccarat", "punto-banco"}
	all := All()
	if len(all) != len(want) {
		t.Fatalf("%d games", len(all))
	}
	for i, g := range all {
		if g.ID != want[i] {
			t.Errorf("game %d is %s, want %s", i, g.ID, want[i])
		}
		if g.Decks.Default < g.Decks.Min || g.Decks.Default > g.Decks.Max {
			t.Errorf("%s default decks outside its range", g.ID)
		}
		for _, b := range g.Bets {
			if (b.Resolve == nil) != (b.Kind == Dragon) || len(b.Tiers) == 0 || b.Rule == "" {
				t.Errorf("%s bet %s is incomplete", g.ID, b.ID)
			}
		}
	}
	checks := []struct {
		rule string
		ok   bool
	}{
		{"SPEC §2 RWS plays 4-8 decks", RWSNoCommission.Decks == DeckRange{4, 8, 8}},
		{"SPEC §2 BoB plays 6 decks", BetOnBaccarat.Decks == DeckRange{6, 6, 6}},
		{"MBS 2.1 4-10 decks", MBSTournament.Decks == DeckRange{4, 10, 8}},
		{"RWS 3.3 one side only", RWSNoCommission.Rules.OneSide},
		{"RWS 3.4 side bets need a main bet", RWSNoCommission.Rules.SideNeedsMain},
		{"RWS 3.9 tie pushes ride", RWSNoCommission.Rules.TieRides},
		{"Tiger 3.6 three wagers per area", MBSTiger.Rules.MaxWagersPerArea == 3},
		{"Tiger 5.18 table differential", MBSTiger.Rules.TableDifferential},
		{"Dragon 3.12 session bets", MBSDragon.Rules.DragonSessions && len(MBSDragon.DragonBets()) == 3},
		{"BoB 3.1-3.3 three betting rounds", BetOnBaccarat.Rules.BettingRounds == 3},
		{"BoB 3.4 change shoe under 40 cards", BetOnBaccarat.Rules.ShoeChangeBelow == 40},
		{"SPEC §3.1 MBS tournament pays are for chips", MBSTournament.Rules.TournamentChips},
	}
	for _, c := range checks {
		if !c.ok {
			t.Error(c.rule)
		}
	}
	if _, err := ByID("nope"); baccarat.ErrorCode(err) != baccarat.CodeUnknownGame {
		t.Errorf("unknown game: %v", err)
	}
}

func winners(s string) []baccarat.Winner {
	var w []baccarat.Winner
	for _, c := range s {
		w = append(w, map[rune]baccarat.Winner{'B': baccarat.BankerWins, 'P': baccarat.PlayerWins, 'T': baccarat.Tie}[c])
	}
	return w
}

func TestDragonBets(t *testing.T) {
	tests := []struct {
		rule    string
		results string
		bet     string
		want    Outcome
		tier    int
		net     baccarat.Money
	}{
		{"Dragon 1.1.12 ruby: 5 banker wins pay 2:1", "BBBBBP", "banker_dragon", Win, 0, 200},
		{"Dragon 1.1.3 golden: 6 banker wins pay 4:1", "PBBBBBB", "banker_dragon", Win, 1, 400},
		{"Dragon 1.1.11 royal: 7 or more pay 10:1", "BBBBBBBBBB", "banker_dragon", Win, 2, 1000},
		{"Dragon 3.11 ties do not break a streak", "BBTBTBBTB", "banker_dragon", Win, 1, 400},
		{"Dragon 3.11 ties do not extend a streak", "BBBBTTT", "banker_dragon", Lose, -1, -100},
		{"Dragon 4.2 below five loses", "BBBBPBBBB", "banker_dragon", Lose, -1, -100},
		{"Dragon 4.2 paid once on the longest streak", "BBBBBPBBBBBBB", "banker_dragon", Win, 2, 1000},
		{"Dragon 1.1.7 player dragon counts player streaks", "PPPPPPBBBBBBB", "player_dragon", Win, 1, 400},
		{"Dragon 1.1.7 banker streaks do not count for player", "BBBBBBB", "player_dragon", Lose, -1, -100},
		{"Dragon 1.1.1 any dragon ruby pays 1:1", "PPPPP", "any_dragon", Win, 0, 100},
		{"Dragon 1.1.1 any dragon golden pays 2:1", "BBBBBBPPPPP", "any_dragon", Win, 1, 200},
		{"Dragon 1.1.1 any dragon royal pays 5:1", "TPPPPTPPP", "any_dragon", Win, 2, 500},
		{"Dragon 4.2 empty session loses", "", "any_dragon", Lose, -1, -100},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			s := SettleDragon(MBSDragon.Bet(tt.bet), 100, winners(tt.results))
			if s.Outcome != tt.want || s.Tier != tt.tier || s.Net != tt.net {
				t.Errorf("%s over %s: %s tier %d net %d", tt.bet, tt.results, s.Outcome, s.Tier, s.Net)
			}
		})
	}
}

func TestVoidReturnsStake(t *testing.T) {
	s := VoidSettlement()
	if s.Outcome != Void || s.Returned(250) != 250 {
		t.Fatalf("SPEC §4 a void returns every stake: %+v", s)
	}
}

// TestMainBetsKnowTheirSide: the table asks a bet which side it backs (RWS 3.3 one side
// only, Tiger 5.18 the differential), never its id.
func TestMainBetsKnowTheirSide(t *testing.T) {
	for _, g := range All() {
		for _, b := range g.Bets {
			want := baccarat.NoWinner
			switch {
			case b.Kind == Main && b.ID == "player":
				want = baccarat.PlayerWins
			case b.Kind == Main && b.ID == "banker":
				want = baccarat.BankerWins
			case b.Kind == Main:
				t.Errorf("%s %s: a main bet that is neither Player nor Banker", g.ID, b.ID)
			}
			if b.Side != want {
				t.Errorf("%s %s: side %v, want %v", g.ID, b.ID, b.Side, want)
			}
		}
	}
}

var tierIDRe = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// idProblems checks one group's (id, English) pairs for the pages, which translate an id by
// one key: each id lower snake case and once in its group (what names the group: "bet"),
// and one English per id across every group (said, id → English, filled as it goes).
func idProblems(where, group string, ids [][2]string, said map[string]string) []string {
	var problems []string
	seen := map[string]bool{}
	for i, p := range ids {
		id, text := p[0], p[1]
		at := fmt.Sprintf("%s %d (%q)", where, i, text)
		switch {
		case !tierIDRe.MatchString(id):
			problems = append(problems, fmt.Sprintf("%s: id %q is not lower snake case", at, id))
		case seen[id]:
			problems = append(problems, fmt.Sprintf("%s: id %q twice in the %s", at, id, group))
		case said[id] != "" && said[id] != text:
			problems = append(problems, fmt.Sprintf("%s: id %q says %q elsewhere", at, id, said[id]))
		}
		seen[id] = true
		if said[id] == "" {
			said[id] = text
		}
	}
	return problems
}

// tierIDProblems lists what keeps the games' tier ids from naming their events for the pages:
// an id must be lower snake case and unique within its bet, and one id must say one English
// event wherever it is used, since the pages translate every use by the one key "tier.<id>".
func tierIDProblems(gs []*Game) []string {
	var problems []string
	said := map[string]string{} // tier id → its English event
	for _, g := range gs {
		for _, b := range g.Bets {
			ids := make([][2]string, len(b.Tiers))
			for i, tr := range b.Tiers {
				ids[i] = [2]string{tr.ID, tr.Event}
			}
			problems = append(problems, idProblems(g.ID+" "+b.ID+" tier", "bet", ids, said)...)
		}
	}
	return problems
}

// TestEveryTierHasAStableID: every tier of every game has an id fit for a translation key,
// and its description carries it.
func TestEveryTierHasAStableID(t *testing.T) {
	for _, p := range tierIDProblems(All()) {
		t.Error(p)
	}
	for _, g := range All() {
		d := Describe(g)
		for i, b := range g.Bets {
			for j, tr := range b.Tiers {
				if got := d.Bets[i].Tiers[j].ID; got != tr.ID {
					t.Errorf("%s %s tier %d described as %q, want %q", g.ID, b.ID, j, got, tr.ID)
				}
			}
		}
	}
	if got := MBSTiger.Bet("banker").Tiers[1].ID; got != "banker_on_six" {
		t.Errorf("RWS 4.1.1 the Banker's win on six is tier %q, want banker_on_six", got)
	}
}

// TestTierIDCheckCatchesPlantedFaults: tierIDProblems passes the games and names each fault.
func TestTierIDCheckCatchesPlantedFaults(t *testing.T) {
	bet := func(tiers ...Tier) *Game {
		return &Game{ID: "g", Bets: []*Bet{{ID: "b", Tiers: tiers}}}
	}
	for _, c := range []struct {
		name string
		gs   []*Game
		want string
	}{
		{"an id must not be empty", []*Game{bet(Tier{Event: "Tie"})}, `id "" is not lower snake case`},
		{"an id must be lower snake case", []*Game{bet(Tier{ID: "Banker-Six", Event: "Banker wins on six"})}, `id "Banker-Six" is not lower snake case`},
		{"an id must be unique within its bet", []*Game{bet(Tier{ID: "tie", Event: "Tie"}, Tier{ID: "tie", Event: "Tie"})}, `id "tie" twice in the bet`},
		{"one id says one event in every game", []*Game{bet(Tier{ID: "tie", Event: "Tie"}), bet(Tier{ID: "tie", Event: "Tie at 6"})}, `id "tie" says "Tie" elsewhere`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := tierIDProblems(c.gs)
			if !strings.Contains(strings.Join(p, "\n"), c.want) {
				t.Errorf("problems %q, want one with %q", p, c.want)
			}
		})
	}
}
