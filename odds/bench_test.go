package odds

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// BenchmarkPARSheet8Decks is the full exact PAR sheet of a fresh 8-deck shoe for every bet of
// every game: one count and six sheets.
func BenchmarkPARSheet8Decks(b *testing.B) {
	counts := baccarat.NewCounts(8)
	all := games.All()
	ctx := context.Background()
	for b.Loop() {
		a, err := Analyze(ctx, counts, nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, g := range all {
			_ = a.Sheet(g, nil)
		}
	}
}

// BenchmarkCount8Decks is the counter alone (cells and pair classes).
func BenchmarkCount8Decks(b *testing.B) {
	counts := baccarat.NewCounts(8)
	var c counter
	for b.Loop() {
		c.setValues(&counts)
		c.countCells(nil)
		pc := newPairComp(&counts)
		c.t6.pairTotal = countPairs(&pc, nil, &c.t6.pairs)
	}
}

func benchPrices(b *testing.B, revealed []baccarat.Card) {
	counts := baccarat.NewCounts(6)
	if err := counts.RemoveAll(revealed); err != nil {
		b.Fatal(err)
	}
	var p Pricer
	dst := make([]Price, 0, 16)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		dst, err = p.Prices(dst, &counts, revealed, games.BetOnBaccarat, nil)
		if err != nil {
			b.Fatal(err)
		}
	}
}

// The three Bet on Baccarat betting rounds from a 6-deck shoe.
func BenchmarkPricesRound1(b *testing.B) { benchPrices(b, nil) }

func BenchmarkPricesRound2(b *testing.B) {
	benchPrices(b, []baccarat.Card{baccarat.MustParseCard("7h")})
}

func BenchmarkPricesRound3(b *testing.B) {
	benchPrices(b, []baccarat.Card{baccarat.MustParseCard("7h"), baccarat.MustParseCard("Kd")})
}

// BenchmarkSheets8Decks is the six sheets alone, from one count.
func BenchmarkSheets8Decks(b *testing.B) {
	a, err := Analyze(context.Background(), baccarat.NewCounts(8), nil)
	if err != nil {
		b.Fatal(err)
	}
	all := games.All()
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range all {
			_ = a.Sheet(g, nil)
		}
	}
}

// BenchmarkEffectOfRemoval8Decks is one game's sheet and the effect of removing each rank.
func BenchmarkEffectOfRemoval8Decks(b *testing.B) {
	counts := baccarat.NewCounts(8)
	ctx := context.Background()
	for b.Loop() {
		if _, _, err := EffectOfRemoval(ctx, counts, nil, games.MBSTiger, nil); err != nil {
			b.Fatal(err)
		}
	}
}
