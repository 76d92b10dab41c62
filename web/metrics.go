package web

import (
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/tablehouse/baccarat"
)

// Metrics are a server's Prometheus metrics, in a registry of the server's own rather than
// the client library's global one, so that several servers in one process (tests) count each
// their own. Beside ours it holds the Go runtime's and the process's standard metrics.
//
// Metrics is also the host's live.Observer: the figures an operator runs the business on
// (metrics_business.go) are counted from what the tables and tournaments commit, and the
// gauges of what the host knows now are read when Prometheus scrapes (metrics_scrape.go).
// Make one with NewMetrics, give it to the host (live.Options.Observer) and to the web
// server (UseMetrics); README, "Metrics", lists every series.
type Metrics struct {
	requests   requestCounter       // by route and status
	errors     codeCounter          // by error code
	wagers     prometheus.Counter   // wagers acknowledged
	websockets prometheus.Gauge     // open streams
	tables     *prometheus.GaugeVec // tables this server runs, by server, read when scraped
	owners     *prometheus.GaugeVec // every table of the cluster and the server that runs it
	ackLatency latency              // wager acknowledgement, seconds
	reg        *prometheus.Registry
	business   *business              // counted from the commits the host reports
	logs       *prometheus.CounterVec // log records by level (CountLogs)
	stalls     stallWatch             // when each table last moved, as scrapes saw it
	// Now is the clock the stalled-table gauge judges by (nil: time.Now); set it before the
	// server starts.
	Now func() time.Time
}

// metrics is the server's name for its Metrics.
type metrics = Metrics

// latencyBuckets are the wager acknowledgement histogram's upper bounds, in seconds.
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

// NewMetrics returns a server's metrics, with nothing counted yet.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) prometheus.Collector { reg.MustRegister(c); return c }
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f(buildInfo())
	return &Metrics{
		requests: requestCounter{f(prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "baccarat_http_requests_total", Help: "HTTP requests by route and status.",
		}, []string{"route", "status"})).(*prometheus.CounterVec)},
		errors: codeCounter{f(prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "baccarat_errors_total", Help: "Errors returned, by code.",
		}, []string{"code"})).(*prometheus.CounterVec)},
		wagers: f(prometheus.NewCounter(prometheus.CounterOpts{
			Name: "baccarat_wagers_total", Help: "Wagers acknowledged.",
		})).(prometheus.Counter),
		websockets: f(prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "baccarat_websockets", Help: "Open WebSocket streams.",
		})).(prometheus.Gauge),
		tables: f(prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "baccarat_tables", Help: "Tables this server runs.",
		}, []string{"server"})).(*prometheus.GaugeVec),
		owners: f(prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "baccarat_table_owner", Help: "1 for each table of the server (or cluster), labelled with the server that runs it.",
		}, []string{"table", "owner"})).(*prometheus.GaugeVec),
		ackLatency: latency{f(prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "baccarat_wager_ack_seconds", Help: "Time from a wager request to its durable acknowledgement.",
			Buckets: latencyBuckets,
		})).(prometheus.Histogram)},
		logs: f(prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "baccarat_log_messages_total", Help: "Log records written, by level (DEBUG, INFO, WARN, ERROR).",
		}, []string{"level"})).(*prometheus.CounterVec),
		business: newBusiness(f),
		reg:      reg,
	}
}

// newMetrics is a server's own metrics until UseMetrics gives it the host's.
func newMetrics() *metrics { return NewMetrics() }

// UseMetrics makes m the server's metrics: the Metrics its host reports to, so that /metrics
// shows the business figures beside the server's own. Call it before Start; one Metrics
// serves one server.
func (s *Server) UseMetrics(m *Metrics) { s.metrics = m }

// buildInfo is baccarat_build_info, always 1, labelled with the binary's module version (as
// the Go toolchain recorded it) and the Go version it was built with.
func buildInfo() prometheus.Collector {
	version, goVersion := "unknown", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		version, goVersion = bi.Main.Version, bi.GoVersion
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "baccarat_build_info", Help: "The running binary's version and Go version; always 1.",
		ConstLabels: prometheus.Labels{"version": version, "goversion": goVersion},
	})
	g.Set(1)
	return g
}

type requestCounter struct{ *prometheus.CounterVec }

// inc counts a request answered with status by the route pattern that served it ("" when
// none matched).
func (c requestCounter) inc(pattern string, status int) {
	if pattern == "" {
		pattern = "unmatched"
	}
	c.WithLabelValues(pattern, strconv.Itoa(status)).Inc()
}

type codeCounter struct{ *prometheus.CounterVec }

func (c codeCounter) inc(code baccarat.Code) { c.WithLabelValues(string(code)).Inc() }

type latency struct{ prometheus.Histogram }

func (h latency) observe(d time.Duration) { h.Observe(d.Seconds()) }

// handleMetrics serves the registry and, read now, what the host knows (metrics_scrape.go).
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	m := s.metrics
	m.tables.Reset()
	m.tables.WithLabelValues(s.floor.Owner()).Set(float64(len(s.floor.LocalTables(r.Context()))))
	m.owners.Reset()
	for _, t := range s.tables.Tables(r.Context()) {
		m.owners.WithLabelValues(t.Spec.ID, t.Owner).Set(1)
	}
	current := prometheus.NewRegistry()
	current.MustRegister(&scrape{ctx: r.Context(), s: s})
	promhttp.HandlerFor(prometheus.Gatherers{m.reg, current}, promhttp.HandlerOpts{}).ServeHTTP(w, r)
}

// statusRecorder remembers a response's status for the request counter.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
