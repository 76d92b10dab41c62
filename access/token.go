package access

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
)

// Tokens issues and checks bearer tokens. A token is "v2.<role>.<id>.<epoch>.<mac>", the
// MAC an HMAC-SHA256 under the server's secret over the rest: any server sharing the
// secret reads it without a lookup, and the account it names (read per request) says
// whether it still works.
type Tokens struct{ secret []byte }

// NewTokens returns a token issuer for the secret (at least 16 bytes).
func NewTokens(secret []byte) *Tokens { return &Tokens{secret: secret} }

func (t *Tokens) mac(role Role, id string, epoch uint32) string {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("v2|" + string(role) + "|" + id + "|" + strconv.FormatUint(uint64(epoch), 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// Issue returns a token for the account as it is now (its role and epoch).
func (t *Tokens) Issue(a Account) string {
	return "v2." + string(a.Role) + "." + a.ID + "." + strconv.FormatUint(uint64(a.Epoch), 10) + "." + t.mac(a.Role, a.ID, a.Epoch)
}

// Claim is what a well-signed token says: whose it is, in which role and epoch.
type Claim struct {
	ID    string
	Role  Role
	Epoch uint32
}

// Check returns the claim of a well-signed token.
func (t *Tokens) Check(token string) (Claim, bool) {
	if len(token) > 256 {
		return Claim{}, false
	}
	parts := strings.Split(token, ".")
	if len(parts) != 5 || parts[0] != "v2" {
		return Claim{}, false
	}
	epoch, err := strconv.ParseUint(parts[3], 10, 32)
	if err != nil {
		return Claim{}, false
	}
	c := Claim{ID: parts[2], Role: Role(parts[1]), Epoch: uint32(epoch)}
	if !hmac.Equal([]byte(parts[4]), []byte(t.mac(c.Role, c.ID, c.Epoch))) {
		return Claim{}, false
	}
	return c, true
}

// Admits reports whether an account still honours a claim: same role, same epoch, not
// disabled.
func (a Account) Admits(c Claim) bool {
	return !a.Disabled && a.Role == c.Role && a.Epoch == c.Epoch && a.ID == c.ID
}
