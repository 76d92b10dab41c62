package tournament

import (
	"math/bits"

	"github.com/tablehouse/baccarat"
)

// Prizes divides pool among players listed in final order, exactly, in integer minor units.
// ranks[i] is the i-th player's rank; neighbours with the same rank are tied (competition
// ranks: 1, 2, 2, 4). shares[p] is the share of place p+1 in basis points (non-negative).
//
//   - Only occupied places count: with fewer players than places, the pool is divided in
//     the proportions of the occupied places' shares (two players, shares 5000/3000/2000:
//     5/8 and 3/8), so the whole pool is always paid out.
//   - Tied players split the combined shares of the places they occupy equally (a tie for
//     places 2 and 3 gives each (s2+s3)/2; a tie across the last paid place shares it among
//     all the tied, paid or not).
//   - Each player's exact amount, pool × share / total share, is rounded down; the minor
//     units left over (fewer than the players paid) go one each to the paid players from
//     the top of the ranking, tied players in their listed order (earlier registration).
//
// The prizes sum to exactly pool (when pool ≥ 0 and some place has a share).
func Prizes(pool baccarat.Money, shares []int, ranks []int) []baccarat.Money {
	n := len(ranks)
	prizes := make([]baccarat.Money, n)
	weights, total := placeWeights(shares, ranks)
	if pool <= 0 || total == 0 {
		return prizes
	}
	var paid baccarat.Money
	for i := range n {
		if weights[i].num > 0 {
			prizes[i] = mulDiv(pool, weights[i].num, total*weights[i].den)
			paid += prizes[i]
		}
	}
	for rem := pool - paid; rem > 0; {
		for i := 0; i < n && rem > 0; i++ {
			if weights[i].num > 0 {
				prizes[i]++
				rem--
			}
		}
	}
	return prizes
}

// weight is a player's share of the pool: num/den of the occupied places' total share.
type weight struct{ num, den int64 }

// placeWeights gives each player the combined shares of their tie group's places, divided
// by the group's size, and returns the total share of the occupied places.
func placeWeights(shares []int, ranks []int) ([]weight, int64) {
	n := len(ranks)
	occupied := min(len(shares), n)
	var total int64
	for _, s := range shares[:occupied] {
		total += int64(max(s, 0))
	}
	w := make([]weight, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && ranks[j] == ranks[i] {
			j++
		}
		var sum int64
		for p := i; p < min(j, occupied); p++ {
			sum += int64(max(shares[p], 0))
		}
		for k := i; k < j; k++ {
			w[k] = weight{sum, int64(j - i)}
		}
		i = j
	}
	return w, total
}

// mulDiv is a·b/c rounded down, in 128 bits; a·b/c ≤ a (b ≤ c), so it fits.
func mulDiv(a baccarat.Money, b, c int64) baccarat.Money {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return baccarat.Money(q)
}
