package web

import (
	"net/http"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
)

// TokenRefreshHeader carries a new token to a caller whose own is past half its life
// (access.Claim.Stale): the pages keep it in place of theirs (app.js), so a player who
// keeps playing stays signed in while one who left must sign in again once their token
// expires (access.PlayerTokenLife, access.StaffTokenLife).
const TokenRefreshHeader = "X-Token-Refresh"

// refreshToken hands the caller of an authenticated route a new token, for the account as
// it is now, when theirs is stale. The old token keeps working until it expires: a page's
// other tabs, and its open streams, are not cut.
func (s *Server) refreshToken(w http.ResponseWriter, id Identity) {
	now := s.now()
	if !id.claim.Stale(now) {
		return
	}
	h := w.Header()
	h.Set(TokenRefreshHeader, s.tokens.IssueAt(id.Account, now))
	h.Set("Cache-Control", "no-store")
}

// errExpired is the answer to a token past its lifetime. It is short: a stream closed for
// it carries it as the close frame's reason (at most 123 bytes).
func errExpired(c access.Claim) error {
	return baccarat.Errorf(baccarat.CodeUnauthenticated, "this token expired at %s: sign in again (players: launch the game again from the casino)",
		c.Expires().UTC().Format(time.RFC3339))
}
