package seamless

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"
)

// A webhook is the platform telling the operator of something it did not ask about (package
// webhook sends them: a player reached a limit, or excluded themselves). It is signed as a
// wallet call is (Stamp: the same three headers over method, path, X-Timestamp, X-Nonce and
// the raw body), under DomainWebhook's key, so the operator checks it with the code that
// checks our wallet calls, and no webhook verifies as a wallet call or a launch:
//
//	X-Signature: hex(HMAC-SHA256(webhook key, "POST\n<path>\n<X-Timestamp>\n<X-Nonce>\n<raw body>"))
//	webhook key = HMAC-SHA256(operator secret, "baccarat webhook v1")
//
// The path is the request's as sent: the webhook URL's path, percent-encoded as it was
// given, without its query ("/" for a URL with none). A webhook answered 2xx is delivered,
// and the answer is not signed: it moves nothing, and whoever could forge one on the way
// could as well drop the webhook (use https).

// MaxWebhookBody is the most VerifyWebhook reads of a webhook's body: one event is a small
// JSON object.
const MaxWebhookBody = 64 << 10

// SignWebhook signs req, about to be sent with body, at now under the webhook key derived
// from secret: it sets X-Timestamp, X-Nonce (fresh) and X-Signature, and returns the
// signature.
func SignWebhook(req *http.Request, secret, body []byte, now time.Time) string {
	return NewStamp(req.Method, webhookPath(req.URL), now).Sign(req.Header, DomainWebhook.Key(secret), body)
}

// VerifyWebhook is the operator's side: it reads a webhook's body (at most MaxWebhookBody
// bytes) and checks its X-Timestamp, X-Nonce and X-Signature (ReadStamp, Stamp.Check) under
// the webhook key derived from secret, for the request's method and path, at now. The body
// it returns is the one signed. Its errors are *RefusedError: too_large, bad_request (an
// unreadable body) or bad_signature, saying what is wrong. The same webhook may come again
// (within MaxSkew, as a replay, or later, as a retry): the receiver keeps the ids it has
// handled, since the body's "id" names the event and a repeat is no new event.
func VerifyWebhook(w http.ResponseWriter, r *http.Request, secret []byte, now time.Time) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxWebhookBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, Refuse(CodeTooLarge, "the body is over %d bytes: a webhook is one small JSON object", MaxWebhookBody)
	case err != nil:
		return nil, Refuse(CodeBadRequest, "the body could not be read: %v", err)
	}
	st, sig, err := ReadStamp(r.Header, r.Method, webhookPath(r.URL))
	if err != nil {
		return nil, err
	}
	if err := st.Check(DomainWebhook.Key(secret), sig, body, now); err != nil {
		return nil, err
	}
	return body, nil
}

// webhookPath is the path a webhook is signed for: the request's path as it goes on the
// wire, which both sides see alike (a URL without one is sent as "/").
func webhookPath(u *url.URL) string {
	if p := u.EscapedPath(); p != "" {
		return p
	}
	return "/"
}
