package baccarat

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
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
	return sha256.Sum256([]byte(commitText(order, salt)))
}

func commitText(order []Card, salt []byte) string {
	var b strings.Builder
	b.Grow(2*len(salt) + 1 + 2*len(order))
	b.WriteString(hex.EncodeToString(salt))
	b.WriteByte(':')
	for _, c := range order {
		b.WriteString(c.String())
	}
	return b.String()
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
