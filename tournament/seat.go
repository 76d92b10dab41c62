package tournament

import (
	"math"
	"math/rand/v2"
)

// tableSizes is how n players sit at tables of at most k: the fewest tables, their sizes
// differing by at most one, the larger tables first.
func tableSizes(n, k int) []int {
	if n <= 0 || k <= 0 {
		return nil
	}
	tables := (n + k - 1) / k
	sizes := make([]int, tables)
	for i := range sizes {
		sizes[i] = n / tables
		if i < n%tables {
			sizes[i]++
		}
	}
	return sizes
}

// Seat draws players to the fewest tables of at most k, balanced (sizes differ by at most
// one): the players are shuffled with src and dealt to tables in turn, so table i holds the
// shuffled players i, i+T, i+2T, ... Each table lists its players in seat order. The same
// players in the same order with the same source give the same seating, on any Go version:
// the shuffle is written out here (shuffle), not borrowed from math/rand.
func Seat(players []string, k int, src rand.Source) [][]string {
	sizes := tableSizes(len(players), k)
	if sizes == nil {
		return nil
	}
	shuffled := append([]string(nil), players...)
	shuffle(shuffled, src)
	tables := make([][]string, len(sizes))
	for i := range tables {
		tables[i] = make([]string, 0, sizes[i])
	}
	for i, p := range shuffled {
		tables[i%len(tables)] = append(tables[i%len(tables)], p)
	}
	return tables
}

// shuffle is Fisher–Yates from the last position down, swapping each with a uniform
// position at or before it.
func shuffle(s []string, src rand.Source) {
	for i := len(s) - 1; i > 0; i-- {
		j := uniform(src, uint64(i+1))
		s[i], s[j] = s[j], s[i]
	}
}

// uniform is an unbiased integer in [0, n), n > 0: src.Uint64() values at or above the
// largest multiple of n are drawn again, so every remainder is equally likely.
func uniform(src rand.Source, n uint64) uint64 {
	limit := uint64(math.MaxUint64) - math.MaxUint64%n // a multiple of n: [0, limit) holds each remainder equally
	for {
		if x := src.Uint64(); x < limit {
			return x % n
		}
	}
}

// seatingSource is the source that seats a round: the tournament's seed (from the start
// command) and the round number, so each round's draw is reproducible and different.
func seatingSource(seed uint64, round int) rand.Source {
	return rand.NewPCG(seed, uint64(round))
}
