package baccarat

import (
	"strings"
	"testing"
)

func TestCardTextRoundTrip(t *testing.T) {
	for c := Card(0); c < NumCards; c++ {
		got, err := ParseCard(c.String())
		if err != nil || got != c {
			t.Fatalf("ParseCard(%q) = %v, %v; want %v", c.String(), got, err, c)
		}
	}
}

func TestParseCardForms(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"Ah", "Ah"}, {"ah", "Ah"}, {"AH", "Ah"}, {"10h", "Th"}, {"10S", "Ts"}, {"td", "Td"},
		{" Kc ", "Kc"}, {"9s", "9s"}, {"jd", "Jd"}, {"qH", "Qh"},
	}
	for _, tt := range tests {
		t.Run("SPEC §1 "+tt.in, func(t *testing.T) {
			c, err := ParseCard(tt.in)
			if err != nil || c.String() != tt.want {
				t.Errorf("ParseCard(%q) = %v, %v; want %s", tt.in, c, err, tt.want)
			}
		})
	}
}

func TestParseCardRejects(t *testing.T) {
	for _, in := range []string{"", "A", "1h", "11h", "Ax", "Zh", "Ahh", "0h", "h", "10", "AhK"} {
		if c, err := ParseCard(in); err == nil || ErrorCode(err) != CodeBadCard {
			t.Errorf("ParseCard(%q) = %v, %v; want a bad_card error", in, c, err)
		}
	}
}

func TestParseCardsNamesBadTokenAndPosition(t *testing.T) {
	_, err := ParseCards("7h,Kd,2x,9s")
	if err == nil || !strings.Contains(err.Error(), "card 3") || !strings.Contains(err.Error(), `"2x"`) {
		t.Fatalf("error %v: want it to name card 3 and \"2x\"", err)
	}
}

func TestPointValues(t *testing.T) {
	// MBS 3.3.1: Two to Nine their face value, Ace one; MBS 3.3.2: Ten, Jack, Queen, King zero.
	want := map[Rank]int{Ace: 1, Two: 2, Three: 3, Four: 4, Five: 5, Six: 6, Seven: 7, Eight: 8, Nine: 9,
		Ten: 0, Jack: 0, Queen: 0, King: 0}
	for r, v := range want {
		for _, s := range Suits {
			if got := NewCard(r, s).Value(); got != v {
				t.Errorf("MBS 3.3 value of %s = %d, want %d", NewCard(r, s), got, v)
			}
		}
	}
}

func FuzzParseCard(f *testing.F) {
	for _, s := range []string{"Ah", "10h", "td", "", "Zz", "1", "\x00h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCard(s)
		if err != nil {
			if ErrorCode(err) != CodeBadCard {
				t.Fatalf("ParseCard(%q): error without bad_card code: %v", s, err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("ParseCard(%q) = invalid card %d", s, c)
		}
		again, err := ParseCard(c.String())
		if err != nil || again != c {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
	})
}

func FuzzParseCards(f *testing.F) {
	f.Add("7h,Kd,2c,9s")
	f.Add("7h Kd, 10c")
	f.Fuzz(func(t *testing.T, s string) {
		cards, err := ParseCards(s)
		if err != nil {
			return
		}
		again, err := ParseCards(FormatCards(cards, ","))
		if err != nil || len(again) != len(cards) {
			t.Fatalf("round trip of %q: %v, %v", s, again, err)
		}
		for i := range cards {
			if again[i] != cards[i] {
				t.Fatalf("round trip of %q changed card %d", s, i)
			}
		}
	})
}
