package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestServerP99AddsTheServersHistogramsAndSaysWhenItIsPastTheLastBucket: the servers' wager
// acknowledgement histograms are added up; a p99 that only +Inf holds is reported as past
// the last bucket, not as 0.
func TestServerP99AddsTheServersHistogramsAndSaysWhenItIsPastTheLastBucket(t *testing.T) {
	serve := func(b01, b1, inf int) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintf(w, "baccarat_wager_ack_seconds_bucket{le=\"0.1\"} %d\nbaccarat_wager_ack_seconds_bucket{le=\"1\"} %d\n", b01, b1)
			fmt.Fprintf(w, "baccarat_wager_ack_seconds_bucket{le=\"+Inf\"} %d\n", inf)
		}))
		t.Cleanup(s.Close)
		return s.URL
	}
	for _, tc := range []struct {
		name     string
		bases    []string
		wantMS   float64
		wantOver bool
	}{
		{"every wager within 100 ms", []string{serve(100, 100, 100)}, 100, false},
		{"two servers: 99 of 100 within 1 s", []string{serve(50, 50, 50), serve(0, 49, 50)}, 1000, false},
		{"half past the last bucket", []string{serve(10, 50, 100)}, 1000, true},
		{"no server answers", []string{"http://127.0.0.1:1"}, 0, false},
	} {
		ms, over := serverP99(tc.bases...)
		if ms != tc.wantMS || over != tc.wantOver {
			t.Errorf("%s: %v ms, over %v; want %v, %v", tc.name, ms, over, tc.wantMS, tc.wantOver)
		}
	}
}
