package baccarat

import (
	"math/bits"
	"strconv"
	"strings"
)

// Money is an amount in minor units (cents, or chips for tournaments). Amounts are never
// floats anywhere in the platform. It is a defined type, not an alias, so the compiler keeps
// amounts apart from counts, sequence numbers and other int64s.
type Money int64

// Ratio is a fixed payout "Num to Den", net of the returned stake: 8:1 pays 8 for 1, 1:2 pays
// half the stake (RWS 4.1.1), 19:20 is a 5% commission on Banker.
type Ratio struct {
	Num, Den int64
}

// String is "N:D".
func (r Ratio) String() string {
	if r.Den == 0 {
		return ""
	}
	return strconv.FormatInt(r.Num, 10) + ":" + strconv.FormatInt(r.Den, 10)
}

// IsZero reports whether r is the zero Ratio (no payout defined).
func (r Ratio) IsZero() bool { return r.Den == 0 }

// Net is the amount a winning stake wins at this ratio, rounded down to the minor unit
// (SPEC §4): stake·Num/Den, computed in 128 bits so large stakes cannot overflow.
func (r Ratio) Net(stake Money) Money {
	if stake <= 0 || r.Den <= 0 || r.Num <= 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(stake), uint64(r.Num))
	if hi >= uint64(r.Den) {
		return 1<<63 - 1 // beyond any representable amount; limits refuse such stakes long before
	}
	q, _ := bits.Div64(hi, lo, uint64(r.Den))
	if q > 1<<63-1 {
		return 1<<63 - 1
	}
	return Money(q)
}

// ParseRatio reads "N:D" (or "N to D").
func ParseRatio(s string) (Ratio, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " to ", ":")
	n, d, ok := strings.Cut(s, ":")
	num, err1 := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
	den, err2 := strconv.ParseInt(strings.TrimSpace(d), 10, 64)
	if !ok || err1 != nil || err2 != nil || num < 0 || den <= 0 {
		return Ratio{}, Errorf(CodeBadRequest, "%q is not a payout ratio such as 8:1", s)
	}
	return Ratio{num, den}, nil
}

// Odds are decimal odds held as integer hundredths: 250 means 2.50, so a winning stake of
// 10.00 returns 25.00, 15.00 of it won (BoB 1.2). 100 (1.00) returns only the stake.
type Odds int64

// String is the decimal form with two places: "2.50".
func (o Odds) String() string {
	sign := ""
	if o < 0 {
		sign, o = "-", -o
	}
	return sign + strconv.FormatInt(int64(o/100), 10) + "." + strconv.FormatInt(int64(o%100)/10, 10) + strconv.FormatInt(int64(o%10), 10)
}

// MarshalText writes the decimal form.
func (o Odds) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads the decimal form.
func (o *Odds) UnmarshalText(b []byte) error {
	v, err := ParseOdds(string(b))
	if err == nil {
		*o = v
	}
	return err
}

// ParseOdds reads decimal odds with at most two decimal places: "2.5", "2.50", "11".
func ParseOdds(s string) (Odds, error) {
	t := strings.TrimSpace(s)
	whole, frac, _ := strings.Cut(t, ".")
	if len(frac) > 2 || whole == "" {
		return 0, Errorf(CodeBadRequest, "%q is not decimal odds with at most two decimals, such as 2.50", s)
	}
	frac += strings.Repeat("0", 2-len(frac))
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseUint(frac, 10, 64)
	if err1 != nil || err2 != nil || w < 0 || w > 1<<40 {
		return 0, Errorf(CodeBadRequest, "%q is not decimal odds with at most two decimals, such as 2.50", s)
	}
	return Odds(w*100 + int64(f)), nil
}

// Net is the amount a winning stake wins at these odds: stake·odds − stake, the product
// rounded down to the minor unit.
func (o Odds) Net(stake Money) Money {
	if stake <= 0 || o <= 100 {
		return 0
	}
	return Ratio{int64(o) - 100, 100}.Net(stake)
}

// MaxAmount is the largest amount one posting of the books may move (10^15 minor units:
// ten trillion dollars). Table limits are held below it: a bet's largest possible return,
// stake and winnings, must fit (table.Config.Normalize).
const MaxAmount Money = 1_000_000_000_000_000

// MaxOdds are the highest decimal odds a bet is offered at (10,000.00). A Bet on Baccarat
// bet priced above them is not offered in that round, so its largest return, like every
// fixed-odds bet's, is known when limits are set. No shoe of six decks reaches them before
// its change at 40 cards except in compositions nobody deals.
const MaxOdds Odds = 1_000_000

// MaxStakeFor is the largest stake whose return (stake plus winnings at the ratio) fits
// MaxAmount.
func (r Ratio) MaxStakeFor() Money {
	if r.Den <= 0 {
		return MaxAmount
	}
	hi, lo := bits.Mul64(uint64(MaxAmount), uint64(r.Den))
	q, _ := bits.Div64(hi, lo, uint64(r.Num+r.Den))
	return Money(q)
}
