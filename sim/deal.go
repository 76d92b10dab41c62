package sim

import (
	"math/bits"

	"github.com/tablehouse/baccarat"
)

// deckSpace is a power of two above the largest shoe (100 decks): a worker's deck has this
// many places and a few more, so that the shuffle and the dealing loop can mask their indices
// instead of checking them.
const deckSpace = 8192

var _ = [deckSpace - 100*baccarat.NumCards]struct{}{}

// resultSpace is a power of two that holds a chunk's winners at the most coups a chunk can
// have, a round begun on every fourth card of 100-deck shoes, for a masked index.
const resultSpace = 1 << 17

var _ = [resultSpace - ChunkShoes*(100*baccarat.NumCards/4+1)]struct{}{}

// maxBets bounds the single-coup bets of a game the simulator settles (the largest has 9).
const maxBets = 16

// worker plays chunks of shoes. Everything it accumulates is an integer, so merging workers
// in any order gives the same report.
type worker struct {
	t     *table
	r     rng
	n     uint64   // cards in the shoe
	cards []uint32 // the shoe, deck[:n]

	nr      uint    // results[:nr]
	classes []class // index 0 unused; one per distinct settlement row
	rows    map[signature]uint16
	blocks  []uint32 // summaries of the chunk's results, block by block (countSessions)

	classSums []classSums     // per class
	ups       []uint64        // the classes' ups (classSums)
	net       [maxBets]int64  // per bet, the current shoe's (shoeNet)
	res       baccarat.Result // a coup settled for the first time (newClass), kept off the heap
	bets      []batch         // per bet
	sums      shoeSums        // the shoes of bets
	voids     uint64
	dealt     uint64
	sessions  [][64]uint64 // per session length: sessions by longest Banker streak<<3 | longest Player streak

	// What the dealing loop reads and writes, in the worker itself so that one register
	// reaches all of it, and as arrays indexed with masks so that it needs no bounds checks.
	// There are fewer classes than keys.
	dealTables
	deck     [deckSpace + 8]uint32 // the shoe, as card words, and room to spare for masked indices
	keyClass [keySpace]uint16      // per key: its class | its winner<<winShift; 0: key not seen yet
	cnt      [classMask + 1]uint16 // coups per class in the current shoe (a shoe has fewer than 1,301)
	results  [resultSpace]uint8    // results[:nr]: the chunk's winners in order (read for Dragon games)
}

// A keyClass entry holds the key's class and, above it, the coup's winner, which the dealing
// loop records for the Dragon bets' streaks; masking off the winner also bounds the class.
const (
	winShift  = 13
	classMask = 1<<winShift - 1
)

var _ = [1<<winShift - keySpace]struct{}{} // every class, fewer than the keys, fits below the winner

func newWorker(t *table) *worker {
	w := &worker{t: t, n: uint64(len(t.shoe)), classes: make([]class, 1), classSums: make([]classSums, 1),
		rows: map[signature]uint16{}, bets: make([]batch, len(t.bets)),
		sessions: make([][64]uint64, len(t.sessions))}
	w.dealTables = dealTables{steps: steps, cells: cells, pairTerms: pairTerms}
	w.cards = w.deck[:w.n]
	if t.dragon {
		// A coup takes at least four cards, and a shoe's last round may start with fewer left.
		w.blocks = make([]uint32, ChunkShoes*(len(t.shoe)/4+1)/t.block)
	}
	return w
}

// chunk plays shoes shoes from a fresh generator seeded for this chunk, starting from the
// unshuffled shoe, so its cards depend on the seed and the chunk's index only.
func (w *worker) chunk(seed uint64, idx, shoes int) {
	w.r = rng{chunkSeed(seed, idx)}
	copy(w.cards, w.t.shoe)
	w.nr = 0
	for i := 0; i < shoes; i++ {
		w.shoe()
	}
	if w.t.dragon {
		w.countSessions()
	}
}

// shoe shuffles and deals one shoe to its cut card. When the cut card comes out during a
// round, the round is completed (Tiger 3.17); when the cards run out first, it is void.
//
// The dealing loop (deal) shuffles as it goes, and makes no calls, so that the compiler can
// keep its state in registers; it stops at what it does not handle itself (a coup whose key
// has no class yet, the end of the shuffle, a draw to redraw, a round with fewer than six
// cards left), which is handled here.
func (w *worker) shoe() {
	n := w.n
	cut := uint64(w.t.cut)
	m := min(n, cut+5) // the cards a round started before the cut card can reach (see shuffle.go)
	i := w.shuffleTo(0, 6)
	pos := uint64(0)
	for pos < cut {
		var key uint
		var cards uint64
		pos, i, key, cards = w.deal(pos, i, m)
		switch {
		case cards != 0:
			w.count(w.newClass(int(key), (*[6]uint32)(w.cards[pos:pos+6]), int(cards)))
			if w.t.verify {
				w.keyClass[key] = 0 // so that every coup comes to newClass
			}
			pos += cards
		case i+6 > m && i < m:
			i = w.finishShuffle(i, m)
		case i < m: // a draw to redraw
			i = w.shuffleTo(i, i+2)
		case pos >= cut:
		case n-pos < 6:
			if pos = w.lastRound(pos); pos > n {
				w.endShoe(n)
				return
			}
		}
	}
	if i < m { // the last coups did not need the last cards, but the next shoe's draws follow theirs
		w.finishShuffle(i, m)
	}
	w.endShoe(min(pos, n))
}

// deal plays coups from pos while a round starts before the cut card with six cards left to
// deal it from, counting each coup in its class, and shuffles from i (the cards below i are
// shuffled) to m as it goes: before each coup, three pairs, so that the shuffle stays at least
// six cards, a coup's most, ahead. Dealing a coup waits on the coup before, which says where it
// starts; the shuffle waits on nothing of the dealing's, so the processor overlaps them.
//
// It returns where it stopped and where the shuffle is; if it stopped at a coup whose key has
// no class yet, also that coup's key and the cards it takes. It stops short of the shuffle's
// last pairs (fewer than three) and at a draw to redraw (at i), which shoe does.
func (w *worker) deal(pos, i, m uint64) (uint64, uint64, uint, uint64) {
	const mask = deckSpace - 1 // pos, i and j are below n: masking changes none, but spares the bounds checks
	s, nr := w.r.s, w.nr
	add, xor := wyConst[0], wyConst[1]
	for pos+6 <= m {
		if i < m {
			if i+6 > m {
				break
			}
			// Three pairs, each as in shuffleRun.
			k := w.n - i
			s += add
			hi, lo := bits.Mul64(s^xor, s)
			u := hi ^ lo
			a, b := uint64(uint32(u))*k, (u>>32)*(k-1)
			if uint32(a) < uint32(k) || uint32(b) < uint32(k-1) {
				s -= add
				break
			}
			d := (*[6]uint32)(w.deck[i&mask:])
			j0, j1 := (i+a>>32)&mask, (i+b>>32+1)&mask
			d[0], w.deck[j0] = w.deck[j0], d[0]
			d[1], w.deck[j1] = w.deck[j1], d[1]
			s += add
			hi, lo = bits.Mul64(s^xor, s)
			u = hi ^ lo
			a, b = uint64(uint32(u))*(k-2), (u>>32)*(k-3)
			if uint32(a) < uint32(k-2) || uint32(b) < uint32(k-3) {
				s, i = s-add, i+2
				break
			}
			j0, j1 = (i+2+a>>32)&mask, (i+3+b>>32)&mask
			d[2], w.deck[j0] = w.deck[j0], d[2]
			d[3], w.deck[j1] = w.deck[j1], d[3]
			s += add
			hi, lo = bits.Mul64(s^xor, s)
			u = hi ^ lo
			a, b = uint64(uint32(u))*(k-4), (u>>32)*(k-5)
			if uint32(a) < uint32(k-4) || uint32(b) < uint32(k-5) {
				s, i = s-add, i+4
				break
			}
			j0, j1 = (i+4+a>>32)&mask, (i+5+b>>32)&mask
			d[4], w.deck[j0] = w.deck[j0], d[4]
			d[5], w.deck[j1] = w.deck[j1], d[5]
			i += 6
		}

		// The coup: its cards' words read once, the step (see cards.go) from three masked
		// sums, the cell from the step and the sixth card, the pairs from three XORs of the
		// first four cards.
		h := (*[6]uint32)(w.deck[pos&mask:])
		st := w.steps[(h[1]+h[3])&bankerField|(h[0]+h[2])&playerField|h[4]&fifthField]
		key := uint(w.cells[uint(st)&stepRow|uint(h[5]&15)]) + // a card's value is below 16
			uint(w.pairTerms[0][(h[0]^h[2])>>cardShift]) +
			uint(w.pairTerms[1][(h[1]^h[3])>>cardShift]) +
			uint(w.pairTerms[2][(h[0]^h[1])>>cardShift])
		key &= keySpace - 1 // no change: key < nKeys
		e := w.keyClass[key]
		if e == 0 {
			w.r.s, w.nr = s, nr
			return pos, i, key, uint64(st & stepCards)
		}
		w.cnt[e&classMask]++
		w.results[nr&(resultSpace-1)] = uint8(e >> winShift)
		nr++
		pos += uint64(st & stepCards)
	}
	w.r.s, w.nr = s, nr
	return pos, i, 0, 0
}

// count adds a coup of class cls outside the dealing loop (which does the same inline).
func (w *worker) count(cls uint16) {
	w.cnt[cls]++
	w.results[w.nr] = uint8(w.classes[cls].winner)
	w.nr++
}

// lastRound plays a round started with fewer than six cards left (a cut card placed within
// five cards of the end, so every card is shuffled); when the cards run out the round is void
// and the shoe ends (SPEC §2), signalled by returning n+1.
func (w *worker) lastRound(pos uint64) uint64 {
	n := w.n
	var buf [5]baccarat.Card // fewer than six cards are left
	rest := buf[:n-pos]
	for i := range rest {
		rest[i] = wordCard(w.cards[pos+uint64(i)])
	}
	res := &w.res
	var used int
	var err error
	if *res, used, err = baccarat.Deal(rest); err != nil {
		w.voids++
		return n + 1
	}
	key := coupKey(res)
	cls := w.keyClass[key] & classMask
	if cls == 0 {
		cls = w.addClass(key, res)
	}
	w.count(cls)
	return pos + uint64(used)
}

// newClass settles a key seen for the first time, from the real coup that produced it, which
// takes cards cards. The dealing loop computed the key; the rules engine deals the same cards
// again and must agree.
func (w *worker) newClass(key int, dealt *[6]uint32, cards int) uint16 {
	var buf [6]baccarat.Card
	order := buf[:cards]
	for i := range order {
		order[i] = wordCard(dealt[i])
	}
	res := &w.res
	var err error
	if *res, _, err = baccarat.Deal(order); err != nil || coupKey(res) != key {
		panic("sim: the dealing loop and the rules engine disagree on " + res.String())
	}
	if id := w.keyClass[key] & classMask; id != 0 {
		return id
	}
	return w.addClass(key, res)
}

// addClass settles a new key; keys that settle every bet alike share one class.
func (w *worker) addClass(key int, res *baccarat.Result) uint16 {
	c := w.t.settle(res)
	id, ok := w.rows[c.sig()]
	if !ok {
		w.classes = append(w.classes, c)
		sums := classSums{from: uint32(len(w.ups))}
		for j, b := range c.up[:c.ups] {
			w.ups = append(w.ups, uint64(b)|uint64(c.upNet[j])<<upShift)
		}
		sums.to = uint32(len(w.ups))
		w.classSums = append(w.classSums, sums)
		id = uint16(len(w.classes) - 1)
		w.rows[c.sig()] = id
	}
	w.keyClass[key] = id | uint16(c.winner)<<winShift
	return id
}

// endShoe settles the shoe's coups, bet by bet, from its class counts (shoeNet), and clears
// them.
func (w *worker) endShoe(dealt uint64) {
	w.dealt += dealt
	hands := w.shoeNet()
	w.sums.add(hands)
	addShoe(w.bets, &w.net, int64(hands)*w.t.scale, hands)
}

// shoeNet adds up, and clears, the shoe's class counts: it returns the shoe's coups, and adds
// to net what they got on each bet above their stakes lost. Every coup's stake on every bet
// is lost but for what each class's coups get back on the bets they do not lose. A game has a
// few dozen classes, most of which come up in every shoe: looking at each costs less than
// keeping a list, coup by coup, of those that came up.
func (w *worker) shoeNet() (hands uint64) {
	sums, ups := w.classSums, w.ups
	for cls := 1; cls < len(sums); cls++ {
		k := w.cnt[cls&classMask]
		if k == 0 {
			continue
		}
		w.cnt[cls&classMask] = 0
		hands += uint64(k)
		c := &sums[cls]
		c.total += uint64(k)
		for _, u := range ups[c.from:c.to] {
			w.net[u&(maxBets-1)] += int64(k) * (int64(u) >> upShift)
		}
	}
	return hands
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
