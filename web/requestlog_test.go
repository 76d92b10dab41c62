package web

import (
	"log/slog"
	"math"
	"net/http/httptest"
	"testing"
	"time"
)

// TestRequestLevel: warnings are for failures and for slowness beyond what a request asked
// to wait; a long poll or a stream that waited as asked is a debug line.
func TestRequestLevel(t *testing.T) {
	stream := time.Duration(math.MaxInt64)
	for _, c := range []struct {
		name   string
		status int
		took   time.Duration
		wait   time.Duration
		level  slog.Level
		logged bool
	}{
		{"a quick request is not logged", 200, 30 * time.Millisecond, 0, 0, false},
		{"a request that takes over a second is slow", 200, 1500 * time.Millisecond, 0, slog.LevelWarn, true},
		{"a failure is a warning however quick", 500, time.Millisecond, 0, slog.LevelWarn, true},
		{"a long poll that waited its 20 s is not slow", 200, 20 * time.Second, longPoll, slog.LevelDebug, true},
		{"a long poll answered after 3 s is not slow", 200, 3 * time.Second, longPoll, slog.LevelDebug, true},
		{"a long poll that answers quickly is not logged", 200, 200 * time.Millisecond, longPoll, 0, false},
		{"a long poll a second past its wait is slow", 200, longPoll + 1500*time.Millisecond, longPoll, slog.LevelWarn, true},
		{"a long poll that fails is a warning", 503, 20 * time.Second, longPoll, slog.LevelWarn, true},
		{"a stream open for an hour is not slow", 101, time.Hour, stream, slog.LevelDebug, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			level, logged := requestLevel(c.status, c.took, c.wait)
			if logged != c.logged || logged && level != c.level {
				t.Fatalf("requestLevel(%d, %v, %v) = %v %v, want %v %v", c.status, c.took, c.wait, level, logged, c.level, c.logged)
			}
		})
	}
}

// TestAskedToWaitKnowsTheRoutes: the long poll is told apart by the route the server's own
// table gives it, so renaming the route cannot quietly bring the false warnings back.
func TestAskedToWaitKnowsTheRoutes(t *testing.T) {
	s := New(Options{})
	for _, c := range []struct {
		name, target string
		upgrade      bool
		wait         time.Duration
	}{
		{"the tournament long poll", "/api/tournaments/cup?after=12", false, longPoll},
		{"a tournament read without after", "/api/tournaments/cup", false, 0},
		{"a table's WebSocket stream", "/api/tables/tiger/stream", true, math.MaxInt64},
		{"a table read", "/api/tables/tiger?after=3", false, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", c.target, nil)
			if c.upgrade {
				r.Header.Set("Upgrade", "websocket")
			}
			_, pattern := s.mux.Handler(r)
			if wait, _ := askedToWait(r, pattern); wait != c.wait {
				t.Fatalf("%s (route %q) waits %v, want %v", c.target, pattern, wait, c.wait)
			}
		})
	}
}
