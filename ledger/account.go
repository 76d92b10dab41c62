// Package ledger is the platform's double-entry money: accounts, transactions with
// idempotency keys, and postings that sum to zero. It is pure (no database, no clock, no
// files): stores persist what this package decides, so the money rules are written once and
// every store (SQLite, PostgreSQL) runs the same conformance suite, ledgertest.
//
// An amount is baccarat.Money, int64 minor units (cents, or chips). A posting's Amount is
// added to its account's balance: positive credits the account, negative debits it. A wager
// moves stake from a wallet to the table's in-play account:
//
//	wallet/alice/EUR  -500
//	inplay/t1/EUR     +500
package ledger

import (
	"strings"

	"github.com/tablehouse/baccarat"
)

// Kind is what an account is for. It decides one rule: only the house may go negative.
type Kind uint8

// The account kinds.
const (
	// KindWallet is a player's money (or tournament chips) in one currency: "wallet/alice/EUR".
	KindWallet Kind = iota + 1
	// KindHouse is the operator's side of every bet in one currency: "house/EUR". It may go
	// negative: a winning night for the players is a negative house.
	KindHouse
	// KindInPlay holds the stakes of one table between a wager and its settlement:
	// "inplay/t1/EUR". It is empty whenever no round is open, which audit can check.
	KindInPlay
)

var kindPrefix = [...]string{KindWallet: "wallet", KindHouse: "house", KindInPlay: "inplay"}

// String is the account-id prefix of the kind: "wallet", "house", "inplay".
func (k Kind) String() string {
	if int(k) < len(kindPrefix) && k != 0 {
		return kindPrefix[k]
	}
	return "kind?"
}

// ChipsPrefix starts every tournament-chip currency (baccarat.ChipsPrefix, named here for
// the ledger's readers). Chips are a currency of their own per tournament ("CHIPS:t42"), so
// a transaction, being in one currency, can never turn chips into money or move chips
// between tournaments.
const ChipsPrefix = baccarat.ChipsPrefix

// Currency is an ISO 4217 code ("EUR", "XXX" play money) or tournament chips (ChipsPrefix +
// tournament id, "CHIPS:t42"): what baccarat.CheckCurrency takes.
type Currency string

// Chips is the chip currency of a tournament.
func Chips(tournament string) Currency { return Currency(ChipsPrefix + tournament) }

// IsChips reports whether c is a tournament's chips rather than money.
func (c Currency) IsChips() bool { return strings.HasPrefix(string(c), ChipsPrefix) }

// ParseCurrency checks s is a currency (baccarat.CheckCurrency) and types it.
func ParseCurrency(s string) (Currency, error) {
	if err := baccarat.CheckCurrency(s); err != nil {
		return "", err
	}
	return Currency(s), nil
}

// Account is a parsed account id.
type Account struct {
	ID       string
	Kind     Kind
	Owner    string // the player of a wallet, the table of an in-play account, "" for the house
	Currency Currency
}

// MayGoNegative reports whether the account may hold less than zero: only the house.
func (a Account) MayGoNegative() bool { return a.Kind == KindHouse }

// Wallet is the id of a player's wallet in a currency: "wallet/alice/EUR".
func Wallet(player string, c Currency) string { return "wallet/" + player + "/" + string(c) }

// House is the id of the house account of a currency: "house/EUR".
func House(c Currency) string { return "house/" + string(c) }

// InPlay is the id of a table's in-play account in a currency: "inplay/t1/EUR".
func InPlay(table string, c Currency) string { return "inplay/" + table + "/" + string(c) }

// ParseAccount reads an account id: "wallet/<player>/<currency>", "house/<currency>" or
// "inplay/<table>/<currency>". The player or table is a stored id (baccarat.ValidStoredID:
// a house bot's wallet is "wallet/bot.house-1/CHIPS:t42"), the currency one that
// baccarat.CheckCurrency takes.
func ParseAccount(id string) (Account, error) {
	parts := strings.Split(id, "/")
	a := Account{ID: id}
	var cur string
	switch {
	case len(parts) == 3 && parts[0] == "wallet":
		a.Kind, a.Owner, cur = KindWallet, parts[1], parts[2]
	case len(parts) == 3 && parts[0] == "inplay":
		a.Kind, a.Owner, cur = KindInPlay, parts[1], parts[2]
	case len(parts) == 2 && parts[0] == "house":
		a.Kind, cur = KindHouse, parts[1]
	default:
		return Account{}, badAccount(id)
	}
	if a.Kind != KindHouse && !baccarat.ValidStoredID(a.Owner) {
		return Account{}, badAccount(id)
	}
	c, err := ParseCurrency(cur)
	if err != nil {
		return Account{}, badAccount(id)
	}
	a.Currency = c
	return a, nil
}

func badAccount(id string) error {
	return baccarat.Errorf(baccarat.CodeBadRequest,
		"%q is not an account: want wallet/<player>/<currency>, house/<currency> or inplay/<table>/<currency>", id)
}
