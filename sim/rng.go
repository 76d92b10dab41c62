package sim

import "math/bits"

// rng is wyrand (Wang Yi's generator, the one Go's runtime uses for its own fast randomness):
// a 64-bit counter mixed by one 128-bit multiply. It passes BigCrush and PractRand and costs
// about a nanosecond, which matters when every card dealt needs a draw. It is a simulation
// source only: real shoes are shuffled from crypto/rand (baccarat.CryptoSource).
type rng struct{ s uint64 }

// wyrand's constants.
const (
	wyAdd = 0xa0761d6478bd642f
	wyXor = 0xe7037ed1a0b428db
)

func (r *rng) next() uint64 {
	r.s += wyAdd
	hi, lo := bits.Mul64(r.s, r.s^wyXor)
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

// fix32 finishes one 32-bit half of a draw made an index in [0, m) by Lemire's method, x being
// the half times m: in the rare case that it falls in the biased zone it is rejected, and
// redrawn from the low half of new draws until it does not.
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

// wyConst holds wyrand's constants as variables, for loops that would otherwise load each
// constant into a register on every draw.
var wyConst = [2]uint64{wyAdd, wyXor}
