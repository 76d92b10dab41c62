package baccarat

import (
	"strings"
)

// Position is the place a card fills in a coup. Cards are always dealt in this order
// (MBS 3.7): P1 B1 P2 B2, then the Player's third card if the Table of Play draws it, then
// the Banker's.
type Position uint8

// The six positions, and NoPosition for "no card is due".
const (
	P1 Position = iota
	B1
	P2
	B2
	P3
	B3
	NoPosition
)

var positionNames = [...]string{"P1", "B1", "P2", "B2", "P3", "B3", "none"}

func (p Position) String() string {
	if p > NoPosition {
		return "?"
	}
	return positionNames[p]
}

// MarshalText writes the position's name (P1 … B3).
func (p Position) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a position's name.
func (p *Position) UnmarshalText(b []byte) error {
	for i, n := range positionNames {
		if n == string(b) {
			*p = Position(i)
			return nil
		}
	}
	return Errorf(CodeBadRequest, "%q is not a position (P1, B1, P2, B2, P3, B3)", b)
}

// Player reports whether the position belongs to the Player hand.
func (p Position) Player() bool { return p == P1 || p == P2 || p == P3 }

// PlayerDraws is the Table of Play for the Player (MBS 3.9.2): draw on 0–5, stand on 6–7.
// It is consulted only when neither hand has a natural.
func PlayerDraws(playerTotal int) bool { return playerTotal <= 5 }

// bankerDraws[b][t+1] is the Table of Play for the Banker (MBS 3.9.3–3.9.4): b is the
// Banker's two-card total (0–7; 8–9 are naturals), t the value of the Player's third card,
// or −1 when the Player stood.
var bankerDraws = func() (t [10][11]bool) {
	for b := 0; b <= 9; b++ {
		t[b][0] = b <= 5 // Player stood: Banker draws on 0–5 (MBS 3.9.3)
		for v := 0; v <= 9; v++ {
			var draw bool
			switch b {
			case 0, 1, 2:
				draw = true
			case 3:
				draw = v != 8
			case 4:
				draw = v >= 2 && v <= 7
			case 5:
				draw = v >= 4 && v <= 7
			case 6:
				draw = v == 6 || v == 7
			}
			t[b][v+1] = draw
		}
	}
	return t
}()

// BankerDraws is the Table of Play for the Banker. playerThird is the value of the Player's
// third card, or −1 when the Player stood. It is consulted only when neither hand has a
// natural.
func BankerDraws(bankerTotal, playerThird int) bool {
	return bankerDraws[bankerTotal][playerThird+1]
}

// Hand is the cards of one side, two or three.
type Hand struct {
	cards [3]Card
	n     uint8
}

// NewHand returns a hand of the given cards (at most three).
func NewHand(cards ...Card) Hand {
	var h Hand
	for _, c := range cards[:min(len(cards), 3)] {
		h.cards[h.n] = c
		h.n++
	}
	return h
}

// Len is the number of cards in the hand.
func (h Hand) Len() int { return int(h.n) }

// Card is the i-th card of the hand (0-based).
func (h Hand) Card(i int) Card { return h.cards[i] }

// Cards returns the hand's cards.
func (h Hand) Cards() []Card { return append([]Card(nil), h.cards[:h.n]...) }

// Total is the hand's point total: the sum of its card values mod 10 (MBS 3.4).
func (h Hand) Total() int {
	t := 0
	for _, c := range h.cards[:h.n] {
		t += int(cardValue[c])
	}
	return t % 10
}

// Pair reports whether the hand's first two cards are of the same rank (MBS 1.1.4; a Ten with
// a face card is not a pair, SPEC §1).
func (h Hand) Pair() bool { return h.n >= 2 && h.cards[0]/4 == h.cards[1]/4 }

// PerfectPair reports whether the first two cards are identical: same rank and suit.
func (h Hand) PerfectPair() bool { return h.n >= 2 && h.cards[0] == h.cards[1] }

func (h *Hand) add(c Card) {
	h.cards[h.n] = c
	h.n++
}

// Winner is who won a coup.
type Winner uint8

// The three results. The zero Winner means "not decided".
const (
	NoWinner Winner = iota
	PlayerWins
	BankerWins
	Tie
)

var winnerNames = [...]string{"none", "player", "banker", "tie"}

func (w Winner) String() string {
	if w > Tie {
		return "?"
	}
	return winnerNames[w]
}

// Letter is the scoreboard letter: P, B or T ("" for NoWinner).
func (w Winner) Letter() string {
	return [...]string{"", "P", "B", "T"}[w&3]
}

// ParseWinner reads a winner as a letter (P, B, T) or a name (player, banker, tie).
func ParseWinner(s string) (Winner, error) {
	switch s {
	case "P", "p", "player":
		return PlayerWins, nil
	case "B", "b", "banker":
		return BankerWins, nil
	case "T", "t", "tie":
		return Tie, nil
	}
	return NoWinner, Errorf(CodeBadRequest, "%q is not a winner: P, B or T", s)
}

// Result is a finished coup: everything any bet of any game settles on.
type Result struct {
	Player, Banker           Hand
	PlayerTotal, BankerTotal int
	Winner                   Winner
	// Natural: either two-card total is 8 or 9 (MBS 1.1.3).
	Natural bool
	// PlayerNatural, BankerNatural: that side's two-card total is 8 or 9.
	PlayerNatural, BankerNatural bool
	PlayerPair, BankerPair       bool
	// PerfectPair flags: the hand's first two cards are identical (BoB 1.16).
	PlayerPerfectPair, BankerPerfectPair bool
}

// Cards is the number of cards dealt in the coup: 4, 5 or 6.
func (r *Result) Cards() int { return r.Player.Len() + r.Banker.Len() }

// Dealt returns the cards in deal order.
func (r *Result) Dealt() []Card {
	d := []Card{r.Player.cards[0], r.Banker.cards[0], r.Player.cards[1], r.Banker.cards[1]}
	if r.Player.n == 3 {
		d = append(d, r.Player.cards[2])
	}
	if r.Banker.n == 3 {
		d = append(d, r.Banker.cards[2])
	}
	return d
}

// String is the coup notation: "P 7h Kd | B 9c Qs 4d".
func (r Result) String() string {
	return "P " + FormatCards(r.Player.cards[:r.Player.n], " ") + " | B " + FormatCards(r.Banker.cards[:r.Banker.n], " ")
}

// MarshalText writes the coup notation.
func (r Result) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads the coup notation.
func (r *Result) UnmarshalText(b []byte) error {
	v, err := ParseCoup(string(b))
	if err == nil {
		*r = v
	}
	return err
}

func finish(p, b Hand) Result {
	r := Result{Player: p, Banker: b, PlayerTotal: p.Total(), BankerTotal: b.Total()}
	p2 := (int(cardValue[p.cards[0]]) + int(cardValue[p.cards[1]])) % 10
	b2 := (int(cardValue[b.cards[0]]) + int(cardValue[b.cards[1]])) % 10
	r.PlayerNatural, r.BankerNatural = p2 >= 8, b2 >= 8
	r.Natural = r.PlayerNatural || r.BankerNatural
	r.PlayerPair, r.BankerPair = p.Pair(), b.Pair()
	r.PlayerPerfectPair, r.BankerPerfectPair = p.PerfectPair(), b.PerfectPair()
	switch {
	case r.PlayerTotal > r.BankerTotal:
		r.Winner = PlayerWins
	case r.BankerTotal > r.PlayerTotal:
		r.Winner = BankerWins
	default:
		r.Winner = Tie
	}
	return r
}

// Deal plays a coup from cards in deal order and returns its result and how many cards it
// used (4–6). It fails with CodeNeedCards, saying how many more are needed, when cards run
// out first; extra cards are left unused. It does not allocate.
func Deal(cards []Card) (Result, int, error) {
	var c Coup
	for _, k := range cards {
		if c.Done() {
			break
		}
		c.add(k)
	}
	if !c.Done() {
		return Result{}, int(c.n), c.needError()
	}
	return c.Result(), int(c.n), nil
}

// Coup is a coup being dealt one card at a time, as from a dealer's card-reading shoe. It
// always knows which position the next card fills.
type Coup struct {
	player, banker Hand
	n              uint8
	next           Position
}

// Next is the position the next card fills, or NoPosition when the coup is complete.
func (c *Coup) Next() Position { return c.next }

// Done reports whether the coup is complete.
func (c *Coup) Done() bool { return c.next == NoPosition }

// Len is the number of cards dealt so far.
func (c *Coup) Len() int { return int(c.n) }

// Player and Banker are the hands as dealt so far.
func (c *Coup) Player() Hand { return c.player }

// Banker is the Banker hand as dealt so far.
func (c *Coup) Banker() Hand { return c.banker }

// Dealt returns the cards dealt so far, in deal order, with their positions.
func (c *Coup) Dealt() ([]Card, []Position) {
	var cards []Card
	var pos []Position
	for i := 0; i < 2; i++ {
		if c.player.n > uint8(i) {
			cards, pos = append(cards, c.player.cards[i]), append(pos, Position(2*i))
		}
		if c.banker.n > uint8(i) {
			cards, pos = append(cards, c.banker.cards[i]), append(pos, Position(2*i+1))
		}
	}
	if c.player.n == 3 {
		cards, pos = append(cards, c.player.cards[2]), append(pos, P3)
	}
	if c.banker.n == 3 {
		cards, pos = append(cards, c.banker.cards[2]), append(pos, B3)
	}
	return cards, pos
}

// Add deals the next card to the position Next names. It refuses a card when none is due
// (CodeExtraCard), changing nothing.
func (c *Coup) Add(k Card) error {
	if c.Done() {
		return Errorf(CodeExtraCard, "no card is due: the coup is complete (%s)", c.Result())
	}
	if !k.Valid() {
		return Errorf(CodeBadCard, "card %d is not one of the 52 cards", k)
	}
	c.add(k)
	return nil
}

func (c *Coup) add(k Card) {
	switch c.next {
	case P1, P2, P3:
		c.player.add(k)
	default:
		c.banker.add(k)
	}
	c.n++
	c.next = c.following()
}

// following applies the Table of Play to decide the next position after a card is dealt.
func (c *Coup) following() Position {
	if c.n < 4 {
		return Position(c.n)
	}
	p, b := c.player.Total(), c.banker.Total()
	switch {
	case c.n == 4:
		if p >= 8 || b >= 8 { // a natural: nobody draws (MBS 3.9.1)
			return NoPosition
		}
		if PlayerDraws(p) {
			return P3
		}
		if BankerDraws(b, -1) {
			return B3
		}
	case c.n == 5 && c.player.n == 3:
		if BankerDraws(b, c.player.cards[2].Value()) {
			return B3
		}
	}
	return NoPosition
}

// Result is the finished coup's result. It is meaningful only when Done.
func (c *Coup) Result() Result {
	if !c.Done() {
		return Result{}
	}
	return finish(c.player, c.banker)
}

// Remaining is the fewest more cards the coup needs, and whether that number is exact (it is
// not when a third card for the Player may yet call for one for the Banker).
func (c *Coup) Remaining() (n int, exact bool) {
	switch {
	case c.Done():
		return 0, true
	case c.n < 4:
		return 4 - int(c.n), false
	case c.next == P3:
		return 1, false
	default:
		return 1, true
	}
}

func (c *Coup) needError() error {
	n, exact := c.Remaining()
	more := "more card"
	if n > 1 {
		more += "s"
	}
	if !exact {
		return Errorf(CodeNeedCards, "the coup needs at least %d %s: %d dealt, next is %s", n, more, c.n, c.next)
	}
	return Errorf(CodeNeedCards, "the coup needs %d %s: %d dealt, next is %s", n, more, c.n, c.next)
}

// ParseCoup reads the coup notation "P 7h Kd | B 9c Qs 4d" (letters in any case) and checks
// that the Table of Play deals exactly those cards: a third card that should not have been
// drawn, or one missing, is an error.
func ParseCoup(s string) (Result, error) {
	ps, bs, ok := strings.Cut(s, "|")
	if !ok {
		return Result{}, Errorf(CodeBadCoup, "%q is not a coup: write it as \"P 7h Kd | B 9c Qs 4d\"", s)
	}
	player, err := parseSide(ps, "P")
	if err != nil {
		return Result{}, err
	}
	banker, err := parseSide(bs, "B")
	if err != nil {
		return Result{}, err
	}
	order := []Card{player[0], banker[0], player[1], banker[1]}
	order = append(order, player[2:]...)
	order = append(order, banker[2:]...)
	r, used, err := Deal(order)
	if err != nil {
		return Result{}, Errorf(CodeBadCoup, "%q breaks the Table of Play: %s", strings.TrimSpace(s), err)
	}
	if used != len(order) || r.Player.Len() != len(player) {
		return Result{}, Errorf(CodeBadCoup, "%q breaks the Table of Play: it deals %s", strings.TrimSpace(s), r)
	}
	return r, nil
}

func parseSide(s, letter string) ([]Card, error) {
	f := strings.Fields(s)
	if len(f) == 0 || !strings.EqualFold(f[0], letter) {
		return nil, Errorf(CodeBadCoup, "%q: each side starts with its letter, P then B", strings.TrimSpace(s))
	}
	if len(f) < 3 || len(f) > 4 {
		return nil, Errorf(CodeBadCoup, "%q: a hand has two or three cards", strings.TrimSpace(s))
	}
	cards := make([]Card, 0, 3)
	for _, t := range f[1:] {
		c, err := ParseCard(t)
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	return cards, nil
}
