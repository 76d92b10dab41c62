package protect

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat/games"
)

// BenchmarkPositions is the dealing loop of one worker: seeded shoes shuffled, dealt by the
// Table of Play and every bet of the game valued before every hand, to the deepest cut card.
// It reports positions (hands valued) per second on one core.
func BenchmarkPositions(b *testing.B) {
	for _, g := range []*games.Game{games.MBSTiger, games.BetOnBaccarat, games.PuntoBanco} {
		b.Run(g.ID, func(b *testing.B) {
			cfg := Config{Game: g, Shoes: 1, Seed: 1, Workers: 1}
			if err := cfg.setup(); err != nil {
				b.Fatal(err)
			}
			r, err := newRunner(context.Background(), &cfg)
			if err != nil {
				b.Fatal(err)
			}
			w, err := r.newWorker(cfg.Decks * 52)
			if err != nil {
				b.Fatal(err)
			}
			before := uint64(0)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				w.shoe(i, SeededShoe(cfg.Decks, cfg.Seed, i).Undealt())
			}
			if w.err != nil {
				b.Fatal(w.err)
			}
			for _, n := range w.t.hands {
				before += n
			}
			b.ReportMetric(float64(before)/b.Elapsed().Seconds(), "positions/s")
			b.ReportMetric(float64(before)/float64(b.N), "positions/op")
		})
	}
}
