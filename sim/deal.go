package sim

import (
	"math/bits"

	"github.com/tablehouse/baccarat"
)

// maxBets bounds the single-coup bets of a game the simulator settles (the largest has 9).
const maxBets = 16

// worker plays chunks of shoes. Everything it accumulates is an integer, so merging workers
// in any order gives the same report.
type worker struct {
	t        *table
	r        rng
	cards    []uint16         // card | point value<<8
	keyClass [keySpace]uint16 // 0: key not seen yet
	classes  []class          // index 0 unused; one per distinct settlement row
	rows     map[string]uint16
	cnt      []uint32 // coups per class in the current shoe
	touched  []uint16
	results  []uint8 // the chunk's winners in order (Dragon games)

	total    []uint64 // coups per class, all shoes
	bets     []batch  // per bet
	shoeNet  [maxBets]int64
	hands    uint64
	voids    uint64
	shoes    uint64
	dealt    uint64
	sessions [][3][8]uint64 // per session length: sessions by longest Banker, Player, any streak
}

func newWorker(t *table) *worker {
	return &worker{t: t, cards: make([]uint16, len(t.shoe)), classes: make([]class, 1), cnt: make([]uint32, 1),
		total: make([]uint64, 1), rows: map[string]uint16{}, bets: make([]batch, len(t.bets)),
		sessions: make([][3][8]uint64, len(t.sessions))}
}

// chunk plays shoes shoes from a fresh generator seeded for this chunk, starting from the
// unshuffled shoe, so its cards depend on the seed and the chunk's index only.
func (w *worker) chunk(seed uint64, idx, shoes int) {
	w.r = rng{chunkSeed(seed, idx)}
	copy(w.cards, w.t.shoe)
	w.results = w.results[:0]
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

// shoe shuffles and deals one shoe to its cut card: Fisher–Yates, each position taking a
// card uniformly from those not yet placed, over as many positions as a round started before
// the cut card can reach (the cards behind that are never seen, so need no shuffling). Cards
// are held with their point value in the high byte. When the cut card comes out during a
// round, the round is completed (Tiger 3.17); when the cards run out first, it is void.
func (w *worker) shoe() {
	cards := w.cards
	n := uint64(len(cards))
	cut := uint64(w.t.cut)
	r := w.r
	m := min(n, cut+5)
	for i := uint64(0); i+1 < m; i += 2 {
		a, b := r.two(n - i)
		j := i + a
		cards[i], cards[j] = cards[j], cards[i]
		j = i + 1 + b
		cards[i+1], cards[j] = cards[j], cards[i+1]
	}
	if m%2 == 1 && m < n {
		j := m - 1 + r.bounded(n-m+1)
		cards[m-1], cards[j] = cards[j], cards[m-1]
	}
	w.r = r
	pk := &w.t.pairKind
	keyClass := &w.keyClass
	verify, dragon := w.t.verify, w.t.dragon
	cnt := w.cnt
	pos, hands := uint64(0), uint64(0)
	for pos < cut {
		if n-pos < 6 {
			pos = w.lastRound(pos)
			cnt = w.cnt
			if pos > n {
				break
			}
			hands++
			continue
		}
		h := (*[6]uint16)(cards[pos : pos+6])
		v0, v1, v2, v3, v4, v5 := h[0]>>8, h[1]>>8, h[2]>>8, h[3]>>8, h[4]>>8, h[5]>>8
		sp, sb := v0+v2, v1+v3
		d := decide[(uint(sp)*19+uint(sb))<<4|uint(v4)&15]
		pd, bd := uint16(d&1), uint16(d>>1)
		pos += 4 + uint64(pd+bd)
		y := v4 + pd*(v5-v4) // the Banker's third card: the fifth card, or the sixth after the Player's
		P := mod10[(sp+pd*v4)&255]
		B := mod10[(sb+bd*y)&255]
		key := (uint(d)*100+uint(P)*10+uint(B))*18 +
			uint(pk[(h[0]&63)<<6|h[2]&63]*3+pk[(h[1]&63)<<6|h[3]&63])*2
		if (h[0]&255)>>2 == (h[1]&255)>>2 {
			key++
		}
		cls := keyClass[key&(keySpace-1)]
		if cls == 0 || verify {
			cls = w.newClass(int(key), h, int(d))
			cnt = w.cnt
		}
		if cnt[cls] == 0 {
			w.touched = append(w.touched, cls)
		}
		cnt[cls]++
		if dragon {
			w.results = append(w.results, uint8(w.classes[cls].winner))
		}
		hands++
	}
	w.endShoe(hands, min(pos, n))
}

// count adds a coup of class cls outside the dealing loop (which does the same inline).
func (w *worker) count(cls uint16) {
	if w.cnt[cls] == 0 {
		w.touched = append(w.touched, cls)
	}
	w.cnt[cls]++
	if w.t.dragon {
		w.results = append(w.results, uint8(w.classes[cls].winner))
	}
}

// lastRound plays a round started with fewer than six cards left (a cut card placed within
// five cards of the end, so every card is shuffled); when the cards run out the round is void
// and the shoe ends (SPEC §2), signalled by returning n+1.
func (w *worker) lastRound(pos uint64) uint64 {
	cards := w.cards
	n := uint64(len(cards))
	rest := make([]baccarat.Card, n-pos)
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
	order := make([]baccarat.Card, 4+draws&1+draws>>1)
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
		w.cnt = append(w.cnt, 0)
		w.total = append(w.total, 0)
		id = uint16(len(w.classes) - 1)
		w.rows[c.sig()] = id
	}
	w.keyClass[key] = id
	return id
}

// endShoe settles the shoe's coups, bet by bet, from its class counts.
func (w *worker) endShoe(hands, dealt uint64) {
	nb := len(w.bets)
	w.shoeNet = [maxBets]int64{}
	for _, cls := range w.touched {
		k := w.cnt[cls]
		c := &w.classes[cls]
		w.total[cls] += uint64(k)
		for b := 0; b < nb; b++ {
			w.shoeNet[b] += int64(k) * c.nets[b]
		}
		w.cnt[cls] = 0
	}
	w.touched = w.touched[:0]
	for b := range w.bets {
		w.bets[b].add(w.shoeNet[b], hands)
	}
	w.hands += hands
	w.shoes++
	w.dealt += dealt
}

// countSessions splits the chunk's results into consecutive sessions of each length (shoe
// changes inside a session do not break it, Dragon 3.11) and records each session's longest
// streaks, capped at 7. An unfinished session at the chunk's end is dropped.
func (w *worker) countSessions() {
	for i, L := range w.t.sessions {
		for start := 0; start+L <= len(w.results); start += L {
			b, p := streaks(w.results[start : start+L])
			w.sessions[i][0][b]++
			w.sessions[i][1][p]++
			w.sessions[i][2][max(b, p)]++
		}
	}
}

// The streak automaton: a state is side<<3 | run (side: the baccarat.Winner of the current
// run, 0 before any; run capped at 7); streakNext[state<<2 | result] is the state after a
// result, a Tie leaving it as it is (Dragon 3.11). runBit marks the run length a state has
// reached for the Banker (index 0) and the Player (1), so a session's longest runs are the
// highest bits of two ORs: no branches on the results.
var streakNext, runBit = func() (next [128]uint8, bit [2][32]uint8) {
	for side := 0; side < 3; side++ {
		for run := 0; run < 8; run++ {
			st := side<<3 | run
			for r := 1; r <= 3; r++ {
				ns := st
				switch {
				case baccarat.Winner(r) == baccarat.Tie:
				case r == side:
					ns = side<<3 | min(run+1, 7)
				default:
					ns = r<<3 | 1
				}
				next[st<<2|r] = uint8(ns)
			}
			switch baccarat.Winner(side) {
			case baccarat.BankerWins:
				bit[0][st] = 1 << run
			case baccarat.PlayerWins:
				bit[1][st] = 1 << run
			}
		}
	}
	return next, bit
}()

// streaks is the longest Banker and Player runs of a session, capped at 7.
func streaks(results []uint8) (banker, player int) {
	var st, mb, mp uint8
	for _, r := range results {
		st = streakNext[(st<<2|r&3)&127]
		mb |= runBit[0][st&31]
		mp |= runBit[1][st&31]
	}
	return bits.Len8(mb) - 1 + b2i(mb == 0), bits.Len8(mp) - 1 + b2i(mp == 0)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var mod10 = func() (m [256]uint8) {
	for i := range m {
		m[i] = uint8(i % 10)
	}
	return m
}()
