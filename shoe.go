package baccarat

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// Source is where a shuffle's randomness comes from: one method, the same as math/rand/v2's
// Source, so any of its generators can be used for tests, simulation and replay.
type Source interface {
	Uint64() uint64
}

// CryptoSource returns the production source: the operating system's CSPRNG through
// crypto/rand (SPEC §2). It is the default of every shoe that is shuffled for real money.
func CryptoSource() Source { return cryptoSource{} }

type cryptoSource struct{}

func (cryptoSource) Uint64() uint64 {
	var b [8]byte
	_, _ = crand.Read(b[:]) // crypto/rand.Read never returns an error (Go ≥ 1.24)
	return binary.LittleEndian.Uint64(b[:])
}

// SeededSource returns a reproducible source for tests, simulation and replay. It is never
// the production default.
func SeededSource(seed uint64) Source {
	return rand.NewPCG(seed, 0x9e3779b97f4a7c15)
}

// Uniform returns an unbiased integer in [0, n) from src (Lemire's multiply-and-reject
// method), for n > 0.
func Uniform(src Source, n uint64) uint64 {
	hi, lo := bits.Mul64(src.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), n)
		}
	}
	return hi
}

// Shoe is a dealing shoe: an ordered list of cards, the next position to deal, and the cut
// card. Cards behind the cut card are still dealt to finish a round (Tiger 3.17); CutReached
// tells the table to end the shoe after the round.
type Shoe struct {
	cards []Card
	next  int
	cut   int
}

// NewShoe returns an unshuffled shoe of the given number of decks, the cut card at the end.
func NewShoe(decks int) *Shoe {
	s := &Shoe{cards: make([]Card, 0, decks*NumCards)}
	for d := 0; d < decks; d++ {
		for k := Card(0); k < NumCards; k++ {
			s.cards = append(s.cards, k)
		}
	}
	s.cut = len(s.cards)
	return s
}

// NewShoeFromOrder returns a shoe that deals exactly the given cards in order (a replay of a
// revealed shoe, a test, or a scenario).
func NewShoeFromOrder(order []Card) *Shoe {
	return &Shoe{cards: append([]Card(nil), order...), cut: len(order)}
}

// Shuffle puts every card back and shuffles the whole shoe: Fisher–Yates with unbiased bounded
// draws from src (CryptoSource in production).
func (s *Shoe) Shuffle(src Source) {
	for i := len(s.cards) - 1; i > 0; i-- {
		j := Uniform(src, uint64(i+1))
		s.cards[i], s.cards[j] = s.cards[j], s.cards[i]
	}
	s.next = 0
}

// SetCut places the cut card so that behind it lie the given number of cards. Placing it
// outside the shoe puts it at the nearest end.
func (s *Shoe) SetCut(behind int) {
	s.cut = min(max(len(s.cards)-behind, 0), len(s.cards))
}

// Cut is the position (0-based) of the first card behind the cut card.
func (s *Shoe) Cut() int { return s.cut }

// Draw deals the next card; ok is false when the shoe is empty.
func (s *Shoe) Draw() (c Card, ok bool) {
	if s.next >= len(s.cards) {
		return 0, false
	}
	c = s.cards[s.next]
	s.next++
	return c, true
}

// Undealt returns the cards not yet dealt, in order. The slice aliases the shoe.
func (s *Shoe) Undealt() []Card { return s.cards[s.next:] }

// Advance marks n more cards as dealt (after a caller dealt them from Undealt).
func (s *Shoe) Advance(n int) { s.next = min(s.next+n, len(s.cards)) }

// Remaining is the number of cards not yet dealt.
func (s *Shoe) Remaining() int { return len(s.cards) - s.next }

// Len is the number of cards in the shoe.
func (s *Shoe) Len() int { return len(s.cards) }

// CutReached reports whether the cut card has come out: the shoe ends after this round.
func (s *Shoe) CutReached() bool { return s.next >= s.cut }

// Order returns a copy of the whole shoe's order (for the commitment reveal).
func (s *Shoe) Order() []Card { return append([]Card(nil), s.cards...) }

// Counts is the composition of the cards not yet dealt.
func (s *Shoe) Counts() Counts {
	var c Counts
	for _, k := range s.cards[s.next:] {
		c.add(k, 1)
	}
	return c
}
