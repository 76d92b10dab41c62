package baccarat

import (
	"slices"
	"testing"
)

func TestCurrencies(t *testing.T) {
	list := Currencies()
	if !slices.IsSorted(list) {
		t.Error("the ISO 4217 list is not sorted")
	}
	for _, c := range []string{"EUR", "USD", "JPY", "BHD", "KWD", "XXX", "CLF"} {
		if !IsCurrency(c) {
			t.Errorf("IsCurrency(%q) = false", c)
		}
	}
	for _, c := range []string{"", "EU", "eur", "ABC", "XAU", "XTS", "CHIPS:t1"} {
		if IsCurrency(c) {
			t.Errorf("IsCurrency(%q) = true", c)
		}
	}
	for c := range minorUnits {
		if !IsCurrency(c) {
			t.Errorf("%s has minor units but is not in the list", c)
		}
	}
	for _, tc := range []struct {
		code string
		want int
	}{{"JPY", 0}, {"USD", 2}, {"EUR", 2}, {"BHD", 3}, {"XXX", 2}, {"CHIPS:cup", 0}} {
		if got := MinorUnits(tc.code); got != tc.want {
			t.Errorf("MinorUnits(%s) = %d, want %d", tc.code, got, tc.want)
		}
	}
}
