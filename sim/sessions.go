package sim

import (
	"math/bits"

	"github.com/tablehouse/baccarat"
)

// countSessions splits the chunk's results into consecutive sessions of each length (shoe
// changes inside a session do not break it, Dragon 3.11) and records each session's longest
// streaks, capped at 7. An unfinished session at the chunk's end is dropped.
//
// Every session length is a multiple of the block, the lengths' greatest common divisor (10
// for the default lengths). The results are summed up block by block once (summarize), and
// each session of every length is the fold of its blocks' summaries (fold): one pass over
// the results, not one per session length.
func (w *worker) countSessions() {
	g := w.t.block
	blocks := w.blocks[:w.nr/g]
	for i := range blocks {
		blocks[i] = summarize(w.results[i*g : (i+1)*g])
	}
	for i, L := range w.t.sessions {
		n := L / g
		for s := 0; s+n <= len(blocks); s += n {
			b, p := fold(blocks[s : s+n])
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

// runBits[state] is runBit[0][state] | runBit[1][state]<<8.
var runBits = func() (t [32]uint16) {
	for st := range t {
		t[st] = uint16(runBit[0][st]) | uint16(runBit[1][st])<<8
	}
	return t
}()

// streaks is the longest Banker and Player runs of a session, capped at 7, by the automaton
// one result at a time.
func streaks(results []uint8) (banker, player int) {
	var st, mb, mp uint8
	for _, r := range results {
		st = streakNext[(st<<2|r&3)&127]
		mb |= runBit[0][st&31]
		mp |= runBit[1][st&31]
	}
	return longest(uint16(mb)), longest(uint16(mp))
}

// A block's summary is what the automaton needs to cross it from any state:
//
//	bits  0–4   lead: the state its first run leaves from an empty start (0: all ties)
//	bit   5     whole: the block is one run (ties aside), so the state after it depends on the state before
//	bits  6–10  tail: the state after it otherwise
//	bits 11–26  inner: the run bits (as runBits) of its later runs, which no state before it can lengthen
//
// Only the first run can join the run in progress when the block starts.
const (
	leadMask  = 31
	wholeBit  = 1 << 5
	tailShift = 6
	bitsShift = 11
)

// summarize is a block's summary.
func summarize(results []uint8) uint32 {
	var st uint8
	i := 0
	for ; i < len(results); i++ {
		ns := streakNext[(st<<2|results[i]&3)&127]
		if st>>3 != 0 && ns>>3 != st>>3 {
			break // the first run ends
		}
		st = ns
	}
	sum := uint32(st)
	if i == len(results) {
		return sum | wholeBit | uint32(st)<<tailShift
	}
	var inner uint16
	for ; i < len(results); i++ {
		st = streakNext[(st<<2|results[i]&3)&127]
		inner |= runBits[st&31]
	}
	return sum | uint32(st)<<tailShift | uint32(inner)<<bitsShift
}

// join[state<<5 | lead] is the state after a block's first run, lead (see summarize), from
// state | its run bits<<8: the run grows on when the block's first run has its side.
var join = func() (t [1024]uint32) {
	for st := range 32 {
		for lead := range 32 {
			side, run := lead>>3, lead&7
			next := st // a block of ties changes nothing
			if side != 0 {
				if st>>3 == side {
					run = min(7, st&7+run)
				}
				next = side<<3 | run
			}
			t[st<<5|lead] = uint32(next) | uint32(runBits[next&31])<<8
		}
	}
	return t
}()

// fold is the longest Banker and Player runs of a session made of the blocks summarized.
func fold(blocks []uint32) (banker, player int) {
	var st, bits uint32
	for _, s := range blocks {
		j := join[(st<<5|s&leadMask)&1023]
		bits |= j>>8 | s>>bitsShift
		st = s >> tailShift & 31
		if s&wholeBit != 0 {
			st = j & 31
		}
	}
	return longest(uint16(bits & 0xff)), longest(uint16(bits >> 8 & 0xff))
}

// longest is the longest run marked in a session's run bits for one side: the highest bit
// set, 0 when none is.
func longest(m uint16) int { return bits.Len16(m) - 1 + b2i(m == 0) }
