package baccarat

import (
	"strings"
	"testing"
)

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

// TestCheckCurrency: the one rule of what a currency is, and its money-only twin.
func TestCheckCurrency(t *testing.T) {
	for _, c := range []struct {
		name, cur   string
		any, money  bool   // CheckCurrency, CheckMoneyCurrency
		messageSays string // in every refusal
	}{
		{"an ISO 4217 code is a currency", "EUR", true, true, ""},
		{"an ISO 4217 code of no decimals is a currency", "JPY", true, true, ""},
		{"XXX, ISO 4217's no currency, is play money", "XXX", true, true, ""},
		{"a tournament's chips are a currency", "CHIPS:t-42", true, false, "never leave the platform"},
		{"three capitals not in ISO 4217 are refused", "ABC", false, false, "ISO 4217"},
		{"a made-up code is refused", "YEN", false, false, "such as EUR"},
		{"XTS, ISO 4217's testing code, has no minor unit: refused", "XTS", false, false, "ISO 4217"},
		{"a precious metal is no table's money: refused", "XAU", false, false, "ISO 4217"},
		{"lower case is refused", "eur", false, false, "three capital letters"},
		{"four letters are refused", "EURO", false, false, "ISO 4217"},
		{"nothing is no currency", "", false, false, "ISO 4217"},
		{"chips need a tournament", "CHIPS:", false, false, "tournament"},
		{"chips name a tournament by its id", "CHIPS:t 1", false, false, "tournament"},
		{"a chips tournament id is an outside id: no dot", "CHIPS:a.b", false, false, "tournament"},
		{"a chips tournament id is at most MaxIDLen", "CHIPS:" + strings.Repeat("t", MaxIDLen+1), false, false, "tournament"},
		{"a long code is quoted short", strings.Repeat("Z", 1000), false, false, "…"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, f := range []struct {
				name  string
				check func(string) error
				ok    bool
			}{{"CheckCurrency", CheckCurrency, c.any}, {"CheckMoneyCurrency", CheckMoneyCurrency, c.money}} {
				err := f.check(c.cur)
				if (err == nil) != f.ok {
					t.Fatalf("%s(%.20q) = %v, want ok=%v", f.name, c.cur, err, f.ok)
				}
				if err == nil {
					continue
				}
				if ErrorCode(err) != CodeBadRequest || len(err.Error()) > 300 {
					t.Errorf("%s(%.20q): %s %q, want a short bad_request", f.name, c.cur, ErrorCode(err), err)
				}
				if !strings.Contains(err.Error(), c.messageSays) {
					t.Errorf("%s(%.20q) = %q, want it to say %q", f.name, c.cur, err, c.messageSays)
				}
			}
		})
	}
}
