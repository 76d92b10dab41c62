package web

// The caller's own account: who they are, their wallets and their public name.

import (
	"net/http"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/ledger"
)

// Me is the caller's account.
type Me struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Role     Role            `json:"role"`
	Tables   []string        `json:"tables,omitempty"`
	Balance  baccarat.Money  `json:"balance"`
	Currency ledger.Currency `json:"currency"`
	// MinorUnits is the currency's decimals (JPY 0, EUR 2, BHD 3): balance is in its minor
	// units. Language is the one the operator's launch gave, if any.
	MinorUnits int    `json:"minor_units"`
	Language   string `json:"language,omitempty"`
	// Wallets are the currencies a player holds money in (their own first; chips left out):
	// a page reads another with ?currency=.
	Wallets []WalletView `json:"wallets,omitempty"`
	// Public is how other players see a player: their handle and name (names.go).
	Public *PublicMe `json:"public,omitempty"`
}

// WalletView names one of a player's wallets: its currency and that currency's decimals.
type WalletView struct {
	Currency   ledger.Currency `json:"currency"`
	MinorUnits int             `json:"minor_units"`
}

// currencyOf is a player's currency: the one the operator launched them with, or the
// server's.
func (s *Server) currencyOf(a access.Account) ledger.Currency {
	if a.Currency != "" {
		return ledger.Currency(a.Currency)
	}
	return s.currency
}

// walletCurrency is the wallet a player's request reads: ?currency= (an ISO 4217 code, or
// XXX) when given, a player being able to hold money in several (a wager at a table debits
// the wallet of the table's currency); else the player's own.
func (s *Server) walletCurrency(r *http.Request, a access.Account) (ledger.Currency, error) {
	c := r.URL.Query().Get("currency")
	if c == "" {
		return s.currencyOf(a), nil
	}
	if err := baccarat.CheckMoneyCurrency(c); err != nil {
		return "", err
	}
	return ledger.Currency(c), nil
}

// walletsOf lists the currencies a player has wallets in: their own first, then the others
// in order; tournament chips are left out.
func (s *Server) walletsOf(r *http.Request, a access.Account) ([]WalletView, error) {
	own := s.currencyOf(a)
	out := []WalletView{{Currency: own, MinorUnits: baccarat.MinorUnits(string(own))}}
	list, err := s.books.Accounts(r.Context(), ledger.Wallet(a.ID, ""))
	if err != nil {
		return nil, err
	}
	for _, ab := range list {
		acc, err := ledger.ParseAccount(ab.ID)
		if err != nil || acc.Kind != ledger.KindWallet || acc.Owner != a.ID || acc.Currency == own || acc.Currency.IsChips() {
			continue
		}
		out = append(out, WalletView{Currency: acc.Currency, MinorUnits: baccarat.MinorUnits(string(acc.Currency))})
	}
	return out, nil
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, id Identity) {
	cur, err := s.walletCurrency(r, id.Account)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	me := Me{ID: id.ID, Name: id.Account.Name, Role: id.Role, Tables: id.Account.Tables, Currency: cur,
		MinorUnits: baccarat.MinorUnits(string(cur)), Language: id.Account.Language}
	if me.Name == "" {
		me.Name = id.ID
	}
	if id.Role == RolePlayer {
		b, err := s.wallets.Balance(r.Context(), id.ID, cur)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		me.Balance = b
		if me.Wallets, err = s.walletsOf(r, id.Account); err != nil {
			s.writeError(w, r, err)
			return
		}
		me.Public = s.publicMe(r, id)
	}
	writeJSON(w, 200, me)
}
