package web

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
)

// The theory summed over a common denominator is the theory summed fraction by fraction:
// exact, to the last digit, whatever the edges and stakes.
func TestTheoryOverACommonDenominatorIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edges := edgeBook{"a": {}, "b": {}}
	for i, v := range []string{"a", "b"} {
		for j := range 6 {
			edges[v][string(rune('p'+j))] = big.NewRat(r.Int64N(1_000_000)-300_000, r.Int64N(1e12)+int64(i)+1)
		}
	}
	th := newTheory(edges)
	var row ReportRow
	want := new(big.Rat)
	var priced baccarat.Money
	for range 5_000 {
		v := []string{"a", "b"}[r.IntN(2)]
		bet := string(rune('p' + r.IntN(6)))
		b := backoffice.BetRow{Variant: v, Bet: bet, Settled: baccarat.Money(r.Int64N(1e9))}
		row.addBet(b, edges[v][bet], th, false)
		want.Add(want, new(big.Rat).Mul(edges[v][bet], big.NewRat(int64(b.Settled), 1)))
		priced += b.Settled
	}
	row.Currency = "EUR"
	row.finish(th)
	if row.theory.Cmp(want) != 0 || row.Priced != priced {
		t.Fatalf("theory %s, want %s", row.theory.RatString(), want.RatString())
	}
}
