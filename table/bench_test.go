package table

import (
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/tablehouse/baccarat"
)

// benchTable is an RNG table with players funded far beyond what the benchmark stakes.
func benchTable(b *testing.B, game string, players int) (*Table, []string) {
	t, err := New(Config{Game: game, DefaultLimit: Limit{Min: 1, Max: 1 << 40}, CutCard: 14})
	if err != nil {
		b.Fatal(err)
	}
	names := make([]string, players)
	for i := range names {
		names[i] = "p" + strconv.Itoa(i)
		if _, err := t.Apply(&Command{Type: CmdFund, Player: names[i], Amount: 1 << 50}); err != nil {
			b.Fatal(err)
		}
	}
	return t, names
}

var benchSrc = baccarat.SeededSource(1)

func newBenchShoe(t *Table) {
	s := baccarat.NewShoe(t.cfg.Decks)
	s.Shuffle(benchSrc)
	c := Command{Type: CmdNewShoe, Order: s.Order(), Salt: hex.EncodeToString([]byte("salt"))}
	if _, err := t.Apply(&c); err != nil {
		panic(err)
	}
}

var open, closeCmd, deal = Command{Type: CmdOpen}, Command{Type: CmdClose}, Command{Type: CmdDeal}

// playRound plays one round: open, the wagers, close, deal to the settlement.
func playRound(b *testing.B, t *Table, wagers []Command) {
	if !t.shoe.active {
		newBenchShoe(t)
	}
	if _, err := t.Apply(&open); err != nil {
		b.Fatal(err)
	}
	for i := range wagers {
		if _, err := t.Apply(&wagers[i]); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := t.Apply(&closeCmd); err != nil {
		b.Fatal(err)
	}
	for t.phase == PhaseDealing || t.phase == PhaseClosed {
		if _, err := t.Apply(&deal); err != nil {
			b.Fatal(err)
		}
	}
}

func seatWagers(names []string, bets []string) []Command {
	var w []Command
	for _, p := range names {
		for _, bet := range bets {
			w = append(w, Command{Type: CmdPlace, Player: p, Bet: bet, Stake: 100})
		}
	}
	return w
}

// BenchmarkRound7x3: a full round with 7 seats × 3 wagers (target ≥ 200k rounds/s).
func BenchmarkRound7x3(b *testing.B) {
	t, names := benchTable(b, "mbs-tournament", 7)
	wagers := seatWagers(names, []string{"banker", "tie", "player_pair"})
	b.ReportAllocs()
	for b.Loop() {
		playRound(b, t, wagers)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkRound1000: a full round with 1,000 wagers.
func BenchmarkRound1000(b *testing.B) {
	t, names := benchTable(b, "mbs-tournament", 250)
	wagers := seatWagers(names, []string{"banker", "tie", "player_pair", "banker_pair"})
	b.ReportAllocs()
	for b.Loop() {
		playRound(b, t, wagers)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// TestPlaceWagerAllocatesNothing: the hot path of a wager allocates nothing once the
// round's tables have grown.
func TestPlaceWagerAllocatesNothing(t *testing.T) {
	tab, err := New(Config{Game: "mbs-tournament", DefaultLimit: Limit{Min: 1, Max: 1 << 40}})
	if err != nil {
		t.Fatal(err)
	}
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(1))
	mustApply(t, tab, Command{Type: CmdNewShoe, Order: s.Order(), Salt: "00"})
	mustApply(t, tab, Command{Type: CmdFund, Player: "ann", Amount: 1 << 50})
	mustApply(t, tab, Command{Type: CmdOpen})
	c := Command{Type: CmdPlace, Player: "ann", Bet: "banker", Stake: 1}
	mustApply(t, tab, c)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := tab.Apply(&c); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("placing a wager allocates %v times", allocs)
	}
}

func mustApply(t *testing.T, tab *Table, c Command) []Event {
	t.Helper()
	ev, err := tab.Apply(&c)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}
