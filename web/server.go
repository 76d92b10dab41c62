// Package web is the platform's face: the HTTP JSON API, the WebSocket streams and the pages
// players and dealers use (embedded, no build step). web/API.md is the contract; every
// error is {"code","message"} with the status errors.go gives its code.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
)

// Options configure a Server.
type Options struct {
	Host   *live.Host
	Books  ledger.Store // statements and balances
	Tokens *Tokens
	Logger *slog.Logger
	// RatePerToken and Burst limit each token's requests (default 50/s, bursts of 200).
	RatePerToken, Burst float64
	// Currency of player wallets (default play money).
	Currency ledger.Currency
}

// Server serves the API and the pages.
type Server struct {
	host     *live.Host
	books    ledger.Store
	tokens   *Tokens
	log      *slog.Logger
	limiter  *limiter
	currency ledger.Currency
	metrics  *metrics
	http     *http.Server
	ln       net.Listener
	mux      *http.ServeMux
}

// New returns a server; Start listens.
func New(opt Options) *Server {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.RatePerToken == 0 {
		opt.RatePerToken, opt.Burst = 50, 200
	}
	if opt.Currency == "" {
		opt.Currency = live.PlayMoney
	}
	s := &Server{host: opt.Host, books: opt.Books, tokens: opt.Tokens, log: opt.Logger,
		limiter: newLimiter(opt.RatePerToken, opt.Burst, time.Now), currency: opt.Currency, metrics: &metrics{}}
	s.mux = s.routes()
	return s
}

// routes is every route of the server, in one table (Go 1.22 patterns).
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	anyone := []Role(nil)
	players := []Role{RolePlayer}
	dealers := []Role{RoleDealer, RolePit, RoleAdmin}
	admins := []Role{RoleAdmin}
	pits := []Role{RolePit, RoleAdmin}

	m.HandleFunc("GET /{$}", s.page("lobby.html"))
	m.HandleFunc("GET /table/{id}", s.page("table.html"))
	m.HandleFunc("GET /dealer/{id}", s.page("dealer.html"))
	m.Handle("GET /static/", s.static())

	m.HandleFunc("GET /api/openapi.json", s.handleOpenAPI)
	m.HandleFunc("GET /metrics", s.handleMetrics)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]string{"status": "ok"}) })
	m.HandleFunc("GET /api/games", s.handleGames)
	m.HandleFunc("GET /api/tables", s.handleTables)
	m.HandleFunc("GET /api/tables/{id}", s.handleTable)
	m.HandleFunc("GET /api/tables/{id}/stream", s.handleStream)
	m.HandleFunc("GET /api/tables/{id}/rounds", s.handleRounds)

	m.HandleFunc("GET /api/me", s.auth(anyone, s.handleMe))
	m.HandleFunc("GET /api/me/history", s.auth(anyone, s.handleHistory))
	m.HandleFunc("POST /api/tables/{id}/wagers", s.auth(players, s.handleWager))
	m.HandleFunc("POST /api/tables/{id}/withdraw", s.auth(players, s.handleWithdraw))
	m.HandleFunc("POST /api/tables/{id}/commands", s.auth(dealers, s.handleCommand))
	m.HandleFunc("PUT /api/admin/tables/{id}/limits", s.auth(pits, s.handleLimits))
	m.HandleFunc("POST /api/admin/tables", s.auth(admins, s.handleCreateTable))
	m.HandleFunc("POST /api/admin/accounts", s.auth(admins, s.handleCreateAccount))
	m.HandleFunc("POST /api/admin/accounts/{id}/credit", s.auth(admins, s.handleCredit))
	m.HandleFunc("GET /api/admin/accounts/{id}", s.auth(admins, s.handleAccount))
	return m
}

// ServeHTTP serves a request, counting it and logging slow or failed ones.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: 200}
	s.mux.ServeHTTP(rec, r)
	_, pattern := s.mux.Handler(r)
	s.metrics.requests.inc(pattern + " " + http.StatusText(rec.status))
	if rec.status >= 500 || time.Since(start) > time.Second {
		s.log.Warn("request", "method", r.Method, "path", r.URL.Path, "status", rec.status, "took", time.Since(start))
	}
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves in the background.
func (s *Server) Start(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.ln = ln
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := s.http.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serving", "err", err)
		}
	}()
	return nil
}

// URL is the server's base URL once started.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Shutdown stops taking requests and waits for those in flight (WebSocket streams are cut).
func (s *Server) Shutdown(ctx context.Context) error {
	if s.http == nil {
		return nil
	}
	return s.http.Shutdown(ctx)
}
