package web

import (
	"net/http"

	"github.com/tablehouse/baccarat"
)

// Health, readiness and drain, for a load balancer and a rolling restart.
//
//	GET /livez   200 while the process serves at all
//	GET /readyz  200 once the server is ready (Options.Ready says so: the store open, the
//	             cluster joined and heard, every table it should run recovered or refused);
//	             503 before, and again from the moment it starts draining
//
// A server that drains (Drain, on SIGTERM) stops taking what starts new work here: a
// mutation (any request but GET and HEAD) and a new WebSocket stream are answered 503
// unavailable with Retry-After, so a client or a load balancer goes to another server.
// Reads go on until the server shuts down.

// handleLivez answers while the process serves.
func (s *Server) handleLivez(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]string{"status": "live"})
}

// handleReadyz answers 200 when the server is ready for traffic, 503 with the reason when
// it is not (starting, or draining).
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	if err := s.notReady(); err != nil {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "not ready", "reason": err.Error()})
		return
	}
	writeJSON(w, 200, map[string]string{"status": "ready"})
}

// notReady is why the server is not ready, nil when it is.
func (s *Server) notReady() error {
	if s.draining.Load() {
		return errDraining
	}
	if s.ready != nil {
		return s.ready()
	}
	return nil
}

// Drain makes the server refuse new work (mutations, new streams) and say it is not ready;
// what is under way goes on.
func (s *Server) Drain() { s.draining.Store(true) }

var errDraining = baccarat.Errorf(baccarat.CodeUnavailable, "this server is stopping: try another (or again in a moment)")

// drained refuses, while draining, a request that would start new work here.
func (s *Server) drained(w http.ResponseWriter, r *http.Request) bool {
	if !s.draining.Load() || (r.Method == http.MethodGet || r.Method == http.MethodHead) && !isUpgrade(r) {
		return false
	}
	s.writeError(w, r, errDraining)
	return true
}

// Starting. A server binds its port before it opens its store and recovers its tables
// (Listen), and serves at once in a starting mode: /livez 200, /readyz 503, and every other
// route 503 unavailable with Retry-After, never a 404 for a table that is being recovered.
// When the server is ready it hands the connection over to the server with the host
// (Handoff), which from then on answers on the same listener.

// serveStarting answers while the server starts.
func (s *Server) serveStarting(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/livez":
		s.handleLivez(w, r)
	case "/readyz":
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "not ready", "reason": "starting: recovering the tables"})
	default:
		s.writeError(w, r, errStarting)
	}
}

var errStarting = baccarat.Errorf(baccarat.CodeUnavailable, "the server is starting: try again in a moment")

// Handoff has next answer every request from now on, on s's listener and HTTP server: s was
// serving in the starting mode (a Server without a host started with Start).
func (s *Server) Handoff(next *Server) {
	next.http, next.ln = s.http, s.ln
	s.next.Store(next)
}
