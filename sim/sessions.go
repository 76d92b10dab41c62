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
// each session of every length is the fold of its blocks' summaries (see foldBits): one pass
// over the results, not one per session length.
func (w *worker) countSessions() {
	g := w.t.block
	blocks := w.blocks[:int(w.nr)/g]
	for i := range blocks {
		blocks[i] = summarize(w.results[i*g : (i+1)*g])
	}
	for i, L := range w.t.sessions {
		tallySessions(&w.sessions[i], blocks, L/g)
	}
}

// tallySessions counts the sessions of n blocks each by their longest Banker streak<<3 |
// longest Player streak; the report adds them up by side. It folds the blocks in one pass
// (as foldBits does), starting afresh after each session's last block. It is not inlined, so
// that its loop has the registers to itself.
//
//go:noinline
func tallySessions(tally *[64]uint64, blocks []uint32, n int) {
	var st, bits uint32
	last := n - 1
	for i, s := range blocks {
		x := join[(st|s&joinMask)&(uint32(len(join))-1)] | s
		bits |= x
		st = x & tailMask
		if i == last {
			tally[(longestRun[uint8(bits>>bitsShift)]<<3|longestRun[bits>>(bitsShift+8)])&63]++
			st, bits, last = 0, 0, last+n
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
	return int(longestRun[mb]), int(longestRun[mp])
}

// A block's summary is what the automaton needs to cross it from any state:
//
//	bits  0–4   lead: the state its first run leaves from an empty start (0: all ties)
//	bit   5     whole: the block is one run (ties aside), so the state after it depends on the state before
//	bits  6–10  tail: the state after it otherwise (0 if whole)
//	bits 16–31  inner: the run bits (as runBits) of its later runs, which no state before it can lengthen
//
// Only the first run can join the run in progress when the block starts. join is indexed by
// the state before the block, <<6, | the summary's bits 0–5, and gives the state after the
// first run <<6, only if the block is whole, | its run bits <<16: so a block's summary | its
// join entry has the state after the block in bits 6–10 and run bits above, and folding a
// block takes two loads and a few ORs and masks, with no branch.
const (
	wholeBit  = 1 << 5
	joinMask  = 63 // lead and whole
	tailShift = 6
	tailMask  = 31 << tailShift
	bitsShift = 16
)

// summarize is a block's summary, from a walk of it from an empty start (see walk).
func summarize(results []uint8) uint32 {
	var x, acc uint64 // x: the walk's state, <<2
	for _, r := range results {
		e := walk[(x|uint64(r))&255]
		acc |= e
		x = e & 0xfc
	}
	lead := uint32(leadOf[0][uint8(acc>>8)] | leadOf[1][uint8(acc>>16)])
	if x&(firstDone<<2) == 0 {
		return lead | wholeBit
	}
	return lead | uint32(x>>2&31)<<tailShift | uint32(acc>>24)<<bitsShift
}

// walk[state<<2 | result] is the walk's state after a result, <<2, | the run bits of the
// automaton's new state (as runBits), <<8 while the block's first run lasts and <<24 after
// it. The walk's state is the automaton's | firstDone once the first run has ended, so that a
// block is summed up without a branch: its first run from the bits it ORs <<8 (leadOf), its
// inner runs from those <<24.
var walk = func() (t [256]uint64) {
	for st := range 32 {
		for r := 1; r <= 3; r++ {
			ns := streakNext[st<<2|r]
			bits := uint64(runBits[ns&31])
			for _, done := range []int{0, firstDone} {
				next := int(ns) | done
				if st>>3 != 0 && int(ns)>>3 != st>>3 {
					next |= firstDone // a run of the other side: the first run ends here
				}
				e := uint64(next) << 2
				if next&firstDone == 0 {
					e |= bits << 8
				} else {
					e |= bits << 24
				}
				t[(st|done)<<2|r] = e
			}
		}
	}
	return t
}()

// firstDone marks the walk's states after the block's first run.
const firstDone = 32

// leadOf[0][m] and leadOf[1][m] are the state a first run leaves from its Banker and Player
// run bits m: the first run has one side, so the other's are 0, and so is its leadOf.
var leadOf = func() (t [2][256]uint8) {
	for m := 1; m < 256; m++ {
		t[0][m] = uint8(baccarat.BankerWins)<<3 | longestRun[m]
		t[1][m] = uint8(baccarat.PlayerWins)<<3 | longestRun[m]
	}
	return t
}()

// join[state<<6 | whole | lead] is what crossing a block's first run, lead (see summarize),
// from state gives: the state after it <<6 if the block is whole (0 otherwise, the summary's
// tail then saying it), | its run bits <<16. The run grows on when the block's first run has
// the state's side.
var join = func() (t [2048]uint32) {
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
			bits := uint32(runBits[next&31]) << bitsShift
			t[st<<tailShift|lead] = bits
			t[st<<tailShift|wholeBit|lead] = bits | uint32(next)<<tailShift
		}
	}
	return t
}()

// fold is the longest Banker and Player runs of a session made of the blocks summarized.
func fold(blocks []uint32) (banker, player int) {
	bits := foldBits(blocks)
	return int(longestRun[uint8(bits)]), int(longestRun[uint8(bits>>8)])
}

// foldBits is the run bits of a session made of the blocks summarized: the Banker's | the
// Player's<<8.
func foldBits(blocks []uint32) uint32 {
	var st, bits uint32 // st: the state<<6
	for _, s := range blocks {
		x := join[(st|s&joinMask)&(uint32(len(join))-1)] | s
		bits |= x
		st = x & tailMask
	}
	return bits >> bitsShift
}

// longestRun[m] is the longest run marked in run bits m for one side: the highest bit set, 0
// when none is.
var longestRun = func() (t [256]uint8) {
	for m := range t {
		t[m] = uint8(bits.Len8(uint8(m)) - 1 + b2i(m == 0))
	}
	return t
}()
