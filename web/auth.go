package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

// Role is what a token may do.
type Role string

// The roles of web/API.md.
const (
	RolePlayer Role = "player"
	RoleDealer Role = "dealer"
	RolePit    Role = "pit"
	RoleAdmin  Role = "admin"
)

// Identity is who a request comes from.
type Identity struct {
	ID   string `json:"id"`
	Role Role   `json:"role"`
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

// Tokens issues and checks bearer tokens. A token is "v1.<role>.<id>.<mac>", the MAC an
// HMAC-SHA256 under the server's secret: stateless, so any server sharing the secret checks
// it without a lookup. (Revoking one means changing the secret; a token table would lift
// that limit.)
type Tokens struct{ secret []byte }

// NewTokens returns a token issuer for the secret (at least 16 bytes).
func NewTokens(secret []byte) *Tokens { return &Tokens{secret: secret} }

func (t *Tokens) mac(role Role, id string) string {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("v1|" + string(role) + "|" + id))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// Issue returns a token for id in role.
func (t *Tokens) Issue(id string, role Role) (string, error) {
	if !ledger.IsID(id) {
		return "", baccarat.Errorf(baccarat.CodeBadRequest, "account id %q: use 1 to 64 letters, digits and . _ - @", id)
	}
	switch role {
	case RolePlayer, RoleDealer, RolePit, RoleAdmin:
	default:
		return "", baccarat.Errorf(baccarat.CodeBadRequest, "role %q is not player, dealer, pit or admin", role)
	}
	return "v1." + string(role) + "." + id + "." + t.mac(role, id), nil
}

// Check returns the identity of a valid token.
func (t *Tokens) Check(token string) (Identity, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 4 || parts[0] != "v1" {
		return Identity{}, false
	}
	role, id := Role(parts[1]), parts[2]
	if !hmac.Equal([]byte(parts[3]), []byte(t.mac(role, id))) {
		return Identity{}, false
	}
	return Identity{ID: id, Role: role}, true
}

// identify reads the bearer token (or ?token= on WebSocket upgrades).
func (s *Server) identify(r *http.Request) (Identity, bool) {
	tok := ""
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		tok = strings.TrimPrefix(h, "Bearer ")
	} else {
		tok = r.URL.Query().Get("token")
	}
	if tok == "" {
		return Identity{}, false
	}
	return s.tokens.Check(tok)
}

// limiter is a token bucket per token: Rate requests a second, bursts of Burst.
type limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   float64
	buckets map[string]*bucket
	now     func() time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate, burst float64, now func() time.Time) *limiter {
	return &limiter{rate: rate, burst: burst, buckets: map[string]*bucket{}, now: now}
}

// allow takes one request from key's bucket.
func (l *limiter) allow(key string) bool {
	if l.rate <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// auth wraps a handler: it needs a valid token with one of roles (none: any valid token),
// and stays within the token's rate limit.
func (s *Server) auth(roles []Role, h func(http.ResponseWriter, *http.Request, Identity)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := s.identify(r)
		if !ok {
			s.writeError(w, r, baccarat.Errorf(codeUnauthenticated, "sign in: send Authorization: Bearer <token> (the server prints a sign-in link at start)"))
			return
		}
		if len(roles) > 0 && !hasRole(roles, id.Role) {
			s.writeError(w, r, baccarat.Errorf(baccarat.CodeNotAuthorized, "a %s may not do this", id.Role))
			return
		}
		if !s.limiter.allow(string(id.Role) + "/" + id.ID) {
			s.writeError(w, r, baccarat.Errorf(codeRateLimited, "too many requests: slow down"))
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
