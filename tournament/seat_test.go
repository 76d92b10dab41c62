package tournament

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestSeatBalance(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for k := 2; k <= 10; k++ {
			ps := players(n)
			tables := Seat(ps, k, rand.NewPCG(uint64(n), uint64(k)))
			wantTables := (n + k - 1) / k
			if len(tables) != wantTables {
				t.Fatalf("%d players at tables of %d: %d tables, want the fewest, %d", n, k, len(tables), wantTables)
			}
			var all []string
			lo, hi := n, 0
			for _, tb := range tables {
				lo, hi = min(lo, len(tb)), max(hi, len(tb))
				all = append(all, tb...)
			}
			if hi > k || hi-lo > 1 {
				t.Fatalf("%d players at tables of %d: sizes from %d to %d", n, k, lo, hi)
			}
			slices.Sort(all)
			want := slices.Clone(ps)
			slices.Sort(want)
			if !reflect.DeepEqual(all, want) {
				t.Fatalf("%d players at tables of %d: not everyone seated once: %v", n, k, all)
			}
		}
	}
}

func TestSeatDeterministic(t *testing.T) {
	ps := players(20)
	t.Run("the same seed seats the same way", func(t *testing.T) {
		a := Seat(ps, 6, rand.NewPCG(7, 1))
		b := Seat(ps, 6, rand.NewPCG(7, 1))
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%v\n%v", a, b)
		}
	})
	t.Run("another seed draws another seating", func(t *testing.T) {
		if reflect.DeepEqual(Seat(ps, 6, rand.NewPCG(7, 1)), Seat(ps, 6, rand.NewPCG(8, 1))) {
			t.Error("seeds 7 and 8 seat alike")
		}
	})
	t.Run("each round draws with its own stream of the seed", func(t *testing.T) {
		if reflect.DeepEqual(Seat(ps, 6, seatingSource(7, 1)), Seat(ps, 6, seatingSource(7, 2))) {
			t.Error("rounds 1 and 2 seat alike")
		}
	})
	t.Run("the caller's list is left in its order", func(t *testing.T) {
		before := slices.Clone(ps)
		Seat(ps, 6, rand.NewPCG(1, 2))
		if !reflect.DeepEqual(ps, before) {
			t.Error("Seat shuffled its argument")
		}
	})
	t.Run("nobody to seat, no tables", func(t *testing.T) {
		if got := Seat(nil, 6, rand.NewPCG(1, 2)); got != nil {
			t.Errorf("%v", got)
		}
	})
}

func TestTableSizes(t *testing.T) {
	cases := []struct {
		name string
		n, k int
		want []int
	}{
		{"seven at tables of six sit four and three", 7, 6, []int{4, 3}},
		{"twelve at tables of six fill two tables", 12, 6, []int{6, 6}},
		{"thirteen at tables of six sit five, four, four", 13, 6, []int{5, 4, 4}},
		{"one player sits alone", 1, 6, []int{1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tableSizes(tc.n, tc.k); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v", got)
			}
		})
	}
}

// constSource returns its values in turn, then zeros.
type constSource struct{ vals []uint64 }

func (c *constSource) Uint64() uint64 {
	if len(c.vals) == 0 {
		return 0
	}
	v := c.vals[0]
	c.vals = c.vals[1:]
	return v
}

func TestUniform(t *testing.T) {
	const maxU = ^uint64(0)
	cases := []struct {
		name string
		n    uint64
		vals []uint64
		want uint64
	}{
		{"a value below the last whole block is taken", 3, []uint64{7}, 1},
		{"the top value is redrawn when it would favour a remainder", 3, []uint64{maxU, 5}, 2},
		{"a value in the last partial block is redrawn", 10, []uint64{maxU - 3, 4}, 4},
		{"one choice is always 0", 1, []uint64{12345}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := uniform(&constSource{tc.vals}, tc.n); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
	t.Run("every remainder comes equally often over a full cycle", func(t *testing.T) {
		counts := make([]int, 6)
		for x := range uint64(600) {
			counts[uniform(&constSource{[]uint64{x}}, 6)]++
		}
		for r, c := range counts {
			if c != 100 {
				t.Errorf("remainder %d drawn %d times", r, c)
			}
		}
	})
}
