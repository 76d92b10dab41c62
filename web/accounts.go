package web

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/ledger"
)

// AccountView is an account as an admin reads it, with a player's balance.
type AccountView struct {
	access.Account
	Balance  *baccarat.Money `json:"balance,omitempty"`
	Currency ledger.Currency `json:"currency,omitempty"`
	Token    string          `json:"token,omitempty"`
}

func (s *Server) accountView(r *http.Request, a access.Account, token bool) AccountView {
	v := AccountView{Account: a}
	if a.Role == RolePlayer {
		cur := s.currencyOf(a)
		if b, err := s.wallets.Balance(r.Context(), a.ID, cur); err == nil {
			v.Balance, v.Currency = &b, cur
		}
	}
	if token {
		v.Token = s.tokens.Issue(a)
	}
	return v
}

func (s *Server) handleCreateAccount(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		ID     string   `json:"id"`
		Name   string   `json:"name"`
		Role   Role     `json:"role"`
		Tables []string `json:"tables"`
		Reason string   `json:"reason"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Role == "" {
		req.Role = RolePlayer
	}
	a := access.Account{ID: req.ID, Name: req.Name, Role: req.Role, Tables: req.Tables, Created: time.Now().UTC()}
	if err := a.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Role == RolePlayer {
		if err := s.books.OpenAccount(r.Context(), ledger.Wallet(a.ID, s.currency)); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	if err := s.createAccount(r, id, a, req.Reason); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.Info("account created", "account", a.ID, "role", a.Role, "tables", a.Tables, "by", id.ID)
	if err := s.startSession(r, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 201, s.accountView(r, a, true))
}

func (s *Server) handleListAccounts(w http.ResponseWriter, r *http.Request, id Identity) {
	after := r.URL.Query().Get("after")
	_, n := page(r)
	list, err := s.accounts.ListAccounts(r.Context(), after, n)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, list)
}

func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request, id Identity) {
	a, err := s.accounts.Account(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, s.accountView(r, a, false))
}

// handleUpdateAccount changes an account's name, tables or disabled flag. Disabling takes
// effect at once on every server (each request reads the account); this server also cuts
// the account's open streams.
func (s *Server) handleUpdateAccount(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Name     *string   `json:"name"`
		Tables   *[]string `json:"tables"`
		Disabled *bool     `json:"disabled"`
		Reason   string    `json:"reason"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	target := r.PathValue("id")
	if target == id.ID && req.Disabled != nil && *req.Disabled {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "an admin cannot disable their own account"))
		return
	}
	a, err := s.updateAccount(r, id, target, "", req.Reason, func(a *access.Account) error {
		if req.Name != nil {
			a.Name = *req.Name
		}
		if req.Tables != nil {
			a.Tables = *req.Tables
		}
		if req.Disabled != nil {
			a.Disabled = *req.Disabled
		}
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Disabled {
		s.streams.cut(a.ID)
	}
	s.log.Info("account changed", "account", a.ID, "disabled", a.Disabled, "tables", a.Tables, "by", id.ID)
	writeJSON(w, 200, s.accountView(r, a, false))
}

// handleRevoke revokes every token of an account issued so far and returns a new one.
func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request, id Identity) {
	var req resolveRequest // an optional {"reason":…}
	if r.ContentLength != 0 {
		if err := readJSON(w, r, &req); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	a, err := s.updateAccount(r, id, r.PathValue("id"), backoffice.ActAccountRevoke, req.Reason, func(a *access.Account) error {
		a.Epoch++
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.streams.cut(a.ID)
	s.log.Info("tokens revoked", "account", a.ID, "epoch", a.Epoch, "by", id.ID)
	if err := s.startSession(r, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, s.accountView(r, a, true))
}

// handleIssueToken issues another token for an account (another device, a lost link).
func (s *Server) handleIssueToken(w http.ResponseWriter, r *http.Request, id Identity) {
	a, err := s.accounts.Account(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Disabled {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeConflict, "account %s is disabled: enable it first", a.ID))
		return
	}
	if err := s.startSession(r, a); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.record(r, s.entry(id, backoffice.ActAccountToken, a.ID, "", nil))
	writeJSON(w, 200, s.accountView(r, a, true))
}

// handleCredit credits a player's wallet from the house (a deposit, or play money): the
// wallet of the currency asked for, else of the player's own. The player must exist; the
// key makes a retried credit count once. A currency whose money the operator keeps (a
// seamless deployment's) is credited at the operator, not here.
func (s *Server) handleCredit(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Amount   baccarat.Money `json:"amount"`
		Key      string         `json:"key"`
		Currency string         `json:"currency"`
		Reason   string         `json:"reason"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Reason) > backoffice.MaxReason || !printable(req.Reason) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "reason: at most %d bytes of printable text", backoffice.MaxReason))
		return
	}
	if req.Amount <= 0 || req.Amount > baccarat.MaxAmount {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "a credit is a positive amount in minor units, at most %d", baccarat.MaxAmount))
		return
	}
	if req.Key == "" {
		req.Key = uuid.NewString()
	} else if err := baccarat.CheckID("key", req.Key); err != nil {
		s.writeError(w, r, err)
		return
	}
	player := r.PathValue("id")
	a, err := s.accounts.Account(r.Context(), player)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.Role != RolePlayer {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "%s is a %s account: only players have wallets", a.ID, a.Role))
		return
	}
	cur := s.currencyOf(a)
	if req.Currency != "" {
		if err := baccarat.CheckMoneyCurrency(req.Currency); err != nil {
			s.writeError(w, r, err)
			return
		}
		cur = ledger.Currency(req.Currency)
	}
	if s.wallets.Wallet(cur).Seamless() {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "the operator keeps the players' %s: credit it in the operator's wallet", cur))
		return
	}
	if err := s.checkCreditRoom(r, player, cur, req.Amount); err != nil {
		s.writeError(w, r, err)
		return
	}
	// The credit's key names its currency unless it is the server's (as it always was), so
	// the same key in two currencies is two credits.
	key := "credit/" + player + "/" + req.Key
	if cur != s.currency {
		key = "credit/" + player + "/" + string(cur) + "/" + req.Key
	}
	if err := s.moveMoney(r, id, key, player, cur, req.Amount, req.Reason); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.Info("credit", "account", player, "amount", req.Amount, "currency", cur, "by", id.ID)
	bal, err := s.wallets.Balance(r.Context(), player, cur)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, map[string]any{"id": player, "balance": bal, "currency": cur, "minor_units": baccarat.MinorUnits(string(cur))})
}

// checkCreditRoom refuses a credit that would take the wallet past baccarat.MaxAmount (as
// ledger.MaxAmount, the same bound), the most one posting of the books may move: a balance
// beyond it could not be moved again in one posting, nor paid out whole. The books bound
// each posting, not a balance (they refuse only an int64 overflow), and no other package
// knows that a posting is a credit from outside, so the bound is checked here, where the
// credit is decided, against the wallet's balance as the books hold it (a wallet not yet
// opened holds 0). The read and the posting are two steps: two admins crediting one wallet
// at the same moment could still pass the bound together, which a check inside the store's
// transaction would close.
func (s *Server) checkCreditRoom(r *http.Request, player string, cur ledger.Currency, amount baccarat.Money) error {
	bal, err := s.books.Balance(r.Context(), ledger.Wallet(player, cur))
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		bal, err = 0, nil
	}
	if err != nil {
		return err
	}
	room := baccarat.MaxAmount - bal
	if amount <= room {
		return nil
	}
	if room <= 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%s's %s wallet holds %d, the most a wallet may hold is %d: it takes no credit", player, cur, bal, baccarat.MaxAmount)
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "%s's %s wallet holds %d and may hold at most %d: credit at most %d", player, cur, bal, baccarat.MaxAmount, room)
}
