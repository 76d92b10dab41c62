package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// handleStream is a table's WebSocket: a snapshot (or, with since, what was missed), then
// every message the table publishes. A subscriber that falls behind is dropped by the host;
// its socket is closed and the page reconnects with since.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	tableID := r.PathValue("id")
	viewer := s.viewer(r)
	q := r.URL.Query()
	since, err := strconv.ParseUint(q.Get("since"), 10, 64)
	resume := q.Has("since") && err == nil
	sub, err := s.host.Subscribe(tableID, viewer, since, resume)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer sub.Close()
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return
	}
	defer c.CloseNow()
	s.metrics.websockets.Add(1)
	defer s.metrics.websockets.Add(-1)
	ctx := c.CloseRead(r.Context()) // the client sends nothing; this notices when it leaves
	if sub.Snapshot != nil {
		v := s.snapshotView(sub.Snapshot)
		v.Type = "snapshot"
		if err := writeWS(ctx, c, mustJSON(v)); err != nil {
			return
		}
	}
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
			if err := c.Write(ctx, websocket.MessageText, out); err != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

func writeWS(ctx context.Context, c *websocket.Conn, data []byte) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, data)
}
