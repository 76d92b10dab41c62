package web

import (
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/seamless"
)

// LaunchPath is the operator's launch route, and the path its launches are signed for.
const LaunchPath = "/api/operator/launch"

// A launch is signed as the seamless wallet's calls are (package seamless, Signatures), with
// a key of its own: X-Signature is hex(HMAC-SHA256(launch key, "POST\n/api/operator/launch\n
// <X-Timestamp>\n<X-Nonce>\n<raw body>")), the launch key HMAC-SHA256(operator secret,
// "baccarat launch v1"). So the same signed launch sent again is refused (its nonce is
// recorded in the store every server shares), one signed long ago is refused (its
// timestamp), and a wallet call captured on the wire is no launch (another key, another
// path), even where the operator gave both protocols one secret.

// readLaunch reads the body of an operator's launch and checks its signature and its
// timestamp at now: no secret configured, or no store to record nonces in, is 404 (the
// endpoint is off); a signature that is missing, malformed or wrong, or a timestamp more
// than seamless.MaxSkew off our clock, is 401, saying which. The nonce is the caller's to
// record (useLaunchNonce), once the launch is known to be one.
func (s *Server) readLaunch(w http.ResponseWriter, r *http.Request, now time.Time) ([]byte, seamless.Stamp, error) {
	switch {
	case len(s.operator.Secret) == 0:
		return nil, seamless.Stamp{}, baccarat.Errorf(baccarat.CodeNotFound, "launches are not taken here: the server has no operator secret")
	case s.operator.Codes == nil:
		return nil, seamless.Stamp{}, baccarat.Errorf(baccarat.CodeNotFound, "launches are not taken here: the server has no store for launch nonces")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, seamless.Stamp{}, baccarat.Errorf(baccarat.CodeTooLarge, "the body is over %d bytes", maxBody)
	case err != nil:
		return nil, seamless.Stamp{}, baccarat.Errorf(baccarat.CodeBadRequest, "the body could not be read: %v", err)
	}
	st, sig, err := seamless.ReadStamp(r.Header, http.MethodPost, LaunchPath)
	if err == nil {
		err = st.Check(seamless.DomainLaunch.Key(s.operator.Secret), sig, body, now)
	}
	var re *seamless.RefusedError
	if errors.As(err, &re) {
		return nil, seamless.Stamp{}, baccarat.Errorf(baccarat.CodeUnauthenticated, "%s (web/API.md, Operators)", re.Message)
	}
	return body, st, err
}

// useLaunchNonce records a launch's nonce until its timestamp stops being taken: the same
// signed launch a second time, on any server sharing the store, is 409 conflict.
func (s *Server) useLaunchNonce(r *http.Request, st seamless.Stamp, player string, now time.Time) error {
	return access.UseLaunchNonce(r.Context(), s.operator.Codes, st.Nonce, player, now, time.Unix(st.Time, 0).Add(seamless.MaxSkew))
}
