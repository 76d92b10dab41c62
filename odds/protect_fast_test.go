package odds

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// expecterShoes are compositions of every kind the Expecter meets: full shoes, shoes dealt
// down at random (suits known), shoes known by rank only, and tiny ones.
func expecterShoes(t *testing.T) []baccarat.Counts {
	t.Helper()
	var out []baccarat.Counts
	for _, d := range []int{1, 6, 8, 10} {
		out = append(out, baccarat.NewCounts(d))
	}
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 12; i++ {
		s := baccarat.NewShoe(1 + r.IntN(8))
		s.Shuffle(r)
		s.Advance(r.IntN(s.Len() - 6 + 1))
		out = append(out, s.Counts())
	}
	for _, ranks := range [][13]int{
		{3, 0, 0, 0, 2, 0, 0, 0, 1, 4, 0, 0, 0},
		{31, 30, 32, 29, 28, 32, 32, 30, 31, 27, 32, 32, 31},
		{1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0},
	} {
		c, err := baccarat.NewRankCounts(ranks)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// Returns is Analyze followed by Sheet, bit for bit, for every bet of every game.
func TestExpecterEqualsSheetReturnExactly(t *testing.T) {
	out := make([]float64, 16)
	for _, g := range games.All() {
		e, err := NewExpecter(g, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, counts := range expecterShoes(t) {
			a, err := Analyze(context.Background(), counts, nil)
			if err != nil {
				t.Fatal(err)
			}
			sh := a.Sheet(g, nil)
			err = e.Returns(&counts, out)
			var wantErr error
			for i := range sh.Bets {
				if wantErr == nil {
					wantErr = sh.Bets[i].Err
				}
			}
			if wantErr != nil || err != nil {
				if baccarat.ErrorCode(err) != baccarat.ErrorCode(wantErr) {
					t.Errorf("%s from %s: error %v, Sheet says %v", g.ID, counts.String(), err, wantErr)
				}
				continue
			}
			for i, b := range e.Bets() {
				if math.Float64bits(out[i]) != math.Float64bits(sh.Bets[i].Return) {
					t.Errorf("%s %s from %s: %v, Sheet says %v", g.ID, b.ID, counts.String(), out[i], sh.Bets[i].Return)
				}
			}
		}
	}
}

// A shoe over 1625 cards takes the math/big path and still agrees with Sheet.
func TestExpecterBigShoeEqualsSheet(t *testing.T) {
	counts := baccarat.NewCounts(32)
	a, err := Analyze(context.Background(), counts, nil)
	if err != nil {
		t.Fatal(err)
	}
	sh := a.Sheet(games.MBSTiger, nil)
	e, _ := NewExpecter(games.MBSTiger, nil)
	out := make([]float64, 8)
	if err := e.Returns(&counts, out); err != nil {
		t.Fatal(err)
	}
	for i := range sh.Bets {
		if out[i] != sh.Bets[i].Return {
			t.Errorf("%s: %v, want %v", sh.Bets[i].Bet.ID, out[i], sh.Bets[i].Return)
		}
	}
}

func TestExpecterRefuses(t *testing.T) {
	e, _ := NewExpecter(games.MBSTiger, nil)
	small, _ := baccarat.ParseCounts("A:2,K:3")
	if err := e.Returns(&small, make([]float64, 8)); baccarat.ErrorCode(err) != baccarat.CodeBadShoe {
		t.Errorf("five cards: %v, want bad_shoe", err)
	}
	full := baccarat.NewCounts(8)
	if err := e.Returns(&full, make([]float64, 3)); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Errorf("no room for the returns: %v, want bad_request", err)
	}
	if _, err := NewExpecter(games.BetOnBaccarat, map[string]Margin{"tie": 10000}); err == nil {
		t.Error("a margin of 100% accepted")
	}
}

func TestExpecterAllocates0(t *testing.T) {
	e, _ := NewExpecter(games.BetOnBaccarat, nil)
	counts := baccarat.NewCounts(6)
	out := make([]float64, 9)
	if n := testing.AllocsPerRun(20, func() { _ = e.Returns(&counts, out) }); n != 0 {
		t.Errorf("%v allocations per position, want 0", n)
	}
}

// BenchmarkExpecter8Decks values every bet of Tiger from a fresh 8-deck shoe.
func BenchmarkExpecter8Decks(b *testing.B) {
	e, _ := NewExpecter(games.MBSTiger, nil)
	counts := baccarat.NewCounts(8)
	out := make([]float64, 8)
	b.ReportAllocs()
	for b.Loop() {
		if err := e.Returns(&counts, out); err != nil {
			b.Fatal(err)
		}
	}
}
