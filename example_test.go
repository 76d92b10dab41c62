package baccarat_test

import (
	"fmt"

	"github.com/tablehouse/baccarat"
)

// A coup is dealt P1 B1 P2 B2, then third cards by the Table of Play.
func ExampleDeal() {
	cards, _ := baccarat.ParseCards("7h,Kd,2c,9s")
	r, used, _ := baccarat.Deal(cards)
	fmt.Println(r, "|", r.Winner, r.PlayerTotal, r.BankerTotal, "natural:", r.Natural, "cards:", used)
	// Output: P 7h 2c | B Kd 9s | tie 9 9 natural: true cards: 4
}

// The coup notation round-trips and is checked against the Table of Play.
func ExampleParseCoup() {
	r, _ := baccarat.ParseCoup("P 2h 3c 9d | B 3d 4s")
	fmt.Println(r.Winner, r.PlayerTotal, r.BankerTotal)
	_, err := baccarat.ParseCoup("P 7h Kd 2c | B 9c Qs")
	fmt.Println(err)
	// Output:
	// banker 4 7
	// "P 7h Kd 2c | B 9c Qs" breaks the Table of Play: it deals P 7h Kd | B 9c Qs
}

// A seeded shoe is reproducible; a live shoe uses CryptoSource.
func ExampleShoe() {
	s := baccarat.NewShoe(8)
	s.Shuffle(baccarat.SeededSource(2026))
	s.SetCut(14)
	first := s.Undealt()[:6]
	r, used, _ := baccarat.Deal(first)
	s.Advance(used)
	fmt.Println(r, r.Winner, s.Remaining(), s.CutReached())
	// Output: P Ad Js 3s | B 3d Kh 6h banker 410 false
}

// A shoe's commitment is published at the shuffle and verified at the reveal.
func ExampleCommit() {
	s := baccarat.NewShoe(1)
	s.Shuffle(baccarat.SeededSource(1))
	salt := []byte("example salt")
	c := baccarat.Commit(s.Order(), salt)
	fmt.Println(baccarat.Reveal{Order: s.Order(), Salt: salt}.Verify(c))
	// Output: true
}

// Ratio payouts are rounded down to the minor unit.
func ExampleRatio_Net() {
	fmt.Println(baccarat.Ratio{Num: 1, Den: 2}.Net(1005))
	// Output: 502
}
