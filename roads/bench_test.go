package roads

import (
	"math/rand/v2"
	"testing"

	"github.com/tablehouse/baccarat"
)

// shoe80 is an 80-round shoe with the usual mix of results, streaks and flags.
func shoe80() []Round {
	rng := rand.New(rand.NewPCG(4, 80))
	rs := make([]Round, 80)
	for i := range rs {
		w := baccarat.BankerWins
		switch x := rng.IntN(1000); {
		case x < 95:
			w = baccarat.Tie
		case x < 95+446:
			w = baccarat.PlayerWins
		}
		rs[i] = Round{Winner: w, PlayerPair: rng.IntN(13) == 0, BankerPair: rng.IntN(13) == 0, Natural: rng.IntN(3) == 0}
	}
	return rs
}

// BenchmarkAppend80 appends an 80-round shoe one round at a time; every Append refreshes every
// road. The board is reset between shoes, as a table does at a shoe change.
func BenchmarkAppend80(b *testing.B) {
	shoe := shoe80()
	var board Board
	b.ReportAllocs()
	for b.Loop() {
		board.Reset()
		for _, r := range shoe {
			_ = board.Append(r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(shoe)), "ns/round")
}

// BenchmarkNew80 builds the roads of an 80-round shoe from scratch, as after a void.
func BenchmarkNew80(b *testing.B) {
	shoe := shoe80()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = New(shoe)
	}
}

// TestAppendAllocations: once a board has held a shoe, replaying a shoe of the same size
// allocates nothing (the strconv habit: allocation budgets are tests).
func TestAppendAllocations(t *testing.T) {
	shoe := shoe80()
	var board Board
	for _, r := range shoe {
		_ = board.Append(r)
	}
	allocs := testing.AllocsPerRun(100, func() {
		board.Reset()
		for _, r := range shoe {
			_ = board.Append(r)
		}
	})
	if allocs != 0 {
		t.Errorf("appending 80 rounds to a reset board allocates %v times, want 0", allocs)
	}
}

// BenchmarkAppendLong appends 8,000 rounds (the 80-round shoe a hundred times): ns/round stays
// that of BenchmarkAppend80, which is what amortised constant time per Append looks like.
func BenchmarkAppendLong(b *testing.B) {
	var shoe []Round
	for range 100 {
		shoe = append(shoe, shoe80()...)
	}
	var board Board
	b.ReportAllocs()
	for b.Loop() {
		board.Reset()
		for _, r := range shoe {
			_ = board.Append(r)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(shoe)), "ns/round")
}
