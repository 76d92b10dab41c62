package access

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// Tokens issues and checks bearer tokens. A token is
// "v3.<role>.<id>.<epoch>.<issued>.<mac>", issued in Unix seconds, the MAC an HMAC-SHA256
// under the server's secret over the rest: any server sharing the secret reads it without
// a lookup, the account it names (read per request) says whether it still works, and its
// age whether it has expired (Lifetime).
//
// Tokens of the earlier form "v2.<role>.<id>.<epoch>.<mac>" carry no issue time; they are
// read as issued when this Tokens was made (Legacy), so they keep working for one lifetime
// after the upgrade, are replaced as soon as they are used (Claim.Stale), and then expire.
type Tokens struct {
	secret []byte
	// Legacy is when v2 tokens count as issued: NewTokens sets the time it is called.
	Legacy time.Time
}

// NewTokens returns a token issuer for the secret (at least 16 bytes).
func NewTokens(secret []byte) *Tokens { return &Tokens{secret: secret, Legacy: time.Now()} }

// How long a token works after it is issued. A page in use is handed a new token once its
// own is past half its life (Claim.Stale), so a player who keeps playing stays signed in
// and one who left signs in again (a player launches the game again from the casino).
const (
	PlayerTokenLife = 12 * time.Hour // a player's: a session at the tables, and a night's pause
	StaffTokenLife  = 24 * time.Hour // a dealer's, pit's or admin's: a shift, and the next one's start
)

// Lifetime is how long a token of role works.
func Lifetime(r Role) time.Duration {
	if r == RolePlayer {
		return PlayerTokenLife
	}
	return StaffTokenLife
}

func (t *Tokens) mac(role Role, id string, epoch uint32, issued int64) string {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("v3|" + string(role) + "|" + id + "|" + strconv.FormatUint(uint64(epoch), 10) + "|" + strconv.FormatInt(issued, 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

func (t *Tokens) macV2(role Role, id string, epoch uint32) string {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("v2|" + string(role) + "|" + id + "|" + strconv.FormatUint(uint64(epoch), 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// Issue returns a token for the account as it is now (its role and epoch), issued at the
// wall clock's now.
func (t *Tokens) Issue(a Account) string { return t.IssueAt(a, time.Now()) }

// IssueAt returns a token for the account as it is now, issued at (to the second).
func (t *Tokens) IssueAt(a Account, at time.Time) string {
	issued := at.Unix()
	return "v3." + string(a.Role) + "." + a.ID + "." + strconv.FormatUint(uint64(a.Epoch), 10) + "." +
		strconv.FormatInt(issued, 10) + "." + t.mac(a.Role, a.ID, a.Epoch, issued)
}

// Claim is what a well-signed token says: whose it is, in which role and epoch, and when
// it was issued.
type Claim struct {
	ID     string
	Role   Role
	Epoch  uint32
	Issued time.Time // a v2 token's is Tokens.Legacy
	V2     bool      // a token of the earlier form, without an issue time
}

// Expires is when the claim's token stops working.
func (c Claim) Expires() time.Time { return c.Issued.Add(Lifetime(c.Role)) }

// Expired reports whether the token no longer works at now.
func (c Claim) Expired(now time.Time) bool { return !now.Before(c.Expires()) }

// Stale reports whether the token should be replaced at now: past half its life, or of
// the earlier form.
func (c Claim) Stale(now time.Time) bool {
	return c.V2 || !now.Before(c.Issued.Add(Lifetime(c.Role)/2))
}

// Check returns the claim of a well-signed token. Whether it has expired is the claim's
// to say (Expired), at the caller's clock.
func (t *Tokens) Check(token string) (Claim, bool) {
	if len(token) > 256 {
		return Claim{}, false
	}
	parts := strings.Split(token, ".")
	switch {
	case len(parts) == 6 && parts[0] == "v3":
		return t.checkV3(parts)
	case len(parts) == 5 && parts[0] == "v2":
		return t.checkV2(parts)
	}
	return Claim{}, false
}

// checkV3 reads a v3 token, spelt exactly as IssueAt spells it (no sign, no leading zero):
// one claim, one token.
func (t *Tokens) checkV3(parts []string) (Claim, bool) {
	epoch, err := strconv.ParseUint(parts[3], 10, 32)
	if err != nil || strconv.FormatUint(epoch, 10) != parts[3] {
		return Claim{}, false
	}
	issued, err := strconv.ParseInt(parts[4], 10, 64)
	if err != nil || issued < 0 || strconv.FormatInt(issued, 10) != parts[4] {
		return Claim{}, false
	}
	c := Claim{ID: parts[2], Role: Role(parts[1]), Epoch: uint32(epoch), Issued: time.Unix(issued, 0).UTC()}
	if !hmac.Equal([]byte(parts[5]), []byte(t.mac(c.Role, c.ID, c.Epoch, issued))) {
		return Claim{}, false
	}
	return c, true
}

func (t *Tokens) checkV2(parts []string) (Claim, bool) {
	epoch, err := strconv.ParseUint(parts[3], 10, 32)
	if err != nil {
		return Claim{}, false
	}
	c := Claim{ID: parts[2], Role: Role(parts[1]), Epoch: uint32(epoch), Issued: t.Legacy, V2: true}
	if !hmac.Equal([]byte(parts[4]), []byte(t.macV2(c.Role, c.ID, c.Epoch))) {
		return Claim{}, false
	}
	return c, true
}

// Admits reports whether an account still honours a claim: same role, same epoch, not
// disabled.
func (a Account) Admits(c Claim) bool {
	return !a.Disabled && a.Role == c.Role && a.Epoch == c.Epoch && a.ID == c.ID
}
