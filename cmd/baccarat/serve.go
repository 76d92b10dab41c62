package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/cluster"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/web"
)

func init() {
	register(&command{
		name:    "serve",
		summary: "run the platform: tables, API, WebSockets and the pages, on an embedded database",
		usage: `Usage: baccarat serve [--addr 127.0.0.1:8080] [--db ./baccarat.db | --db postgres://...] [--config tables.json]

Runs the tables and serves the lobby, the player's table and the dealer console in a
browser. With no flags: SQLite at ./baccarat.db, 127.0.0.1:8080, one automatic RNG table of
each cash game (Tiger, Bet on Baccarat, punto banco; 15 s to bet), one dealer-driven Tiger
table for the dealer console, a demo tournament of each tournament game (MBS Tournament,
RWS Non-Commission, MBS Dragon) starting every 5 minutes with whoever registered (house
bots, labelled as bots, fill the entries up to 4: --tournament-bots; --no-tournaments for
none; /tournaments lists them), and a demo player with play money whose sign-in link is
printed at start.

Every round is durable before it is acknowledged: stop the server at any moment (Ctrl-C,
or a crash) and the next start resumes every table from its journal.

A config file (JSON) sets the tables and the demo money:
  {"tables":[{"id":"vip-tiger","name":"VIP Tiger","mode":"auto",
              "config":{"game":"mbs-tiger","decks":8,"differential":500000,
                        "limits":{"banker":{"min":1000,"max":5000000}}},
              "schedule":{"betting":"20s","card":"800ms","result":"4s"}}],
   "demo_credit":100000000, "streams":{"per_token":8,"per_address":512,"total":20000}}
(schedule: betting, bob_round, card, result, window, each 1ms to 1h; modes are "auto" and
"dealer"; streams caps open WebSocket streams, the defaults shown). A dealer table's live
video, which its page plays with the cards shown as the video shows them:
  "video":{"url":"https://studio.example/t1/live.m3u8","whep":"https://studio.example/t1/whep",
           "delay_ms":3000}
(url: the HLS playlist, http or https; whep: optional, played first where the browser has
WebRTC; delay_ms 0 to 30000, used when the stream carries no EXT-X-PROGRAM-DATE-TIME). Every
setting of a table has a range (README, "Settings and their ranges": session_hands 1 to 1000,
squeeze_seconds 1 to 60, ...); the server checks every table of the file before it makes any,
and starts with none out of range. --betting is 1ms to 1h, --tournament-bots 0 to 18, --tournament-every 1m
to 24h. Without "tables" the server runs the default tables above; "tables":[] runs none
(make them with POST /api/admin/tables).
The tournament games pay Banker 1:1 and Dragon bets generously because they are played for
chips: a cash table of one needs "cash": true in its config, and the server then logs, and
the lobby shows, the exact player edge of each of its bets.

On PostgreSQL each server keeps a pool of 8 connections; pool_max_conns in the URL sets
another size (postgres://…?pool_max_conns=32).

Several servers can share one PostgreSQL database: each table is owned by one server at a
time through a lease, and a survivor takes over the tables of a server that dies. They must
share --secret (or BACCARAT_SECRET) so each accepts the others' tokens. With --nats they act
as one server: any of them takes any request for any table (a load balancer may send a
player anywhere), streams any table, and hears at once of every wallet the others move:

  baccarat serve --db postgres://… --nats nats://127.0.0.1:4222 --secret HEX --addr :8081
  baccarat serve --db postgres://… --nats nats://127.0.0.1:4222 --secret HEX --addr :8082
` + operatorUsage,
		run: runServe,
	})
}

// serveConfig is the optional config file.
type serveConfig struct {
	Tables     []live.Spec    `json:"tables"`
	DemoCredit baccarat.Money `json:"demo_credit"`
	// Streams caps open WebSocket streams per token, per client address and in all (0: the
	// defaults 8, 512 and 20,000); a floor of players behind one address needs more.
	Streams web.StreamLimits `json:"streams"`
}

// server is the whole program as a value, so tests run it on 127.0.0.1:0 with a temporary
// database exactly as a user runs it.
type server struct {
	Addr, DB, Config, Secret, Owner string
	NATS                            string // nats:// URL: join the servers sharing the database
	Betting                         time.Duration
	Log                             *slog.Logger
	Streams                         web.StreamLimits
	AddressRate                     float64 // requests per second per client address (0: the web default)
	TokenRate                       float64 // requests per second per token (0: the web default)
	Timeouts                        web.Timeouts
	Demo                            demoTournaments // serve_tournaments.go
	Operator                        operatorFlags   // serve_operator.go
	Cluster                         clusterFlags    // serve_cluster.go
	// LimitsNow is the clock of players' limits (nil: the real one), for the host's wager
	// checks and the web's sessions and reality checks alike; the tables keep the real clock.
	// Tests move it to a reality check's time.
	LimitsNow func() time.Time

	store storeCloser
	host  *live.Host
	node  *cluster.Node
	web   *web.Server
	links map[string]string
	// reports folds the journals into the back office's summaries (backoffice.Aggregator).
	reports *backoffice.Aggregator
}

func runServe(ctx context.Context, e *env, args []string) int {
	c := commands["serve"]
	fs := newFlags(e, c)
	s := &server{}
	fs.StringVar(&s.Addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&s.DB, "db", defaultDB, "SQLite file or postgres:// URL")
	fs.StringVar(&s.Config, "config", "", "JSON file describing the tables (see above)")
	fs.StringVar(&s.Secret, "secret", os.Getenv("BACCARAT_SECRET"), "hex secret that signs tokens (default: kept in <db>.secret)")
	fs.StringVar(&s.NATS, "nats", os.Getenv("BACCARAT_NATS"), "NATS URL (nats://127.0.0.1:4222) joining the servers that share a PostgreSQL --db into one")
	fs.StringVar(&s.Owner, "owner", "", "this server's name in table leases (default: host name, process id and a random part)")
	fs.DurationVar(&s.Betting, "betting", 15*time.Second, "betting time of the default automatic tables")
	fs.BoolVar(&s.Demo.Off, "no-tournaments", false, "run no demo tournaments")
	fs.IntVar(&s.Demo.Bots, "tournament-bots", 4, "house bots that fill each demo tournament's entries up to this many (0: none)")
	fs.DurationVar(&s.Demo.Every, "tournament-every", defaultDemoEvery, "how often a demo tournament of each game starts")
	fs.Float64Var(&s.TokenRate, "rate-token", 0, "requests a second each token may make (0: 50, bursts of 200)")
	fs.Float64Var(&s.AddressRate, "rate-address", 0, "requests a second each client address may make (0: 200, bursts of 400)")
	s.Operator.register(fs)
	s.Cluster.register(fs)
	profile := fs.String("cpuprofile", "", "write a CPU profile of the server's whole run to this file (read it with go tool pprof)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	stopProfile, err := startCPUProfile(*profile)
	if err != nil {
		fmt.Fprintf(e.stderr, "baccarat serve: --cpuprofile %s: %v\n", *profile, err)
		return 2
	}
	defer stopProfile()
	s.Log = slog.New(slog.NewJSONHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := s.Start(ctx); err != nil {
		return fail(e, c.name, err)
	}
	fmt.Fprintf(e.stdout, "baccarat is serving at %s (database %s)\n\n", s.web.URL(), shownDB(s.DB))
	fmt.Fprintf(e.stdout, "  Play (demo player):   %s\n", s.links["player"])
	fmt.Fprintf(e.stdout, "  Dealer console:       %s\n", s.links["dealer"])
	fmt.Fprintf(e.stdout, "  Back office (admin):  %s\n", s.links["back_office"])
	fmt.Fprintf(e.stdout, "  Admin token:          %s\n", s.links["admin"])
	fmt.Fprintf(e.stdout, "  API description:      %s/api/openapi.json   metrics: %s/metrics\n\nCtrl-C stops; every round resumes at the next start.\n", s.web.URL(), s.web.URL())
	<-ctx.Done()
	fmt.Fprintln(e.stdout, "stopping: finishing the batch in hand, every round stays recoverable")
	s.Close()
	return 0
}

// Start binds the address, opens the database, recovers or creates the tables, and serves.
// The port is bound first: a second server started by mistake (same port, or the same
// SQLite file) stops before it touches a table.
func (s *server) Start(ctx context.Context) error {
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	if err := s.start(ctx); err != nil {
		s.abort()
		return err
	}
	return nil
}

// abort undoes what a failed start did: the port stops answering, the store is closed.
func (s *server) abort() {
	if s.web != nil {
		_ = s.web.Shutdown(context.Background())
	}
	s.Operator.stopWebhook()
	if s.host != nil {
		s.host.Close()
	}
	if s.node != nil {
		s.node.Close()
	}
	if s.store != nil {
		_ = s.store.Close()
	}
}

func (s *server) start(ctx context.Context) error {
	cfg, err := s.readConfig()
	if err != nil {
		return err
	}
	if err := s.checkSettings(cfg); err != nil {
		return err
	}
	if err := s.Cluster.checkLease(); err != nil {
		return err
	}
	if err := s.Operator.check(); err != nil {
		return err
	}
	s.web = web.New(web.Options{Logger: s.Log, Timeouts: s.Timeouts})
	if err := s.web.Listen(s.Addr); err != nil {
		return baccarat.Errorf(baccarat.CodeBadRequest, "cannot listen on %s (%v): is another server running there? choose another address with --addr 127.0.0.1:8081", s.Addr, err)
	}
	// Until the tables are recovered the port answers /livez, and 503 to everything else
	// (web's starting mode): a load balancer waits, a client retries, nobody sees a 404.
	if err := s.web.Start(s.Addr); err != nil {
		return err
	}
	started := time.Now()
	store, err := openStore(ctx, s.DB)
	if err != nil {
		return err // (s.store stays nil: no store to close)
	}
	s.store = store
	secret, err := s.secret()
	if err != nil {
		return err
	}
	if s.Owner == "" {
		s.Owner = ownerID()
	}
	s.Log.Info("starting", "owner", s.Owner, "db", shownDB(s.DB))
	// The metrics hear every commit of the host and are shown by the web server; they count
	// the log's records by level too (README, "Metrics").
	metrics := web.NewMetrics()
	s.Log = slog.New(metrics.CountLogs(s.Log.Handler()))
	// Accounts are read on every request; a server that hears of every change to them keeps
	// them in a cache: alone on its SQLite file, or in a cluster, which announces each change.
	// Servers sharing PostgreSQL without NATS read the database each time.
	var accounts access.Store = s.store
	var cache *access.Cache
	if !isPostgres(s.DB) || s.NATS != "" {
		cache = access.NewCache(s.store, accountCacheTTL, func(id string) {
			if s.node != nil {
				s.node.AccountChanged(id)
			}
		})
		accounts = cache
	}
	// Players see one another by display name and public handle, never by account id.
	s.host = live.New(live.Options{Store: s.store, Owner: s.Owner, Logger: s.Log, Operator: s.Operator.operator(), Outbox: s.Operator.Outbox,
		LeaseTTL: s.Cluster.Lease, Exclusive: !isPostgres(s.DB), Observer: metrics, LimitsNow: s.LimitsNow,
		People: access.NewPeople(secret, accounts)})
	if s.NATS != "" {
		if err := s.joinCluster(secret, cache); err != nil {
			return err
		}
	}
	if err := s.host.Open(ctx); err != nil {
		return err
	}
	if err := s.createTables(ctx, cfg); err != nil {
		return err
	}
	s.startDemoTournaments(ctx)
	s.Operator.startWebhook(s.host.Limits(), s.Log)
	tokens := access.NewTokens(secret)
	if err := s.demo(ctx, cfg, tokens); err != nil {
		return err
	}
	ln := s.web
	streams := s.Streams
	if streams == (web.StreamLimits{}) {
		streams = cfg.Streams
	}
	if s.node != nil {
		s.node.WaitHeard(ctx) // the cluster's lobby, before this server lists any
	}
	s.web = web.New(web.Options{Host: s.host, Books: s.store, Accounts: accounts, Tokens: tokens, Logger: s.Log, Streams: streams,
		RatePerAddress: s.AddressRate, AddressBurst: 2 * s.AddressRate, RatePerToken: s.TokenRate, Burst: 4 * s.TokenRate,
		Timeouts: s.Timeouts, Operator: s.Operator.web(s.store), LimitsNow: s.LimitsNow})
	s.web.UseMetrics(metrics)
	ln.Handoff(s.web)
	if bo, ok := s.store.(backoffice.Journals); ok {
		s.reports = (&backoffice.Aggregator{Source: bo, Log: s.Log}).Start()
	}
	s.Log.Info("ready", "addr", s.web.URL(), "tables", len(s.host.LocalTables(ctx)), "took", time.Since(started).Round(time.Millisecond))
	base := s.web.URL()
	for k, v := range s.links {
		if strings.HasPrefix(v, "?") || strings.HasPrefix(v, "/") {
			s.links[k] = base + v
		}
	}
	return nil
}

// ownerID names this process in table leases: host name, process id and a random part, so
// that no two processes, even on one host, ever hold a lease as the same owner.
func ownerID() string {
	h, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return leaseName(fmt.Sprintf("%s-%d-%s", h, os.Getpid(), hex.EncodeToString(b[:])))
}

// Close drains and stops (drainGrace, then the rest within the drain's bound): the server
// says it is not ready and takes no new wagers or streams (503: clients and the load
// balancer go to another server); the tables finish the batch in hand and let their leases
// go, so a peer takes them up within a second; the streams are closed (clients resume them
// elsewhere with since); then the rest stops. One log line per phase.
func (s *server) Close() {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), s.drainFor())
	defer cancel()
	if s.web != nil && s.host != nil {
		s.web.Drain()
		s.Log.Info("draining: not ready; new wagers and streams go to other servers", "grace", drainGrace)
		select {
		case <-time.After(drainGrace): // the load balancer sees /readyz fail; requests in flight finish
		case <-ctx.Done():
		}
	}
	s.stopDemoTournaments()
	s.Operator.stopWebhook()
	if s.host != nil {
		n := len(s.host.LocalTables(ctx))
		s.host.Close()
		s.Log.Info("tables handed over: their leases are released for another server", "tables", n, "took", time.Since(start).Round(time.Millisecond))
	}
	if s.web != nil {
		_ = s.web.Shutdown(ctx)
	}
	if s.node != nil {
		s.node.Close()
	}
	s.reports.Stop()
	if s.store != nil {
		_ = s.store.Close()
	}
	s.Log.Info("stopped", "took", time.Since(start).Round(time.Millisecond))
}

// drainGrace is how long a draining server keeps answering before its tables go: time for a
// load balancer to see /readyz fail and for the requests in flight to end.
const drainGrace = time.Second

// drainFor bounds the whole of Close: --drain, 10 s by default.
func (s *server) drainFor() time.Duration {
	if s.Cluster.Drain > 0 {
		return s.Cluster.Drain
	}
	return 10 * time.Second
}
