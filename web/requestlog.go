package web

import (
	"log/slog"
	"math"
	"net/http"
	"time"
)

// slowRequest is how long a request may take before it is logged as a warning.
const slowRequest = time.Second

// The route of GET /api/tournaments/{id} as the mux names it (routes): with ?after= it is
// the tournament long poll.
const tournamentRoute = "GET /api/tournaments/{id}"

// askedToWait is how long a request may wait because it asked to, and what it waited for:
// a WebSocket stream as long as it is open; a tournament long poll (?after=) up to
// longPoll, for the tournament to move. Zero for any other request.
func askedToWait(r *http.Request, pattern string) (time.Duration, string) {
	switch {
	case isUpgrade(r):
		return math.MaxInt64, "stream"
	case pattern == tournamentRoute && r.URL.Query().Has("after"):
		return longPoll, "long poll"
	}
	return 0, ""
}

// requestLevel is how a finished request is logged, if at all: a failure (5xx) and a
// request slower than slowRequest beyond what it asked to wait are warnings; one that took
// long only because it asked to wait is a debug line; any other is not logged.
func requestLevel(status int, took, wait time.Duration) (slog.Level, bool) {
	switch {
	case status >= 500 || took-wait > slowRequest:
		return slog.LevelWarn, true
	case took > slowRequest:
		return slog.LevelDebug, true
	}
	return 0, false
}

// logRequest logs a finished request as requestLevel says.
func (s *Server) logRequest(r *http.Request, pattern string, status int, took time.Duration) {
	wait, what := askedToWait(r, pattern)
	level, ok := requestLevel(status, took, wait)
	if !ok {
		return
	}
	args := []any{"method", r.Method, "path", r.URL.Path, "status", status, "took", took}
	if what != "" {
		args = append(args, "waiting", what)
	}
	s.log.Log(r.Context(), level, "request", args...)
}
