package web

import (
	"bufio"
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/live"
)

// recheckEvery is about how often an open stream re-reads its account, so that one disabled
// or revoked on another server is cut there too. Each stream waits between one and two
// periods, at random: thousands of streams opened together must not all read at once.
const recheckEvery = 15 * time.Second

// handleStream is a table's WebSocket: a snapshot (or, with since, what was missed), then
// every message the table publishes. A subscriber that falls behind is dropped by the host;
// its socket is closed and the page reconnects with since. Streams need a token and are
// capped per account, per address and in all (StreamLimits).
//
// The handler returns once the stream is open: an idle stream runs one goroutine, the one
// that reads the client's control frames and notices it leave. Its messages wait in the
// host's queue for it, and a writer goroutine runs only while some wait; the account check
// and the cleanup run on timers and context callbacks. Idle streams are most of a busy
// server's streams (a player between rounds, a tab left open), so what one holds is what the
// server holds per player.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request, id Identity) {
	tableID := r.PathValue("id")
	q := r.URL.Query()
	since, err := strconv.ParseUint(q.Get("since"), 10, 64)
	resume := q.Has("since") && err == nil
	// The stream outlives this request (the handler returns while it is open), so its context
	// is not the request's; cancel cuts it (the account disabled, the server shutting down).
	base, cancel := context.WithCancel(context.Background())
	t, err := s.streams.enter(id.ID, clientAddr(r), cancel)
	if err != nil {
		cancel()
		s.tooMany(w, r, 5*time.Second, err)
		return
	}
	viewer := s.viewerOf(id, tableID)
	sub, err := s.tables.Subscribe(tableID, viewer, since, resume)
	if err != nil {
		s.streams.leave(t)
		cancel()
		s.writeError(w, r, err)
		return
	}
	rc := http.NewResponseController(w) // the server's read and write deadlines are for requests, not streams
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	c, err := websocket.Accept(smallBuffers{w}, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		sub.Close()
		s.streams.leave(t)
		cancel()
		return
	}
	c.SetReadLimit(4 << 10) // the client sends nothing but control frames
	s.metrics.websockets.Add(1)
	st := &stream{s: s, c: c, sub: sub, token: id.token, base: base, sw: newStreamWriter(c)}
	ctx, left := context.WithCancel(base) // done when the client leaves, or cancel cuts the stream
	st.ctx = ctx
	go st.read(left)
	context.AfterFunc(st.ctx, func() {
		sub.Close()
		st.sw.stop()
		st.mu.Lock()
		st.ended = true
		if st.recheck != nil {
			st.recheck.Stop()
		}
		st.mu.Unlock()
		s.streams.leave(t)
		s.metrics.websockets.Add(-1)
		if base.Err() != nil { // cut by the server, not left by the client
			c.Close(websocket.StatusPolicyViolation, "the stream was closed by the server")
		}
		c.CloseNow()
		cancel()
	})
	if snap := sub.Snapshot; snap != nil {
		sub.Snapshot = nil // the stream holds no copy of the table once it has sent it
		if err := st.sw.write(st.ctx, s.snapshotView(snap, viewer).Message()); err != nil {
			c.CloseNow()
			return
		}
	}
	st.mu.Lock()
	if !st.ended {
		st.recheck = time.AfterFunc(recheckEvery+rand.N(recheckEvery), st.checkAccount)
	}
	st.mu.Unlock()
	sub.Notify(func() { go st.drain() })
	st.drain() // what came while the snapshot was written; after it, wake calls drain
}

// stream is one open table stream once its handler has returned.
type stream struct {
	s     *Server
	c     *websocket.Conn
	sub   *live.Subscription
	token string
	base  context.Context // cancelled when the server cuts the stream
	ctx   context.Context // done when the stream ends, for whatever reason
	sw    *streamWriter

	mu      sync.Mutex
	recheck *time.Timer // re-reads the account now and then
	ended   bool
}

// read is the stream's one goroutine while it is idle: it answers the client's pings and
// close (the connection does, as it reads them) and notices the client leave. A client
// sends no message on a stream: one that does is closed. It reads without a context, whose
// end would drop the connection at once: a stream the server cuts is told why first.
// (websocket.Conn.CloseRead, which does this too, waits up to 15 s for itself when it closes
// a client that sent a message.)
func (st *stream) read(left context.CancelFunc) {
	defer left()
	if _, _, err := st.c.Reader(context.Background()); err == nil {
		st.c.Close(websocket.StatusPolicyViolation, "a stream takes no messages: the client only reads it")
	}
}

// drain writes the messages waiting for the stream until none waits. The queue wakes it
// (Subscription.Notify) when messages come to an empty queue, and never twice before it has
// found the queue empty, so one drain runs at a time.
func (st *stream) drain() {
	var taken []*live.Delivery // handed back to the queue by the next Take, for the next ones
	for {
		// After a Take that finds the queue empty, another drain may start at once: this one
		// touches nothing of the stream's after it.
		ds, open := st.sub.Take(taken)
		if len(ds) == 0 {
			if !open && st.ctx.Err() == nil {
				st.c.Close(websocket.StatusTryAgainLater, "fell behind or the table stopped: reconnect with since")
			}
			return
		}
		if err := st.write(ds); err != nil {
			st.c.CloseNow()
			return
		}
		taken = ds
	}
}

// framePool holds the buffers frames are built in: a stream keeps none while it waits.
var framePool = sync.Pool{New: func() any { return new([]byte) }}

// write sends messages that waited together in one write: a lone message as it is, its
// bytes shared with every other stream; several (a result, its settlement, the balance, the
// roads) as one JSON array, built in a buffer borrowed for the write.
func (st *stream) write(ds []*live.Delivery) error {
	if len(ds) == 1 {
		return st.sw.write(st.ctx, ds[0].Data)
	}
	bp := framePool.Get().(*[]byte)
	b := append((*bp)[:0], '[')
	for i, d := range ds {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, d.Data...)
	}
	b = append(b, ']')
	err := st.sw.write(st.ctx, b)
	*bp = b
	framePool.Put(bp)
	return err
}

// checkAccount re-reads the stream's account: one disabled or revoked since is signed out.
func (st *stream) checkAccount() {
	if _, err := st.s.identify(st.ctx, st.token); err != nil {
		if st.ctx.Err() == nil {
			st.c.Close(websocket.StatusPolicyViolation, "signed out: "+err.Error())
		}
		return
	}
	st.mu.Lock()
	if !st.ended {
		st.recheck.Reset(recheckEvery + rand.N(recheckEvery))
	}
	st.mu.Unlock()
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

// streamReadBuffer and streamWriteBuffer size a stream's buffers. The client sends only
// control frames (a ping, a close: at most 125 bytes of payload each), and most messages the
// stream writes are a few hundred bytes; a larger one (a snapshot, the roads) goes out in two
// writes instead of one. The connection's own (4 KB each) would be a large share of what an
// idle stream costs, and a server holds thousands of idle streams (README, Speed).
const (
	streamReadBuffer  = 512
	streamWriteBuffer = 2 << 10
)

// smallBuffers hands websocket.Accept the hijacked connection with a stream's buffers.
type smallBuffers struct{ http.ResponseWriter }

func (w smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return conn, brw, err
	}
	if err := brw.Writer.Flush(); err != nil { // the handshake's answer, if it waits there
		conn.Close()
		return nil, nil, err
	}
	r := brw.Reader
	if r.Buffered() == 0 { // else the client wrote ahead of the handshake: keep what it sent
		r = bufio.NewReaderSize(conn, streamReadBuffer)
	}
	return conn, bufio.NewReadWriter(r, bufio.NewWriterSize(conn, streamWriteBuffer)), nil
}
