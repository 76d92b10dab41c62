package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/tablehouse/baccarat"
)

// statusOf maps every error code to its HTTP status, in this one place (web/API.md).
func statusOf(code string) int {
	switch code {
	case baccarat.CodeBadRequest, baccarat.CodeBadCard, baccarat.CodeUnknownBet, baccarat.CodeBelowMinimum,
		baccarat.CodeAboveMaximum, baccarat.CodeBadCoup, baccarat.CodeBadShoe, baccarat.CodeNeedCards:
		return http.StatusBadRequest
	case codeUnauthenticated:
		return http.StatusUnauthorized
	case baccarat.CodeNotAuthorized:
		return http.StatusForbidden
	case baccarat.CodeNotFound, baccarat.CodeUnknownGame:
		return http.StatusNotFound
	case baccarat.CodeInsufficientFunds:
		return http.StatusPaymentRequired
	case codeRateLimited:
		return http.StatusTooManyRequests
	case baccarat.CodeBusy:
		return http.StatusServiceUnavailable
	case baccarat.CodeInternal, "integrity":
		return http.StatusInternalServerError
	}
	return http.StatusConflict // the refusals of a table in the state it is in
}

const (
	codeUnauthenticated = "unauthenticated"
	codeRateLimited     = "rate_limited"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes {"code","message"} with the code's status. Errors without a code are
// internal: their text is logged, not shown.
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
	s.metrics.errors.inc(e.Code)
	writeJSON(w, statusOf(e.Code), e)
}

// readJSON decodes a small JSON body strictly: unknown fields are refused.
func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var be *baccarat.Error
		if errors.As(err, &be) {
			return be
		}
		return baccarat.Errorf(baccarat.CodeBadRequest, "the body is not the JSON this endpoint takes: %v", err)
	}
	return nil
}
