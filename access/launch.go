package access

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
)

// A game launch: the operator's backend asks for a URL that signs a player in (web: POST
// /api/operator/launch), and the page at that URL exchanges the launch code in it for a
// player token. A code is short-lived and works once: it is signed like a token (so any
// server sharing the secret reads it without a lookup), and its id is recorded when it is
// used (LaunchCodes), so a second use, on any server, fails.
//
// A code is "l1.<player>.<table or ->.<expires, Unix seconds>.<nonce>.<mac>", the MAC an
// HMAC-SHA256 under the server's secret over the rest.

// LaunchTTL is how long a launch code works: long enough for a browser to open the URL.
const LaunchTTL = 2 * time.Minute

// LaunchCodes records the launch codes used, and the nonces of the operator's signed
// launches. sqlite.DB and postgres.DB implement it.
type LaunchCodes interface {
	// UseLaunchCode records a code as used: a code already used is a conflict. Codes that
	// expired before now are forgotten on the way (they no longer work anyway).
	UseLaunchCode(ctx context.Context, id, player string, now, expires time.Time) error
}

// NonceMargin is how long a launch's nonce is kept past the last moment its timestamp is
// taken: room for the clocks of the servers sharing the store to differ.
const NonceMargin = time.Minute

// UseLaunchNonce records the nonce of an operator's signed launch, in the store every
// server shares, so that the same signed launch is taken once in a cluster: a nonce seen
// before is a conflict ("replayed"). The nonce is kept until expires (the timestamp's
// window, and NonceMargin), after which the timestamp alone refuses the launch. Nonces are
// ids of the launch-code table under "nonce/", where no code's id can be (a code's is hex).
func UseLaunchNonce(ctx context.Context, codes LaunchCodes, nonce, player string, now, expires time.Time) error {
	err := codes.UseLaunchCode(ctx, "nonce/"+nonce, player, now, expires.Add(NonceMargin))
	if baccarat.ErrorCode(err) == baccarat.CodeConflict {
		return baccarat.Errorf(baccarat.CodeConflict, "replayed: this launch's X-Nonce was used before; sign every launch with a new nonce (a new launch, not the same one sent again)")
	}
	return err
}

// Launch is what a launch code says.
type Launch struct {
	ID      string    // the code's nonce: what LaunchCodes records
	Player  string    // the account it signs in
	Table   string    // where the page goes ("": the lobby)
	Expires time.Time // when it stops working
}

// IssueLaunch returns a launch code for player, to the table (or "" for the lobby), that
// works until expires.
func (t *Tokens) IssueLaunch(player, table string, expires time.Time) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	if table == "" {
		table = "-"
	}
	body := "l1." + player + "." + table + "." + strconv.FormatInt(expires.Unix(), 10) + "." + hex.EncodeToString(b[:])
	return body + "." + t.launchMAC(body)
}

func (t *Tokens) launchMAC(body string) string {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("launch|" + body))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// CheckLaunch reads a launch code signed by this secret that works at now. A code that is
// not one, is not ours, or has expired is refused (unauthenticated): it tells the caller
// nothing about which.
func (t *Tokens) CheckLaunch(code string, now time.Time) (Launch, error) {
	refused := baccarat.Errorf(baccarat.CodeUnauthenticated, "this launch link is not valid or has expired: launch the game again from the casino")
	if len(code) > 256 {
		return Launch{}, refused
	}
	i := strings.LastIndexByte(code, '.')
	if i < 0 || !hmac.Equal([]byte(code[i+1:]), []byte(t.launchMAC(code[:i]))) {
		return Launch{}, refused
	}
	parts := strings.Split(code[:i], ".")
	if len(parts) != 5 || parts[0] != "l1" {
		return Launch{}, refused
	}
	exp, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil || !now.Before(time.Unix(exp, 0)) {
		return Launch{}, refused
	}
	l := Launch{ID: parts[4], Player: parts[1], Table: parts[2], Expires: time.Unix(exp, 0).UTC()}
	if l.Table == "-" {
		l.Table = ""
	}
	return l, nil
}

// IsLanguage reports whether s looks like a language tag (BCP 47): "en", "zh-CN", "pt-BR":
// letters, digits and hyphens, 2 to 35 characters, starting with two or three letters.
func IsLanguage(s string) bool {
	if len(s) < 2 || len(s) > 35 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		switch {
		case i < 2 && !letter:
			return false
		case !letter && !('0' <= c && c <= '9') && c != '-':
			return false
		}
	}
	return true
}
