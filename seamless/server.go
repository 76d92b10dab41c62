package seamless

import (
	"errors"
	"io"
	"net/http"
	"strconv"
)

// The operator's side of the wire, for operators written in Go (refwallet uses it).

// ReadSigned reads a request's body, at most MaxBody bytes, and checks its X-Signature
// under secret. Its errors are *RefusedError: too_large, bad_request (an unreadable body)
// or bad_signature, and an operator answers them without recording anything.
func ReadSigned(w http.ResponseWriter, r *http.Request, secret []byte) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, Refuse(CodeTooLarge, "the body is over %d bytes: a call is one small JSON object", MaxBody)
	case err != nil:
		return nil, Refuse(CodeBadRequest, "the body could not be read: %v", err)
	}
	sig := r.Header.Get(SignatureHeader)
	if sig == "" {
		return nil, Refuse(CodeBadSignature, "no %s header: sign the body with HMAC-SHA256 under the shared secret", SignatureHeader)
	}
	if !Verify(secret, body, sig) {
		return nil, Refuse(CodeBadSignature, "the %s header does not match the body", SignatureHeader)
	}
	return body, nil
}

// AnswerBody is the body of an answer: the balance.
func AnswerBody(balance int64) []byte { return encode(Answer{Balance: balance}) }

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

// WriteSigned writes an answer with its X-Signature under secret.
func WriteSigned(w http.ResponseWriter, secret []byte, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set(SignatureHeader, Sign(secret, body))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
