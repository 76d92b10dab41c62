package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/verify"
)

// OperatorOptions plug a casino operator's backend in: it launches its players into the
// game with signed calls (POST /api/operator/launch), and reads the reconciliation.
type OperatorOptions struct {
	// Secret is the secret the operator's launches are signed under: the launch key is
	// derived from it (seamless.DomainLaunch), so a wallet call signed under the same secret
	// is no launch (launch_sign.go); nil: launches are not taken.
	Secret []byte
	// PublicURL is the base of the launch URLs ("https://baccarat.example.com"); empty: the
	// scheme and host the launch call came to.
	PublicURL string
	// Codes records used launch codes and the nonces of signed launches (the store).
	Codes access.LaunchCodes
	// Now is the server's clock: of launches, launch codes and tokens' lifetimes (default
	// time.Now).
	Now func() time.Time
}

// launchRequest is the operator's launch call.
type launchRequest struct {
	Player   string `json:"player"`
	Name     string `json:"name"`
	Currency string `json:"currency"`
	Language string `json:"language"`
	Table    string `json:"table"`
	// Limits, when sent, replace the player's limits (responsible gaming): the operator's
	// word, signed with the launch. Absent: the limits stay as they are.
	Limits *responsible.Limits `json:"limits"`
}

// LaunchAnswer is what the operator gets: a URL to open once, soon.
type LaunchAnswer struct {
	URL     string    `json:"url"`
	Code    string    `json:"code"`
	Player  string    `json:"player"`
	Table   string    `json:"table,omitempty"`
	Expires time.Time `json:"expires"`
}

func (s *Server) now() time.Time {
	if s.operator.Now != nil {
		return s.operator.Now()
	}
	return time.Now()
}

// handleLaunch is POST /api/operator/launch: the operator's backend, signed under the
// launch key, once, just now (launch_sign.go), creates its player's account on first launch
// (or updates its name, currency and language) and gets a one-time URL that signs the
// player in to the lobby or a table. What is checked is checked before anything is
// recorded; the nonce is recorded before the account is touched, so a launch replayed at
// the same moment to another server changes nothing.
func (s *Server) handleLaunch(w http.ResponseWriter, r *http.Request) {
	now := s.now()
	body, st, err := s.readLaunch(w, r, now)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var q launchRequest
	if err := decodeBody(body, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.checkLaunch(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.useLaunchNonce(r, st, q.Player, now); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.launchAccount(r, q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.launchLimits(r, q, now); err != nil {
		s.writeError(w, r, err)
		return
	}
	exp := now.Add(access.LaunchTTL).UTC().Truncate(time.Second)
	code := s.tokens.IssueLaunch(q.Player, q.Table, exp)
	base := s.operator.PublicURL
	if base == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	s.log.Info("launch", "player", q.Player, "currency", q.Currency, "table", q.Table)
	writeJSON(w, 200, LaunchAnswer{URL: strings.TrimRight(base, "/") + "/launch?code=" + url.QueryEscape(code), Code: code,
		Player: q.Player, Table: q.Table, Expires: exp})
}

// checkLaunch refuses a launch of a player that is not one, in a currency that is not one,
// or into a table that does not exist or plays in another currency.
func (s *Server) checkLaunch(r *http.Request, q *launchRequest) error {
	if err := baccarat.CheckID("player", q.Player); err != nil {
		return err
	}
	if q.Currency == "" {
		q.Currency = string(s.currency)
	}
	a := access.Account{ID: q.Player, Role: RolePlayer, Name: q.Name, Currency: q.Currency, Language: q.Language}
	if err := a.Validate(); err != nil {
		return err
	}
	if q.Limits != nil {
		if err := q.Limits.Validate(s.now()); err != nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "limits: %v", err)
		}
		if s.care.Limits() == nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "limits: this server's store keeps no players' limits")
		}
	}
	if q.Table == "" {
		return nil
	}
	if err := baccarat.CheckID("table", q.Table); err != nil {
		return err
	}
	snap, err := s.tables.Snapshot(q.Table, watcher)
	if err != nil {
		return err
	}
	if string(snap.Spec.Currency) != q.Currency {
		return baccarat.Errorf(baccarat.CodeBadRequest, "table %s plays in %s, and the player's currency is %s", q.Table, snap.Spec.Currency, q.Currency)
	}
	return nil
}

// launchAccount creates the player's account on first launch, or brings its name, currency
// and language up to date. An account that is not a player's, or is disabled, is refused.
func (s *Server) launchAccount(r *http.Request, q launchRequest) error {
	ctx := r.Context()
	if !s.wallets.Wallet(ledger.Currency(q.Currency)).Seamless() {
		if err := s.books.OpenAccount(ctx, ledger.Wallet(q.Player, ledger.Currency(q.Currency))); err != nil {
			return err
		}
	}
	a := access.Account{ID: q.Player, Role: RolePlayer, Name: q.Name, Currency: q.Currency, Language: q.Language, Created: s.now().UTC()}
	err := s.accounts.CreateAccount(ctx, a)
	if baccarat.ErrorCode(err) != baccarat.CodeConflict {
		return err
	}
	_, err = s.accounts.UpdateAccount(ctx, q.Player, func(got *access.Account) error {
		switch {
		case got.Role != RolePlayer:
			return baccarat.Errorf(baccarat.CodeNotAuthorized, "account %s is not a player's", q.Player)
		case got.Disabled:
			return baccarat.Errorf(baccarat.CodeNotAuthorized, "account %s is disabled", q.Player)
		}
		if q.Name != "" {
			got.Name = q.Name
		}
		got.Currency, got.Language = q.Currency, q.Language
		return nil
	})
	return err
}

// launchLimits records the limits a launch carries (by "operator"), and refuses the launch
// of a player excluded now: by these limits, an earlier launch's, or the player's own
// choice on our pages.
func (s *Server) launchLimits(r *http.Request, q launchRequest, now time.Time) error {
	store := s.care.Limits()
	if store == nil {
		return nil
	}
	if q.Limits != nil {
		if err := store.SetLimits(r.Context(), q.Player, q.Currency, *q.Limits, "operator", now); err != nil {
			return err
		}
		s.care.ForgetLimits(q.Player)
	}
	st, err := store.Standing(r.Context(), q.Player, q.Currency, now)
	if err != nil {
		return err
	}
	if x := st.Exclusion(now); x != nil {
		return excludedError(x)
	}
	return nil
}

// ExchangeAnswer is what a launch page gets for its code: the player's token.
type ExchangeAnswer struct {
	Token    string `json:"token"`
	Player   string `json:"player"`
	Table    string `json:"table,omitempty"`
	Currency string `json:"currency,omitempty"`
	Language string `json:"language,omitempty"`
}

// handleExchange is POST /api/launch: the launch page trades its one-time code for the
// player's token. A code works once, before it expires, on any server sharing the secret.
func (s *Server) handleExchange(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Code string `json:"code"`
	}
	if err := readJSON(w, r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.now()
	l, err := s.tokens.CheckLaunch(q.Code, now)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.accounts.Account(r.Context(), l.Player)
	if err == nil && (a.Disabled || a.Role != RolePlayer) {
		err = baccarat.Errorf(baccarat.CodeUnauthenticated, "this account is disabled: ask the operator")
	}
	if err == nil && s.operator.Codes == nil {
		err = baccarat.Errorf(baccarat.CodeNotFound, "launches are not taken here")
	}
	if err == nil {
		err = s.operator.Codes.UseLaunchCode(r.Context(), l.ID, l.Player, now, l.Expires)
	}
	if err == nil {
		err = s.startSession(r, a)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, ExchangeAnswer{Token: s.tokens.IssueAt(a, now), Player: a.ID, Table: l.Table, Currency: a.Currency, Language: a.Language})
}

// handleReconciliation is GET /api/admin/reconciliation?from=&to=: every call to the
// operator's wallet written in the period (RFC 3339 times or dates; default the last 24
// hours), totals per currency, and every call not yet settled.
func (s *Server) handleReconciliation(w http.ResponseWriter, r *http.Request, id Identity) {
	from, to, err := ParsePeriod(r.URL.Query().Get("from"), r.URL.Query().Get("to"), s.now())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rep, err := verify.Reconcile(r.Context(), s.books, from, to)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, rep)
}

// ParsePeriod reads a period's bounds: RFC 3339 times or dates (2026-11-22, from its
// midnight UTC; a date as "to" ends after that day). Missing: to is now, from a day before.
func ParsePeriod(fromS, toS string, now time.Time) (time.Time, time.Time, error) {
	parse := func(s, what string, end bool) (time.Time, error) {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.UTC(), nil
		}
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			if end {
				t = t.AddDate(0, 0, 1)
			}
			return t, nil
		}
		return time.Time{}, baccarat.Errorf(baccarat.CodeBadRequest, "%s %q: give an RFC 3339 time (2026-11-22T10:00:00Z) or a date (2026-11-22)", what, baccarat.Truncate(s, 40))
	}
	to := now.UTC()
	if toS != "" {
		t, err := parse(toS, "to", true)
		if err != nil {
			return time.Time{}, time.Time{}, err
		}
		to = t
	}
	from := to.Add(-24 * time.Hour)
	if fromS != "" {
		t, err := parse(fromS, "from", false)
		if err != nil {
			return time.Time{}, time.Time{}, err
		}
		from = t
	}
	if !from.Before(to) {
		return time.Time{}, time.Time{}, baccarat.Errorf(baccarat.CodeBadRequest, "from must be before to")
	}
	return from, to, nil
}
