package baccarat

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
)

// Commitment is the published promise of a shuffled shoe's order (SPEC §2): the SHA-256 of
// the order and a secret salt, shown before the first card, so that when the shoe ends and
// order and salt are revealed anyone can check that no card was changed.
//
// The hashed text is the salt in lower-case hex, a colon, then every card of the shoe in
// canonical form with no separators, first card first:
//
//	printf '%s' "0a1b…:Ah7dTs…" | sha256sum
type Commitment [sha256.Size]byte

// Commit computes the commitment of order under salt.
func Commit(order []Card, salt []byte) Commitment {
	// The text is hashed as it is written, a block at a time: a shoe's commitment costs a
	// few microseconds and allocates nothing, at the shuffle and again at the reveal.
	h := sha256.New()
	var buf [256]byte
	b := buf[:0]
	for _, x := range salt {
		if len(b)+2 > len(buf) {
			h.Write(b)
			b = b[:0]
		}
		b = append(b, hexDigits[x>>4], hexDigits[x&15])
	}
	b = append(b, ':')
	for _, c := range order {
		if len(b)+2 > len(buf) {
			h.Write(b)
			b = b[:0]
		}
		b = appendCard(b, c)
	}
	h.Write(b)
	var out Commitment
	h.Sum(out[:0])
	return out
}

const hexDigits = "0123456789abcdef"

// appendCard appends a card's two-letter text form (Ah, Td, ??).
func appendCard(b []byte, c Card) []byte {
	if !c.Valid() {
		return append(b, '?', '?')
	}
	return append(b, rankLetters[c.Rank()-1], suitLetters[c.Suit()])
}

// commitText is the text Commit hashes, for people checking a reveal by hand.
func commitText(order []Card, salt []byte) string {
	b := make([]byte, 0, 2*len(salt)+1+2*len(order))
	b = append(b, hex.EncodeToString(salt)...)
	b = append(b, ':')
	for _, c := range order {
		b = appendCard(b, c)
	}
	return string(b)
}

// String is the commitment in lower-case hex.
func (c Commitment) String() string { return hex.EncodeToString(c[:]) }

// MarshalText writes the commitment in hex.
func (c Commitment) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a commitment in hex.
func (c *Commitment) UnmarshalText(b []byte) error {
	v, err := ParseCommitment(string(b))
	if err == nil {
		*c = v
	}
	return err
}

// ParseCommitment reads a commitment in hex.
func ParseCommitment(s string) (Commitment, error) {
	var c Commitment
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(c) {
		return c, Errorf(CodeBadRequest, "%q is not a SHA-256 commitment: want 64 hex digits", s)
	}
	copy(c[:], b)
	return c, nil
}

// Reveal is what is published when a shoe ends: its whole order and the salt.
type Reveal struct {
	Order []Card
	Salt  []byte
}

// Verify reports whether the reveal matches the commitment. It compares in constant time.
func (r Reveal) Verify(c Commitment) bool {
	h := Commit(r.Order, r.Salt)
	return subtle.ConstantTimeCompare(h[:], c[:]) == 1
}

// NewSalt returns 16 bytes of fresh salt from src.
func NewSalt(src Source) []byte {
	b := make([]byte, 16)
	for i := 0; i < len(b); i += 8 {
		v := src.Uint64()
		for j := 0; j < 8; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}
