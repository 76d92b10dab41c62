package odds

import (
	"encoding/json"
	"math/big"
	"testing"
)

func TestFractionText(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 100)
	for _, f := range []Fraction{NewFraction(0, 5), NewFraction(5, 5), NewFraction(2230518282592256, 4998398275503360),
		fracBig(big.NewInt(3), huge)} {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var g Fraction
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if g.Cmp(f) != 0 || g.IsOne() != f.IsOne() || g.IsZero() != f.IsZero() {
			t.Errorf("%s read back as %s", b, g)
		}
	}
	for _, bad := range []string{`"3/2"`, `"-1/2"`, `"0.5"`, `"x"`} {
		var g Fraction
		if json.Unmarshal([]byte(bad), &g) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestFractionFloat64(t *testing.T) {
	// correctly rounded below 2⁵³; within an ulp or two beyond (10 decks: (520)₆ > 2⁵³)
	f := NewFraction(1<<60+1, 3<<60)
	want, _ := new(big.Rat).SetFrac(new(big.Int).SetUint64(1<<60+1), new(big.Int).SetUint64(3<<60)).Float64()
	if d := (f.Float64() - want) / want; d > 4e-16 || d < -4e-16 {
		t.Errorf("%v, want %v", f.Float64(), want)
	}
	if NewFraction(1, 3).Float64() != 1.0/3 {
		t.Error("1/3")
	}
}

func TestBigFractionKeepsItsCounts(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(3), 70)
	num := new(big.Int).Lsh(big.NewInt(3), 68)
	f := fracBig(num, huge)
	if f.Num().Cmp(num) != 0 || f.Den().Cmp(huge) != 0 {
		t.Errorf("fracBig(%s, %s) holds %s/%s: the ways were reduced", num, huge, f.Num(), f.Den())
	}
	if f.String() != "1/4" || f.Float64() != 0.25 || f.Cmp(NewFraction(1, 4)) != 0 || f.IsZero() || f.IsOne() {
		t.Errorf("%s = %v, want 1/4", f, f.Float64())
	}
	num.SetInt64(7) // the caller's values are copied, not shared
	if f.String() != "1/4" {
		t.Errorf("changing the caller's count changed the fraction to %s", f)
	}
	if !fracBig(huge, huge).IsOne() || !fracBig(new(big.Int), huge).IsZero() {
		t.Error("a big certain or impossible event")
	}
}
