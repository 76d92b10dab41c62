package baccarat

import (
	"strconv"
	"strings"
)

// Counts is a shoe's composition: how many of each card it holds. A composition built from
// rank counts alone (the usual form of a depleted-shoe question) does not know its suits;
// Suited reports which. Totals by rank and by point value are kept alongside so the odds
// engine reads them without summing.
type Counts struct {
	card   [NumCards]int32
	rank   [13]int32
	value  [10]int32
	total  int32
	noSuit bool
}

// NewCounts returns the composition of a full shoe of the given number of 52-card decks.
func NewCounts(decks int) Counts {
	var c Counts
	for k := Card(0); k < NumCards; k++ {
		c.add(k, int32(decks))
	}
	return c
}

// NewRankCounts returns a composition known by rank only (index 0 is Aces, 12 Kings).
// Suits are unknown, so perfect pairs cannot be counted from it.
func NewRankCounts(ranks [13]int) (Counts, error) {
	var c Counts
	c.noSuit = true
	for i, n := range ranks {
		if n < 0 {
			return Counts{}, Errorf(CodeBadShoe, "a shoe cannot hold %d cards of rank %s", n, Ranks[i])
		}
		c.rank[i] = int32(n)
		c.value[Ranks[i].Value()] += int32(n)
		c.total += int32(n)
	}
	return c, nil
}

func (c *Counts) add(k Card, n int32) {
	c.card[k] += n
	c.rank[k/4] += n
	c.value[cardValue[k]] += n
	c.total += n
}

// Suited reports whether the composition knows suits (it was built card by card).
func (c *Counts) Suited() bool { return !c.noSuit }

// Total is the number of cards.
func (c *Counts) Total() int { return int(c.total) }

// Card is the number of copies of card k; for a composition without suits it is -1.
func (c *Counts) Card(k Card) int {
	if c.noSuit {
		return -1
	}
	return int(c.card[k])
}

// Rank is the number of cards of rank r.
func (c *Counts) Rank(r Rank) int { return int(c.rank[r-1]) }

// Value is the number of cards of point value v (0–9).
func (c *Counts) Value(v int) int { return int(c.value[v]) }

// Values is the number of cards of each point value, index 0–9.
func (c *Counts) Values() [10]int32 { return c.value }

// Ranks is the number of cards of each rank, index 0 (Ace) to 12 (King).
func (c *Counts) Ranks() [13]int32 { return c.rank }

// Cards is the number of copies of each of the 52 cards (all zero without suits).
func (c *Counts) Cards() [NumCards]int32 { return c.card }

// Has reports whether the shoe holds at least one copy of k.
func (c *Counts) Has(k Card) bool {
	if !k.Valid() {
		return false
	}
	if c.noSuit {
		return c.rank[k/4] > 0
	}
	return c.card[k] > 0
}

// Add puts one copy of k into the composition.
func (c *Counts) Add(k Card) {
	if c.noSuit {
		c.rank[k/4]++
		c.value[cardValue[k]]++
		c.total++
		return
	}
	c.add(k, 1)
}

// Remove takes one copy of k out of the composition. It refuses, changing nothing, when the
// shoe holds no copy of k: that card is foreign or one copy too many (SPEC §2).
func (c *Counts) Remove(k Card) error {
	if !c.Has(k) {
		return Errorf(CodeCardNotInShoe, "the shoe holds no %s: it is foreign or one copy too many", k)
	}
	if c.noSuit {
		c.rank[k/4]--
		c.value[cardValue[k]]--
		c.total--
		return nil
	}
	c.add(k, -1)
	return nil
}

// RemoveAll removes every card of cards, or none of them if any is missing.
func (c *Counts) RemoveAll(cards []Card) error {
	t := *c
	for _, k := range cards {
		if err := t.Remove(k); err != nil {
			return err
		}
	}
	*c = t
	return nil
}

// String writes the composition in the form ParseCounts reads: 13 rank counts A…K when
// suits are unknown or every card of a rank has the same count, else card:count pairs.
func (c Counts) String() string {
	uniform := true
	if !c.noSuit {
		for k := Card(0); k < NumCards; k++ {
			if c.card[k] != c.card[k&^3] {
				uniform = false
				break
			}
		}
	}
	var b strings.Builder
	if uniform {
		for i, n := range c.rank {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(n)))
		}
		return b.String()
	}
	for k := Card(0); k < NumCards; k++ {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k.String() + ":" + strconv.Itoa(int(c.card[k])))
	}
	return b.String()
}

// ParseCounts reads a shoe composition in one of three forms:
//
//	32,32,32,32,32,32,32,32,32,32,32,32,32   13 counts, Ace to King (suits unknown)
//	A:31,T:30,K:32                           rank:count pairs, unnamed ranks 0 (suits unknown)
//	Ah:8,Kd:7,…                              card:count pairs, unnamed cards 0 (suits known)
//
// A composition of 13 equal rank counts divisible by four is treated as that many full
// decks, suits known, since that is what such a shoe is.
func ParseCounts(s string) (Counts, error) {
	fields := strings.Split(strings.ReplaceAll(strings.TrimSpace(s), " ", ""), ",")
	if len(fields) == 0 || fields[0] == "" {
		return Counts{}, Errorf(CodeBadShoe, "empty shoe composition: give 13 counts A..K, rank:count pairs or card:count pairs")
	}
	if !strings.Contains(fields[0], ":") {
		return parsePlainCounts(fields)
	}
	return parsePairCounts(fields)
}

func parsePlainCounts(fields []string) (Counts, error) {
	if len(fields) != 13 {
		return Counts{}, Errorf(CodeBadShoe, "a shoe composition needs 13 counts (A,2,…,9,T,J,Q,K), got %d", len(fields))
	}
	var ranks [13]int
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return Counts{}, Errorf(CodeBadShoe, "count %d %q for rank %s is not a non-negative whole number", i+1, f, Ranks[i])
		}
		ranks[i] = n
	}
	if d := ranks[0]; d%4 == 0 && ranks == [13]int{d, d, d, d, d, d, d, d, d, d, d, d, d} {
		return NewCounts(d / 4), nil
	}
	return NewRankCounts(ranks)
}

func parsePairCounts(fields []string) (Counts, error) {
	var ranks [13]int
	var cards [NumCards]int
	byCard, byRank := false, false
	for i, f := range fields {
		key, num, ok := strings.Cut(f, ":")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 0 {
			return Counts{}, Errorf(CodeBadShoe, "entry %d %q is not key:count with a non-negative count", i+1, f)
		}
		if k, err := ParseCard(key); err == nil {
			byCard = true
			cards[k] += n
			continue
		}
		r, err := ParseCard(key + "c")
		if err != nil {
			return Counts{}, Errorf(CodeBadShoe, "entry %d %q: %q is neither a rank nor a card", i+1, f, key)
		}
		byRank = true
		ranks[r/4] += n
	}
	if byCard && byRank {
		return Counts{}, Errorf(CodeBadShoe, "a composition is given by rank or by card, not both")
	}
	if byRank {
		return NewRankCounts(ranks)
	}
	var c Counts
	for k := Card(0); k < NumCards; k++ {
		c.add(k, int32(cards[k]))
	}
	return c, nil
}
