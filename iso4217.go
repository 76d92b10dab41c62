package baccarat

import "strings"

// iso4217 lists the active ISO 4217 currency codes that have a minor unit, and XXX (play
// money). Precious metals, bond units and the testing code have none and are left out: no
// table plays for them. The minor units of those that are not 2 are in currency.go.
const iso4217 = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP " +
	"BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD " +
	"FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR " +
	"KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV " +
	"MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG " +
	"SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN " +
	"UYI UYU UYW UZS VED VES VND VUV WST XAF XCD XCG XOF XPF XXX YER ZAR ZMW ZWG ZWL"

var currencies = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(iso4217) {
		m[c] = true
	}
	return m
}()

// IsCurrency reports whether code is on the list: an ISO 4217 currency a table can play for
// (with its minor unit, MinorUnits), or XXX, play money. It is the list alone: check a
// currency someone names with CheckCurrency (or CheckMoneyCurrency), which say why not.
func IsCurrency(code string) bool { return currencies[code] }

// Currencies lists the codes IsCurrency takes, sorted.
func Currencies() []string { return strings.Fields(iso4217) }
