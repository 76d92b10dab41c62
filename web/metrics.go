package web

import (
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus metrics, in a registry of the server's own rather than
// the client library's global one, so that several servers in one process (tests) count each
// their own. Beside ours it holds the Go runtime's and the process's standard metrics.
type metrics struct {
	requests   requestCounter       // by route and status
	errors     codeCounter          // by error code
	wagers     prometheus.Counter   // wagers acknowledged
	websockets prometheus.Gauge     // open streams
	tables     *prometheus.GaugeVec // tables this server runs, by server, read when scraped
	owners     *prometheus.GaugeVec // every table of the cluster and the server that runs it
	ackLatency latency              // wager acknowledgement, seconds
	handler    http.Handler         // the exposition of the registry
}

// latencyBuckets are the wager acknowledgement histogram's upper bounds, in seconds.
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

func newMetrics() *metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) prometheus.Collector { reg.MustRegister(c); return c }
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f(buildInfo())
	return &metrics{
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
		handler: promhttp.HandlerFor(reg, promhttp.HandlerOpts{}),
	}
}

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

func (c codeCounter) inc(code string) { c.WithLabelValues(code).Inc() }

type latency struct{ prometheus.Histogram }

func (h latency) observe(d time.Duration) { h.Observe(d.Seconds()) }

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.tables.Reset()
	s.metrics.tables.WithLabelValues(s.host.Owner()).Set(float64(len(s.host.LocalTables(r.Context()))))
	s.metrics.owners.Reset()
	for _, t := range s.host.Tables(r.Context()) {
		s.metrics.owners.WithLabelValues(t.Spec.ID, t.Owner).Set(1)
	}
	s.metrics.handler.ServeHTTP(w, r)
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
