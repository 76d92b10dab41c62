package baccarat

import "testing"

func TestFormatMoney(t *testing.T) {
	for _, c := range []struct {
		m    Money
		cur  string
		want string
	}{
		{1_000_000, "XXX", "10,000.00"},
		{5, "XXX", "0.05"},
		{-123456, "USD", "-1,234.56 USD"},
		{1500, "JPY", "1,500 JPY"},
		{1001, "BHD", "1.001 BHD"},
		{2500, "CHIPS:t1", "2,500 chips"},
		{0, "", "0.00"},
		{-1 << 63, "XXX", "-92,233,720,368,547,758.08"},
	} {
		if got := FormatMoney(c.m, c.cur); got != c.want {
			t.Errorf("FormatMoney(%d, %s) = %q, want %q", c.m, c.cur, got, c.want)
		}
	}
}

func TestMinorUnitsISO4217(t *testing.T) {
	for cur, want := range map[string]int{"JPY": 0, "USD": 2, "EUR": 2, "BHD": 3, "KWD": 3, "XXX": 2, "CHIPS:x": 0} {
		if got := MinorUnits(cur); got != want {
			t.Errorf("MinorUnits(%s) = %d, want %d", cur, got, want)
		}
	}
}
