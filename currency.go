package baccarat

import (
	"strconv"
	"strings"
)

// PlayMoney is ISO 4217's "no currency", the currency of demo tables.
const PlayMoney = "XXX"

// ChipsPrefix starts a tournament's chip currency, "CHIPS:<tournament>".
const ChipsPrefix = "CHIPS:"

// CheckCurrency is the platform's one rule of what a currency is, for everything that names
// one (a table, a tournament, an account, a wallet, the books): an ISO 4217 code from
// IsCurrency's list, XXX (PlayMoney) among them, or a tournament's chips, ChipsPrefix and
// the tournament's id (ValidID: tournament ids come from outside). Chips are a currency of
// their own per tournament, so nothing that moves money can mix them with money. A code that
// merely looks like one ("ABC") is refused: it has no minor unit anyone agreed on. Where
// chips have no business, use CheckMoneyCurrency. Errors are bad_request.
func CheckCurrency(s string) error {
	if t, ok := strings.CutPrefix(s, ChipsPrefix); ok {
		if ValidID(t) {
			return nil
		}
		return Errorf(CodeBadRequest, "currency %q: a tournament's chips are %s<tournament id>, the id of 1 to %d letters, digits, _ and -",
			Truncate(s, 80), ChipsPrefix, MaxIDLen)
	}
	if IsCurrency(s) {
		return nil
	}
	return Errorf(CodeBadRequest, "currency %q is not an ISO 4217 code: want three capital letters such as EUR or JPY (XXX for play money), or %s<tournament> for a tournament's chips",
		Truncate(s, 40), ChipsPrefix)
}

// CheckMoneyCurrency is CheckCurrency without the chips: an ISO 4217 code (XXX for play
// money). It is for what holds or moves money outside a tournament: a player's own currency,
// a credit, a wallet asked for, and the operator's wallet, which never sees chips, as chips
// never leave the platform. Errors are bad_request.
func CheckMoneyCurrency(s string) error {
	if strings.HasPrefix(s, ChipsPrefix) {
		return Errorf(CodeBadRequest, "currency %q is a tournament's chips, which never leave the platform: want money, an ISO 4217 code such as EUR or JPY (XXX for play money)",
			Truncate(s, 40))
	}
	if IsCurrency(s) {
		return nil
	}
	return Errorf(CodeBadRequest, "currency %q is not an ISO 4217 code: want three capital letters such as EUR or JPY (XXX for play money)",
		Truncate(s, 40))
}

// minorUnits lists the ISO 4217 currencies whose minor unit is not the cent.
var minorUnits = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
	"RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
	"CLF": 4, "UYW": 4,
}

// MinorUnits is how many decimal places a currency's minor unit has (ISO 4217): JPY 0,
// USD 2, BHD 3. Tournament chips are whole (0); play money and any other code have 2.
func MinorUnits(currency string) int {
	if strings.HasPrefix(currency, ChipsPrefix) {
		return 0
	}
	if n, ok := minorUnits[currency]; ok {
		return n
	}
	return 2
}

// FormatMoney writes an amount in minor units as people read it, in major units with
// thousands separators and the currency: "10,000.00 USD", "1,500 JPY", "2,500 chips".
// Play money shows no code ("10,000.00"), as the pages show it.
func FormatMoney(m Money, currency string) string {
	s := FormatAmount(m, MinorUnits(currency))
	switch {
	case currency == "" || currency == PlayMoney:
		return s
	case strings.HasPrefix(currency, ChipsPrefix):
		return s + " chips"
	}
	return s + " " + currency
}

// FormatAmount writes m minor units with the given number of decimals and a comma every
// three digits: FormatAmount(1000000, 2) is "10,000.00".
func FormatAmount(m Money, decimals int) string {
	neg := m < 0
	u := uint64(m)
	if neg {
		u = -u
	}
	digits := strconv.FormatUint(u, 10)
	if len(digits) <= decimals {
		digits = strings.Repeat("0", decimals-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-decimals], digits[len(digits)-decimals:]
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	if decimals > 0 {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
