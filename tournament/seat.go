package tournament

import "math/rand/v2"

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
// one): the players are shuffled with src (Fisher–Yates) and dealt to tables in turn, so
// table i holds the shuffled players i, i+T, i+2T, ... The same players in the same order
// with the same source give the same seating; each table lists its players in seat order.
func Seat(players []string, k int, src rand.Source) [][]string {
	sizes := tableSizes(len(players), k)
	if sizes == nil {
		return nil
	}
	shuffled := append([]string(nil), players...)
	rand.New(src).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	tables := make([][]string, len(sizes))
	for i := range tables {
		tables[i] = make([]string, 0, sizes[i])
	}
	for i, p := range shuffled {
		tables[i%len(tables)] = append(tables[i%len(tables)], p)
	}
	return tables
}

// seatingSource is the source that seats a round: the tournament's seed (from the start
// command) and the round number, so each round's draw is reproducible and different.
func seatingSource(seed uint64, round int) rand.Source {
	return rand.NewPCG(seed, uint64(round))
}
