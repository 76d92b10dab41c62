package baccarat

import (
	"crypto/sha256"
	"slices"
	"testing"
)

func TestShuffleIsAPermutation(t *testing.T) {
	s := NewShoe(8)
	s.Shuffle(SeededSource(1))
	if s.Len() != 416 {
		t.Fatalf("8 decks hold %d cards", s.Len())
	}
	var seen [NumCards]int
	for _, c := range s.Order() {
		seen[c]++
	}
	for c, n := range seen {
		if n != 8 {
			t.Fatalf("card %s appears %d times in an 8-deck shoe", Card(c), n)
		}
	}
}

// TestShuffleIsUnbiased shuffles a four-card shoe many times and checks with a chi-square test
// that all 24 orders are equally likely. With 23 degrees of freedom the statistic exceeds
// 49.73 with probability 0.001; the source is seeded so the test is repeatable.
func TestShuffleIsUnbiased(t *testing.T) {
	order := []Card{MustParseCard("Ah"), MustParseCard("2h"), MustParseCard("3h"), MustParseCard("4h")}
	src := SeededSource(42)
	const trials = 240_000
	counts := map[string]int{}
	s := NewShoeFromOrder(order)
	for i := 0; i < trials; i++ {
		s.Shuffle(src)
		counts[FormatCards(s.Order(), "")]++
	}
	if len(counts) != 24 {
		t.Fatalf("saw %d distinct orders of 4 cards, want 24", len(counts))
	}
	expected := float64(trials) / 24
	chi2 := 0.0
	for _, n := range counts {
		d := float64(n) - expected
		chi2 += d * d / expected
	}
	if chi2 > 49.73 {
		t.Fatalf("chi-square %.2f over 24 orders exceeds 49.73 (p = 0.001)", chi2)
	}
}

func TestUniformIsUnbiasedAndInRange(t *testing.T) {
	src := SeededSource(7)
	const n, trials = 7, 70_000
	var counts [n]int
	for i := 0; i < trials; i++ {
		v := Uniform(src, n)
		if v >= n {
			t.Fatalf("Uniform(%d) = %d", n, v)
		}
		counts[v]++
	}
	chi2 := 0.0
	for _, c := range counts {
		d := float64(c) - trials/n
		chi2 += d * d / (trials / n)
	}
	if chi2 > 22.46 { // 6 degrees of freedom, p = 0.001
		t.Fatalf("chi-square %.2f", chi2)
	}
}

func TestSeededShuffleIsReproducible(t *testing.T) {
	a, b := NewShoe(6), NewShoe(6)
	a.Shuffle(SeededSource(99))
	b.Shuffle(SeededSource(99))
	if !slices.Equal(a.Order(), b.Order()) {
		t.Fatal("the same seed gave two orders")
	}
}

func TestCutCard(t *testing.T) {
	// Tiger 3.17: the cut card ends the shoe after the round in which it comes out.
	s := NewShoe(1)
	s.SetCut(10)
	if s.Cut() != 42 {
		t.Fatalf("cut at %d, want 42", s.Cut())
	}
	for i := 0; i < 41; i++ {
		s.Draw()
	}
	if s.CutReached() {
		t.Fatal("cut reached one card early")
	}
	s.Draw()
	if !s.CutReached() {
		t.Fatal("cut not reached after the 42nd card")
	}
	if _, ok := s.Draw(); !ok {
		t.Fatal("cards behind the cut card must still deal to finish the round")
	}
}

func TestCommitmentVerifiesAndDetectsChanges(t *testing.T) {
	s := NewShoe(8)
	s.Shuffle(SeededSource(3))
	salt := NewSalt(SeededSource(4))
	c := Commit(s.Order(), salt)
	if !(Reveal{Order: s.Order(), Salt: salt}).Verify(c) {
		t.Fatal("SPEC §2 a true reveal must verify")
	}
	changed := s.Order()
	changed[200], changed[201] = changed[201], changed[200]
	if changed[200] != changed[201] && (Reveal{Order: changed, Salt: salt}).Verify(c) {
		t.Fatal("SPEC §2 a swapped pair of cards must not verify")
	}
	changed = s.Order()
	changed[0] = (changed[0] + 1) % NumCards
	if (Reveal{Order: changed, Salt: salt}).Verify(c) {
		t.Fatal("SPEC §2 a changed card must not verify")
	}
	if (Reveal{Order: s.Order(), Salt: []byte("other")}).Verify(c) {
		t.Fatal("SPEC §2 a different salt must not verify")
	}
	back, err := ParseCommitment(c.String())
	if err != nil || back != c {
		t.Fatalf("commitment text round trip: %v", err)
	}
}

func TestCountsRemoveRefusesForeignCard(t *testing.T) {
	c := NewCounts(1)
	ah := MustParseCard("Ah")
	if err := c.Remove(ah); err != nil {
		t.Fatal(err)
	}
	before := c
	if err := c.Remove(ah); ErrorCode(err) != CodeCardNotInShoe {
		t.Fatalf("MBS 5.1 a card the shoe cannot contain: %v", err)
	}
	if c != before {
		t.Fatal("a refused removal changed the counts")
	}
	if c.Total() != 51 || c.Rank(Ace) != 3 || c.Value(1) != 3 || c.Value(0) != 16 {
		t.Fatalf("counts after one removal: %v", c)
	}
}

func TestParseCounts(t *testing.T) {
	tests := []struct {
		in     string
		total  int
		suited bool
	}{
		{"32,32,32,32,32,32,32,32,32,32,32,32,32", 416, true},
		{"31,32,32,32,32,32,32,32,32,32,32,32,32", 415, false},
		{"A:4,T:4,K:2", 10, false},
		{"Ah:1,Kd:2", 3, true},
	}
	for _, tt := range tests {
		c, err := ParseCounts(tt.in)
		if err != nil || c.Total() != tt.total || c.Suited() != tt.suited {
			t.Errorf("ParseCounts(%q) = total %d suited %v, %v", tt.in, c.Total(), c.Suited(), err)
			continue
		}
		again, err := ParseCounts(c.String())
		if err != nil || again != c {
			t.Errorf("round trip of %q via %q: %v", tt.in, c.String(), err)
		}
	}
	for _, bad := range []string{"", "1,2,3", "A:-1", "X:3", "Ah:1,A:2", "a,b,c,d,e,f,g,h,i,j,k,l,m"} {
		if _, err := ParseCounts(bad); ErrorCode(err) != CodeBadShoe {
			t.Errorf("ParseCounts(%q): %v, want bad_shoe", bad, err)
		}
	}
}

func FuzzParseCounts(f *testing.F) {
	for _, s := range []string{"32,32,32,32,32,32,32,32,32,32,32,32,32", "A:4,T:4", "Ah:1,Kd:2", "", ",", "A:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCounts(s)
		if err != nil {
			if ErrorCode(err) != CodeBadShoe {
				t.Fatalf("ParseCounts(%q): error without the bad_shoe code: %v", s, err)
			}
			return
		}
		if c.Total() < 0 {
			t.Fatalf("negative total from %q", s)
		}
		again, err := ParseCounts(c.String())
		if err != nil || again.Total() != c.Total() || again.Ranks() != c.Ranks() {
			t.Fatalf("round trip of %q via %q: %v", s, c.String(), err)
		}
	})
}

// TestCommitHashesTheDocumentedText: the streaming hash equals SHA-256 of the text the
// README documents (hex salt, ":", every card in order), for any shoe and salt length.
func TestCommitHashesTheDocumentedText(t *testing.T) {
	for _, decks := range []int{1, 6, 8} {
		for _, saltLen := range []int{0, 1, 16, 32, 200} {
			s := NewShoe(decks)
			s.Shuffle(SeededSource(uint64(decks*1000 + saltLen)))
			salt := make([]byte, saltLen)
			for i := range salt {
				salt[i] = byte(i * 7)
			}
			if got, want := Commit(s.Order(), salt), Commitment(sha256.Sum256([]byte(commitText(s.Order(), salt)))); got != want {
				t.Fatalf("%d decks, %d-byte salt: %s, want %s", decks, saltLen, got, want)
			}
		}
	}
	if allocs := testing.AllocsPerRun(10, func() { Commit(NewShoe(8).Order(), []byte("salt")) }); allocs > 2 {
		t.Fatalf("Commit allocates %v times", allocs)
	}
}
