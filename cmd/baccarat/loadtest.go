package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

func init() {
	register(&command{
		name:    "loadtest",
		summary: "measure a table under many concurrent WebSocket players",
		usage: `Usage: baccarat loadtest [--players 5000] [--rounds 3] [--betting 6s] [--game mbs-tournament] [--json]

Starts a server on 127.0.0.1 with a temporary SQLite database and one automatic table, then
connects that many players, each with a real WebSocket and its own token. Every round each
player places a wager at a random moment in the first half of betting (an HTTP POST,
acknowledged only once durable) and waits for the result on its stream. It reports the
wager acknowledgement latency (p50, p99, max) and how long after settlement the last
player received each result.

Targets (on 2 cores): 5,000 players, p99 acknowledgement <= 100 ms, every result
delivered to everyone within 500 ms of settlement.
`,
		run: runLoadtest,
	})
}

type loadReport struct {
	Players       int     `json:"players"`
	Rounds        int     `json:"rounds"`
	Wagers        int64   `json:"wagers"`
	Refused       int64   `json:"refused"`
	Errors        int64   `json:"errors"`
	AckP50ms      float64 `json:"ack_p50_ms"`
	AckP99ms      float64 `json:"ack_p99_ms"`
	AckMaxms      float64 `json:"ack_max_ms"`
	ResultP99ms   float64 `json:"result_delivery_p99_ms"`
	ResultMaxms   float64 `json:"result_delivery_max_ms"`
	ResultsMissed int64   `json:"results_missed"`
	// ServerAckP99ms is the server's own measure (its histogram's bucket bound): from the
	// request reaching the handler to the durable acknowledgement, without client-side queueing.
	ServerAckP99ms float64 `json:"server_ack_p99_ms"`
}

func runLoadtest(ctx context.Context, e *env, args []string) int {
	c := commands["loadtest"]
	fs := newFlags(e, c)
	players := fs.Int("players", 5000, "concurrent WebSocket players")
	rounds := fs.Int("rounds", 3, "rounds to measure")
	betting := fs.Duration("betting", 6*time.Second, "betting time")
	game := fs.String("game", "mbs-tournament", "game of the table")
	asJSON := fs.Bool("json", false, "print JSON")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintf(e.stderr, "baccarat loadtest: --cpuprofile %s: %v\n", *profile, err)
			return 2
		}
		defer f.Close()
		_ = pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	raiseFileLimit(*players*4 + 1000)
	rep, err := loadtest(ctx, e, *players, *rounds, *betting, *game)
	if err != nil {
		return fail(e, c.name, err)
	}
	if *asJSON {
		_ = json.NewEncoder(e.stdout).Encode(rep)
		return 0
	}
	fmt.Fprintf(e.stdout, "%d players, %d rounds, %d wagers acknowledged (%d refused, %d errors)\n", rep.Players, rep.Rounds, rep.Wagers, rep.Refused, rep.Errors)
	fmt.Fprintf(e.stdout, "wager acknowledgement: p50 %.1f ms  p99 %.1f ms  max %.1f ms   (target p99 <= 100 ms)\n", rep.AckP50ms, rep.AckP99ms, rep.AckMaxms)
	fmt.Fprintf(e.stdout, "server-side wager acknowledgement p99 <= %.0f ms (histogram bucket)\n", rep.ServerAckP99ms)
	fmt.Fprintf(e.stdout, "result delivery after settlement: p99 %.1f ms  max %.1f ms  missed %d   (target max <= 500 ms)\n", rep.ResultP99ms, rep.ResultMaxms, rep.ResultsMissed)
	return 0
}

func raiseFileLimit(n int) {
	var l syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l) == nil && l.Cur < uint64(n) {
		l.Cur = min(uint64(n), l.Max)
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l)
	}
}

func loadtest(ctx context.Context, e *env, players, rounds int, betting time.Duration, game string) (loadReport, error) {
	dir, err := os.MkdirTemp("", "baccarat-load")
	if err != nil {
		return loadReport{}, err
	}
	defer os.RemoveAll(dir)
	// Every simulated player comes from 127.0.0.1: lift the per-address caps that would
	// otherwise (rightly) stop one address opening thousands of streams.
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "load.db"), AddressRate: 1e9,
		Streams: web.StreamLimits{PerAddress: players + 16, Total: players + 16}}
	cfgPath := filepath.Join(dir, "tables.json")
	spec := live.Spec{ID: "load", Name: "Load", Mode: live.ModeAuto, Config: table.Config{Game: game},
		Schedule: live.Schedule{Betting: betting, Card: 200 * time.Millisecond, Result: time.Second}}
	b, _ := json.Marshal(serveConfig{Tables: []live.Spec{spec}})
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		return loadReport{}, err
	}
	s.Config = cfgPath
	if err := s.Start(ctx); err != nil {
		return loadReport{}, err
	}
	defer s.Close()
	secret, _ := s.secret()
	tokens := access.NewTokens(secret)
	fmt.Fprintf(e.stderr, "crediting %d players...\n", players)
	toks := make([]string, players)
	for i := range toks {
		a := access.Account{ID: fmt.Sprintf("p%d", i), Role: access.RolePlayer, Created: time.Now().UTC()}
		if err := s.store.CreateAccount(ctx, a); err != nil {
			return loadReport{}, err
		}
		if err := s.host.Credit(ctx, "load-"+a.ID, a.ID, live.PlayMoney, 1_000_000_000); err != nil {
			return loadReport{}, err
		}
		toks[i] = tokens.Issue(a)
	}
	lt := &loadRun{base: s.web.URL(), betting: betting, client: &http.Client{Transport: &http.Transport{
		MaxIdleConns: players, MaxIdleConnsPerHost: players, MaxConnsPerHost: 0}}}
	fmt.Fprintf(e.stderr, "connecting %d WebSocket players...\n", players)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	ready := make(chan struct{}, players)
	for i := range toks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lt.player(runCtx, toks[i], ready)
		}()
	}
	for i := 0; i < players; i++ {
		select {
		case <-ready:
		case <-time.After(60 * time.Second):
			return loadReport{}, fmt.Errorf("only %d of %d players connected", i, players)
		}
	}
	fmt.Fprintf(e.stderr, "all connected; measuring %d rounds...\n", rounds)
	start := lt.settled.Load()
	deadline := time.Now().Add(time.Duration(rounds+2) * (betting + 10*time.Second))
	for lt.settled.Load() < start+int64(rounds)+1 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second) // let the last results arrive
	cancel()
	wg.Wait()
	rep := lt.report(players, rounds)
	rep.ServerAckP99ms = serverP99(lt.base)
	return rep, nil
}

type loadRun struct {
	base    string
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
}

// player is one simulated player: a stream, a wager every round, the result timed.
func (lt *loadRun) player(ctx context.Context, token string, ready chan<- struct{}) {
	url := strings.Replace(lt.base, "http", "ws", 1) + "/api/tables/load/stream?token=" + token
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		lt.errors.Add(1)
		ready <- struct{}{}
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(1 << 22)
	ready <- struct{}{}
	var buf bytes.Buffer // one buffer per player, reused for every message
	for {
		_, rd, err := c.Reader(ctx)
		if err != nil {
			return
		}
		buf.Reset()
		if _, err := buf.ReadFrom(rd); err != nil {
			return
		}
		data := buf.Bytes()
		// Only two public events matter here; skip the rest without parsing them, so the
		// load tool spends its share of the CPU on being many clients, not on JSON.
		if !(bytes.Contains(data, []byte(`"type":"betting_opened"`)) || bytes.Contains(data, []byte(`"type":"round_settled"`))) {
			continue
		}
		for _, m := range decodeFrame(data) {
			if m.Type == "event" && m.Event != nil {
				lt.onEvent(ctx, token, m.Event)
			}
		}
	}
}

type streamMsg struct {
	Type  string       `json:"type"`
	Event *table.Event `json:"event"`
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

func (lt *loadRun) onEvent(ctx context.Context, token string, e *table.Event) {
	switch e.Type {
	case table.EvBettingOpened:
		delay := time.Duration(rand.Int64N(int64(lt.betting / 2)))
		go lt.bet(ctx, token, delay)
	case table.EvRoundSettled:
		d := time.Since(e.At)
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

func (lt *loadRun) bet(ctx context.Context, token string, delay time.Duration) {
	select {
	case <-time.After(delay):
	case <-ctx.Done():
		return
	}
	body, _ := json.Marshal(map[string]any{"bet": []string{"player", "banker"}[rand.IntN(2)], "stake": 100})
	req, _ := http.NewRequestWithContext(ctx, "POST", lt.base+"/api/tables/load/wagers", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	start := time.Now()
	resp, err := lt.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			lt.errors.Add(1)
		}
		return
	}
	_, _ = io_Discard(resp)
	took := time.Since(start)
	switch {
	case resp.StatusCode == 200:
		lt.wagers.Add(1)
		lt.mu.Lock()
		lt.acks = append(lt.acks, took)
		lt.mu.Unlock()
	case resp.StatusCode == 409:
		lt.refused.Add(1)
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

func (lt *loadRun) report(players, rounds int) loadReport {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	rep := loadReport{Players: players, Rounds: rounds, Wagers: lt.wagers.Load(), Refused: lt.refused.Load(), Errors: lt.errors.Load()}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	if n := len(lt.acks); n > 0 {
		slices.Sort(lt.acks)
		rep.AckP50ms, rep.AckP99ms, rep.AckMaxms = ms(lt.acks[n/2]), ms(lt.acks[n*99/100]), ms(lt.acks[n-1])
	}
	var all []time.Duration
	for round, ds := range lt.delivery {
		if round == 1 { // the first round may have started before every player connected
			continue
		}
		all = append(all, ds...)
		rep.ResultsMissed += int64(players - len(ds))
	}
	if n := len(all); n > 0 {
		slices.Sort(all)
		rep.ResultP99ms, rep.ResultMaxms = ms(all[n*99/100]), ms(all[n-1])
	}
	return rep
}

// serverP99 reads the server's wager acknowledgement histogram from /metrics and returns
// the upper bound of the bucket holding its 99th percentile, in milliseconds.
func serverP99(base string) float64 {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	type bucket struct {
		le    float64
		count float64
	}
	var bs []bucket
	var total float64
	for _, line := range strings.Split(buf.String(), "\n") {
		var le string
		var n float64
		if _, err := fmt.Sscanf(line, "baccarat_wager_ack_seconds_bucket{le=%q} %g", &le, &n); err == nil {
			if le == "+Inf" {
				total = n
				continue
			}
			var v float64
			fmt.Sscanf(le, "%g", &v)
			bs = append(bs, bucket{v, n})
		}
	}
	for _, b := range bs {
		if total > 0 && b.count >= 0.99*total {
			return b.le * 1000
		}
	}
	return 0
}
