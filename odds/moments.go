package odds

// The moments counter, for a coup with nothing or only the Player's first card known.
//
// The four initial cards are enumerated by point value as a Player hand and a Banker hand
// (each an unordered pair with its ordered multiplicity): 55×55 states. A state s has ways
// w_s and takes r_s (a vector by value) out of the composition n. Third cards are not
// enumerated per state: what a state leaves is n − r_s, linear in r_s, so summed over all
// the states of a group g = (p, q) of two-card totals, with W = Σw, M1 = Σw·r and
// M2 = Σw·r⊗r (removal moments),
//
//	Σ w·(n_x − r_x)                     = W·n_x − M1[x]                                =: A_x
//	Σ w·(n_x − r_x)·(n_y − r_y − [x=y]) = A_x·n_y − n_x·M1[y] + M2[x][y] − [x=y]·A_x
//
// (Player's third card x, then Banker's third card y). The state loop only accumulates
// moments; the third cards cost a fixed 48 groups × 10 × 10 at the end.

// vpair is an unordered pair of point values {c ≤ d}: ordered ways = (n_c·(n_d − same)) << shift.
type vpair struct {
	c, d  uint8
	shift uint8  // 1 when c ≠ d: both orders
	same  uint64 // 1 when c = d
}

// pairsByTotal lists the 55 value pairs grouped by their total mod 10; pairsAt[q] is where
// total q starts.
var pairsByTotal, pairsAt = func() (ps [55]vpair, at [11]int) {
	i := 0
	for q := 0; q < 10; q++ {
		at[q] = i
		for c := 0; c < 10; c++ {
			for d := c; d < 10; d++ {
				if (c+d)%10 != q {
					continue
				}
				v := vpair{c: uint8(c), d: uint8(d), shift: 1}
				if c == d {
					v.shift, v.same = 0, 1
				}
				ps[i] = v
				i++
			}
		}
	}
	at[10] = i
	return ps, at
}()

func (c *counter) clearMoments() {
	c.w = [100]uint64{}
	c.m1 = [100][11]uint64{}
	c.s2 = [48][11][11]uint64{}
	c.t = [10][10]uint64{}
}

// neg10[v] = −v mod 10; twice[q][v] = 1 when 2v ≡ q; sumIs[q][s] = 1 when s ≡ q (s ≤ 18).
var neg10, twice, sumIs = func() (neg [10]uint8, tw [10][10]uint64, si [10][19]uint64) {
	for v := 0; v < 10; v++ {
		neg[v] = uint8((10 - v) % 10)
		for q := 0; q < 10; q++ {
			if (2*v)%10 == q {
				tw[q][v] = 1
			}
		}
	}
	for q := 0; q < 10; q++ {
		for s := 0; s < 19; s++ {
			if s%10 == q {
				si[q][s] = 1
			}
		}
	}
	return neg, tw, si
}()

// bankerWays sets c.bw[q], the ordered pairs of cards of total q from the whole composition:
// Σ_x n_x·n_{q−x} less the pairs of one card with itself.
func (c *counter) bankerWays() {
	n := &c.n
	for q := 0; q < 10; q++ {
		var w uint64
		for x := 0; x < 10; x++ {
			w += n[x] * n[rot[q][neg10[x]]]
			w -= twice[q][x] * n[x]
		}
		c.bw[q] = w
	}
}

// moments0: nothing known. Player pair {a ≤ b}, then every Banker pair.
func (c *counter) moments0() {
	n := &c.n
	c.bankerWays()
	for i := range pairsByTotal {
		pp := &pairsByTotal[i]
		a, b := int(pp.c), int(pp.d)
		nb := *n
		if nb[a] == 0 {
			continue
		}
		nb[a]--
		if nb[b] == 0 {
			continue
		}
		nb[b]--
		wP := n[a] * (n[b] - pp.same) << pp.shift
		c.sweep(int(mod10[a+b]), wP, &nb, a, b)
	}
}

// moments1: the Player's first card (value v0) known. P2 by value, then every Banker pair.
func (c *counter) moments1(v0 int) {
	n := &c.n
	c.bankerWays()
	for a := 0; a < 10; a++ {
		if n[a] == 0 {
			continue
		}
		nb := *n
		nb[a]--
		c.sweep(int(mod10[v0+a]), n[a], &nb, a, 10)
	}
}

// sweep adds, for a Player part of ways wP (total p, removed values a and b, b = 10 for
// none, leaving nb), every Banker pair's state to its group. What is the same for all the
// Banker pairs of one group (W, the Player's removed cards) is added once per group.
func (c *counter) sweep(p int, wP uint64, nb *[10]uint64, a, b int) {
	n := &c.n
	for q := 0; q < 10; q++ {
		g := p*10 + q
		ps := pairsByTotal[pairsAt[q]:pairsAt[q+1]]
		var sum uint64
		switch groupKind[g] {
		case 0:
			// Only the ways count: the Banker's ordered pairs of total q on n less the
			// Player's a and b, from those on n (bankerWays) by linearity.
			w := c.bw[q] - 2*n[rot[q][neg10[a]]] + 2*twice[q][a]
			if b < 10 {
				w = w - 2*n[rot[q][neg10[b]]] + 2*twice[q][b] + 2*sumIs[q][a+b]
			}
			c.w[g] += wP * w
		case 1:
			m := &c.m1[g]
			for _, bp := range ps {
				w := wP * nb[bp.c] * (nb[bp.d] - bp.same) << bp.shift
				sum += w
				m[bp.c] += w
				m[bp.d] += w
			}
			c.w[g] += sum
			m[a] += sum
			m[b] += sum
		case 2:
			m := &c.m1[g]
			s := &c.s2[p*8+q]
			sa, sb := &s[a], &s[b]
			for _, bp := range ps {
				w := wP * nb[bp.c] * (nb[bp.d] - bp.same) << bp.shift
				sum += w
				m[bp.c] += w
				m[bp.d] += w
				sa[bp.c] += w
				sa[bp.d] += w
				sb[bp.c] += w
				sb[bp.d] += w
				s[bp.c][bp.d] += w
			}
			c.w[g] += sum
			m[a] += sum
			m[b] += sum
			sa[b] += sum
		}
	}
}

// finishMoments turns the group moments into cells (k initial cards were unknown). s2
// counts each unordered pair of a state's removed cards once, in either slot, so
// M2[x][y] = s2[x][y] + s2[y][x] off the diagonal and 2·s2[x][x] + M1[x] on it. The A_x·n_y
// term is left to one convolution per (P, q).
func (c *counter) finishMoments(k int) {
	n := &c.n
	nr := c.N - uint64(k)
	cells := &c.t6.cells
	for g := 0; g < 100; g++ {
		W := c.w[g]
		if W == 0 {
			continue
		}
		p, q := g/10, g%10
		switch groupKind[g] {
		case 0:
			cells[g] += W * nr * (nr - 1)
		case 1:
			m := &c.m1[g]
			row := (*[10]uint64)(cells[100+p*10 : 110+p*10])
			r := &rot[q]
			for y := 0; y < 10; y++ {
				row[r[y]] += (W*n[y] - m[y]) * (nr - 1)
			}
		case 2:
			c.finishDraw(p, q, W, nr)
		}
	}
	c.convolve(&c.t, 300)
}

func (c *counter) finishDraw(p, q int, W, nr uint64) {
	n := &c.n
	m := &c.m1[p*10+q]
	s := &c.s2[p*8+q]
	cells := &c.t6.cells
	r := &rot[q]
	// the row of the Banker's third card y as it lands on B = q + y
	var mr [10]uint64
	for y := 0; y < 10; y++ {
		mr[r[y]] = m[y]
	}
	for x := 0; x < 10; x++ {
		A := W*n[x] - m[x]
		if A == 0 {
			continue
		}
		P := mod10[p+x]
		if !draws[q][x] {
			cells[200+int(P)*10+q] += A * (nr - 1)
			continue
		}
		c.t[P][q] += A
		var v [10]uint64
		sx := &s[x]
		for y := 0; y < 10; y++ {
			v[r[y]] = sx[y] + s[y][x]
		}
		v[r[x]] += m[x] - A
		row := (*[10]uint64)(cells[300+int(P)*10 : 310+int(P)*10])
		nx := n[x]
		for B := 0; B < 10; B++ {
			row[B] += v[B] - nx*mr[B]
		}
	}
}
