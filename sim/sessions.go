package sim

import (
	"math/bits"

	"github.com/tablehouse/baccarat"
)

// countSessions splits the chunk's results into consecutive sessions of each length (shoe
// changes inside a session do not break it, Dragon 3.11) and records each session's longest
// streaks, capped at 7. An unfinished session at the chunk's end is dropped.
//
// Following one session is a chain of dependent table lookups, one per hand, so sessions are
// followed four at a time (streaks4), four chains side by side; streaks, the same automaton
// one session at a time, takes the rest.
func (w *worker) countSessions() {
	for i, L := range w.t.sessions {
		start := 0
		for ; start+4*L <= w.nr; start += 4 * L {
			r := w.results[start : start+4*L]
			for _, bp := range streaks4(r[:L], r[L:2*L], r[2*L:3*L], r[3*L:]) {
				w.session(i, longest(bp&0xff), longest(bp>>8))
			}
		}
		for ; start+L <= w.nr; start += L {
			b, p := streaks(w.results[start : start+L])
			w.session(i, b, p)
		}
	}
}

func (w *worker) session(i, banker, player int) {
	w.sessions[i][0][banker]++
	w.sessions[i][1][player]++
	w.sessions[i][2][max(banker, player)]++
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

// runBits[state] is runBit[0][state] | runBit[1][state]<<8.
var runBits = func() (t [32]uint16) {
	for st := range t {
		t[st] = uint16(runBit[0][st]) | uint16(runBit[1][st])<<8
	}
	return t
}()

// streaks is the longest Banker and Player runs of a session, capped at 7.
func streaks(results []uint8) (banker, player int) {
	var st, mb, mp uint8
	for _, r := range results {
		st = streakNext[(st<<2|r&3)&127]
		mb |= runBit[0][st&31]
		mp |= runBit[1][st&31]
	}
	return longest(uint16(mb)), longest(uint16(mp))
}

// streaks4 follows four sessions of one length at once, as streaks does one, and returns
// each one's run bits, Banker | Player<<8.
func streaks4(a, b, c, d []uint8) [4]uint16 {
	b, c, d = b[:len(a)], c[:len(a)], d[:len(a)]
	var sa, sb, sc, sd uint8
	var ma, mb, mc, md uint16
	for i, r := range a {
		sa = streakNext[(sa<<2|r&3)&127]
		sb = streakNext[(sb<<2|b[i]&3)&127]
		sc = streakNext[(sc<<2|c[i]&3)&127]
		sd = streakNext[(sd<<2|d[i]&3)&127]
		ma |= runBits[sa&31]
		mb |= runBits[sb&31]
		mc |= runBits[sc&31]
		md |= runBits[sd&31]
	}
	return [4]uint16{ma, mb, mc, md}
}

// longest is the longest run marked in a session's run bits for one side: the highest bit
// set, 0 when none is.
func longest(m uint16) int { return bits.Len16(m) - 1 + b2i(m == 0) }
