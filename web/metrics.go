package web

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// metrics are the server's Prometheus metrics, written in the text exposition format by
// hand: a few counters, gauges and one histogram need no dependency.
type metrics struct {
	requests   counterVec // by route and status
	errors     counterVec // by error code
	wagers     atomic.Int64
	websockets atomic.Int64
	ackLatency histogram // wager acknowledgement, seconds
}

type counterVec struct {
	mu sync.Mutex
	m  map[string]int64
}

func (c *counterVec) inc(label string) {
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]int64{}
	}
	c.m[label]++
	c.mu.Unlock()
}

func (c *counterVec) write(w io.Writer, name, help, label string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n", name, help, name)
	c.mu.Lock()
	keys := make([]string, 0, len(c.m))
	for k := range c.m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "%s{%s} %d\n", name, fmt.Sprintf(label, k), c.m[k])
	}
	c.mu.Unlock()
}

var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

type histogram struct {
	mu     sync.Mutex
	counts [12]int64
	sum    float64
	n      int64
}

func (h *histogram) observe(d time.Duration) {
	s := d.Seconds()
	h.mu.Lock()
	i := sort.SearchFloat64s(latencyBuckets, s)
	h.counts[i]++
	h.sum += s
	h.n++
	h.mu.Unlock()
}

func (h *histogram) write(w io.Writer, name, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name)
	h.mu.Lock()
	defer h.mu.Unlock()
	var cum int64
	for i, b := range latencyBuckets {
		cum += h.counts[i]
		fmt.Fprintf(w, "%s_bucket{le=\"%g\"} %d\n", name, b, cum)
	}
	fmt.Fprintf(w, "%s_bucket{le=\"+Inf\"} %d\n%s_sum %g\n%s_count %d\n", name, h.n, name, h.sum, name, h.n)
}

func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	m := s.metrics
	m.requests.write(w, "baccarat_http_requests_total", "HTTP requests by route and status.", "route_status=%q")
	m.errors.write(w, "baccarat_errors_total", "Errors returned, by code.", "code=%q")
	fmt.Fprintf(w, "# HELP baccarat_wagers_total Wagers acknowledged.\n# TYPE baccarat_wagers_total counter\nbaccarat_wagers_total %d\n", m.wagers.Load())
	fmt.Fprintf(w, "# HELP baccarat_websockets Open WebSocket streams.\n# TYPE baccarat_websockets gauge\nbaccarat_websockets %d\n", m.websockets.Load())
	fmt.Fprintf(w, "# HELP baccarat_tables Tables this server runs.\n# TYPE baccarat_tables gauge\nbaccarat_tables %d\n", len(s.host.Tables(r.Context())))
	m.ackLatency.write(w, "baccarat_wager_ack_seconds", "Time from a wager request to its durable acknowledgement.")
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
