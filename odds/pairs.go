package odds

import "github.com/tablehouse/baccarat"

// Pair classes: what the first two cards of each hand say about pairs, the only thing the
// pair-type bets (Player/Banker/Either Pair, Perfect Pair, Tiger Pair) look at. Each hand is
// none, a pair of two different cards of one rank, or an identical pair (same rank and suit);
// when both hands pair, whether the two pairs share a rank. That makes 13 classes:
//
//	pk·3 + bk                    (0–8)  not both paired, or paired in different ranks
//	9 + (pk−1)·2 + (bk−1)        (9–12) both paired in the same rank
//
// with pk, bk = 0 none, 1 pair, 2 identical pair.
const nPairClasses = 13

func pairClass(pk, bk int, same bool) int {
	if pk > 0 && bk > 0 && same {
		return 9 + (pk-1)*2 + (bk - 1)
	}
	return pk*3 + bk
}

// pairKinds splits a class back into its parts.
func pairKinds(class int) (pk, bk int, same bool) {
	if class >= 9 {
		return (class-9)/2 + 1, (class-9)%2 + 1, true
	}
	return class / 3, class % 3, false
}

// cardKind is how two cards pair: 0 different ranks, 1 same rank, 2 identical.
func cardKind(a, b baccarat.Card) int {
	switch {
	case a == b:
		return 2
	case a.Rank() == b.Rank():
		return 1
	}
	return 0
}

// pairComp is a composition as the pair counter sees it: per card and per rank. A
// composition without suits is held as one pseudo-card per rank (its Ace-of-clubs slot), so
// every pair counts as identical and only rank facts are meaningful.
type pairComp struct {
	k      [baccarat.NumCards]uint64
	c      [13]uint64
	n      uint64
	suited bool
}

func newPairComp(counts *baccarat.Counts) pairComp {
	var pc pairComp
	pc.suited = counts.Suited()
	ranks := counts.Ranks()
	for r, v := range ranks {
		pc.c[r] = uint64(v)
	}
	if pc.suited {
		cards := counts.Cards()
		for i, v := range cards {
			pc.k[i] = uint64(v)
		}
	} else {
		for r := range ranks {
			pc.k[r*4] = pc.c[r]
		}
	}
	pc.n = uint64(counts.Total())
	return pc
}

// key maps a real card to its slot: itself, or its rank's pseudo-card without suits.
func (pc *pairComp) key(c baccarat.Card) baccarat.Card {
	if pc.suited {
		return c
	}
	return c &^ 3
}

func (pc *pairComp) kind(a, b baccarat.Card) int { return cardKind(pc.key(a), pc.key(b)) }

func f2(n uint64) uint64 {
	if n < 2 {
		return 0
	}
	return n * (n - 1)
}

// countPairs counts the pair classes of the ordered prefix of the first four cards, given the
// first cards of it already revealed (deal order P1 B1 P2 B2) and the composition of the
// cards not yet dealt. Counts are exact in 128 bits; the total is (N)ₖ for the k unknown
// cards of the prefix.
func countPairs(pc *pairComp, revealed []baccarat.Card, out *[nPairClasses]u128) (total u128) {
	*out = [nPairClasses]u128{}
	switch len(revealed) {
	case 0:
		pairsNone(pc, out)
		return falling128(pc.n, 4)
	case 1:
		pairsP1(pc, pc.key(revealed[0]), out)
		return falling128(pc.n, 3)
	case 2:
		pairsP1B1(pc, pc.key(revealed[0]), pc.key(revealed[1]), out)
		return falling128(pc.n, 2)
	case 3:
		pk := pc.kind(revealed[0], revealed[2])
		z := pc.key(revealed[1])
		same := revealed[0].Rank() == revealed[1].Rank()
		cz := pc.c[z/4]
		out[pairClass(pk, 2, same)] = u128{lo: pc.k[z]}
		out[pairClass(pk, 1, same)] = u128{lo: cz - pc.k[z]}
		out[pairClass(pk, 0, false)] = u128{lo: pc.n - cz}
		return u128{lo: pc.n}
	}
	pk, bk := pc.kind(revealed[0], revealed[2]), pc.kind(revealed[1], revealed[3])
	out[pairClass(pk, bk, revealed[0].Rank() == revealed[1].Rank())] = u128{lo: 1}
	return u128{lo: 1}
}

// pairsNone: nothing revealed. Per rank r with c cards, A = (c)₂ ordered same-rank pairs and
// I = Σ (k_y)₂ identical ones; both hands pair in rank r in (c)₄ ways, of which the Player's
// pair is identical in I·(c−2)₂ (and, exchanging the hands, so is the Banker's), both
// identical in I² − ΣI_y² + Σ(k_y)₄. Pairs of different ranks multiply; everything else
// follows by exchangeability (the Banker's two cards can be counted first) and complements.
func pairsNone(pc *pairComp, out *[nPairClasses]u128) {
	var x [3][13]u128 // x[kind][rank]: ordered pairs of that kind (1 pair, 2 identical)
	var tot [3]u128
	for r := 0; r < 13; r++ {
		c := pc.c[r]
		var ident, identSq, four u128
		for s := 0; s < 4; s++ {
			k := pc.k[r*4+s]
			i := f2(k)
			ident = ident.add(u128{lo: i})
			identSq = identSq.add(mul64(i, i))
			four = four.add(mul64(i, f2(k-min(k, 2))))
		}
		a := f2(c)
		x[2][r], x[1][r] = ident, u128{lo: a}.sub(ident)
		tot[1], tot[2] = tot[1].add(x[1][r]), tot[2].add(x[2][r])
		both := ident.mulw(ident).sub(identSq).add(four) // identical, identical
		one := ident.mul(f2(c - min(c, 2)))              // identical, any of the rank
		all := mul64(a, f2(c-min(c, 2)))                 // any, any: (c)₄
		out[pairClass(2, 2, true)] = out[pairClass(2, 2, true)].add(both)
		out[pairClass(2, 1, true)] = out[pairClass(2, 1, true)].add(one.sub(both))
		out[pairClass(1, 2, true)] = out[pairClass(1, 2, true)].add(one.sub(both))
		out[pairClass(1, 1, true)] = out[pairClass(1, 1, true)].add(all.sub(one).sub(one).add(both))
	}
	rest := falling(pc.n-min(pc.n, 2), 2)
	for pk := 1; pk <= 2; pk++ {
		for bk := 1; bk <= 2; bk++ {
			diag := u128{}
			for r := 0; r < 13; r++ {
				diag = diag.add(x[pk][r].mulw(x[bk][r]))
			}
			out[pairClass(pk, bk, false)] = tot[pk].mulw(tot[bk]).sub(diag)
		}
	}
	completeMarginals(out, [3]u128{{}, tot[1].mul(rest), tot[2].mul(rest)},
		[3]u128{{}, tot[1].mul(rest), tot[2].mul(rest)}, falling128(pc.n, 4))
}

// completeMarginals fills the classes where a hand does not pair from the marginal counts of
// each hand's kinds (player[k], banker[k] for k = 1, 2) and the grand total.
func completeMarginals(out *[nPairClasses]u128, player, banker [3]u128, total u128) {
	for k := 1; k <= 2; k++ {
		p, b := player[k], banker[k]
		for j := 1; j <= 2; j++ {
			p = p.sub(out[pairClass(k, j, false)]).sub(out[pairClass(k, j, true)])
			b = b.sub(out[pairClass(j, k, false)]).sub(out[pairClass(j, k, true)])
		}
		out[pairClass(k, 0, false)], out[pairClass(0, k, false)] = p, b
	}
	rest := total
	for i := 1; i < nPairClasses; i++ {
		rest = rest.sub(out[i])
	}
	out[0] = rest
}

// pairsP1: the Player's first card x is known. The Player pairs when P2 has x's rank; the
// Banker's two cards are counted on what P2 leaves, and by exchangeability the Banker's
// marginal is its count on the whole composition times the N−2 choices of P2.
func pairsP1(pc *pairComp, x baccarat.Card, out *[nPairClasses]u128) {
	R := int(x / 4)
	n, cR := pc.n, pc.c[R]
	var s2, k2 uint64
	for r := 0; r < 13; r++ {
		s2 += f2(pc.c[r])
	}
	for _, k := range pc.k {
		k2 += f2(k)
	}
	iR := uint64(0)
	for s := 0; s < 4; s++ {
		iR += f2(pc.k[R*4+s])
	}
	var player [3]u128
	for s := 0; s < 4; s++ {
		y := R*4 + s
		ky := pc.k[y]
		if ky == 0 {
			continue
		}
		pk := 1
		if baccarat.Card(y) == x {
			pk = 2
		}
		// the composition after P2 = y: one card fewer of rank R and of card y
		s2y := s2 - 2*(cR-1)
		k2y := k2 - 2*(ky-1)
		iRy := iR - 2*(ky-1)
		aRy := f2(cR - 1)
		w := u128{lo: ky}
		add := func(bk int, same bool, v uint64) {
			out[pairClass(pk, bk, same)] = out[pairClass(pk, bk, same)].add(w.mul(v))
		}
		add(2, true, iRy)
		add(1, true, aRy-iRy)
		add(2, false, k2y-iRy)
		add(1, false, (s2y-k2y)-(aRy-iRy))
		player[pk] = player[pk].add(w.mul(falling(n-1, 2)))
	}
	banker := [3]u128{{}, mul64(s2-k2, n-2), mul64(k2, n-2)}
	completeMarginals(out, player, banker, falling128(n, 3))
}

// pairsP1B1: the first cards of both hands are known (x, z); only P2 and B2 are to come.
// Only P2 cards of x's or z's rank change anything, so those are counted one by one and
// every other P2 card together.
func pairsP1B1(pc *pairComp, x, z baccarat.Card, out *[nPairClasses]u128) {
	R, Z := int(x/4), int(z/4)
	same := R == Z
	n := pc.n
	bankerAfter := func(y int) (ident, pair, none uint64) {
		ident = pc.k[z]
		cz := pc.c[Z]
		if y >= 0 {
			if baccarat.Card(y) == z {
				ident--
			}
			if y/4 == Z {
				cz--
			}
		}
		return ident, cz - ident, n - 1 - cz
	}
	add := func(pk int, w uint64, y int) {
		if w == 0 {
			return
		}
		ident, pair, none := bankerAfter(y)
		out[pairClass(pk, 2, same)] = out[pairClass(pk, 2, same)].add(mul64(w, ident))
		out[pairClass(pk, 1, same)] = out[pairClass(pk, 1, same)].add(mul64(w, pair))
		out[pairClass(pk, 0, false)] = out[pairClass(pk, 0, false)].add(mul64(w, none))
	}
	other := n - pc.c[R]
	for s := 0; s < 4; s++ {
		y := R*4 + s
		pk := 1
		if baccarat.Card(y) == x {
			pk = 2
		}
		add(pk, pc.k[y], y)
	}
	if !same {
		other -= pc.c[Z]
		for s := 0; s < 4; s++ {
			add(0, pc.k[Z*4+s], Z*4+s)
		}
	}
	add(0, other, -1)
}
