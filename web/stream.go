package web

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// recheckEvery is about how often an open stream re-reads its account, so that one disabled
// or revoked on another server is cut there too. Each stream waits between one and two
// periods, at random: thousands of streams opened together must not all read at once.
const recheckEvery = 15 * time.Second

// handleStream is a table's WebSocket: a snapshot (or, with since, what was missed), then
// every message the table publishes. A subscriber that falls behind is dropped by the host;
// its socket is closed and the page reconnects with since. Streams need a token and are
// capped per account, per address and in all (StreamLimits).
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request, id Identity) {
	tableID := r.PathValue("id")
	q := r.URL.Query()
	since, err := strconv.ParseUint(q.Get("since"), 10, 64)
	resume := q.Has("since") && err == nil
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	t, err := s.streams.enter(id.ID, clientAddr(r), cancel)
	if err != nil {
		s.tooMany(w, r, 5*time.Second, err)
		return
	}
	defer s.streams.leave(t)
	viewer := s.viewerOf(id, tableID)
	sub, err := s.host.Subscribe(tableID, viewer, since, resume)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer sub.Close()
	rc := http.NewResponseController(w) // the server's read and write deadlines are for requests, not streams
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(4 << 10) // the client sends nothing but control frames
	s.metrics.websockets.Add(1)
	defer s.metrics.websockets.Add(-1)
	ctx = c.CloseRead(ctx) // this notices when the client leaves
	sw := newStreamWriter(c)
	defer sw.stop()
	if sub.Snapshot != nil {
		v := s.snapshotView(sub.Snapshot, viewer)
		v.Type = "snapshot"
		if err := sw.write(ctx, mustJSON(v)); err != nil {
			return
		}
	}
	recheck := time.NewTicker(recheckEvery + rand.N(recheckEvery))
	defer recheck.Stop()
	var frame []byte
	for {
		select {
		case d, ok := <-sub.C:
			if !ok {
				c.Close(websocket.StatusTryAgainLater, "fell behind or the table stopped: reconnect with since")
				return
			}
			// Messages that arrived together (a result, its settlement, the balance, the
			// roads) go out in one frame, a JSON array: one write instead of several. A lone
			// message goes as it is, its bytes shared with every other subscriber.
			out := d.Data
			if n := len(sub.C); n > 0 {
				frame = append(append(frame[:0], '['), d.Data...)
				for i := 0; i < n; i++ {
					d, ok := <-sub.C
					if !ok {
						break
					}
					frame = append(append(frame, ','), d.Data...)
				}
				out = append(frame, ']')
			}
			if err := sw.write(ctx, out); err != nil {
				return
			}
		case <-recheck.C:
			if _, err := s.identify(ctx, id.token); err != nil {
				c.Close(websocket.StatusPolicyViolation, "signed out: "+err.Error())
				return
			}
		case <-ctx.Done():
			c.Close(websocket.StatusPolicyViolation, "the stream was closed by the server")
			return
		}
	}
}

// writeStall is how long one write to a stream may take before the stream is cut: a client
// that stopped reading.
var writeStall = 10 * time.Second

// streamWriter writes a stream's messages. Its stall timer is made once per stream and reset
// around each write, and the writes carry a context without a deadline: every player gets
// every message a table publishes, and a timer and a context per write were a seventh of
// what a write cost.
type streamWriter struct {
	c     *websocket.Conn
	stall *time.Timer
}

func newStreamWriter(c *websocket.Conn) *streamWriter {
	t := time.AfterFunc(writeStall, func() { c.CloseNow() })
	t.Stop()
	return &streamWriter{c: c, stall: t}
}

// write sends one message. The stream's context is checked first (a stream cut by the
// server or left by its client writes nothing more); a write stuck longer than writeStall
// closes the connection, which ends it.
func (w *streamWriter) write(ctx context.Context, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w.stall.Reset(writeStall)
	err := w.c.Write(context.Background(), websocket.MessageText, data)
	w.stall.Stop()
	return err
}

func (w *streamWriter) stop() { w.stall.Stop() }
