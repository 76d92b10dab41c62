package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// streamPair starts a server whose one WebSocket stream runs serve with a streamWriter, and
// dials it; serve's error arrives on the returned channel.
func streamPair(tb testing.TB, serve func(ctx context.Context, sw *streamWriter) error) (*websocket.Conn, <-chan error) {
	tb.Helper()
	done := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
		if err != nil {
			done <- err
			return
		}
		defer c.CloseNow()
		sw := newStreamWriter(c)
		defer sw.stop()
		done <- serve(c.CloseRead(r.Context()), sw)
	}))
	tb.Cleanup(srv.Close)
	c, _, err := websocket.Dial(context.Background(), "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.CloseNow() })
	return c, done
}

// BenchmarkStreamWrite is one stream's writes of a small message (a result, a totals
// message) to a real WebSocket client on loopback: what every player's stream does for every
// message a table publishes.
func BenchmarkStreamWrite(b *testing.B) {
	msg := []byte(`{"type":"totals","seq":1234,"round":56,"totals":{"banker":{"stake":12300,"wagers":41},"player":{"stake":9800,"wagers":37}}}`)
	start := make(chan int)
	c, done := streamPair(b, func(ctx context.Context, sw *streamWriter) error {
		for range <-start {
			if err := sw.write(ctx, msg); err != nil {
				return err
			}
		}
		return nil
	})
	b.ReportAllocs()
	b.ResetTimer()
	start <- b.N
	for range b.N {
		if _, _, err := c.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// A client that stops reading is cut once a write has waited writeStall: the server's write
// fails and the stream ends, instead of holding its goroutine and buffers for ever.
func TestAStreamWhoseClientStopsReadingIsCut(t *testing.T) {
	defer func(d time.Duration) { writeStall = d }(writeStall)
	writeStall = 200 * time.Millisecond
	big := []byte(strings.Repeat("x", 256<<10))
	_, done := streamPair(t, func(ctx context.Context, sw *streamWriter) error {
		for {
			if err := sw.write(ctx, big); err != nil {
				return err
			}
		}
	}) // and the client never reads
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the stream ended without an error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a stream whose client stopped reading was not cut")
	}
}
