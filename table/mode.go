package table

import "github.com/tablehouse/baccarat"

// Mode is how a table gets its cards.
type Mode string

// The modes. On an automatic table the server shuffles, deals and paces every round, and
// nobody else may send a dealing command: a dealer's token cannot reach into an RNG shoe.
const (
	ModeAuto   Mode = "auto"   // the server's RNG shoe, paced by its schedule
	ModeDealer Mode = "dealer" // a dealer deals from a card-reading shoe or the console
)

func (m Mode) check() error {
	if m != ModeAuto && m != ModeDealer {
		return baccarat.Errorf(baccarat.CodeBadRequest, "mode %q: a table is %q (the server's RNG shoe) or %q (a dealer deals)", m, ModeAuto, ModeDealer)
	}
	return nil
}

// UnmarshalText reads a mode, refusing any other.
func (m *Mode) UnmarshalText(b []byte) error {
	v := Mode(b)
	if v == "" {
		*m = ""
		return nil
	}
	if err := v.check(); err != nil {
		return err
	}
	*m = v
	return nil
}
