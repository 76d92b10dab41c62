package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
)

// statuses answers each kind of code with its HTTP status, in this one place (web/API.md,
// "Status codes"): a code's kind is declared with the code (baccarat.Declare), so a new code
// has its status the moment it exists.
var statuses = [...]int{
	baccarat.KindInternal:        http.StatusInternalServerError,
	baccarat.KindInvalid:         http.StatusBadRequest,
	baccarat.KindUnauthenticated: http.StatusUnauthorized,
	baccarat.KindForbidden:       http.StatusForbidden,
	baccarat.KindFunds:           http.StatusPaymentRequired,
	baccarat.KindNotFound:        http.StatusNotFound,
	baccarat.KindConflict:        http.StatusConflict,
	baccarat.KindTooLarge:        http.StatusRequestEntityTooLarge,
	baccarat.KindRateLimited:     http.StatusTooManyRequests,
	baccarat.KindUnavailable:     http.StatusServiceUnavailable,
}

// StatusOf is the HTTP status of an error code: its kind's, and 500 for a code never
// declared.
func StatusOf(code baccarat.Code) int {
	if k := code.Kind(); int(k) < len(statuses) {
		return statuses[k]
	}
	return http.StatusInternalServerError
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes {"code","message"} with the code's status, and the refusal's "params"
// when it names something (web/API.md, "Errors"): the page says it in its own language from
// those. Errors without a code are internal: their text is logged, not shown.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *baccarat.Error
	if !errors.As(err, &e) {
		if errors.Is(err, r.Context().Err()) {
			e = baccarat.Errorf(baccarat.CodeBusy, "the request was cancelled")
		} else {
			s.log.Error("internal error", "path", r.URL.Path, "err", err)
			e = baccarat.Errorf(baccarat.CodeInternal, "something went wrong on our side; it has been logged")
		}
	}
	status := StatusOf(e.Code)
	if status == http.StatusServiceUnavailable && w.Header().Get("Retry-After") == "" {
		// Storage out of reach, a table between servers, a busy inbox: worth trying again
		// shortly, which a client can tell from a refusal or a wrong table.
		w.Header().Set("Retry-After", "1")
	}
	if status == http.StatusInternalServerError && e.Code != baccarat.CodeInternal {
		s.log.Error("error", "path", r.URL.Path, "code", e.Code, "err", e.Message)
	}
	s.metrics.errors.inc(e.Code)
	writeJSON(w, status, e)
}

// tooMany answers 429 with Retry-After (whole seconds, at least 1).
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request, wait time.Duration, err ...error) {
	secs := int((wait + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.Itoa(max(1, secs)))
	e := error(baccarat.Errorf(baccarat.CodeRateLimited, "too many requests: slow down and try again in %d s", max(1, secs)))
	if len(err) > 0 {
		e = err[0]
	}
	s.writeError(w, r, e)
}
