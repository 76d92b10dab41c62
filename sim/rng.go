package sim

import "math/bits"

// rng is wyrand (Wang Yi's generator, the one Go's runtime uses for its own fast randomness):
// a 64-bit counter mixed by one 128-bit multiply. It passes BigCrush and PractRand and costs
// about a nanosecond, which matters when every card dealt needs a draw. It is a simulation
// source only: real shoes are shuffled from crypto/rand (baccarat.CryptoSource).
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// bounded is an unbiased integer in [0, n), n > 0: Lemire's multiply-and-reject, as
// baccarat.Uniform, inlined for the dealing loop.
func (r *rng) bounded(n uint64) uint64 {
	hi, lo := bits.Mul64(r.next(), n)
	if lo < n {
		return r.boundedSlow(n, hi, lo)
	}
	return hi
}

func (r *rng) boundedSlow(n, hi, lo uint64) uint64 {
	thresh := -n % n
	for lo < thresh {
		hi, lo = bits.Mul64(r.next(), n)
	}
	return hi
}

// two returns unbiased integers in [0, m) and [0, m−1), 2 ≤ m < 2³², from one 64-bit draw:
// Lemire's method on each 32-bit half, each rejected and redrawn on its own in the rare case.
func (r *rng) two(m uint64) (uint64, uint64) {
	u := r.next()
	a := (u & 0xffffffff) * m
	b := (u >> 32) * (m - 1)
	if uint32(a) < uint32(m) || uint32(b) < uint32(m-1) {
		return r.fix32(a, m), r.fix32(b, m-1)
	}
	return a >> 32, b >> 32
}

func (r *rng) fix32(x, m uint64) uint64 {
	if uint32(x) < uint32(m) {
		t := -uint32(m) % uint32(m)
		for uint32(x) < t {
			x = (r.next() & 0xffffffff) * m
		}
	}
	return x >> 32
}

// splitmix64 derives independent seeds: chunk i of a run is seeded with splitmix64 of the
// master seed and i, so a chunk's cards depend on nothing but the seed and its index, whatever
// worker (and however many) plays it.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func chunkSeed(master uint64, chunk int) uint64 {
	return splitmix64(splitmix64(master) ^ splitmix64(uint64(chunk)+0x632be59bd9b4e019))
}
