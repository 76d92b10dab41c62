package sim

import "github.com/tablehouse/baccarat"

// A card in a worker's deck is a word that the dealing loop reads once and takes apart with a
// mask or two: its value three times over, placed for each part the card can play in the Table
// of Play, and the baccarat.Card itself for pairs.
//
//	bits  0–4   value, as a Banker card, and as the sixth card
//	bits  5–9   value<<5, as a Player card
//	bits 10–13  value<<10, as the fifth card
//	bits 26–31  the baccarat.Card, on top so that two cards' XOR shifted down needs no mask
//
// The Banker and Player fields have room for the sum of two cards and nothing below them
// carries into them, so two words added and masked give the two cards' raw sum (0–18), and the
// step index, Banker sum | Player sum<<5 | fifth card<<10, is two masked sums and a masked word
// ORed: no shifts, no multiplications, and so a short chain from one coup's cards to where the
// next coup starts.
const (
	bankerField = 0x1f
	playerField = 0x3e0
	fifthField  = 0x3c00
	cardShift   = 26
)

// cardWord is k as a deck holds it.
func cardWord(k baccarat.Card) uint32 {
	v := uint32(k.Value())
	return v | v<<5 | v<<10 | uint32(k)<<cardShift
}

// wordCard is the card a deck word holds.
func wordCard(w uint32) baccarat.Card { return baccarat.Card(w >> cardShift) }

// A step is the dealing loop's reading of the Table of Play for one coup, from its step index:
//
//	bits 0–2   the cards the coup takes, 4–6
//	bits 4–12  row: the coup key's cell, (Player draws + 2·Banker draws)·100 + P·10 + B, but
//	           with the Banker's two-card total for B when both hands draw (the Banker's third
//	           card is then the sixth, which the index does not see)
//
// so that a coup's cell is cells[row<<4 | the sixth card's value], one load.
const (
	stepCards = 7
	stepRow   = 0x1ff0 // row<<4
)

// steps is indexed by the step index (see the card words); indices no coup can produce hold 0.
// It lives in each worker (dealTables), next to the rest of the loop's data.
var steps = func() (t [1 << 14]uint16) {
	for sp := 0; sp < 19; sp++ {
		for sb := 0; sb < 19; sb++ {
			for x := 0; x < 10; x++ {
				t[sb|sp<<5|x<<10] = step(sp%10, sb%10, x)
			}
		}
	}
	return t
}()

// step is the steps entry of a coup whose first two cards make p for the Player and b for the
// Banker, and whose fifth card is worth x (whether or not it is drawn).
func step(p, b, x int) uint16 {
	pd, bd := 0, 0
	switch {
	case p >= 8 || b >= 8: // a natural: nobody draws (MBS 3.9.1)
	case baccarat.PlayerDraws(p):
		pd = 1
		if baccarat.BankerDraws(b, x) {
			bd = 1
		}
	case baccarat.BankerDraws(b, -1):
		bd = 1
	}
	switch {
	case pd == 1: // the Player's third card is the fifth; the Banker's, if drawn, the sixth
		p = (p + x) % 10
	case bd == 1:
		b = (b + x) % 10
	}
	row := (pd+2*bd)*100 + p*10 + b
	return uint16(row<<4 | 4 + pd + bd)
}

// cells[row<<4 | y] is the cell of a coup of step row (see step) whose sixth card is worth y.
var cells = func() (t [stepRow + 16]uint16) {
	for row := 0; row < nCells; row++ {
		for y := 0; y < 10; y++ {
			cell := row
			if row >= 300 { // both drew: the Banker's third card is the sixth
				cell = row - row%10 + (row%10+y)%10
			}
			t[row<<4|y] = uint16(cell)
		}
	}
	return t
}()

// pairTerms[0][k₀ ^ k₂] and pairTerms[1][k₁ ^ k₃] are a coup key's pair terms and
// pairTerms[2][k₀ ^ k₁] its same-rank term (see the coup key), from the baccarat.Cards of the
// first four cards: their XOR is 0 for identical cards and below 4 for cards of one rank.
var pairTerms = func() (t [3][64]uint16) {
	for x := range 64 {
		kind := b2i(x < 4) + b2i(x == 0)
		t[0][x] = uint16(kind * 3 * 2 * nCells)
		t[1][x] = uint16(kind * 2 * nCells)
		t[2][x] = uint16(b2i(x < 4) * nCells)
	}
	return t
}()

// dealTables are the dealing loop's tables, copied into every worker so that the loop reaches
// them, its deck and its counters from one register.
type dealTables struct {
	steps     [1 << 14]uint16
	cells     [stepRow + 16]uint16
	pairTerms [3][64]uint16
}
