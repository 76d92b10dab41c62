package tournament

import (
	"math/bits"

	"github.com/tablehouse/baccarat"
)

// Prizes divides pool among players listed in final order, exactly, in integer minor units.
// ranks[i] is the i-th player's rank; neighbours with the same rank are tied (competition
// ranks: 1, 2, 2, 4). shares[p] is the share of place p+1 in basis points (non-negative).
//
//  1. Tied players merge the places they occupy into one: a tie for places 2 and 3 holds
//     s2+s3; a tie across the last paid place holds the paid places' shares only.
//  2. Only occupied places count: with fewer players than places, the pool is divided in the
//     proportions of the occupied places' shares (two players over 5000/3000/2000: 5/8 and
//     3/8), so the whole pool is always paid out.
//  3. Each place's amount, pool × its share / the occupied places' total share, is rounded
//     down; the minor units left over (fewer than the places paid) go one each to the paid
//     places from the top: pool 1001 over 5000/3000/2000 pays 501, 300, 200.
//  4. A tied place's amount is split equally among its players; the units left over (fewer
//     than the tied players) go one each to them in their listed order (in the final
//     ranking, the earlier registration first).
//
// The prizes sum to exactly pool (when pool ≥ 0 and some occupied place has a share).
func Prizes(pool baccarat.Money, shares []int, ranks []int) []baccarat.Money {
	prizes := make([]baccarat.Money, len(ranks))
	groups, total := placeGroups(shares, ranks)
	if pool <= 0 || total == 0 {
		return prizes
	}
	amounts := make([]baccarat.Money, len(groups))
	rem := pool
	for i, g := range groups {
		amounts[i] = mulDiv(pool, g.share, total)
		rem -= amounts[i]
	}
	for i := 0; rem > 0; i = (i + 1) % len(groups) {
		if groups[i].share > 0 {
			amounts[i]++
			rem--
		}
	}
	for i, g := range groups {
		size := baccarat.Money(g.end - g.start)
		for k := g.start; k < g.end; k++ {
			prizes[k] = amounts[i] / size
			if baccarat.Money(k-g.start) < amounts[i]%size {
				prizes[k]++
			}
		}
	}
	return prizes
}

// group is a run of tied players [start, end) and the combined share of the occupied
// places they hold.
type group struct {
	start, end int
	share      int64
}

// placeGroups groups tied neighbours and returns the occupied places' total share.
func placeGroups(shares []int, ranks []int) ([]group, int64) {
	n := len(ranks)
	occupied := min(len(shares), n)
	var total int64
	for _, s := range shares[:occupied] {
		total += int64(max(s, 0))
	}
	var groups []group
	for i := 0; i < n; {
		g := group{start: i, end: i + 1}
		for g.end < n && ranks[g.end] == ranks[i] {
			g.end++
		}
		for p := i; p < min(g.end, occupied); p++ {
			g.share += int64(max(shares[p], 0))
		}
		groups = append(groups, g)
		i = g.end
	}
	return groups, total
}

// mulDiv is a·b/c rounded down, in 128 bits; with b ≤ c the result is at most a.
func mulDiv(a baccarat.Money, b, c int64) baccarat.Money {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return baccarat.Money(q)
}
