package protect

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tablehouse/baccarat"
)

// Order is one shoe given card by card: its cards in deal order (they are also its whole
// composition), and the line of the file it came from (0 when it came from no file).
type Order struct {
	Cards []baccarat.Card
	Line  int
}

// where names the shoe in an error: its line, or its place in the run.
func (o *Order) where(index int) string {
	if o.Line > 0 {
		return fmt.Sprintf("line %d", o.Line)
	}
	return fmt.Sprintf("shoe %d", index)
}

// OrderSource yields shoes one at a time, so a long audit file is never held in memory.
// Next returns io.EOF after the last shoe. The slice an Order holds must stay unchanged
// once returned.
type OrderSource interface {
	Next() (Order, error)
}

// Orders is an OrderSource over shoes already in memory (tests, examples, replays).
func Orders(shoes [][]baccarat.Card) OrderSource { return &sliceOrders{shoes: shoes} }

type sliceOrders struct {
	shoes [][]baccarat.Card
	i     int
}

func (s *sliceOrders) Next() (Order, error) {
	if s.i >= len(s.shoes) {
		return Order{}, io.EOF
	}
	s.i++
	return Order{Cards: s.shoes[s.i-1]}, nil
}

// ReadOrders reads shoes from text: one shoe a line, its cards in deal order separated by
// commas (Ah,7d,Ts,…; spaces are allowed too, and any form baccarat.ParseCard reads). Blank
// lines and lines starting with # are skipped. A card that is not a card is an error naming
// its line and its place on the line.
func ReadOrders(r io.Reader) OrderSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	return &textOrders{sc: sc}
}

type textOrders struct {
	sc   *bufio.Scanner
	line int
}

func (t *textOrders) Next() (Order, error) {
	for t.sc.Scan() {
		t.line++
		s := strings.TrimSpace(t.sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		cards, err := baccarat.ParseCards(s)
		if err != nil {
			return Order{}, baccarat.Errorf(baccarat.CodeBadCard, "line %d: %s", t.line, err)
		}
		return Order{Cards: cards, Line: t.line}, nil
	}
	if err := t.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Order{}, baccarat.Errorf(baccarat.CodeBadShoe, "line %d: longer than 1 MB, more than any shoe", t.line+1)
		}
		return Order{}, err
	}
	return Order{}, io.EOF
}

// checkOrder refuses a shoe that decks full decks cannot contain (a card more times than
// there are decks) or too short to deal a hand before the deepest cut card asked for comes
// out (a hand starts while more cards than its depth are left).
func checkOrder(o *Order, index, decks, maxCut int) error {
	var n [baccarat.NumCards]int
	for i, k := range o.Cards {
		if !k.Valid() {
			return baccarat.Errorf(baccarat.CodeBadCard, "%s: card %d is not one of the 52 cards", o.where(index), i+1)
		}
		if n[k]++; n[k] > decks {
			return baccarat.Errorf(baccarat.CodeCardNotInShoe,
				"%s: card %d is the %s copy of %s, and %d decks hold %d: the shoe cannot contain it",
				o.where(index), i+1, ordinal(n[k]), k, decks, decks)
		}
	}
	if len(o.Cards) <= maxCut {
		return baccarat.Errorf(baccarat.CodeBadShoe,
			"%s: %d cards: with %d cards behind the cut card a shoe needs %d or more to deal a hand",
			o.where(index), len(o.Cards), maxCut, maxCut+1)
	}
	return nil
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprint(n) + suffix
}
