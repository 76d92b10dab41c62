package table

import (
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/tablehouse/baccarat"
)

// benchTable is an RNG table and the wagers of a round: each player's name interned once,
// as a host does at the edge, and plenty of money available.
func benchTable(b testing.TB, game string, players int, bets ...string) (*Table, []Command) {
	t, err := New(Config{Game: game, DefaultLimit: Limit{Min: 1, Max: 1 << 40}, CutCard: 14})
	if err != nil {
		b.Fatal(err)
	}
	var wagers []Command
	for i := range players {
		name := "p" + strconv.Itoa(i)
		for _, bet := range bets {
			w := &Place{Player: name, Bet: bet, Stake: 100, Available: 1 << 50}
			t.Prepare(w)
			wagers = append(wagers, w)
		}
	}
	return t, wagers
}

var benchSrc = baccarat.SeededSource(1)

func newBenchShoe(t *Table) {
	s := baccarat.NewShoe(t.cfg.Decks)
	s.Shuffle(benchSrc)
	if _, err := t.Apply(&NewShoe{Order: s.Order(), Salt: hex.EncodeToString([]byte("salt"))}); err != nil {
		panic(err)
	}
}

var openCmd, closeCmd, dealCmd = &Open{}, &Close{}, &Deal{}

// playRound plays one round: open, the wagers, close, deal to the settlement. Every event
// is recorded: the table writes each one, and the round's count is checked.
func playRound(b testing.TB, t *Table, wagers []Command) int {
	if !t.shoe.active {
		newBenchShoe(t)
	}
	n := 0
	apply := func(c Command) {
		ev, err := t.Apply(c)
		if err != nil {
			b.Fatal(err)
		}
		n += len(ev)
	}
	apply(openCmd)
	for _, w := range wagers {
		apply(w)
	}
	apply(closeCmd)
	for t.phase == PhaseDealing || t.phase == PhaseClosed {
		apply(dealCmd)
	}
	return n
}

// BenchmarkRound7x3: a full round with 7 seats × 3 wagers, every event recorded (target
// ≥ 1,000,000 rounds/s and no allocation, flat from the first round to the millionth).
func BenchmarkRound7x3(b *testing.B) {
	t, wagers := benchTable(b, "mbs-tournament", 7, "banker", "tie", "player_pair")
	b.ReportAllocs()
	events := 0
	for b.Loop() {
		events += playRound(b, t, wagers)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/round")
}

// BenchmarkRound1000: a full round with 1,000 wagers.
func BenchmarkRound1000(b *testing.B) {
	t, wagers := benchTable(b, "mbs-tournament", 250, "banker", "tie", "player_pair", "banker_pair")
	b.ReportAllocs()
	for b.Loop() {
		playRound(b, t, wagers)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkReplay: rebuilding a table from its history (recovery and audit).
func BenchmarkReplay(b *testing.B) {
	t, wagers := benchTable(b, "mbs-tournament", 7, "banker", "tie", "player_pair")
	var history []Event
	rounds := 0
	for rounds = 0; rounds < 2000; rounds++ {
		cmds := append(append([]Command{openCmd}, wagers...), closeCmd)
		if !t.shoe.active {
			s := baccarat.NewShoe(t.cfg.Decks)
			s.Shuffle(benchSrc)
			cmds = append([]Command{&NewShoe{Order: s.Order(), Salt: "00"}}, cmds...)
		}
		for _, c := range cmds {
			ev, _ := t.Apply(c)
			for i := range ev {
				history = append(history, ev[i].Clone())
			}
		}
		for t.phase == PhaseDealing || t.phase == PhaseClosed {
			ev, _ := t.Apply(dealCmd)
			for i := range ev {
				history = append(history, ev[i].Clone())
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Replay(t.Config(), history); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rounds*b.N)/b.Elapsed().Seconds(), "rounds/s")
}

// TestRoundAllocatesNothing: a whole round of 7 × 3 wagers, every event recorded,
// allocates nothing once the table's buffers have grown (shoe changes aside, every few
// dozen rounds).
func TestRoundAllocatesNothing(t *testing.T) {
	tab, wagers := benchTable(t, "mbs-tournament", 7, "banker", "tie", "player_pair")
	for range 5 {
		playRound(t, tab, wagers)
	}
	allocs := testing.AllocsPerRun(200, func() {
		if tab.shoe.counts.Total() < 30 { // the next round could change the shoe
			return
		}
		playRound(t, tab, wagers)
	})
	if allocs != 0 {
		t.Fatalf("a round allocates %v times", allocs)
	}
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
	mustApply(t, tab, &NewShoe{Order: s.Order(), Salt: "00"})
	mustApply(t, tab, &Open{})
	c := &Place{Player: "ann", Bet: "banker", Stake: 1, Available: 1 << 50}
	mustApply(t, tab, c)
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := tab.Apply(c); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("placing a wager allocates %v times", allocs)
	}
}

func mustApply(t *testing.T, tab *Table, c Command) []Event {
	t.Helper()
	ev, err := tab.Apply(c)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}
