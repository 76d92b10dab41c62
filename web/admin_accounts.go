package web

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/google/uuid"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/ledger"
)

// The accounts' audited writes: each account change and each credit or debit is written in
// one database transaction with its audit entry (backoffice.Store), so neither is ever
// without the other. A server whose store keeps no back office writes them as before.

// accountFacts is what an account change's entry shows of the account, before and after.
type accountFacts struct {
	Name     string   `json:"name"`
	Role     Role     `json:"role"`
	Tables   []string `json:"tables,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	Epoch    uint32   `json:"epoch"`
}

func factsOf(a access.Account) accountFacts {
	return accountFacts{Name: a.Name, Role: a.Role, Tables: slices.Clone(a.Tables), Disabled: a.Disabled, Epoch: a.Epoch}
}

// createAccount creates an account with its entry.
func (s *Server) createAccount(r *http.Request, id Identity, a access.Account, reason string) error {
	o, err := s.office()
	if err != nil {
		return s.accounts.CreateAccount(r.Context(), a)
	}
	return o.CreateAccountAudited(r.Context(), a, s.entry(id, backoffice.ActAccountCreate, a.ID, reason, map[string]any{"account": factsOf(a)}))
}

// updateAccount changes an account with its entry: act, or (act "") account.disable or
// account.enable when the change flips the account's disabled flag, account.update
// otherwise. Every server then forgets what it cached of the account.
func (s *Server) updateAccount(r *http.Request, id Identity, target string, act backoffice.Action, reason string,
	change func(*access.Account) error) (access.Account, error) {
	o, err := s.office()
	if err != nil {
		return s.accounts.UpdateAccount(r.Context(), target, change)
	}
	a, err := o.UpdateAccountAudited(r.Context(), target, func(a *access.Account) (backoffice.Entry, error) {
		before := factsOf(*a)
		if err := change(a); err != nil {
			return backoffice.Entry{}, err
		}
		kind := act
		switch {
		case kind != "":
		case a.Disabled && !before.Disabled:
			kind = backoffice.ActAccountDisable
		case !a.Disabled && before.Disabled:
			kind = backoffice.ActAccountEnable
		default:
			kind = backoffice.ActAccountUpdate
		}
		return s.entry(id, kind, target, reason, map[string]any{"before": before, "after": factsOf(*a)}), nil
	})
	if err != nil {
		return a, err
	}
	s.accountChanged(r.Context(), target)
	return a, nil
}

// errUnchanged ends accountChanged's change without writing.
var errUnchanged = errors.New("unchanged")

// accountChanged tells this server's account cache, and through it every server of the
// cluster, that an account changed behind it: a change through the cache that writes
// nothing (access.Cache forgets and announces an account on every change it passes on).
func (s *Server) accountChanged(ctx context.Context, target string) {
	_, _ = s.accounts.UpdateAccount(ctx, target, func(*access.Account) error { return errUnchanged })
}

// moveMoney posts a credit (amount > 0, from the house to the wallet) or a debit (amount <
// 0) with its entry, then passes the same transaction to the host, which finds its key
// posted and changes nothing more, but forgets the wallet's cached balance and tells the
// other servers it moved (live.Host.Credit).
func (s *Server) moveMoney(r *http.Request, id Identity, key, player string, cur ledger.Currency, amount baccarat.Money, reason string) error {
	ctx := r.Context()
	o, err := s.office()
	if err != nil {
		if amount < 0 {
			return err // a debit needs its entry: only a store that keeps them takes one
		}
		return s.wallets.Credit(ctx, key, player, cur, amount)
	}
	wallet, house := ledger.Wallet(player, cur), ledger.House(cur)
	for _, a := range []string{wallet, house} {
		if err := s.books.OpenAccount(ctx, a); err != nil {
			return err
		}
	}
	act, memo := backoffice.ActWalletCredit, "credit"
	if amount < 0 {
		act, memo = backoffice.ActWalletDebit, "debit"
	}
	tx := ledger.Transaction{Key: key, Memo: memo, At: s.now().UTC(), Postings: []ledger.Posting{
		{Account: house, Amount: -amount}, {Account: wallet, Amount: amount}}}
	e := s.entry(id, act, player, reason, map[string]any{"amount": absMoney(amount), "currency": cur, "key": key})
	e.Ref = key
	if _, err := o.PostAudited(ctx, tx, e); err != nil {
		return err
	}
	return s.wallets.Credit(ctx, key, player, cur, amount)
}

func absMoney(v baccarat.Money) baccarat.Money {
	if v < 0 {
		return -v
	}
	return v
}

// debitRequest is the body of POST /api/admin/accounts/{id}/debit.
type debitRequest struct {
	Amount   baccarat.Money `json:"amount"`
	Key      string         `json:"key"`
	Currency string         `json:"currency"`
	Reason   string         `json:"reason"`
}

// handleDebit takes money out of a player's wallet back to the house (a withdrawal at the
// cage, a correction), with a reason: the opposite of a credit, under the same rules.
func (s *Server) handleDebit(w http.ResponseWriter, r *http.Request, id Identity) {
	var req debitRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := checkMove(req.Amount, &req.Key, req.Reason, true); err != nil {
		s.writeError(w, r, err)
		return
	}
	player := r.PathValue("id")
	cur, err := s.walletOf(r, player, req.Currency)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	key := "debit/" + player + "/" + string(cur) + "/" + req.Key
	if err := s.moveMoney(r, id, key, player, cur, -req.Amount, req.Reason); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.log.Info("debit", "account", player, "amount", req.Amount, "currency", cur, "by", id.ID)
	bal, err := s.wallets.Balance(r.Context(), player, cur)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, map[string]any{"id": player, "balance": bal, "currency": cur, "minor_units": baccarat.MinorUnits(string(cur))})
}

// checkMove checks a credit's or debit's amount, key (made when empty) and reason.
func checkMove(amount baccarat.Money, key *string, reason string, needReason bool) error {
	if amount <= 0 || amount > baccarat.MaxAmount {
		return baccarat.Errorf(baccarat.CodeBadRequest, "an amount is positive, in minor units, at most %d", baccarat.MaxAmount)
	}
	if *key == "" {
		*key = uuid.NewString()
	} else if err := baccarat.CheckID("key", *key); err != nil {
		return err
	}
	if len(reason) > backoffice.MaxReason || !printable(reason) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "reason: at most %d bytes of printable text", backoffice.MaxReason)
	}
	if needReason && reason == "" {
		return baccarat.Errorf(baccarat.CodeBadRequest, "a debit needs a reason")
	}
	return nil
}

// walletOf is the wallet of a player that a credit or debit moves: the currency asked for,
// else the player's own. The account must be a player's, and the currency not one the
// operator keeps.
func (s *Server) walletOf(r *http.Request, player, currency string) (ledger.Currency, error) {
	a, err := s.accounts.Account(r.Context(), player)
	if err != nil {
		return "", err
	}
	if a.Role != RolePlayer {
		return "", baccarat.Errorf(baccarat.CodeBadRequest, "%s is a %s account: only players have wallets", a.ID, a.Role)
	}
	cur := s.currencyOf(a)
	if currency != "" {
		if err := baccarat.CheckMoneyCurrency(currency); err != nil {
			return "", err
		}
		cur = ledger.Currency(currency)
	}
	if s.wallets.Wallet(cur).Seamless() {
		return "", baccarat.Errorf(baccarat.CodeBadRequest, "the operator keeps the players' %s: move it in the operator's wallet", cur)
	}
	return cur, nil
}

// handleSearchAccounts is GET /api/admin/search/accounts?q=: accounts whose id or name
// contains q.
func (s *Server) handleSearchAccounts(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query().Get("q")
	if len(q) > 64 || !printable(q) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "q: at most 64 printable bytes"))
		return
	}
	_, n := page(r)
	list, err := o.SearchAccounts(r.Context(), q, n)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, list)
}

// handleAccountStatement is GET /api/admin/accounts/{id}/statement?currency=&after=&limit=:
// a player's wallet statement, as the player reads theirs.
func (s *Server) handleAccountStatement(w http.ResponseWriter, r *http.Request, id Identity) {
	a, err := s.accounts.Account(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cur, err := s.walletCurrency(r, a)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	after, n := page(r)
	entries, err := s.books.Statement(r.Context(), ledger.Wallet(a.ID, cur), ledger.Page{After: after, Limit: n})
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		entries, err = nil, nil
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if entries == nil {
		entries = []ledger.Entry{}
	}
	wallets, _ := s.walletsOf(r, a)
	writeJSON(w, 200, map[string]any{"id": a.ID, "currency": cur, "minor_units": baccarat.MinorUnits(string(cur)),
		"wallets": wallets, "entries": entries})
}

// handleAccountSessions is GET /api/admin/accounts/{id}/sessions?limit=: the player's play,
// a session a table and a UTC day, latest first.
func (s *Server) handleAccountSessions(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	list, err := o.Sessions(r.Context(), r.PathValue("id"), n)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, list)
}
