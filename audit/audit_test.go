package audit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/table"
)

// coups are finished coups from real shuffled shoes, plus the ones the rules single out.
func coups(t *testing.T) []baccarat.Result {
	t.Helper()
	var out []baccarat.Result
	for seed := uint64(1); seed <= 60; seed++ {
		s := baccarat.NewShoe(8)
		s.Shuffle(baccarat.SeededSource(seed))
		order := s.Order()
		for i := 0; i+6 <= len(order); {
			r, used, err := baccarat.Deal(order[i : i+6])
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
			i += used
		}
	}
	for _, c := range []string{
		"P 2h 3c 9d | B 3d 3s",    // Banker on a two-card six
		"P Kh 2c 4h | B Qd 2s 4c", // Banker on a three-card six
		"P 3h 3c | B 3d 3s",       // tie at six, both pairs of one rank
		"P 9h 9c | B 4d 4s",       // both pairs, different ranks
		"P Th Kc 9d | B 5d 5s Kh", // a Ten and a King are not a pair
		"P 4h 4h | B 5d Kd",       // a perfect pair, a Player natural
	} {
		r, err := baccarat.ParseCoup(c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		out = append(out, r)
	}
	return out
}

// TestPayTablesAgreeWithGames: the audit's pay tables, written apart from games/, settle
// every bet of every game exactly as games/ does, over thousands of coups.
func TestPayTablesAgreeWithGames(t *testing.T) {
	cs := coups(t)
	for _, g := range games.All() {
		rules, ok := gameRules[g.ID]
		if !ok {
			t.Fatalf("the audit has no pay table for %s", g.ID)
		}
		a := auditor{g: rules}
		for _, b := range g.Bets {
			if b.Kind == games.Dragon {
				if _, ok := rules.dragons[b.ID]; !ok {
					t.Errorf("%s %s: no Dragon rule in the audit", g.ID, b.ID)
				}
				continue
			}
			if _, ok := rules.bets[b.ID]; !ok {
				t.Errorf("%s %s: no rule in the audit", g.ID, b.ID)
				continue
			}
			for i := range cs {
				w := table.Wager{ID: 1, Player: "p", Bet: b.ID, Stake: 1001}
				var want games.Settlement
				if b.Decimal {
					w.Odds = 257
					want = games.SettleAtOdds(b, w.Stake, w.Odds, &cs[i])
				} else {
					want = games.Settle(b, w.Stake, &cs[i])
				}
				got, err := a.settle(&w, &cs[i])
				if err != nil || got.Outcome != want.Outcome || got.Net != want.Net {
					t.Fatalf("%s %s on %s: audit %v %d, games %v %d (%v)", g.ID, b.ID, cs[i].String(), got.Outcome, got.Net, want.Outcome, want.Net, err)
				}
			}
		}
		if len(rules.bets)+len(rules.dragons) != len(g.Bets) {
			t.Errorf("%s: the audit knows %d bets, the game has %d", g.ID, len(rules.bets)+len(rules.dragons), len(g.Bets))
		}
	}
}

// TestAuditCatchesAPlantedFault: change one ratio in games/ and play; the table pays by
// the wrong ratio, and the audit, with its own pay table, reports every such payment.
func TestAuditCatchesAPlantedFault(t *testing.T) {
	for _, c := range []struct {
		game, bet string
		tier      int
	}{
		{"mbs-tiger", "tiger_tie", 0},
		{"mbs-tournament", "tie", 0},
		{"punto-banco", "banker", 0},
		{"mbs-dragon", "any_dragon", 0},
	} {
		t.Run(fmt.Sprintf("%s %s pays one more", c.game, c.bet), func(t *testing.T) {
			g, _ := games.ByID(c.game)
			b := g.Bet(c.bet)
			honest := b.Tiers[c.tier].Pays
			clean := run(t, c.game, 400)
			if rep, err := Table(c.game, clean); err != nil || len(rep.Problems) != 0 || rep.Rounds != 400 {
				t.Fatalf("an honest table: %+v, %v", rep, err)
			}
			b.Tiers[c.tier].Pays = baccarat.Ratio{Num: honest.Num + honest.Den, Den: honest.Den}
			defer func() { b.Tiers[c.tier].Pays = honest }()
			rigged := run(t, c.game, 400)
			rep, err := Table(c.game, rigged)
			if err != nil || len(rep.Problems) == 0 {
				t.Fatalf("the audit did not catch %s paying %s: %+v", c.bet, b.Tiers[c.tier].Pays, rep)
			}
			if !strings.Contains(strings.Join(rep.Problems, "\n"), c.bet) {
				t.Fatalf("the problems do not name %s: %v", c.bet, rep.Problems)
			}
		})
	}
}

// run plays rounds of a game with a wager on every bet, and returns the table's history.
func run(t *testing.T, game string, rounds int) []table.Event {
	t.Helper()
	tab, err := table.New(table.Config{Game: game, SessionHands: 5})
	if err != nil {
		t.Fatal(err)
	}
	var history []table.Event
	apply := func(c table.Command) {
		ev, err := tab.Apply(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
		for i := range ev {
			history = append(history, ev[i].Clone())
		}
	}
	src := baccarat.SeededSource(7)
	for r := 0; r < rounds; r++ {
		if !tab.ShoeActive() {
			s := baccarat.NewShoe(tab.Config().Decks)
			s.Shuffle(src)
			apply(&table.NewShoe{Order: s.Order(), Salt: "00"})
		}
		apply(&table.Open{})
		for _, b := range tab.Game().Bets {
			if b.Kind == games.Dragon && tab.State().Session.Hands > 0 {
				continue
			}
			p := &table.Place{Player: "ann", Bet: b.ID, Stake: 1001, Available: 1 << 40}
			for _, pr := range tab.Prices() {
				if pr.Bet == b.ID {
					p.Odds = pr.Odds
				}
			}
			apply(p)
		}
		apply(&table.Close{})
		for tab.Phase() == table.PhaseClosed || tab.Phase() == table.PhaseDealing {
			if tab.Status().BetOpen {
				apply(&table.Close{})
				continue
			}
			apply(&table.Deal{})
		}
	}
	return history
}
