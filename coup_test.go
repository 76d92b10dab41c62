package baccarat

import (
	"fmt"
	"testing"
)

// card of a given point value (Ten for 0), in a suit chosen by the caller so tests can avoid
// accidental pairs.
func cardOf(v int, s Suit) Card {
	if v == 0 {
		return NewCard(Ten, s)
	}
	return NewCard(Rank(v), s)
}

// twoCards returns two cards totalling t with distinct ranks where possible.
func twoCards(t int, s Suit) (Card, Card) {
	// Use 0+t (Ten and t) unless t is 0: then King and Queen (distinct ranks, total 0).
	if t == 0 {
		return NewCard(King, s), NewCard(Queen, s)
	}
	return NewCard(Ten, s), cardOf(t, s)
}

func TestTableOfPlayPlayer(t *testing.T) {
	// MBS 3.9.2: Player draws on 0–5, stands on 6–7; 8–9 natural (no draws). Banker holds 7
	// (stands unless the Player drew) so the only question is the Player's third card.
	for p := 0; p <= 9; p++ {
		rule := "MBS 3.9.2 player stands"
		if p <= 5 {
			rule = "MBS 3.9.2 player draws"
		} else if p >= 8 {
			rule = "MBS 3.9.1 natural no cards drawn"
		}
		t.Run(fmt.Sprintf("%s on %d", rule, p), func(t *testing.T) {
			a, b := twoCards(p, Clubs)
			x, y := twoCards(7, Diamonds)
			cards := []Card{a, x, b, y, NewCard(Two, Hearts), NewCard(Three, Hearts)}
			r, _, err := Deal(cards)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := r.Player.Len() == 3, p <= 5; got != want {
				t.Errorf("player with %d drew = %v, want %v (%s)", p, got, want, r)
			}
		})
	}
}

// bankerRule is the Table of Play for the Banker written out as the seed words it (MBS 3.9.3,
// 3.9.4), independently of the engine's table.
func bankerRule(b, v int) (draws bool, rule string) {
	if v < 0 {
		return b <= 5, fmt.Sprintf("MBS 3.9.3 player stood, banker %d %s", b, map[bool]string{true: "draws", false: "stands"}[b <= 5])
	}
	switch b {
	case 0, 1, 2:
		return true, fmt.Sprintf("MBS 3.9.4 banker %d draws on player third %d", b, v)
	case 3:
		return v != 8, fmt.Sprintf("MBS 3.9.4 banker 3 draws except on 8 (third %d)", v)
	case 4:
		return v >= 2 && v <= 7, fmt.Sprintf("MBS 3.9.4 banker 4 draws on 2-7 (third %d)", v)
	case 5:
		return v >= 4 && v <= 7, fmt.Sprintf("MBS 3.9.4 banker 5 draws on 4-7 (third %d)", v)
	case 6:
		return v == 6 || v == 7, fmt.Sprintf("MBS 3.9.4 banker 6 draws on 6-7 (third %d)", v)
	}
	return false, fmt.Sprintf("MBS 3.9.4 banker %d stands (third %d)", b, v)
}

func TestTableOfPlayBanker(t *testing.T) {
	for b := 0; b <= 7; b++ {
		for v := -1; v <= 9; v++ {
			want, rule := bankerRule(b, v)
			t.Run(rule, func(t *testing.T) {
				var cards []Card
				x, y := twoCards(b, Diamonds)
				if v < 0 {
					p1, p2 := twoCards(6, Clubs) // Player stands on 6
					cards = []Card{p1, x, p2, y, NewCard(Ace, Spades)}
				} else {
					p1, p2 := twoCards(3, Clubs) // Player draws on 3
					cards = []Card{p1, x, p2, y, cardOf(v, Hearts), NewCard(Ace, Spades)}
				}
				r, _, err := Deal(cards)
				if err != nil {
					t.Fatal(err)
				}
				if got := r.Banker.Len() == 3; got != want {
					t.Errorf("banker drew = %v, want %v (%s)", got, want, r)
				}
			})
		}
	}
	for b := 8; b <= 9; b++ {
		t.Run(fmt.Sprintf("MBS 3.9.1 banker natural %d player 0 does not draw", b), func(t *testing.T) {
			p1, p2 := twoCards(0, Clubs)
			x, y := twoCards(b, Diamonds)
			r, used, err := Deal([]Card{p1, x, p2, y, NewCard(Five, Hearts), NewCard(Five, Spades)})
			if err != nil || used != 4 || !r.Natural || !r.BankerNatural {
				t.Errorf("natural: used %d, %v, %v", used, r, err)
			}
		})
	}
}

func TestDealOrder(t *testing.T) {
	// MBS 3.7: cards 1 and 3 are the Player's, 2 and 4 the Banker's; then third cards.
	cards, _ := ParseCards("2c 3d 2h Kd 4s 9c")
	r, used, err := Deal(cards)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.String(); got != "P 2c 2h 4s | B 3d Kd 9c" || used != 6 {
		t.Errorf("got %s using %d", got, used)
	}
	if !r.PlayerPair || r.BankerPair || r.Winner != PlayerWins || r.PlayerTotal != 8 || r.BankerTotal != 2 {
		t.Errorf("result fields wrong: %+v", r)
	}
}

func TestWinnerAndTie(t *testing.T) {
	tests := []struct {
		coup   string
		winner Winner
		rule   string
	}{
		{"P 7h 2c | B Kd 9s", Tie, "MBS 3.10.1 identical totals are a tie"},
		{"P 9h Kc | B 8d Ks", PlayerWins, "MBS 3.10 highest total wins (player)"},
		{"P 2h 3c 9d | B 3d 4s", BankerWins, "MBS 3.10 highest total wins (banker)"},
		{"P 9h 5c 9d | B Td 3s 9s", PlayerWins, "MBS 3.4.2 totals keep the right digit"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r, err := ParseCoup(tt.coup)
			if err != nil {
				t.Fatal(err)
			}
			if r.Winner != tt.winner {
				t.Errorf("%s: winner %s, want %s", tt.coup, r.Winner, tt.winner)
			}
		})
	}
}

func TestPairs(t *testing.T) {
	tests := []struct {
		coup                 string
		pp, bp, pperf, bperf bool
		rule                 string
	}{
		{"P 9h 9c | B Qd Qs", true, true, false, false, "MBS 1.1.4 two 9s and two Qs are pairs"},
		{"P Th Kc 5h | B Jd Qs 4c", false, false, false, false, "SPEC §1 a Ten with a face card is not a pair, nor two faces"},
		{"P Th Tc 5h | B Kd Ks 4c", true, true, false, false, "RWS 1 10-10 and K-K are pairs"},
		{"P 5h 5h 7c | B 2d 2d 3c", true, true, true, true, "BoB 1.16 identical cards are perfect pairs"},
		{"P 6h 6c 2s | B 3d 4d", true, false, false, false, "MBS 3.8.1 player pair only"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			r, err := ParseCoup(tt.coup)
			if err != nil {
				t.Fatal(err)
			}
			if r.PlayerPair != tt.pp || r.BankerPair != tt.bp || r.PlayerPerfectPair != tt.pperf || r.BankerPerfectPair != tt.bperf {
				t.Errorf("%s: pairs %v %v perfect %v %v", tt.coup, r.PlayerPair, r.BankerPair, r.PlayerPerfectPair, r.BankerPerfectPair)
			}
		})
	}
}

func TestDealNeedsMoreCards(t *testing.T) {
	tests := []struct {
		cards string
		want  string
	}{
		{"", "needs at least 4 more cards"},
		{"7h Kd 2c", "needs at least 1 more card"},
		{"2h Kd 2c 5s", "needs at least 1 more card"}, // Player 4 draws; Banker may too
		{"6h Kd Tc 3s", "needs 1 more card"},          // Player 6 stands, Banker 3 draws
		{"2h Kd 2c 2s 5d", "needs 1 more card"},       // Banker 2 draws
	}
	for _, tt := range tests {
		cards, _ := ParseCards(tt.cards)
		_, _, err := Deal(cards)
		if ErrorCode(err) != CodeNeedCards || !contains(err.Error(), tt.want) {
			t.Errorf("Deal(%q) error %v, want %q", tt.cards, err, tt.want)
		}
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestCoupIncrementalKnowsNextPosition(t *testing.T) {
	var c Coup
	cards, _ := ParseCards("2h Kd 2c 4s 7d 9c")
	want := []Position{P1, B1, P2, B2, P3, B3, NoPosition}
	for i, k := range cards {
		if c.Next() != want[i] {
			t.Fatalf("before card %d next = %s, want %s", i+1, c.Next(), want[i])
		}
		if err := c.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	if !c.Done() || c.Next() != NoPosition {
		t.Fatalf("coup not done after 6 cards")
	}
	if err := c.Add(cards[0]); ErrorCode(err) != CodeExtraCard {
		t.Fatalf("extra card: %v, want extra_card", err)
	}
	if c.Len() != 6 {
		t.Fatalf("extra card changed the coup")
	}
}

func TestParseCoupRejectsIllegalHands(t *testing.T) {
	for _, s := range []string{
		"P 7h Kd 2c | B 9c Qs", // Player stands on 7 but shows a third card
		"P 2h 2c | B 9c Qs",    // Banker natural 9... Player 4 does not draw: legal? (natural) -> legal; replaced below
		"P 2h 3c | B Kc Qs",    // Player 5 must draw
		"P 9h Kd | B 2c 3s 4d", // natural: Banker may not draw
		"P 7h Kd | B 9c",       // a hand has two or three cards
		"7h Kd | B 9c Qs",      // missing P
		"P 7h Kd B 9c Qs",      // missing |
		"P 7h Xd | B 9c Qs",    // bad card
	}[:] {
		if s == "P 2h 2c | B 9c Qs" {
			continue
		}
		if _, err := ParseCoup(s); err == nil {
			t.Errorf("ParseCoup(%q) accepted an illegal coup", s)
		}
	}
}

func FuzzParseCoup(f *testing.F) {
	f.Add("P 7h Kd | B 9c Qs 4d")
	f.Add("P 2h 3c 4d | B Kc Qs 5h")
	f.Add("p 10h kd | b 9C qs")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseCoup(s)
		if err != nil {
			return
		}
		again, err := ParseCoup(r.String())
		if err != nil || again != r {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
	})
}
