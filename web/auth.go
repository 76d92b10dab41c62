package web

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/table"
)

// Role is what a token may do (access.Role).
type Role = access.Role

// The roles of web/API.md.
const (
	RolePlayer = access.RolePlayer
	RoleDealer = access.RoleDealer
	RolePit    = access.RolePit
	RoleAdmin  = access.RoleAdmin
)

// Identity is who a request comes from: the account its token names, as read now.
type Identity struct {
	ID      string         `json:"id"`
	Role    Role           `json:"role"`
	Account access.Account `json:"-"`
	token   string
	claim   access.Claim
}

// tableRole is the role the table sees: admins act as the pit.
func (id Identity) tableRole() table.Role {
	switch id.Role {
	case RolePlayer:
		return table.RolePlayer
	case RoleDealer:
		return table.RoleDealer
	}
	return table.RolePit
}

// bearer reads the token of a request: the Authorization header, scheme "Bearer" in any
// case. A token in the URL is not read here: only a table stream's upgrade takes one
// (streamToken), and a token in any other URL is ignored, as if it were not there, since it
// would end up in logs, histories and Referer headers.
func bearer(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(tok)
		}
	}
	return ""
}

// streamToken is the token of a table stream (GET /api/tables/{id}/stream): the
// Authorization header, or, on the WebSocket upgrade only, ?token= (browsers cannot set
// headers there). Only the stream's route reads it (Server.streamAuth).
func streamToken(r *http.Request) string {
	if r.Header.Get("Authorization") != "" {
		return bearer(r)
	}
	if r.Method == http.MethodGet && isUpgrade(r) {
		return r.URL.Query().Get("token")
	}
	return ""
}

func isUpgrade(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// errSignIn is the answer to a request without a working token.
var errSignIn = baccarat.Errorf(baccarat.CodeUnauthenticated, "sign in: send Authorization: Bearer <token> (the server prints a sign-in link at start)")

// identify reads the token and the account it names. An expired token (access.Lifetime,
// at the server's clock), a token of a disabled account, or one issued before the account's
// tokens were revoked, is refused at once: the account is read on every request, so every
// server sharing the database decides alike. A stream re-checks its token the same way, so
// a stream outlives its token by one re-check at most.
func (s *Server) identify(ctx context.Context, tok string) (Identity, error) {
	if tok == "" {
		return Identity{}, errSignIn
	}
	claim, ok := s.tokens.Check(tok)
	if !ok {
		return Identity{}, baccarat.Errorf(baccarat.CodeUnauthenticated, "this token is not valid: sign in again")
	}
	if claim.Expired(s.now()) {
		return Identity{}, errExpired(claim)
	}
	acct, err := s.accounts.Account(ctx, claim.ID)
	if baccarat.ErrorCode(err) == baccarat.CodeNotFound {
		return Identity{}, baccarat.Errorf(baccarat.CodeUnauthenticated, "this token's account no longer exists")
	}
	if err != nil {
		return Identity{}, err
	}
	if acct.Disabled {
		return Identity{}, baccarat.Errorf(baccarat.CodeUnauthenticated, "this account is disabled: ask the operator")
	}
	if !acct.Admits(claim) {
		return Identity{}, baccarat.Errorf(baccarat.CodeUnauthenticated, "this token has been revoked: sign in again")
	}
	return Identity{ID: acct.ID, Role: acct.Role, Account: acct, token: tok, claim: claim}, nil
}

// limiter is a token bucket per key: Rate requests a second, bursts of Burst. Buckets that
// have refilled are forgotten, so the map stays as small as the set of busy callers.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
	now     func() time.Time
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate, burst float64, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: burst, buckets: map[string]*bucket{}, now: now}
}

// allow takes one request from key's bucket; when it is empty it says how long until the
// next request would be allowed.
func (l *limiter) allow(key string) (bool, time.Duration) {
	if l.rate <= 0 {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.sweep(now)
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
	}
	b.tokens--
	return true, 0
}

// sweep forgets full buckets once a minute.
func (l *limiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// clientAddr is the caller's IP address, the key of limits on callers without a token.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// public wraps a route anyone may call: rate limited per client address.
func (s *Server) public(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := s.addrLimiter.allow(clientAddr(r)); !ok {
			s.tooMany(w, r, wait)
			return
		}
		if s.drained(w, r) {
			return
		}
		if err := checkPathID(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r)
	}
}

// auth wraps a handler: it needs a working token in the Authorization header with one of
// roles (none: any role), and stays within the token's rate limit.
func (s *Server) auth(roles []Role, h func(http.ResponseWriter, *http.Request, Identity)) http.HandlerFunc {
	return s.authBy(bearer, roles, h)
}

// streamAuth wraps the table stream, the one route that also takes ?token= (streamToken).
func (s *Server) streamAuth(h func(http.ResponseWriter, *http.Request, Identity)) http.HandlerFunc {
	return s.authBy(streamToken, nil, h)
}

// authBy is auth with the token read by token: the route decides where a token may come from.
func (s *Server) authBy(token func(*http.Request) string, roles []Role, h func(http.ResponseWriter, *http.Request, Identity)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if ok, wait := s.addrLimiter.allow(clientAddr(r)); !ok {
			s.tooMany(w, r, wait)
			return
		}
		if s.drained(w, r) {
			return
		}
		if err := checkPathID(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		id, err := s.identify(r.Context(), token(r))
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if len(roles) > 0 && !hasRole(roles, id.Role) {
			s.writeError(w, r, baccarat.Errorf(baccarat.CodeNotAuthorized, "a %s may not do this", id.Role))
			return
		}
		if ok, wait := s.limiter.allow(string(id.Role) + "/" + id.ID); !ok {
			s.tooMany(w, r, wait)
			return
		}
		s.refreshToken(w, id)
		h(w, r, id)
	}
}

// checkPathID refuses the {id} of a route's path (a table, tournament or account) unless it
// is an id (baccarat.ValidID), without repeating it: what a caller puts in a path is not
// ours to echo into a message, a log line or a page. A valid id may be named (not_found:
// no table "x").
func checkPathID(r *http.Request) error {
	if !strings.Contains(r.Pattern, "{id}") || baccarat.ValidID(r.PathValue("id")) {
		return nil
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "the id in the path is not one: ids are 1 to %d letters (A–Z, a–z), digits, _ and -", baccarat.MaxIDLen)
}

// atTable wraps a dealer or pit handler of /api/tables/{id}/…: the account must be
// assigned that table (admins act on all).
func (s *Server) atTable(h func(http.ResponseWriter, *http.Request, Identity)) func(http.ResponseWriter, *http.Request, Identity) {
	return func(w http.ResponseWriter, r *http.Request, id Identity) {
		if !id.Account.MayActOn(r.PathValue("id")) {
			s.writeError(w, r, baccarat.Errorf(baccarat.CodeNotAuthorized, "%s %s is not assigned table %s: an admin assigns tables to dealer and pit accounts", id.Role, id.ID, r.PathValue("id")))
			return
		}
		h(w, r, id)
	}
}

func hasRole(roles []Role, r Role) bool {
	for _, x := range roles {
		if x == r {
			return true
		}
	}
	return false
}
