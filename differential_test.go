package baccarat

import "testing"

// slowCoup is the Table of Play written out as plainly as the seeds word it, sharing no code
// with the engine: values in deal order, it returns the final totals and cards per hand.
func slowCoup(v [6]int) (pTotal, bTotal, pCards, bCards int) {
	player := []int{v[0], v[2]}
	banker := []int{v[1], v[3]}
	sum := func(h []int) int {
		s := 0
		for _, x := range h {
			s += x
		}
		return s % 10
	}
	next := 4
	p, b := sum(player), sum(banker)
	if p == 8 || p == 9 || b == 8 || b == 9 {
		return p, b, 2, 2 // a natural: no more cards to either hand
	}
	playerThird := -1
	if p <= 5 {
		playerThird = v[next]
		next++
		player = append(player, playerThird)
	}
	bankerDraws := false
	if playerThird == -1 {
		bankerDraws = b <= 5
	} else {
		switch {
		case b <= 2:
			bankerDraws = true
		case b == 3:
			bankerDraws = playerThird != 8
		case b == 4:
			bankerDraws = playerThird >= 2 && playerThird <= 7
		case b == 5:
			bankerDraws = playerThird >= 4 && playerThird <= 7
		case b == 6:
			bankerDraws = playerThird == 6 || playerThird == 7
		}
	}
	if bankerDraws {
		banker = append(banker, v[next])
	}
	return sum(player), sum(banker), len(player), len(banker)
}

// TestDealMatchesSlowTwinOnEverySixValueSequence deals every one of the 10^6 sequences of six
// point values through the engine and through slowCoup.
func TestDealMatchesSlowTwinOnEverySixValueSequence(t *testing.T) {
	var v [6]int
	cards := make([]Card, 6)
	n := 0
	for code := 0; code < 1_000_000; code++ {
		c := code
		for i := range v {
			v[i] = c % 10
			c /= 10
			cards[i] = cardOf(v[i], Suit(i%4))
		}
		r, used, err := Deal(cards)
		if err != nil {
			t.Fatalf("%v: %v", v, err)
		}
		pt, bt, pc, bc := slowCoup(v)
		if r.PlayerTotal != pt || r.BankerTotal != bt || r.Player.Len() != pc || r.Banker.Len() != bc || used != pc+bc {
			t.Fatalf("values %v: engine %s (%d/%d) , slow twin totals %d/%d cards %d/%d", v, r, r.PlayerTotal, r.BankerTotal, pt, bt, pc, bc)
		}
		want := Tie
		if pt > bt {
			want = PlayerWins
		} else if bt > pt {
			want = BankerWins
		}
		if r.Winner != want {
			t.Fatalf("values %v: winner %s, want %s", v, r.Winner, want)
		}
		n++
	}
	if n != 1_000_000 {
		t.Fatalf("checked %d sequences", n)
	}
}

func BenchmarkDeal(b *testing.B) {
	cards, _ := ParseCards("2h Kd 2c 4s 7d 9c")
	b.ReportAllocs()
	for b.Loop() {
		_, _, _ = Deal(cards)
	}
}

func TestDealAllocatesNothing(t *testing.T) {
	cards, _ := ParseCards("2h Kd 2c 4s 7d 9c")
	if n := testing.AllocsPerRun(100, func() { _, _, _ = Deal(cards) }); n != 0 {
		t.Fatalf("Deal allocates %v times", n)
	}
}
