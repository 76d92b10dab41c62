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

// maxBets bounds the single-coup bets of a game the simulator settles (the largest has 9).
const maxBets = 16

// worker plays chunks of shoes. Everything it accumulates is an integer, so merging workers
// in any order gives the same report.
type worker struct {
	t     *table
	r     rng
	deck  *[deckSpace + 8]uint16 // the shoe and room to spare, for masked indices
	cards []uint16               // the shoe, deck[:len(t.shoe)]: card | point value<<8

	// Indexed by key or by class, as arrays so that the dealing loop needs neither bounds
	// checks nor registers for them: there are fewer classes than keys.
	keyClass [keySpace]uint16 // 0: key not seen yet
	cnt      [keySpace]uint32 // coups per class in the current shoe
	touched  [keySpace]uint16 // touched[:nt]: the classes of the current shoe's coups, each once
	wins     [keySpace]uint8  // per class: its winner
	nt       int

	classes []class // index 0 unused; one per distinct settlement row
	rows    map[signature]uint16
	results []uint8 // results[:nr]: the chunk's winners in order (Dragon games only)
	nr      int
	blocks  []uint32 // their summaries, block by block (countSessions)

	total    []uint64 // coups per class, all shoes
	bets     []batch  // per bet
	hands    uint64
	voids    uint64
	shoes    uint64
	dealt    uint64
	sessions [][3][8]uint64 // per session length: sessions by longest Banker, Player, any streak
}

func newWorker(t *table) *worker {
	w := &worker{t: t, deck: new([deckSpace + 8]uint16), classes: make([]class, 1), total: make([]uint64, 1),
		rows: map[signature]uint16{}, bets: make([]batch, len(t.bets)), sessions: make([][3][8]uint64, len(t.sessions))}
	w.cards = w.deck[:len(t.shoe)]
	if t.dragon {
		// A coup takes at least four cards, and a shoe's last round may start with fewer left.
		w.results = make([]uint8, ChunkShoes*(len(t.shoe)/4+1))
		w.blocks = make([]uint32, len(w.results)/t.block)
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
	w.countSessions()
}

// decide[(sp·19 + sb)<<4 | x] is the Table of Play as two bits, Player draws | Banker draws<<1,
// from the raw sums of the first two cards of each hand (0–18) and the fifth card's value x
// (the Player's third card if the Player draws). One lookup, and so one short chain of
// dependent loads from one coup to the next.
var decide = func() (t [361 << 4]uint8) {
	for sp := 0; sp < 19; sp++ {
		for sb := 0; sb < 19; sb++ {
			p, b := sp%10, sb%10
			for x := 0; x < 10; x++ {
				var d uint8
				switch {
				case p >= 8 || b >= 8:
				case baccarat.PlayerDraws(p):
					d = 1
					if baccarat.BankerDraws(b, x) {
						d |= 2
					}
				case baccarat.BankerDraws(b, -1):
					d = 2
				}
				t[(sp*19+sb)<<4|x] = d
			}
		}
	}
	return t
}()

// shoe shuffles and deals one shoe to its cut card. Cards are held with their point value in
// the high byte. When the cut card comes out during a round, the round is completed (Tiger
// 3.17); when the cards run out first, it is void.
//
// The dealing loop (deal) makes no calls, so that the compiler can keep its state in
// registers; it stops at what it does not handle itself (a coup whose key has no class yet, a
// round with fewer than six cards left), which is settled here.
func (w *worker) shoe() {
	n := uint64(len(w.cards))
	cut := uint64(w.t.cut)
	w.shuffle(min(n, cut+5))
	pos := uint64(0)
	for pos < cut {
		var key uint
		var d uint8
		pos, key, d = w.deal(pos)
		switch {
		case pos >= cut:
		case n-pos < 6:
			if pos = w.lastRound(pos); pos > n {
				w.endShoe(n)
				return
			}
		default:
			w.count(w.newClass(int(key), (*[6]uint16)(w.cards[pos:pos+6]), int(d)))
			if w.t.verify {
				w.keyClass[key] = 0 // so that every coup comes to newClass
			}
			pos += 4 + uint64(d&1+d>>1)
		}
	}
	w.endShoe(min(pos, n))
}

// shuffle is Fisher–Yates from the front over the first m positions only: position i takes a
// card uniformly from those not yet placed, so the first m cards are a uniform draw of m cards
// in uniform order, and the cards behind them, which no round started before the cut card can
// reach, need no shuffling. Each 64-bit draw places two cards: its 32-bit halves are made
// indices in [0, n−i) and [0, n−i−1) by Lemire's multiply-and-reject, each rejected and redrawn
// on its own in the rare case (fix32). The generator is written out here so that the loop keeps
// its state in registers.
func (w *worker) shuffle(m uint64) {
	const mask = deckSpace - 1 // every index is below n: masking changes none, but spares the bounds checks
	deck := w.deck
	_ = deck[0] // one nil check, not one a card
	n := uint64(len(w.cards))
	s := w.r.s
	for i := uint64(0); i+1 < m; i += 2 {
		s += wyAdd
		hi, lo := bits.Mul64(s, s^wyXor)
		u, k := hi^lo, n-i
		a := uint64(uint32(u)) * k
		b := (u >> 32) * (k - 1)
		if uint32(a) < uint32(k) || uint32(b) < uint32(k-1) {
			r := rng{s}
			a, b = r.fix32(a, k)<<32, r.fix32(b, k-1)<<32
			s = r.s
		}
		i0, j0 := i&mask, (i+a>>32)&mask
		deck[i0], deck[j0] = deck[j0], deck[i0]
		i1, j1 := (i+1)&mask, (i+1+b>>32)&mask
		deck[i1], deck[j1] = deck[j1], deck[i1]
	}
	w.r.s = s
	if m%2 == 1 && m < n {
		cards := w.cards
		j := m - 1 + w.r.bounded(n-m+1)
		cards[m-1], cards[j] = cards[j], cards[m-1]
	}
}

// deal plays coups from pos while a round starts before the cut card with six cards left to
// deal it from, counting each coup in its class. It returns where it stopped; if it stopped at
// a coup whose key has no class yet, also that coup's key and draws (the Player drew | the
// Banker drew<<1).
func (w *worker) deal(pos uint64) (uint64, uint, uint8) {
	end := min(uint64(w.t.cut)+5, uint64(len(w.cards)))
	deck := w.deck
	_ = deck[0] // one nil check, not one a coup
	nt, nr := w.nt, w.nr
	for pos+6 <= end {
		h := (*[6]uint16)(deck[pos&(deckSpace-1):]) // pos < deckSpace: the mask changes nothing
		pairs := pairKey[0][(h[0]^h[2])&63] + pairKey[1][(h[1]^h[3])&63] + pairKey[2][(h[0]^h[1])&63]
		v4, v5 := h[4]>>8, h[5]>>8
		sp, sb := h[0]>>8+h[2]>>8, h[1]>>8+h[3]>>8
		st := step[(uint(sp)*19+uint(sb))<<4|uint(v4)&15]
		pb := cellPB[(pbIndex[0][sp&31]+pbIndex[1][sb&31]+v4*10+v5)&(uint16(len(cellPB))-1)]
		key := uint(st>>3) + uint(pb)*18 + uint(pairs)
		cls := w.keyClass[key&(keySpace-1)]
		if cls == 0 {
			w.nt, w.nr = nt, nr
			return pos, key, uint8(st >> 3 / 1800)
		}
		w.touched[nt&(keySpace-1)] = cls // kept only if cls is new to this shoe: no branch to mispredict
		nt += int(b2u(w.cnt[cls&(keySpace-1)] == 0))
		w.cnt[cls&(keySpace-1)]++
		if w.results != nil {
			w.results[nr] = w.wins[cls&(keySpace-1)]
			nr++
		}
		pos += uint64(st & 7)
	}
	w.nt, w.nr = nt, nr
	return pos, 0, 0
}

// count adds a coup of class cls outside the dealing loop (which does the same inline).
func (w *worker) count(cls uint16) {
	if w.cnt[cls] == 0 {
		w.touched[w.nt] = cls
		w.nt++
	}
	w.cnt[cls]++
	if w.results != nil {
		w.results[w.nr] = w.wins[cls]
		w.nr++
	}
}

// lastRound plays a round started with fewer than six cards left (a cut card placed within
// five cards of the end, so every card is shuffled); when the cards run out the round is void
// and the shoe ends (SPEC §2), signalled by returning n+1.
func (w *worker) lastRound(pos uint64) uint64 {
	cards := w.cards
	n := uint64(len(cards))
	var buf [5]baccarat.Card // fewer than six cards are left
	rest := buf[:n-pos]
	for i := range rest {
		rest[i] = baccarat.Card(cards[pos+uint64(i)] & 255)
	}
	res, used, err := baccarat.Deal(rest)
	if err != nil {
		w.voids++
		return n + 1
	}
	key := coupKey(&res)
	cls := w.keyClass[key]
	if cls == 0 {
		cls = w.addClass(key, &res)
	}
	w.count(cls)
	return pos + uint64(used)
}

// newClass settles a key seen for the first time, from the real coup that produced it
// (draws: the Player drew | the Banker drew<<1). The dealing loop computed the key; the rules
// engine deals the same cards again and must agree.
func (w *worker) newClass(key int, dealt *[6]uint16, draws int) uint16 {
	var buf [6]baccarat.Card
	order := buf[:4+draws&1+draws>>1]
	for i := range order {
		order[i] = baccarat.Card(dealt[i] & 255)
	}
	res, _, err := baccarat.Deal(order)
	if err != nil || coupKey(&res) != key {
		panic("sim: the dealing loop and the rules engine disagree on " + res.String())
	}
	if id := w.keyClass[key]; id != 0 {
		return id
	}
	return w.addClass(key, &res)
}

// addClass settles a new key; keys that settle every bet alike share one class.
func (w *worker) addClass(key int, res *baccarat.Result) uint16 {
	c := w.t.settle(res)
	id, ok := w.rows[c.sig()]
	if !ok {
		w.classes = append(w.classes, c)
		w.total = append(w.total, 0)
		id = uint16(len(w.classes) - 1)
		w.wins[id] = uint8(c.winner)
		w.rows[c.sig()] = id
	}
	w.keyClass[key] = id
	return id
}

// endShoe settles the shoe's coups, bet by bet, from its class counts: every coup's stake on
// every bet lost, and back for each class what its coups got above that on the bets they did
// not lose.
func (w *worker) endShoe(dealt uint64) {
	var net [maxBets]int64
	hands := uint64(0)
	for _, cls := range w.touched[:w.nt] {
		k := w.cnt[cls]
		w.cnt[cls] = 0
		hands += uint64(k)
		w.total[cls] += uint64(k)
		c := &w.classes[cls]
		for j, b := range c.up[:c.ups] {
			net[b&(maxBets-1)] += int64(k) * c.upNet[j]
		}
	}
	w.nt = 0
	lost := int64(hands) * w.t.scale
	for b := range w.bets {
		w.bets[b].add(net[b]-lost, hands)
	}
	w.hands += hands
	w.shoes++
	w.dealt += dealt
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func b2u(b bool) uint {
	if b {
		return 1
	}
	return 0
}

// pairKey[0][c₀ ^ c₂] and pairKey[1][c₁ ^ c₃] are a coup key's pair terms, 6·pk and 2·bk, and
// pairKey[2][c₀ ^ c₁] its same-rank term, from the two cards' indices (rank·4 + suit): their
// XOR is 0 for identical cards and below 4 for cards of one rank.
var pairKey = func() (t [3][64]uint8) {
	for x := range 64 {
		kind := b2i(x < 4) + b2i(x == 0)
		t[0][x], t[1][x], t[2][x] = uint8(6*kind), uint8(2*kind), uint8(b2i(x < 4))
	}
	return t
}()

// step[i] is decide[i] made ready for the dealing loop: the cards the coup takes (4–6) | the
// draws' part of the coup key, (Player draws + 2·Banker draws)·1800, <<3.
var step = func() (t [361 << 4]uint16) {
	for i, d := range decide {
		t[i] = uint16(d)*1800<<3 | uint16(4+d&1+d>>1)
	}
	return t
}()

// cellPB[p·1000 + b·100 + x·10 + y] is P·10 + B, the final totals of a coup whose first two
// cards make p for the Player and b for the Banker, and whose fifth and sixth cards are worth x
// and y (whether or not they are drawn). pbIndex[0][s] and pbIndex[1][s] are the first two
// terms from the raw sums s of the first two cards of each hand (0–18).
var cellPB, pbIndex = func() (t [1 << 14]uint8, ix [2][32]uint16) {
	for p := 0; p < 10; p++ {
		for b := 0; b < 10; b++ {
			for x := 0; x < 10; x++ {
				for y := 0; y < 10; y++ {
					P, B, third := p, b, x // the Banker's third card: the fifth, or the sixth after the Player's
					d := decide[(p*19+b)<<4|x]
					if d&1 != 0 {
						P, third = (P+x)%10, y
					}
					if d&2 != 0 {
						B = (B + third) % 10
					}
					t[p*1000+b*100+x*10+y] = uint8(P*10 + B)
				}
			}
		}
	}
	for s := 0; s < 19; s++ {
		ix[0][s], ix[1][s] = uint16(s%10*1000), uint16(s%10*100)
	}
	return t, ix
}()

var mod10 = func() (m [256]uint8) {
	for i := range m {
		m[i] = uint8(i % 10)
	}
	return m
}()
