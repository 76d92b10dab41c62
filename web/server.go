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
	"sync/atomic"
	"time"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
)

// Options configure a Server.
type Options struct {
	// Host is the runtime (a *live.Host); nil serves in the starting mode (health.go).
	Host     Host
	Books    ledger.Store // statements and balances
	Accounts access.Store // who may sign in, and as what
	Tokens   *access.Tokens
	Logger   *slog.Logger
	// RatePerToken and Burst limit each token's requests (default 50/s, bursts of 200).
	RatePerToken, Burst float64
	// RatePerAddress and AddressBurst limit each client address, signed in or not (default
	// 200/s, bursts of 400): the public pages and GETs too.
	RatePerAddress, AddressBurst float64
	// Streams caps the WebSocket streams: per token, per client address and in all.
	Streams StreamLimits
	// Currency of player wallets (default play money).
	Currency ledger.Currency
	// Timeouts of the HTTP server (zero fields take the defaults below).
	Timeouts Timeouts
	// Operator plugs a casino operator's backend in: launches (operator.go).
	Operator OperatorOptions
	// Ready says why the server is not yet ready for traffic (nil when it is): GET /readyz
	// (health.go). Nil: ready as soon as it serves.
	Ready func() error
	// LimitsNow is the clock of players' limits: sessions, reality checks, exclusions (nil:
	// the operator's clock, else time.Now). A test moves it to a reality check's time without
	// moving the tables' clock; give the host the same one (live.Options.LimitsNow).
	LimitsNow func() time.Time
}

// Timeouts cut slow and idle clients rather than hold their connections for ever. A
// WebSocket stream lifts the read and write deadlines once upgraded.
type Timeouts struct {
	ReadHeader time.Duration // the request line and headers (default 5 s)
	Read       time.Duration // the whole request, body included (default 15 s)
	Write      time.Duration // the answer (default 30 s)
	Idle       time.Duration // a kept-alive connection between requests (default 60 s)
}

func (t Timeouts) withDefaults() Timeouts {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&t.ReadHeader, 5*time.Second)
	def(&t.Read, 15*time.Second)
	def(&t.Write, 30*time.Second)
	def(&t.Idle, 60*time.Second)
	return t
}

// StreamLimits cap open WebSocket streams; a stream over a cap is refused with 429 and a
// message saying which cap.
type StreamLimits struct {
	PerToken   int `json:"per_token"`   // default 8: a player's tabs and devices
	PerAddress int `json:"per_address"` // default 512: a casino floor behind one NAT
	Total      int `json:"total"`       // default 20,000
}

func (l StreamLimits) withDefaults() StreamLimits {
	if l.PerToken <= 0 {
		l.PerToken = 8
	}
	if l.PerAddress <= 0 {
		l.PerAddress = 512
	}
	if l.Total <= 0 {
		l.Total = 20_000
	}
	return l
}

// maxHeaderBytes caps a request's headers.
const maxHeaderBytes = 16 << 10

// Server serves the API and the pages.
type Server struct {
	// The ports, each set from Options.Host (ports.go): a handler reaches the runtime only
	// through the one it needs.
	tables      Tables
	floor       Floor
	tournaments Tournaments
	desk        TournamentDesk
	wallets     Wallets
	calls       WalletCalls
	care        Care
	names       Names
	starting    bool // no host: serving in the starting mode (health.go)

	books       ledger.Store
	accounts    access.Store
	tokens      *access.Tokens
	log         *slog.Logger
	limiter     *limiter
	addrLimiter *limiter
	streams     *streamGate
	currency    ledger.Currency
	timeouts    Timeouts
	metrics     *metrics
	http        *http.Server
	ln          net.Listener
	mux         *http.ServeMux
	operator    OperatorOptions
	ready       func() error           // Options.Ready
	limitsClock func() time.Time       // Options.LimitsNow
	draining    atomic.Bool            // Drain was called (health.go)
	next        atomic.Pointer[Server] // Handoff: the server that answers from now on
}

// New returns a server; Start listens.
func New(opt Options) *Server {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.RatePerToken == 0 {
		opt.RatePerToken, opt.Burst = 50, 200
	}
	if opt.RatePerAddress == 0 {
		opt.RatePerAddress, opt.AddressBurst = 200, 400
	}
	if opt.Currency == "" {
		opt.Currency = live.PlayMoney
	}
	s := &Server{starting: opt.Host == nil, books: opt.Books, accounts: opt.Accounts, tokens: opt.Tokens, log: opt.Logger,
		limiter: newLimiter(opt.RatePerToken, opt.Burst, time.Now), addrLimiter: newLimiter(opt.RatePerAddress, opt.AddressBurst, time.Now),
		streams: newStreamGate(opt.Streams.withDefaults()), currency: opt.Currency, timeouts: opt.Timeouts.withDefaults(), metrics: newMetrics(),
		operator: opt.Operator, ready: opt.Ready, limitsClock: opt.LimitsNow}
	if h := opt.Host; h != nil {
		s.tables, s.floor, s.tournaments, s.desk = h, h, h, h
		s.wallets, s.calls, s.care, s.names = h, h, h, h
	}
	s.mux = s.routes()
	return s
}

// limitsNow is the time players' limits are read and changed at (limits.go).
func (s *Server) limitsNow() time.Time {
	if s.limitsClock != nil {
		return s.limitsClock()
	}
	return s.now()
}

// routes is every route of the server, in one table (Go 1.22 patterns). Every route is
// rate limited: per client address, and per token where one is needed.
func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	anyone := []Role(nil)
	players := []Role{RolePlayer}
	dealers := []Role{RoleDealer, RolePit, RoleAdmin}
	admins := []Role{RoleAdmin}
	pits := []Role{RolePit, RoleAdmin}

	m.HandleFunc("GET /{$}", s.public(s.page("lobby.html")))
	m.HandleFunc("GET /table/{id}", s.public(s.page("table.html")))
	m.HandleFunc("GET /dealer/{id}", s.public(s.page("dealer.html")))
	m.HandleFunc("GET /account", s.public(s.page("account.html")))
	m.HandleFunc("GET /launch", s.public(s.page("launch.html")))
	m.HandleFunc("GET /tournaments", s.public(s.page("tournament.html")))
	m.HandleFunc("GET /tournament/{id}", s.public(s.page("tournament.html")))
	m.HandleFunc("GET /admin", s.public(s.adminPage()))
	m.HandleFunc("GET /admin/{section}", s.public(s.adminPage()))
	m.HandleFunc("GET /admin/table/{id}", s.public(s.adminPage()))
	m.Handle("GET /static/", s.public(s.static().ServeHTTP))

	m.HandleFunc("GET /api/openapi.json", s.public(s.handleOpenAPI))
	m.HandleFunc("GET /metrics", s.public(s.handleMetrics))
	m.HandleFunc("GET /healthz", s.public(func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]string{"status": "ok"}) }))
	m.HandleFunc("GET /livez", s.handleLivez)
	m.HandleFunc("GET /readyz", s.handleReadyz)
	m.HandleFunc("GET /api/games", s.public(s.handleGames))
	m.HandleFunc("GET /api/tables", s.public(s.handleTables))
	m.HandleFunc("GET /api/tables/{id}", s.public(s.handleTable))
	m.HandleFunc("GET /api/tables/{id}/stream", s.streamAuth(s.handleStream))
	m.HandleFunc("GET /api/tables/{id}/rounds", s.public(s.handleRounds))
	m.HandleFunc("GET /api/tables/{id}/rules", s.public(s.handleRules))
	m.HandleFunc("GET /api/tournaments", s.public(s.handleTournaments))
	m.HandleFunc("GET /api/tournaments/{id}", s.public(s.handleTournament))
	m.HandleFunc("POST /api/tournaments/{id}/register", s.auth(players, s.tournamentAction(Tournaments.Register, true)))
	m.HandleFunc("POST /api/tournaments/{id}/unregister", s.auth(players, s.tournamentAction(Tournaments.Unregister, false)))
	m.HandleFunc("POST /api/tournaments/{id}/rebuy", s.auth(players, s.tournamentAction(Tournaments.Rebuy, true)))

	m.HandleFunc("POST /api/operator/launch", s.public(s.handleLaunch))
	m.HandleFunc("POST /api/launch", s.public(s.handleExchange))
	m.HandleFunc("GET /api/admin/reconciliation", s.auth(admins, s.handleReconciliation))
	m.HandleFunc("POST /api/admin/reconciliation/calls/{tx}/resend", s.auth(admins, s.audited(backoffice.ActCallResend, s.handleResendCall)))
	m.HandleFunc("POST /api/admin/reconciliation/calls/{tx}/settle", s.auth(admins, s.audited(backoffice.ActCallSettle, s.handleSettleCall)))
	m.HandleFunc("GET /api/me", s.auth(anyone, s.handleMe))
	m.HandleFunc("GET /api/me/history", s.auth(anyone, s.handleHistory))
	m.HandleFunc("GET /api/me/rounds", s.auth(anyone, s.handleStatement))
	m.HandleFunc("PUT /api/me/name", s.auth(players, s.handleSetName))
	m.HandleFunc("GET /api/me/limits", s.auth(players, s.handleMyLimits))
	m.HandleFunc("POST /api/me/reality-check", s.auth(players, s.handleRealityCheck))
	m.HandleFunc("POST /api/me/exclude", s.auth(players, s.handleExclude))
	m.HandleFunc("GET /api/admin/accounts/{id}/limits", s.auth(admins, s.handleAccountLimits))
	m.HandleFunc("PUT /api/admin/accounts/{id}/limits", s.auth(admins, s.audited(backoffice.ActPlayerLimits, s.handleSetAccountLimits)))
	m.HandleFunc("GET /api/admin/limit-events", s.auth(admins, s.handleLimitEvents))
	m.HandleFunc("POST /api/tables/{id}/wagers", s.auth(players, s.handleWager))
	m.HandleFunc("POST /api/tables/{id}/withdraw", s.auth(players, s.handleWithdraw))
	m.HandleFunc("POST /api/tables/{id}/reveal", s.auth(players, s.handleReveal))
	m.HandleFunc("POST /api/tables/{id}/peel", s.auth(players, s.handlePeel))
	m.HandleFunc("POST /api/tables/{id}/draw", s.auth(players, s.handleDraw))
	m.HandleFunc("POST /api/tables/{id}/give-up-shoe", s.auth(players, s.handleGiveUpShoe))
	m.HandleFunc("POST /api/tables/{id}/hand-shoe", s.auth(dealers, s.atTable(s.handleHandShoe)))
	m.HandleFunc("POST /api/tables/{id}/commands", s.auth(dealers, s.atTable(s.handleCommand)))
	m.HandleFunc("PUT /api/admin/tables/{id}/limits", s.auth(pits, s.atTable(s.handleLimits)))
	m.HandleFunc("POST /api/admin/tables", s.auth(admins, s.audited(backoffice.ActTableCreate, s.handleCreateTable)))
	m.HandleFunc("POST /api/admin/tournaments", s.auth(admins, s.audited(backoffice.ActTournamentNew, s.handleCreateTournament)))
	m.HandleFunc("POST /api/admin/tournaments/{id}/cancel", s.auth(admins, s.audited(backoffice.ActTournamentStop, s.handleCancelTournament)))
	m.HandleFunc("GET /api/admin/tables", s.auth(dealers, s.handleAdminTables))
	m.HandleFunc("POST /api/admin/tables/check", s.auth(admins, s.handleCheckTable))
	m.HandleFunc("POST /api/admin/tables/{id}/void", s.auth(pits, s.atTable(s.handleAdminVoid)))
	m.HandleFunc("GET /api/admin/floor", s.auth(dealers, s.handleFloor))
	m.HandleFunc("GET /api/admin/rounds", s.auth(pits, s.handleRecall))
	m.HandleFunc("GET /api/admin/reports", s.auth(admins, s.handleReport))
	m.HandleFunc("GET /api/admin/reports/tournaments", s.auth(admins, s.handleTournamentReport))
	m.HandleFunc("GET /api/admin/books", s.auth(admins, s.handleBooks))
	m.HandleFunc("GET /api/admin/audit", s.auth(admins, s.handleAudit))
	m.HandleFunc("POST /api/admin/tournaments/check", s.auth(admins, s.handleCheckTournament))
	m.HandleFunc("GET /api/admin/tournament-templates", s.auth(admins, s.handleTemplates))
	m.HandleFunc("PUT /api/admin/tournament-templates/{name}", s.auth(admins, s.handleSaveTemplate))
	m.HandleFunc("DELETE /api/admin/tournament-templates/{name}", s.auth(admins, s.handleDeleteTemplate))
	m.HandleFunc("GET /api/admin/search/accounts", s.auth(admins, s.handleSearchAccounts))
	m.HandleFunc("GET /api/admin/accounts/{id}/statement", s.auth(admins, s.handleAccountStatement))
	m.HandleFunc("GET /api/admin/accounts/{id}/sessions", s.auth(admins, s.handleAccountSessions))
	m.HandleFunc("POST /api/admin/accounts/{id}/debit", s.auth(admins, s.handleDebit))
	m.HandleFunc("POST /api/admin/accounts", s.auth(admins, s.handleCreateAccount))
	m.HandleFunc("GET /api/admin/accounts", s.auth(admins, s.handleListAccounts))
	m.HandleFunc("GET /api/admin/accounts/{id}", s.auth(admins, s.handleAccount))
	m.HandleFunc("PATCH /api/admin/accounts/{id}", s.auth(admins, s.handleUpdateAccount))
	m.HandleFunc("POST /api/admin/accounts/{id}/revoke", s.auth(admins, s.handleRevoke))
	m.HandleFunc("POST /api/admin/accounts/{id}/token", s.auth(admins, s.handleIssueToken))
	m.HandleFunc("POST /api/admin/accounts/{id}/credit", s.auth(admins, s.handleCredit))
	return m
}

// ServeHTTP serves a request, counting it and logging slow or failed ones.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if n := s.next.Load(); n != nil {
		n.ServeHTTP(w, r)
		return
	}
	if s.starting { // health.go
		s.serveStarting(w, r)
		return
	}
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w, status: 200}
	s.mux.ServeHTTP(rec, r)
	_, pattern := s.mux.Handler(r)
	s.metrics.requests.inc(pattern, rec.status)
	s.logRequest(r, pattern, rec.status, time.Since(start))
}

// Listen binds addr ("127.0.0.1:0" picks a free port) without serving yet: a server binds
// its port before it touches a table, so a second server on a busy port fails before it
// writes anything.
func (s *Server) Listen(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	s.ln = ln
	return nil
}

// Adopt takes the listener another Server bound with Listen (a server binds its port
// before it has a host to serve).
func (s *Server) Adopt(other *Server) { s.ln, other.ln = other.ln, nil }

// Start listens on addr (unless Listen already did) and serves in the background.
func (s *Server) Start(addr string) error {
	if s.ln == nil {
		if err := s.Listen(addr); err != nil {
			return err
		}
	}
	t := s.timeouts
	s.http = &http.Server{Handler: s, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read,
		WriteTimeout: t.Write, IdleTimeout: t.Idle, MaxHeaderBytes: maxHeaderBytes,
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)}
	go func() {
		if err := s.http.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serving", "err", err)
		}
	}()
	return nil
}

// URL is the server's base URL once listening.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Shutdown stops taking requests and waits for those in flight (WebSocket streams are cut).
func (s *Server) Shutdown(ctx context.Context) error {
	s.streams.closeAll()
	if s.http == nil {
		if s.ln != nil {
			return s.ln.Close()
		}
		return nil
	}
	return s.http.Shutdown(ctx)
}
