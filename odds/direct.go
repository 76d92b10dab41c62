package odds

// The direct counter, for a coup whose first two, three or four cards are known (the third
// Bet on Baccarat betting round, and mid-coup Chances): at most 100 states of the unknown
// initial cards, each handled on its own. The Player's third card is enumerated per state;
// the Banker's is counted once on the whole composition (t01, t11: a convolution at the end),
// and the cards the state removed are subtracted from the cells where they would have landed.

func (c *counter) clearDirect() {
	c.t01, c.t11 = [10][10]uint64{}, [10][10]uint64{}
}

// enumerateDirect walks the unknown initial cards by value.
func (c *counter) enumerateDirect(vals []int) {
	n := &c.n
	nr := c.N - uint64(4-len(vals))
	switch len(vals) {
	case 2:
		for a := 0; a < 10; a++ {
			if n[a] == 0 {
				continue
			}
			na := *n
			na[a]--
			p := int(mod10[vals[0]+a])
			for b := 0; b < 10; b++ {
				if na[b] == 0 {
					continue
				}
				nb := na
				nb[b]--
				c.addDirect(p, int(mod10[vals[1]+b]), n[a]*na[b], &nb, a, b, nr)
			}
		}
	case 3:
		p := int(mod10[vals[0]+vals[2]])
		for b := 0; b < 10; b++ {
			if n[b] == 0 {
				continue
			}
			nb := *n
			nb[b]--
			c.addDirect(p, int(mod10[vals[1]+b]), n[b], &nb, b, 10, nr)
		}
	case 4:
		c.addDirect(int(mod10[vals[0]+vals[2]]), int(mod10[vals[1]+vals[3]]), 1, n, 10, 10, nr)
	}
}

// addDirect adds one state: two-card totals p and q, ordered ways w, nb the cards it leaves,
// a and b the values it removed (10: none); nr cards remain after the initial four. What
// needs no convolution goes straight into the cells (corrections included: the arithmetic
// wraps, so subtracting before adding is fine).
func (c *counter) addDirect(p, q int, w uint64, nb *[10]uint64, a, b int, nr uint64) {
	r := &rot[q]
	cells := &c.t6.cells
	switch groupKind[p*10+q] {
	case 0:
		cells[p*10+q] += w * nr * (nr - 1)
		return
	case 1:
		c.t01[p][q] += w
		row := (*[10]uint64)(cells[100+p*10 : 110+p*10])
		w1 := w * (nr - 1)
		if a < 10 {
			row[r[a]] -= w1
		}
		if b < 10 {
			row[r[b]] -= w1
		}
		return
	}
	ra, rb := r[min(a, 9)], r[min(b, 9)]
	na, nb1 := uint64(0), uint64(0) // 1 when the state removed a, b
	if a < 10 {
		na = 1
	}
	if b < 10 {
		nb1 = 1
	}
	d := &draws[q]
	for x := 0; x < 10; x++ {
		wx := w * nb[x]
		if wx == 0 {
			continue
		}
		P := int(mod10[p+x])
		if !d[x] {
			cells[200+P*10+q] += wx * (nr - 1)
			continue
		}
		c.t11[P][q] += wx
		row := (*[10]uint64)(cells[300+P*10 : 310+P*10])
		row[r[x]] -= wx
		row[ra] -= wx * na
		row[rb] -= wx * nb1
	}
}

// finishDirect adds the Banker's third cards counted on the whole composition.
func (c *counter) finishDirect(k int) {
	nr := c.N - uint64(k)
	c.convolve(&c.t11, 300)
	// Player stood, Banker drew: only rows P = 6, 7; the sixth card is any of the nr−1 left.
	for P := 6; P <= 7; P++ {
		var v [10]uint64
		for q := 0; q < 10; q++ {
			w := c.t01[P][q]
			if w == 0 {
				continue
			}
			for y := 0; y < 10; y++ {
				v[rot[q][y]] += w * c.n[y]
			}
		}
		for B := 0; B < 10; B++ {
			c.t6.cells[100+P*10+B] += v[B] * (nr - 1)
		}
	}
}
