package seamless

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
)

// The operator's side of the wire, for operators written in Go (refwallet uses it).

// ReadSigned reads a request's body, at most MaxBody bytes, and checks its X-Timestamp,
// X-Nonce and X-Signature (ReadStamp, Stamp.Check) under the wallet's key derived from
// secret (DomainWallet), for the request's method and path, at the wall clock. Its errors
// are *RefusedError: too_large, bad_request (an unreadable body) or bad_signature, and an
// operator answers them without recording anything. Repeats need no nonce store: a tx id
// is answered once, and its repeats get the first answer.
func ReadSigned(w http.ResponseWriter, r *http.Request, secret []byte) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, Refuse(CodeTooLarge, "the body is over %d bytes: a call is one small JSON object", MaxBody)
	case err != nil:
		return nil, Refuse(CodeBadRequest, "the body could not be read: %v", err)
	}
	st, sig, err := ReadStamp(r.Header, r.Method, r.URL.Path)
	if err != nil {
		return nil, err
	}
	if err := st.Check(DomainWallet.Key(secret), sig, body, time.Now()); err != nil {
		return nil, err
	}
	return body, nil
}

// AnswerBody is the body of an answer: the balance.
func AnswerBody(balance baccarat.Money) []byte { return encode(Answer{Balance: balance}) }

// ErrorBody is the status and body of a refusal: a *RefusedError or an
// *InsufficientFundsError as they are; anything else is a 500 internal.
func ErrorBody(err error) (int, []byte) {
	var ie *InsufficientFundsError
	if errors.As(err, &ie) {
		b := ie.Balance
		return CodeInsufficientFunds.Status(), encode(ErrorAnswer{Error: CodeInsufficientFunds, Message: "the balance is below the amount", Balance: &b})
	}
	var re *RefusedError
	if errors.As(err, &re) {
		return re.Code.Status(), encode(ErrorAnswer{Error: re.Code, Message: re.Message})
	}
	return CodeInternal.Status(), encode(ErrorAnswer{Error: CodeInternal, Message: "the wallet could not take the call; nothing was applied"})
}

// WriteSigned writes the answer to r with its X-Signature: hex(HMAC-SHA256(wallet key,
// AnswerMessage(status, r's X-Signature, body))), the wallet key derived from secret.
func WriteSigned(w http.ResponseWriter, r *http.Request, secret []byte, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set(SignatureHeader, Sign(DomainWallet.Key(secret), AnswerMessage(status, r.Header.Get(SignatureHeader), body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
