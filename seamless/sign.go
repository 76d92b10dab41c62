package seamless

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// SignatureHeader carries the signature of a request's body, and of an answer's when the
// operator signs its answers.
const SignatureHeader = "X-Signature"

// MinSecret is the shortest shared secret refwallet and the command take (16 bytes).
const MinSecret = 16

// Sign is hex(HMAC-SHA256(secret, body)), in lower case.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is body's signature under secret. Hex digits may be in either
// case; the comparison takes the same time wherever the first difference is. An empty
// secret verifies nothing.
func Verify(secret, body []byte, sig string) bool {
	got, err := hex.DecodeString(sig)
	if err != nil || len(got) != sha256.Size || len(secret) == 0 {
		return false
	}
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return hmac.Equal(got, m.Sum(nil))
}
