package main

// One simulated player of a load test: its stream read, its wagers placed, what it saw timed.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/table"
)

type loadRun struct {
	bases   []string // the servers players spread over (player i on bases[i mod n])
	table   string
	betting time.Duration
	client  *http.Client

	mu       sync.Mutex
	acks     []time.Duration
	delivery map[uint64][]time.Duration // round → per-player delivery delays
	settled  atomic.Int64
	maxRound atomic.Uint64
	wagers   atomic.Int64
	refused  atomic.Int64
	errors   atomic.Int64
	resumed  atomic.Int64 // streams the server closed and the player resumed
	// timing: every player is connected. A wager sent before (the table was already
	// betting while thousands of streams opened) is acknowledged and counted, not timed.
	timing   atomic.Bool
	untimed  atomic.Int64
	retried  atomic.Int64     // wager requests sent again to another server
	refusals map[string]int64 // refused wagers by error code (under mu)
}

// player is one simulated player: a stream, a wager every round, the result timed. It
// starts on server bases[at]; when that server is gone it goes on with the next, as a
// player behind a load balancer would.
func (lt *loadRun) player(ctx context.Context, at int, token string, ready chan<- struct{}) {
	var seen playerSeen
	for first := true; ctx.Err() == nil; first = false {
		base := lt.bases[at]
		// A stream the server closed (the player fell behind, or the server stopped) is
		// resumed from the last seq seen, as the pages do (web/API.md): what it replays is
		// not counted twice.
		u := strings.Replace(base, "http", "ws", 1) + "/api/tables/" + lt.table + "/stream?token=" + token
		if seen.seq > 0 {
			u += "&since=" + strconv.FormatUint(seen.seq, 10)
		}
		c, _, err := websocket.Dial(ctx, u, nil)
		if err != nil {
			if first {
				lt.errors.Add(1)
				ready <- struct{}{}
				return
			}
			at = (at + 1) % len(lt.bases) // this server is gone: the next
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if first {
			ready <- struct{}{}
			go lt.limits(ctx, at, token)
		} else {
			lt.resumed.Add(1)
		}
		lt.read(ctx, c, at, token, &seen)
		c.CloseNow()
	}
}

// limitsEvery is how often the table page reads the player's limits and session when
// nothing is due sooner (web/static/limits.js).
const limitsEvery = 20 * time.Second

// limits reads the player's limits and session as the table page does: when it opens the
// table, then every limitsEvery (at a random phase, as pages opened at different moments
// would). A server that keeps no limits answers 404, which the page, and this, take as
// nothing to show; a server gone is left for the next.
func (lt *loadRun) limits(ctx context.Context, at int, token string) {
	wait := time.Duration(0)
	for {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
		req, _ := http.NewRequestWithContext(ctx, "GET", lt.bases[at]+"/api/me/limits", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		if resp, err := lt.client.Do(req); err == nil {
			_, _ = io_Discard(resp)
		} else if ctx.Err() == nil {
			at = (at + 1) % len(lt.bases)
		}
		if wait == 0 {
			wait = limitsEvery/2 + rand.N(limitsEvery) // the next at a random phase, then every limitsEvery
		} else {
			wait = limitsEvery
		}
	}
}

// playerSeen is what a player has seen of the table, across reconnections.
type playerSeen struct {
	seq            uint64 // the last event seq
	opened, result uint64 // the last round it bet in, and whose result it timed
}

// read reads one stream until it ends.
func (lt *loadRun) read(ctx context.Context, c *websocket.Conn, at int, token string, seen *playerSeen) {
	c.SetReadLimit(1 << 22)
	// Reads carry no context: one that can be cancelled costs the library a timer of its
	// own on every read, and the load tool shares the CPU with the servers it measures.
	// The connection is closed when ctx ends instead.
	defer context.AfterFunc(ctx, func() { c.CloseNow() })()
	var buf bytes.Buffer // one buffer per stream, reused for every message
	for {
		_, rd, err := c.Reader(context.Background())
		if err != nil {
			return
		}
		buf.Reset()
		if _, err := buf.ReadFrom(rd); err != nil {
			return
		}
		got := time.Now() // a result is timed when it arrives, not after the tool has parsed it
		data := buf.Bytes()
		seen.seq = max(seen.seq, lastSeq(data))
		// Only two public events matter here; skip the rest without parsing them, so the
		// load tool spends its share of the CPU on being many clients, not on JSON.
		if !(bytes.Contains(data, []byte(`"type":"betting_opened"`)) || bytes.Contains(data, []byte(`"type":"round_settled"`))) {
			continue
		}
		for _, m := range decodeFrame(data) {
			if m.Type == "event" && m.Event != nil {
				lt.onEvent(ctx, at, token, m.Event, got, seen)
			}
		}
	}
}

// lastSeq is the largest "seq" in a frame, read without parsing it.
func lastSeq(data []byte) uint64 {
	var best uint64
	for {
		i := bytes.Index(data, []byte(`"seq":`))
		if i < 0 {
			return best
		}
		data = data[i+6:]
		var n uint64
		j := 0
		for ; j < len(data) && data[j] >= '0' && data[j] <= '9'; j++ {
			n = n*10 + uint64(data[j]-'0')
		}
		best = max(best, n)
		data = data[j:]
	}
}

type streamMsg struct {
	Type  string     `json:"type"`
	Event *loadEvent `json:"event"`
}

// loadEvent is what the load tool reads of an event: enough to bet and to time a result.
// The rest of the event (a settlement lists every wager) is skipped unparsed.
type loadEvent struct {
	Type  table.EventType `json:"type"`
	Round uint64          `json:"round"`
	At    time.Time       `json:"at"`
}

// decodeFrame reads one message or an array of them (web/API.md).
func decodeFrame(data []byte) []streamMsg {
	if len(data) > 0 && data[0] == '[' {
		var ms []streamMsg
		_ = json.Unmarshal(data, &ms)
		return ms
	}
	var m streamMsg
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return []streamMsg{m}
}

func (lt *loadRun) onEvent(ctx context.Context, at int, token string, e *loadEvent, got time.Time, seen *playerSeen) {
	switch e.Type {
	case table.EvBettingOpened:
		if e.Round <= seen.opened {
			return // replayed on a resumed stream
		}
		seen.opened = e.Round
		delay := time.Duration(rand.Int64N(int64(lt.betting / 2)))
		go lt.bet(ctx, at, token, delay)
	case table.EvRoundSettled:
		if e.Round <= seen.result {
			return
		}
		seen.result = e.Round
		d := got.Sub(e.At)
		lt.mu.Lock()
		if lt.delivery == nil {
			lt.delivery = map[uint64][]time.Duration{}
		}
		lt.delivery[e.Round] = append(lt.delivery[e.Round], d)
		lt.mu.Unlock()
		if lt.maxRound.Load() < e.Round {
			lt.maxRound.Store(e.Round)
			lt.settled.Add(1)
		}
	}
}

// bet places one wager on server bases[at] after delay, with a request id as the pages
// send: if that server fails to answer (it was killed), the same wager goes to the next
// server with the same id, and is placed once. It is timed from the first try.
func (lt *loadRun) bet(ctx context.Context, at int, token string, delay time.Duration) {
	select {
	case <-time.After(delay):
	case <-ctx.Done():
		return
	}
	body, _ := json.Marshal(map[string]any{"bet": []string{"player", "banker"}[rand.IntN(2)], "stake": 100,
		"request_id": fmt.Sprintf("%016x%016x", rand.Uint64(), rand.Uint64())})
	timed := lt.timing.Load()
	start := time.Now()
	var resp *http.Response
	for try := 0; ; try++ {
		req, _ := http.NewRequestWithContext(ctx, "POST", lt.bases[at]+"/api/tables/"+lt.table+"/wagers", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		var err error
		resp, err = lt.client.Do(req)
		if err == nil && resp.StatusCode < 500 {
			break
		}
		if err == nil {
			_, _ = io_Discard(resp) // busy: the table is moving to another server
		}
		if ctx.Err() != nil {
			return
		}
		if time.Since(start) > lt.betting { // a table moving between servers takes a lease's time
			lt.errors.Add(1)
			return
		}
		if lt.retried.Add(1); try > 0 {
			time.Sleep(200 * time.Millisecond) // not the first retry: the cluster may be moving the table
		}
		at = (at + 1) % len(lt.bases)
	}
	var refusal struct{ Code string }
	if resp.StatusCode != 200 {
		_ = json.NewDecoder(io.LimitReader(resp.Body, 4096)).Decode(&refusal)
	}
	_, _ = io_Discard(resp)
	took := time.Since(start)
	switch {
	case resp.StatusCode == 200:
		lt.wagers.Add(1)
		if !timed {
			lt.untimed.Add(1)
			break
		}
		lt.mu.Lock()
		lt.acks = append(lt.acks, took)
		lt.mu.Unlock()
	case resp.StatusCode == 409:
		lt.refused.Add(1)
		lt.mu.Lock()
		if lt.refusals == nil {
			lt.refusals = map[string]int64{}
		}
		lt.refusals[refusal.Code]++
		lt.mu.Unlock()
	default:
		lt.errors.Add(1)
	}
}

func io_Discard(resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	var buf [512]byte
	var n int64
	for {
		k, err := resp.Body.Read(buf[:])
		n += int64(k)
		if err != nil {
			return n, nil
		}
	}
}

// allResults reports whether every player has the result of the last round settled.
func (lt *loadRun) allResults(players int) bool {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	return len(lt.delivery[lt.maxRound.Load()]) >= players
}
