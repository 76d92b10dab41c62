package tournament

import (
	"reflect"
	"testing"

	"github.com/tablehouse/baccarat"
)

func TestPrizes(t *testing.T) {
	cases := []struct {
		name   string
		pool   baccarat.Money
		shares []int
		ranks  []int
		want   []baccarat.Money
	}{
		{"exact shares pay exactly", 1000, []int{5000, 3000, 2000}, []int{1, 2, 3, 4}, []baccarat.Money{500, 300, 200, 0}},
		{"the leftover unit of 1001 goes to the winner", 1001, []int{5000, 3000, 2000}, []int{1, 2, 3}, []baccarat.Money{501, 300, 200}},
		{"leftover units go one each from the top, not to the largest fractions", 1009, []int{5000, 3000, 2000}, []int{1, 2, 3}, []baccarat.Money{505, 303, 201}},
		{"a pool of 1 goes to the winner", 1, []int{5000, 3000, 2000}, []int{1, 2, 3}, []baccarat.Money{1, 0, 0}},
		{"a pool of 2 goes one each to the top two", 2, []int{3400, 3300, 3300}, []int{1, 2, 3}, []baccarat.Money{1, 1, 0}},
		{"winner takes all", 777, []int{10000}, []int{1, 2, 3}, []baccarat.Money{777, 0, 0}},
		{"a tie for second and third splits their shares equally", 1000, []int{5000, 3000, 2000}, []int{1, 2, 2}, []baccarat.Money{500, 250, 250}},
		{"a tie for first and second splits 80% in two", 1000, []int{5000, 3000, 2000}, []int{1, 1, 3}, []baccarat.Money{400, 400, 200}},
		{"a tied split's leftover unit goes to the first listed of the tied", 1001, []int{5000, 3000, 2000}, []int{1, 2, 2}, []baccarat.Money{501, 250, 250}},
		{"an odd split leaves a unit for the first listed of the tied", 1000, []int{5000, 3000, 1000, 1000}, []int{1, 2, 2, 2}, []baccarat.Money{500, 167, 167, 166}},
		{"a tie across the last paid place shares it with the unpaid", 1000, []int{5000, 3000, 2000}, []int{1, 2, 3, 3}, []baccarat.Money{500, 300, 100, 100}},
		{"everyone tied splits the pool", 1000, []int{5000, 3000, 2000}, []int{1, 1, 1}, []baccarat.Money{334, 333, 333}},
		{"fewer players than places scale the occupied shares", 800, []int{5000, 3000, 2000}, []int{1, 2}, []baccarat.Money{500, 300}},
		{"fewer players than places still pay the whole pool", 1001, []int{5000, 3000, 2000}, []int{1, 2}, []baccarat.Money{626, 375}},
		{"an empty pool pays nothing", 0, []int{5000, 3000, 2000}, []int{1, 2, 3}, []baccarat.Money{0, 0, 0}},
		{"nobody ranked, nothing paid", 1000, []int{10000}, nil, []baccarat.Money{}},
		{"a pool of 10^15 does not overflow", baccarat.MaxAmount, []int{6000, 4000}, []int{1, 2},
			[]baccarat.Money{600_000_000_000_000, 400_000_000_000_000}},
		{"thirds of 10^15 + 1", baccarat.MaxAmount + 1, []int{3334, 3333, 3333}, []int{1, 2, 3},
			[]baccarat.Money{333_400_000_000_001, 333_300_000_000_000, 333_300_000_000_000}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Prizes(tc.pool, tc.shares, tc.ranks)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			var sum baccarat.Money
			for _, p := range got {
				sum += p
			}
			if len(tc.ranks) > 0 && sum != tc.pool {
				t.Errorf("prizes sum to %d, not the pool %d", sum, tc.pool)
			}
		})
	}
}
