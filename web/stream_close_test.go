package web_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/web"
)

// openStream opens who's stream of the tiger table and reads its snapshot.
func openStream(t *testing.T, f *fixture, who string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	url := strings.Replace(f.srv.URL(), "http", "ws", 1) + "/api/tables/tiger/stream?token=" + f.tokens[who]
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	if m := readFrame(t, ctx, c)[0]; m["type"] != "snapshot" {
		t.Fatalf("first message %v, want the snapshot", m)
	}
	return c
}

// closedWith reads c until it closes and returns how: its close status and reason.
func closedWith(t *testing.T, c *websocket.Conn) (websocket.StatusCode, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		_, _, err := c.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("the stream ended with %v, want a close frame", err)
		}
		return ce.Code, ce.Reason
	}
}

// waitStreams waits for the server's baccarat_websockets gauge to read n.
func waitStreams(t *testing.T, f *fixture, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); streamsOpen(t, f) != n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams open, want %d", streamsOpen(t, f), n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestStreamClosing(t *testing.T) {
	t.Run("a disabled account's stream is closed, saying so", func(t *testing.T) {
		f := newFixture(t)
		c := openStream(t, f, "ann")
		if code := f.do("admin", "PATCH", "/api/admin/accounts/ann", map[string]any{"disabled": true}, nil); code != 200 {
			t.Fatalf("disabling ann: %d", code)
		}
		if code, reason := closedWith(t, c); code != websocket.StatusPolicyViolation || !strings.Contains(reason, "closed by the server") {
			t.Fatalf("closed with %v %q, want %v, closed by the server", code, reason, websocket.StatusPolicyViolation)
		}
		waitStreams(t, f, 0)
	})
	t.Run("a stream of a stopped table is closed: reconnect with since", func(t *testing.T) {
		f := newFixture(t)
		c := openStream(t, f, "ann")
		f.host.Close()
		if code, reason := closedWith(t, c); code != websocket.StatusTryAgainLater || !strings.Contains(reason, "since") {
			t.Fatalf("closed with %v %q, want %v, reconnect with since", code, reason, websocket.StatusTryAgainLater)
		}
		waitStreams(t, f, 0)
	})
	t.Run("a client that sends a message is closed", func(t *testing.T) {
		f := newFixture(t)
		c := openStream(t, f, "ann")
		if err := c.Write(context.Background(), websocket.MessageText, []byte(`{"hello":1}`)); err != nil {
			t.Fatal(err)
		}
		if code, _ := closedWith(t, c); code != websocket.StatusPolicyViolation {
			t.Fatalf("closed with %v, want %v", code, websocket.StatusPolicyViolation)
		}
		waitStreams(t, f, 0)
	})
	t.Run("a stream answers pings", func(t *testing.T) {
		f := newFixture(t)
		c := openStream(t, f, "ann")
		c.CloseRead(context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.Ping(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("the server's shutdown closes its streams", func(t *testing.T) {
		f := newFixture(t)
		c := openStream(t, f, "ann")
		if err := f.srv.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		if code, _ := closedWith(t, c); code != websocket.StatusPolicyViolation {
			t.Fatalf("closed with %v, want %v", code, websocket.StatusPolicyViolation)
		}
	})
}

// A stream that ends gives its place under the caps back: a player who closes their tabs
// may open as many again.
func TestStreamCapsAreGivenBack(t *testing.T) {
	f := newFixture(t, func(o *web.Options) { o.Streams = web.StreamLimits{PerToken: 2} })
	for round := range 3 {
		a, b := openStream(t, f, "ann"), openStream(t, f, "ann")
		waitStreams(t, f, 2)
		url := strings.Replace(f.srv.URL(), "http", "ws", 1) + "/api/tables/tiger/stream?token=" + f.tokens["ann"]
		if _, resp, err := websocket.Dial(context.Background(), url, nil); err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("round %d: a third stream of a token capped at two: %v", round, err)
		}
		a.Close(websocket.StatusNormalClosure, "")
		b.CloseNow()
		waitStreams(t, f, 0)
	}
}
