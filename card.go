// Package baccarat is the game itself: cards, shoes, the Table of Play, the coup and its
// result, money, and the text notation for all of them. It has no third-party imports and
// does no I/O; every other package of the platform builds on it.
//
// The rules follow the five rule documents the platform implements (see SPEC.md §1–§2):
// card values, the deal order P1 B1 P2 B2, the third-card rules and pairs are identical in
// all of them.
package baccarat

import (
	"strings"
)

// Rank is a card's rank, Ace through King. The zero Rank is invalid.
type Rank uint8

// The thirteen ranks.
const (
	Ace Rank = iota + 1
	Two
	Three
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
)

// Ranks lists every rank in order, Ace first.
var Ranks = [13]Rank{Ace, Two, Three, Four, Five, Six, Seven, Eight, Nine, Ten, Jack, Queen, King}

const rankLetters = "A23456789TJQK"

// Valid reports whether r is one of the thirteen ranks.
func (r Rank) Valid() bool { return r >= Ace && r <= King }

// Value is the rank's point value (MBS 3.3): Ace 1, Two to Nine their face value, Ten and
// the face cards 0.
func (r Rank) Value() int {
	if r >= Ten {
		return 0
	}
	return int(r)
}

// String is the rank's letter: A 2 … 9 T J Q K.
func (r Rank) String() string {
	if !r.Valid() {
		return "?"
	}
	return rankLetters[r-1 : r]
}

// Suit is a card's suit. Suits never affect a hand's total; they matter only to perfect pairs
// and to the shoe's composition.
type Suit uint8

// The four suits, in the order of their letters c d h s.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
)

// Suits lists the four suits.
var Suits = [4]Suit{Clubs, Diamonds, Hearts, Spades}

const suitLetters = "cdhs"

// String is the suit's lower-case letter.
func (s Suit) String() string {
	if s > Spades {
		return "?"
	}
	return suitLetters[s : s+1]
}

// Card is one playing card. Cards are small values: the 52 cards are numbered 0–51 as
// (rank−1)·4 + suit, so a Card indexes arrays directly.
type Card uint8

// NumCards is the number of distinct cards in a standard deck.
const NumCards = 52

// NewCard returns the card of rank r and suit s.
func NewCard(r Rank, s Suit) Card { return Card((uint8(r)-1)*4 + uint8(s)) }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c < NumCards }

// Rank is the card's rank.
func (c Card) Rank() Rank { return Rank(c/4 + 1) }

// Suit is the card's suit.
func (c Card) Suit() Suit { return Suit(c % 4) }

// cardValue is the point value of each card, indexed by Card.
var cardValue = func() (v [NumCards]uint8) {
	for c := Card(0); c < NumCards; c++ {
		v[c] = uint8(c.Rank().Value())
	}
	return v
}()

// Value is the card's point value, 0–9.
func (c Card) Value() int { return int(cardValue[c%NumCards]) }

// String is the canonical text form: rank letter then suit letter, "Ah", "Td", "Ks".
func (c Card) String() string {
	if !c.Valid() {
		return "??"
	}
	return c.Rank().String() + c.Suit().String()
}

// MarshalText writes the canonical text form.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, Errorf(CodeBadCard, "card %d is not one of the 52 cards", c)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads any form ParseCard accepts.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCard reads a card in the text form of SPEC §1: a rank (A 2–9 T J Q K, or 10) followed
// by a suit (c d h s), in any letter case, surrounding spaces ignored: "Ah", "td", "10H".
func ParseCard(s string) (Card, error) {
	t := strings.TrimSpace(s)
	if len(t) < 2 || len(t) > 3 {
		return 0, Errorf(CodeBadCard, "%q is not a card: write rank then suit, such as Ah, Td or 10h", s)
	}
	rs, ss := t[:len(t)-1], t[len(t)-1]
	var r Rank
	switch {
	case rs == "10":
		r = Ten
	case len(rs) == 1:
		i := strings.IndexByte(rankLetters, upper(rs[0]))
		if i >= 0 {
			r = Rank(i + 1)
		}
	}
	if r == 0 {
		return 0, Errorf(CodeBadCard, "%q is not a card: rank %q is not one of A 2 3 4 5 6 7 8 9 T J Q K", s, rs)
	}
	si := strings.IndexByte(suitLetters, lower(ss))
	if si < 0 {
		return 0, Errorf(CodeBadCard, "%q is not a card: suit %q is not one of c d h s", s, string(ss))
	}
	return NewCard(r, Suit(si)), nil
}

// MustParseCard is ParseCard for literals in tests and examples; it panics on bad input.
func MustParseCard(s string) Card {
	c, err := ParseCard(s)
	if err != nil {
		panic(err)
	}
	return c
}

// ParseCards reads a list of cards separated by commas and/or spaces. An error names the bad
// token and its 1-based position in the list.
func ParseCards(s string) ([]Card, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	cards := make([]Card, 0, len(fields))
	for i, f := range fields {
		c, err := ParseCard(f)
		if err != nil {
			return nil, Errorf(CodeBadCard, "card %d %q is not a card: write rank then suit, such as Ah, Td or 10h", i+1, f)
		}
		cards = append(cards, c)
	}
	return cards, nil
}

// FormatCards writes cards in canonical form separated by sep.
func FormatCards(cards []Card, sep string) string {
	var b strings.Builder
	for i, c := range cards {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(c.String())
	}
	return b.String()
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

func lower(b byte) byte {
	if b >= 'A' && b <= 'Z' {
		return b - 'A' + 'a'
	}
	return b
}
