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
	sub, err := s.host.Subscribe(tableID, s.viewerOf(id, tableID), since, resume)
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
	if sub.Snapshot != nil {
		v := s.snapshotView(sub.Snapshot)
		v.Type = "snapshot"
		if err := writeWS(ctx, c, mustJSON(v)); err != nil {
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
			if err := writeWS(ctx, c, out); err != nil {
				return
			}
		case <-recheck.C:
			if _, err := s.identify(ctx, r); err != nil {
				c.Close(websocket.StatusPolicyViolation, "signed out: "+err.Error())
				return
			}
		case <-ctx.Done():
			c.Close(websocket.StatusPolicyViolation, "the stream was closed by the server")
			return
		}
	}
}

func writeWS(ctx context.Context, c *websocket.Conn, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, data)
}
