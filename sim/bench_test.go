package sim

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// benchGame deals b.N hands' worth of real shoes (8 decks, cut card 14 behind) on one core,
// settling every bet of the game on every coup, and reports hands per second.
func benchGame(b *testing.B, g *games.Game) {
	ctx := context.Background()
	cfg := Config{Game: g, Shoes: ChunkShoes * 64, CutCard: -1, Seed: 42, Workers: 1}
	if g.ID == games.BetOnBaccarat.ID {
		cfg.Odds = map[string]baccarat.Odds{}
		for _, bet := range g.Bets {
			cfg.Odds[bet.ID] = 195
		}
	}
	hands := uint64(0)
	b.ResetTimer()
	for b.Loop() {
		rep, err := Run(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		hands += rep.Hands
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds()/1e6, "Mhands/s")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(hands), "ns/hand")
}

func BenchmarkSimulateTiger(b *testing.B)      { benchGame(b, games.MBSTiger) }
func BenchmarkSimulatePuntoBanco(b *testing.B) { benchGame(b, games.PuntoBanco) }
func BenchmarkSimulateDragon(b *testing.B)     { benchGame(b, games.MBSDragon) }
func BenchmarkSimulateBoB(b *testing.B)        { benchGame(b, games.BetOnBaccarat) }
