package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
)

// statuses maps every error code to its HTTP status, in this one place (web/API.md). A
// code missing here is answered 500: an error nobody classified is ours, not the caller's.
var statuses = map[string]int{
	baccarat.CodeBadRequest: http.StatusBadRequest, baccarat.CodeBadCard: http.StatusBadRequest,
	baccarat.CodeUnknownBet: http.StatusBadRequest, baccarat.CodeBelowMinimum: http.StatusBadRequest,
	baccarat.CodeAboveMaximum: http.StatusBadRequest, baccarat.CodeBadCoup: http.StatusBadRequest,
	baccarat.CodeBadShoe: http.StatusBadRequest, baccarat.CodeNeedCards: http.StatusBadRequest,
	baccarat.CodeInvalidName:     http.StatusBadRequest,
	baccarat.CodeUnauthenticated: http.StatusUnauthorized,
	baccarat.CodeNotAuthorized:   http.StatusForbidden,
	// Refused for the player's sake: the player may not do this now (a reality check first).
	baccarat.CodeLimitReached: http.StatusForbidden, baccarat.CodeExcluded: http.StatusForbidden,
	baccarat.CodeSessionEnded: http.StatusForbidden, baccarat.CodeRealityCheck: http.StatusConflict,
	baccarat.CodeNotFound: http.StatusNotFound, baccarat.CodeUnknownGame: http.StatusNotFound,
	baccarat.CodeInsufficientFunds: http.StatusPaymentRequired,
	baccarat.CodeTooLarge:          http.StatusRequestEntityTooLarge,
	baccarat.CodeRateLimited:       http.StatusTooManyRequests,
	baccarat.CodeBusy:              http.StatusServiceUnavailable,
	baccarat.CodeUnavailable:       http.StatusServiceUnavailable,
	baccarat.CodeLeaseLost:         http.StatusServiceUnavailable,
	baccarat.CodeWalletUnavailable: http.StatusServiceUnavailable,
	baccarat.CodeInternal:          http.StatusInternalServerError, baccarat.CodeIntegrity: http.StatusInternalServerError,
	// The refusals of a table in the state it is in, and requests that clash with earlier ones.
	baccarat.CodeBettingClosed: http.StatusConflict, baccarat.CodeBetNotOffered: http.StatusConflict,
	baccarat.CodeBothSides: http.StatusConflict, baccarat.CodeSideBetNeedsMain: http.StatusConflict,
	baccarat.CodeAreaFull: http.StatusConflict, baccarat.CodeRoundFull: http.StatusConflict, baccarat.CodeTableDifferential: http.StatusConflict,
	baccarat.CodeOddsChanged: http.StatusConflict, baccarat.CodeNotWithdrawable: http.StatusConflict,
	baccarat.CodeExtraCard: http.StatusConflict, baccarat.CodeCardNotInShoe: http.StatusConflict,
	baccarat.CodeBadState: http.StatusConflict, baccarat.CodeConflict: http.StatusConflict,
	baccarat.CodeIdempotencyConflict: http.StatusConflict, baccarat.CodeReserved: http.StatusConflict,
}

// StatusOf is the HTTP status of an error code: 500 for a code not in the table.
func StatusOf(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

const (
	codeUnauthenticated = baccarat.CodeUnauthenticated
	codeRateLimited     = baccarat.CodeRateLimited
)

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
	e := error(baccarat.Errorf(codeRateLimited, "too many requests: slow down and try again in %d s", max(1, secs)))
	if len(err) > 0 {
		e = err[0]
	}
	s.writeError(w, r, e)
}
