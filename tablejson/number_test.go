package tablejson

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestAppendIntWritesWhatStrconvWrites: every power of ten and its neighbours, the ends of
// the range and a million random numbers of every length.
func TestAppendIntWritesWhatStrconvWrites(t *testing.T) {
	check := func(v int64) {
		if got, want := string(appendInt([]byte("x"), v)), "x"+strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendInt(%d) = %s, want %s", v, got, want)
		}
		if got, want := string(appendUint(nil, uint64(v))), strconv.FormatUint(uint64(v), 10); got != want {
			t.Fatalf("appendUint(%d) = %s, want %s", uint64(v), got, want)
		}
	}
	for _, v := range []int64{0, 1, 9, 10, 99, 100, math.MaxInt64, math.MinInt64, -1, math.MinInt64 + 1} {
		check(v)
	}
	for p := int64(1); p < math.MaxInt64/10; p *= 10 {
		for _, v := range []int64{p - 1, p, p + 1, -p, 10*p - 1} {
			check(v)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		check(int64(r.Uint64() >> r.IntN(64)))
	}
}
