package tournament

import (
	"reflect"
	"testing"

	"github.com/tablehouse/baccarat"
)

// playTables plays the current round's sessions at every table: the first hand of each
// session applies net(player) to each player, the others change nothing.
func playTables(t *testing.T, tr *Tournament, net func(player string) baccarat.Money) {
	t.Helper()
	round := tr.Round()
	for n, players := range tr.Tables() {
		for tr.Round() == round && tr.Phase() == PhaseRunning && !tr.tableOf(n+1).finished {
			mustApply(t, tr, startSession(n+1))
			var changes []ChipChange
			for _, p := range players {
				if d := net(p); d != 0 && !tr.lookup(p).eliminated {
					changes = append(changes, ch(p, d))
				}
			}
			mustApply(t, tr, hand(n+1, changes...))
			for tr.Round() == round && tr.tableOf(n+1).live {
				mustApply(t, tr, hand(n+1))
			}
		}
	}
}

// byTable gives chips by seat: the i-th player of table n wins gains[n][i].
func byTable(tr *Tournament, gains [][]baccarat.Money) func(string) baccarat.Money {
	m := map[string]baccarat.Money{}
	for n, players := range tr.Tables() {
		for i, p := range players {
			m[p] = gains[n][i]
		}
	}
	return func(p string) baccarat.Money { return m[p] }
}

func TestAdvancement(t *testing.T) {
	t.Run("the top player of each table advances", func(t *testing.T) {
		tr := started(t, twoRounds(false, 1), players(6)...)
		tables := tr.Tables()
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{3000, 2000, 0}, {100, 0, -100}}))
		want := []string{tables[0][0], tables[1][0]}
		if got := tr.Entrants(); tr.Round() != 2 || !sameSet(tr.Tables()[0], want) {
			t.Fatalf("round %d final %v, want %v (entrants %v)", tr.Round(), tr.Tables(), want, got)
		}
	})
	t.Run("the top players overall advance, whatever their table", func(t *testing.T) {
		tr := started(t, twoRounds(true, 2), players(6)...)
		tables := tr.Tables()
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{3000, 2000, 0}, {100, 0, -100}}))
		if want := []string{tables[0][0], tables[0][1]}; !sameSet(tr.Tables()[0], want) {
			t.Fatalf("final %v, want %v", tr.Tables(), want)
		}
	})
	t.Run("a tie for the last advancing place goes to the earlier registration", func(t *testing.T) {
		tr := started(t, twoRounds(true, 2), players(6)...)
		// Everyone but p5 and p2 loses; p5 wins most; p2 and p6 tie for second.
		net := map[string]baccarat.Money{"p5": 900, "p2": 500, "p6": 500, "p1": -1, "p3": -1, "p4": -1}
		playTables(t, tr, func(p string) baccarat.Money { return net[p] })
		if !sameSet(tr.Tables()[0], []string{"p5", "p2"}) {
			t.Fatalf("final %v: p2 (entry 2) should beat p6 (entry 6) on equal chips", tr.Tables())
		}
	})
	t.Run("a tie for a table's advancing place goes to the earlier registration", func(t *testing.T) {
		tr := started(t, twoRounds(false, 1), players(6)...)
		playTables(t, tr, func(string) baccarat.Money { return 0 }) // everyone equal
		var want []string
		for _, tb := range tr.rounds[0].tables {
			want = append(want, earliest(tb.players))
		}
		if !sameSet(tr.Tables()[0], want) {
			t.Fatalf("final %v, want the earliest registered of each table %v", tr.Tables(), want)
		}
	})
	t.Run("advancing players start the next round with the starting chips again", func(t *testing.T) {
		tr := started(t, twoRounds(true, 2), players(6)...)
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{3000, 2000, 0}, {100, 0, -100}}))
		for _, p := range tr.Tables()[0] {
			if chips(tr, p) != 10_000 {
				t.Errorf("%s has %d", p, chips(tr, p))
			}
		}
	})
	t.Run("with carry_chips advancing players keep their chips", func(t *testing.T) {
		c := twoRounds(true, 2)
		c.Rounds[1].CarryChips = true
		tr := started(t, c, players(6)...)
		tables := tr.Tables()
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{3000, 2000, 0}, {100, 0, -100}}))
		if chips(tr, tables[0][0]) != 13_000 || chips(tr, tables[0][1]) != 12_000 {
			t.Errorf("carried %d and %d", chips(tr, tables[0][0]), chips(tr, tables[0][1]))
		}
	})
	t.Run("eliminated players never advance, even with places left at their table", func(t *testing.T) {
		c := twoRounds(false, 2)
		c.Stakes.Max, c.TableSize = 10_000, 4 // two tables of three, two from each to the final
		tr := started(t, c, players(6)...)
		tables := tr.Tables()
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{-10_000, -10_000, 5}, {3, 2, 1}}))
		want := append([]string{tables[0][2]}, tables[1][:2]...)
		if !sameSet(tr.Tables()[0], want) {
			t.Fatalf("final %v, want %v", tr.Tables(), want)
		}
	})
	t.Run("the leaderboard marks who would advance as it stands", func(t *testing.T) {
		tr := started(t, twoRounds(false, 1), players(6)...)
		tables := tr.Tables()
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch(tables[0][1], 700)))
		adv := map[string]bool{}
		for _, s := range tr.Leaderboard() {
			if s.Advances {
				adv[s.Player] = true
			}
		}
		if want := map[string]bool{tables[0][1]: true, earliest(tables[1]): true}; !reflect.DeepEqual(adv, want) {
			t.Errorf("advancing %v, want %v", adv, want)
		}
		ts := tr.TableStandings(1)
		if ts[0].Player != tables[0][1] || ts[0].Rank != 1 || !ts[0].Advances || len(ts) != 3 || tr.TableStandings(3) != nil {
			t.Errorf("table 1 standings %+v", ts)
		}
	})
	t.Run("when fewer than two would advance the tournament ends there", func(t *testing.T) {
		c := twoRounds(false, 1)
		c.Stakes.Max = 10_000
		tr := started(t, c, players(6)...)
		tables := tr.Tables()
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{-10_000, -10_000, -10_000}, {-10_000, -10_000, 50}}))
		r := tr.Results()
		if tr.Phase() != PhaseFinished || r[0].Player != tables[1][2] || r[0].Round != 2 || r[0].Rank != 1 {
			t.Fatalf("phase %s results %+v", tr.Phase(), r)
		}
	})
}

func TestFinalRanking(t *testing.T) {
	t.Run("a finalist ranks above a richer player who did not reach the final", func(t *testing.T) {
		tr := started(t, twoRounds(false, 1), players(6)...)
		tables := tr.Tables()
		playTables(t, tr, byTable(tr, [][]baccarat.Money{{5000, 4000, 0}, {100, 0, 0}}))
		playTables(t, tr, func(string) baccarat.Money { return -500 })
		r := tr.Results()
		if r[2].Player != tables[0][1] || r[2].Round != 1 || r[2].Chips != 14_000 || r[1].Round != 2 || r[1].Chips != 9500 {
			t.Fatalf("results %+v", r)
		}
	})
	t.Run("players tied in the final split the prizes of their places", func(t *testing.T) {
		c := baseConfig()
		c.EntryFee = 250 // pool 1000 from four
		tr := started(t, c, "ann", "bob", "cat", "dan")
		playTables(t, tr, func(p string) baccarat.Money {
			return map[string]baccarat.Money{"ann": 100, "bob": 50, "cat": 50, "dan": -10}[p]
		})
		got := map[string]baccarat.Money{}
		ranks := map[string]int{}
		for _, r := range tr.Results() {
			got[r.Player], ranks[r.Player] = r.Prize, r.Rank
		}
		want := map[string]baccarat.Money{"ann": 500, "bob": 250, "cat": 250, "dan": 0}
		if !reflect.DeepEqual(got, want) || ranks["bob"] != 2 || ranks["cat"] != 2 || ranks["dan"] != 4 {
			t.Errorf("prizes %v ranks %v", got, ranks)
		}
	})
	t.Run("the finished event pays the whole pool, topped up to the guarantee", func(t *testing.T) {
		c := baseConfig()
		c.EntryFee, c.Guarantee = 333, 1001
		tr := started(t, c, "ann", "bob", "cat")
		var evs []Event
		for _, cmd := range []Command{startSession(1), hand(1, ch("ann", 30), ch("bob", 20)), hand(1), hand(1)} {
			evs = mustApply(t, tr, cmd)
		}
		fin := evs[len(evs)-1]
		want := []Payment{{"ann", 501}, {"bob", 300}, {"cat", 200}}
		if fin.Type != EvFinished || !reflect.DeepEqual(fin.Payments, want) || *fin.Pool != (Pool{Collected: 999, TopUp: 2, Total: 1001}) {
			t.Errorf("finished %+v pool %+v", fin.Payments, fin.Pool)
		}
	})
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

// earliest is the earliest registered of players named p1, p2, ... (single digits).
func earliest(ps []string) string {
	best := ps[0]
	for _, p := range ps {
		if p < best {
			best = p
		}
	}
	return best
}
