package sim

import "math/bits"

// A shoe is shuffled by Fisher–Yates from the front over its first m positions only, m being
// the cards a round started before the cut card can reach: position i takes a card uniformly
// from those not yet placed, so the first m cards are a uniform draw of m cards in uniform
// order, and the cards behind them need no shuffling. Positions below i are final once i is
// reached, which lets coups be dealt while the shuffle goes on (worker.deal).
//
// Each 64-bit draw places two cards: its 32-bit halves are made indices in [0, n−i) and
// [0, n−i−1) by Lemire's multiply-and-reject, each rejected and redrawn on its own in the rare
// case (fix32). When m is odd its last position takes the last draw, on its own.

// shuffleTo shuffles the pairs of positions from i while the pair is below stop, and returns
// where it stopped.
func (w *worker) shuffleTo(i, stop uint64) uint64 {
	n, s := w.n, w.r.s
	for ; ; i += 2 {
		var a, b uint64
		i, s, a, b = shuffleRun(i, s, wyConst[0], wyConst[1], n, stop-1, &w.deck)
		if i+1 >= stop {
			break
		}
		r := rng{s}
		a, b = r.fix32(a, n-i), r.fix32(b, n-i-1)
		s = r.s
		w.cards[i], w.cards[i+a] = w.cards[i+a], w.cards[i]
		w.cards[i+1], w.cards[i+1+b] = w.cards[i+1+b], w.cards[i+1]
	}
	w.r.s = s
	return i
}

// finishShuffle shuffles the positions from i to m, and returns m.
func (w *worker) finishShuffle(i, m uint64) uint64 {
	w.shuffleTo(i, m)
	if n := w.n; m%2 == 1 && m < n {
		j := m - 1 + w.r.bounded(n-m+1)
		w.cards[m-1], w.cards[j] = w.cards[j], w.cards[m-1]
	}
	return m
}

// shuffleRun is shuffleTo's loop, from position i and generator state s, while i < m1, and up
// to a draw to be redrawn; it returns the position and state it stopped at and, for a draw to
// be redrawn, its halves times the bounds (see fix32). The generator is written out, its
// constants come in as arguments, and in this order, so that the compiler keeps everything in
// registers and moves little around the 128-bit multiply, which takes two registers of its own.
func shuffleRun(i, s, add, xor, n, m1 uint64, deck *[deckSpace + 8]uint32) (uint64, uint64, uint64, uint64) {
	const mask = deckSpace - 1 // every index is below n: masking changes none, but spares the bounds checks
	_ = deck[0]                // one nil check, not one a draw
	m1 = min(m1, deckSpace-2)  // m1 < n: no change, but i+1 is then a valid index without a check
	for k := n - i; i < m1; i, k = i+2, k-2 {
		s += add
		hi, lo := bits.Mul64(s^xor, s)
		u := hi ^ lo
		a := uint64(uint32(u)) * k
		b := (u >> 32) * (k - 1)
		if uint32(a) < uint32(k) || uint32(b) < uint32(k-1) {
			return i, s, a, b
		}
		d := (*[2]uint32)(deck[i:])
		j0, j1 := (i+a>>32)&mask, (i+b>>32+1)&mask
		d[0], deck[j0] = deck[j0], d[0]
		d[1], deck[j1] = deck[j1], d[1]
	}
	return i, s, 0, 0
}
