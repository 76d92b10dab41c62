package web_test

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// scrape reads a server's /metrics as a Prometheus server would (text exposition format).
func scrape(t *testing.T, f *fixture) string {
	t.Helper()
	return scrapeURL(t, f.srv.URL())
}

// scrapeURL reads the /metrics of the server at base.
func scrapeURL(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d %v", resp.StatusCode, err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("/metrics Content-Type %q, want the text format", ct)
	}
	return string(b)
}

// hasLine reports whether the exposition has a sample line starting with prefix.
func hasLine(text, prefix string) bool {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return true
		}
	}
	return false
}

func TestMetricsScrape(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.dealer("tiger", map[string]any{"cmd": "open"})
	if code := f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100, "request_id": "m1"}, nil); code != 200 {
		t.Fatalf("wager: %d", code)
	}
	f.do("ann", "POST", "/api/tables/nope/wagers", map[string]any{"bet": "banker", "stake": 100}, nil)
	text := scrape(t, f)
	for _, want := range []string{
		"go_goroutines ",
		"baccarat_build_info{",
		"baccarat_wagers_total 1",
		`baccarat_tables{server="test"} 2`,
		`baccarat_table_owner{owner="test",table="tiger"} 1`,
		"baccarat_websockets 0",
		`baccarat_errors_total{code="not_found"} 1`,
		`baccarat_http_requests_total{route="POST /api/tables/{id}/wagers",status="200"} 1`,
		`baccarat_http_requests_total{route="POST /api/tables/{id}/wagers",status="404"} 1`,
		`baccarat_wager_ack_seconds_bucket{le="0.001"} `,
		`baccarat_wager_ack_seconds_bucket{le="2.5"} `,
		`baccarat_wager_ack_seconds_bucket{le="+Inf"} 1`,
		"baccarat_wager_ack_seconds_count 1",
		"baccarat_wager_ack_seconds_sum ",
	} {
		if !hasLine(text, want) {
			t.Errorf("/metrics has no line starting %q", want)
		}
	}
	// The process collector reads /proc: where there is none, it has nothing to say.
	if _, err := os.Stat("/proc/self/stat"); err == nil && !hasLine(text, "process_cpu_seconds_total ") {
		t.Error("/metrics has no process_cpu_seconds_total")
	}
	if t.Failed() {
		t.Log(text)
	}
}

// Each server counts in a registry of its own: two in one process neither share counts nor
// collide registering the same names.
func TestMetricsPerServer(t *testing.T) {
	a, b := newFixture(t), newFixture(t)
	a.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	a.dealer("tiger", map[string]any{"cmd": "open"})
	if code := a.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 100, "request_id": "m2"}, nil); code != 200 {
		t.Fatalf("wager: %d", code)
	}
	if got := scrape(t, a); !hasLine(got, "baccarat_wagers_total 1") {
		t.Error("the server that took the wager does not count it")
	}
	if got := scrape(t, b); !hasLine(got, "baccarat_wagers_total 0") {
		t.Error("a second server counts the first one's wager")
	}
}
