package seamless

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"time"
)

// The headers of a signed request, and of a signed answer (X-Signature alone).
const (
	SignatureHeader = "X-Signature"
	TimestampHeader = "X-Timestamp"
	NonceHeader     = "X-Nonce"
)

// MinSecret is the shortest shared secret refwallet and the command take (16 bytes).
const MinSecret = 16

// MaxSkew is how far a request's X-Timestamp may be from the clock of the side that reads
// it, either way: a request signed longer ago, or dated later, is refused.
const MaxSkew = 2 * time.Minute

// A Domain names a protocol. Every message is signed under a key derived for its protocol
// from the secret configured for it, so that a message signed for one protocol never
// verifies for another, even where an operator gave both the same secret: a wallet call
// captured on the wire is no launch.
type Domain string

// The protocols an operator and the platform sign.
const (
	DomainWallet Domain = "baccarat wallet v1" // the seamless wallet's calls and answers
	DomainLaunch Domain = "baccarat launch v1" // the operator's launches (web: POST /api/operator/launch)
	// DomainWebhook signs what the platform tells the operator unasked (package webhook: a
	// player reached a limit or excluded themselves). It has a key of its own, though sent
	// under the operator secret the launches use, so that a webhook captured on the wire is
	// neither a launch nor a wallet call.
	DomainWebhook Domain = "baccarat webhook v1"
)

// Key is the protocol's key: HMAC-SHA256(secret, domain), 32 bytes.
func (d Domain) Key(secret []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(d))
	return m.Sum(nil)
}

// Sign is hex(HMAC-SHA256(key, msg)), in lower case: the value of X-Signature over a
// request's or an answer's message (Stamp.Message, AnswerMessage).
func Sign(key, msg []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify reports whether sig is msg's signature under key. Hex digits may be in either
// case; the comparison takes the same time wherever the first difference is. An empty key
// verifies nothing.
func Verify(key, msg []byte, sig string) bool {
	got, err := hex.DecodeString(sig)
	if err != nil || len(got) != sha256.Size || len(key) == 0 {
		return false
	}
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return hmac.Equal(got, m.Sum(nil))
}

// A Stamp is what a request's signature covers beside its body: which call it is (method
// and path), when it was signed (X-Timestamp, Unix seconds) and a nonce (X-Nonce), so that
// a signature made for one call, or long ago, is no signature for another call, or now.
type Stamp struct {
	Method string // "POST"
	Path   string // the call's path: "/debit" under the operator's base URL, "/api/operator/launch"
	Time   int64  // Unix seconds
	Nonce  string // 16 to 64 of A–Z a–z 0–9 _ -; hex will do
}

// NewStamp stamps a request about to be sent: now, with a fresh nonce of 32 hex digits.
func NewStamp(method, path string, now time.Time) Stamp {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return Stamp{Method: method, Path: path, Time: now.Unix(), Nonce: hex.EncodeToString(b[:])}
}

// Message is the signed material of a request, five parts joined by newlines:
//
//	METHOD \n PATH \n TIMESTAMP \n NONCE \n BODY
//
// TIMESTAMP in decimal, BODY the raw body, byte for byte (empty for a GET).
func (s Stamp) Message(body []byte) []byte {
	b := make([]byte, 0, len(s.Method)+len(s.Path)+len(s.Nonce)+len(body)+24)
	b = append(append(b, s.Method...), '\n')
	b = append(append(b, s.Path...), '\n')
	b = append(strconv.AppendInt(b, s.Time, 10), '\n')
	b = append(append(b, s.Nonce...), '\n')
	return append(b, body...)
}

// Sign signs a request's body under key (a Domain's) and sets its X-Timestamp, X-Nonce
// and X-Signature; it returns the signature, which the answer's signature covers.
func (s Stamp) Sign(h http.Header, key, body []byte) string {
	sig := Sign(key, s.Message(body))
	h.Set(TimestampHeader, strconv.FormatInt(s.Time, 10))
	h.Set(NonceHeader, s.Nonce)
	h.Set(SignatureHeader, sig)
	return sig
}

// MinNonce and MaxNonce bound a nonce's length.
const (
	MinNonce = 16
	MaxNonce = 64
)

// maxTimestamp is the most digits an X-Timestamp has (Unix seconds until the year 33658).
const maxTimestamp = 12

// ReadStamp reads a request's X-Timestamp, X-Nonce and X-Signature, each given exactly
// once: a timestamp of decimal Unix seconds (no sign, no leading zero), a nonce of 16 to
// 64 of A–Z a–z 0–9 _ -, a signature of 64 hex digits. It checks their forms only: the
// signature is Check's. Errors are *RefusedError with CodeBadSignature, saying what to fix.
func ReadStamp(h http.Header, method, path string) (Stamp, string, error) {
	one := func(name string) (string, error) {
		switch v := h.Values(name); len(v) {
		case 0:
			return "", Refuse(CodeBadSignature, "no %s header: sign METHOD\\nPATH\\nTIMESTAMP\\nNONCE\\nBODY with HMAC-SHA256 under the protocol's key, and send X-Timestamp, X-Nonce and X-Signature", name)
		case 1:
			return v[0], nil
		}
		return "", Refuse(CodeBadSignature, "%s is given more than once: send it once", name)
	}
	st := Stamp{Method: method, Path: path}
	ts, err := one(TimestampHeader)
	if err != nil {
		return Stamp{}, "", err
	}
	if st.Time, err = parseTimestamp(ts); err != nil {
		return Stamp{}, "", err
	}
	if st.Nonce, err = one(NonceHeader); err != nil {
		return Stamp{}, "", err
	}
	if !validNonce(st.Nonce) {
		return Stamp{}, "", Refuse(CodeBadSignature, "%s: %d to %d letters (A–Z, a–z), digits, _ and -, new for every request (32 hex digits will do)", NonceHeader, MinNonce, MaxNonce)
	}
	sig, err := one(SignatureHeader)
	if err != nil {
		return Stamp{}, "", err
	}
	if b, err := hex.DecodeString(sig); err != nil || len(b) != sha256.Size {
		return Stamp{}, "", Refuse(CodeBadSignature, "%s: 64 hex digits, the HMAC-SHA256 of the request's message", SignatureHeader)
	}
	return st, sig, nil
}

func parseTimestamp(s string) (int64, error) {
	bad := Refuse(CodeBadSignature, "%s: the time the request was signed, in decimal Unix seconds (date +%%s)", TimestampHeader)
	if len(s) == 0 || len(s) > maxTimestamp || (s[0] == '0' && len(s) > 1) {
		return 0, bad
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, bad
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, bad
	}
	return v, nil
}

func validNonce(s string) bool {
	if len(s) < MinNonce || len(s) > MaxNonce {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Check verifies a request read by ReadStamp: its signature over the stamp and the body
// under key, then its timestamp, within MaxSkew of now. Errors are *RefusedError with
// CodeBadSignature; a timestamp too far off says by how much, since it is most often a
// clock that is wrong.
func (s Stamp) Check(key []byte, sig string, body []byte, now time.Time) error {
	if !Verify(key, s.Message(body), sig) {
		return Refuse(CodeBadSignature, "the %s header does not match the request: send hex(HMAC-SHA256(key, \"%s\\n%s\\n<%s>\\n<%s>\\n<body>\")), the key derived from the shared secret for this protocol",
			SignatureHeader, s.Method, s.Path, TimestampHeader, NonceHeader)
	}
	if off := time.Unix(s.Time, 0).Sub(now); off > MaxSkew || off < -MaxSkew {
		way := "behind"
		if off > 0 {
			way = "ahead of"
		}
		return Refuse(CodeBadSignature, "the %s is %s %s this server's clock (%s), and a request is taken within %s of it: check the signing machine's clock, and sign each request just before sending it",
			TimestampHeader, off.Abs().Truncate(time.Second), way, now.UTC().Format(time.RFC3339), MaxSkew)
	}
	return nil
}

// AnswerMessage is the signed material of an answer, three parts joined by newlines:
//
//	STATUS \n REQUEST-SIGNATURE \n BODY
//
// STATUS the HTTP status in decimal, REQUEST-SIGNATURE the request's X-Signature as it
// came (empty when it had none), BODY the raw answer. Naming the request binds the answer
// to the call it answers: an answer to another call, replayed, does not verify.
func AnswerMessage(status int, requestSig string, body []byte) []byte {
	b := make([]byte, 0, len(requestSig)+len(body)+8)
	b = append(strconv.AppendInt(b, int64(status), 10), '\n')
	b = append(append(b, requestSig...), '\n')
	return append(b, body...)
}
