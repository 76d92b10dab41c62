package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

func init() {
	register(&command{
		name:    "loadtest",
		summary: "measure a table under many concurrent WebSocket players",
		usage: `Usage: baccarat loadtest [--players 5000] [--rounds 3] [--betting 6s] [--card 200ms] [--result 1s] [--game mbs-tournament] [--json]
       baccarat loadtest --servers URL,URL,… --admin-token T [--table load] [--players 15000] …

Starts 'baccarat serve' on 127.0.0.1 in a process of its own (as a server runs: the clients
share the machine's cores with it, not its scheduler and garbage collector) with a
temporary SQLite database and one automatic table, then connects that many players, each
with a real WebSocket and its own token. With --servers it
starts nothing: it uses running servers (a cluster), creates the players' accounts and the
table there with the admin token, and spreads the players over the servers, player i on
server i mod n; a player whose server stops goes on with the next one (its stream resumed
from the last seq it saw, a wager in flight sent again with the same request id). Every
round each player places a wager at a random moment in the first half of betting (an HTTP
POST with a request id, as the pages send, acknowledged only once durable) and waits for
the result on its stream; as the table page does, it reads its limits and session when it
opens the table and every 20 s. It reports the wager
acknowledgement latency (p50, p99, max) and how long after settlement the last
player received each result. The table deals a card every --card and starts the next
round --result after a result: faster than a table's own pace (800ms, 4s), so that a
run takes less time and every player gets more messages a second.

Ranges: --players 1 to 100000; --rounds 1 to 1000; --betting, --card and --result 1ms to
1h, as a table's schedule takes them. Ctrl-C (or SIGTERM) stops a run: the players
disconnect, the server it started stops, nothing is reported, and the exit status is 130.

Targets (on 2 cores): 5,000 players on one server, p99 acknowledgement <= 100 ms, every
result delivered to everyone within 500 ms of settlement; 15,000 players over three
servers, 150 ms and 750 ms.
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
	// Resumed counts streams the servers closed (a player fell too far behind) and the
	// player resumed from its last seq.
	Resumed int64 `json:"streams_resumed"`
	// Untimed counts the wagers acknowledged while players were still connecting: counted
	// in Wagers, left out of the acknowledgement times.
	Untimed int64 `json:"wagers_untimed"`
	// Retried counts wager requests sent again, to another server, after one failed to
	// answer (with the same request id: placed once).
	Retried int64 `json:"wager_retries"`
	// Refusals counts the refused wagers by error code (web/API.md).
	Refusals map[string]int64 `json:"refusals,omitempty"`
	// ServerAckP99ms is the server's own measure (its histogram's bucket bound): from the
	// request reaching the handler to the durable acknowledgement, without client-side queueing.
	ServerAckP99ms float64 `json:"server_ack_p99_ms"`
	// ServerAckP99Over: the p99 is beyond the histogram's last bucket, ServerAckP99ms.
	ServerAckP99Over bool `json:"server_ack_p99_over,omitempty"`
}

func runLoadtest(ctx context.Context, e *env, args []string) int {
	c := commands["loadtest"]
	fs := newFlags(e, c)
	players := fs.Int("players", 5000, "concurrent WebSocket players")
	rounds := fs.Int("rounds", 3, "rounds to measure")
	betting := fs.Duration("betting", 6*time.Second, "betting time")
	card := fs.Duration("card", 200*time.Millisecond, "time between cards (a table's own pace is 800ms)")
	result := fs.Duration("result", time.Second, "time from a result to the next round (a table's own is 4s)")
	game := fs.String("game", "mbs-tournament", "game of the table")
	asJSON := fs.Bool("json", false, "print JSON")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the load tool's own process (the players) to this file")
	serverProfile := fs.String("server-cpuprofile", "", "write a CPU profile of the server it starts to this file (not with --servers)")
	servers := fs.String("servers", "", "comma-separated base URLs of running servers to spread the players over")
	adminToken := fs.String("admin-token", os.Getenv("BACCARAT_ADMIN_TOKEN"), "an admin token of the servers (with --servers)")
	tableID := fs.String("table", "load", "the table to play at (with --servers; made if missing)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if err := checkLoadFlags(*players, *rounds, live.Schedule{Betting: *betting, Card: *card, Result: *result}); err != nil {
		return usageError(e, c.name, err)
	}
	stopProfile, err := startCPUProfile(*profile)
	if err != nil {
		fmt.Fprintf(e.stderr, "baccarat loadtest: --cpuprofile %s: %v\n", *profile, err)
		return 2
	}
	defer stopProfile()
	raiseFileLimit(*players*4 + 1000)
	var rep loadReport
	if *servers != "" {
		if *adminToken == "" {
			fmt.Fprintln(e.stderr, "baccarat loadtest: --servers needs --admin-token (or BACCARAT_ADMIN_TOKEN)")
			return 2
		}
		rep, err = loadtestRemote(ctx, e, remoteLoad{bases: strings.Split(*servers, ","), admin: *adminToken, table: *tableID,
			players: *players, rounds: *rounds, pace: live.Schedule{Betting: *betting, Card: *card, Result: *result}, game: *game})
	} else {
		rep, err = loadtest(ctx, e, *players, *rounds, live.Schedule{Betting: *betting, Card: *card, Result: *result}, *game, *serverProfile)
	}
	if err != nil {
		return failed(ctx, e, c.name, err, func() string { return "before the rounds were measured: nothing reported" })
	}
	if *asJSON {
		_ = json.NewEncoder(e.stdout).Encode(rep)
		return 0
	}
	fmt.Fprintf(e.stdout, "%d players, %d rounds, %d wagers acknowledged (%d refused, %d errors)\n", rep.Players, rep.Rounds, rep.Wagers, rep.Refused, rep.Errors)
	if rep.Untimed > 0 {
		fmt.Fprintf(e.stdout, "(%d of them placed while players were still connecting: not timed)\n", rep.Untimed)
	}
	ackTarget, resultTarget := 100, 500 // one server
	if *servers != "" && strings.Contains(*servers, ",") {
		ackTarget, resultTarget = 150, 750 // a cluster
	}
	fmt.Fprintf(e.stdout, "wager acknowledgement: p50 %.1f ms  p99 %.1f ms  max %.1f ms   (target p99 <= %d ms)\n", rep.AckP50ms, rep.AckP99ms, rep.AckMaxms, ackTarget)
	switch {
	case rep.ServerAckP99Over:
		fmt.Fprintf(e.stdout, "server-side wager acknowledgement p99 > %.0f ms (past the histogram's last bucket)\n", rep.ServerAckP99ms)
	case rep.ServerAckP99ms > 0:
		fmt.Fprintf(e.stdout, "server-side wager acknowledgement p99 <= %.0f ms (histogram bucket)\n", rep.ServerAckP99ms)
	default:
		fmt.Fprintln(e.stdout, "server-side wager acknowledgement: the servers' /metrics could not be read")
	}
	fmt.Fprintf(e.stdout, "result delivery after settlement: p99 %.1f ms  max %.1f ms  missed %d   (target max <= %d ms)\n", rep.ResultP99ms, rep.ResultMaxms, rep.ResultsMissed, resultTarget)
	for code, n := range rep.Refusals {
		fmt.Fprintf(e.stdout, "refused: %d %s\n", n, code)
	}
	if rep.Retried > 0 {
		fmt.Fprintf(e.stdout, "wager requests sent again to another server (same request id): %d\n", rep.Retried)
	}
	if rep.Resumed > 0 {
		fmt.Fprintf(e.stdout, "streams closed (the player fell behind, or its server stopped) and resumed: %d\n", rep.Resumed)
	}
	return 0
}

// The ranges of loadtest's counts: each player is a WebSocket and a few open files, on this
// machine and the server's; the rounds bound how long a run lasts.
const (
	maxLoadPlayers = 100_000
	maxLoadRounds  = 1000
)

// checkLoadFlags refuses counts and times out of their ranges (the times as a table's
// schedule takes them, live.Schedule.Check; none may be 0 here).
func checkLoadFlags(players, rounds int, pace live.Schedule) error {
	if players < 1 || players > maxLoadPlayers {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--players %d: give 1 to %d", players, maxLoadPlayers)
	}
	if rounds < 1 || rounds > maxLoadRounds {
		return baccarat.Errorf(baccarat.CodeBadRequest, "--rounds %d: give 1 to %d", rounds, maxLoadRounds)
	}
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"betting", pace.Betting}, {"card", pace.Card}, {"result", pace.Result}} {
		if f.d < live.MinScheduleTime || f.d > live.MaxScheduleTime {
			return baccarat.Errorf(baccarat.CodeBadRequest, "--%s %s: give %s to %s", f.name, f.d, live.MinScheduleTime, live.MaxScheduleTime)
		}
	}
	return nil
}

func loadtest(ctx context.Context, e *env, players, rounds int, pace live.Schedule, game, serverProfile string) (loadReport, error) {
	dir, err := os.MkdirTemp("", "baccarat-load")
	if err != nil {
		return loadReport{}, err
	}
	defer os.RemoveAll(dir)
	// Every simulated player comes from 127.0.0.1: lift the per-address caps that would
	// otherwise (rightly) stop one address opening thousands of streams and requests.
	cfg := serveConfig{Tables: []live.Spec{}, Streams: web.StreamLimits{PerToken: 8, PerAddress: players + 16, Total: players + 16}}
	b, _ := json.Marshal(cfg)
	cfgPath := filepath.Join(dir, "server.json")
	if err := os.WriteFile(cfgPath, b, 0o600); err != nil {
		return loadReport{}, err
	}
	args := []string{"serve", "--db", filepath.Join(dir, "load.db"), "--addr", "127.0.0.1:0",
		"--config", cfgPath, "--no-tournaments", "--rate-address", "1e9", "--rate-token", "1e9"}
	if serverProfile != "" {
		args = append(args, "--cpuprofile", serverProfile)
	}
	base, admin, stop, err := startChildServer(ctx, args...)
	if err != nil {
		return loadReport{}, err
	}
	defer stop()
	return loadtestRemote(ctx, e, remoteLoad{bases: []string{base}, admin: admin, table: "load", game: game,
		players: players, rounds: rounds, pace: pace})
}

// measure connects every player (player i to bases[i mod n]), plays the rounds and reports.
func (lt *loadRun) measure(ctx context.Context, e *env, toks []string, rounds int) (loadReport, error) {
	players := len(toks)
	fmt.Fprintf(e.stderr, "connecting %d WebSocket players...\n", players)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	ready := make(chan struct{}, players)
	for i := range toks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lt.player(runCtx, i%len(lt.bases), toks[i], ready)
		}()
	}
	for i := 0; i < players; i++ {
		select {
		case <-ready:
		case <-ctx.Done():
			cancel()
			wg.Wait()
			return loadReport{}, ctx.Err()
		case <-time.After(60 * time.Second):
			return loadReport{}, fmt.Errorf("only %d of %d players connected", i, players)
		}
	}
	fmt.Fprintf(e.stderr, "all connected; measuring %d rounds...\n", rounds)
	lt.timing.Store(true)
	start := lt.settled.Load()
	deadline := time.Now().Add(time.Duration(rounds+2) * (lt.betting + 10*time.Second))
	for lt.settled.Load() < start+int64(rounds)+1 && time.Now().Before(deadline) && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
	}
	// Let the last results arrive: every player's, or whatever came within 10 s (a result
	// later than that counts as missed).
	for wait := time.Now().Add(10 * time.Second); time.Now().Before(wait) && !lt.allResults(players) && ctx.Err() == nil; {
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return loadReport{}, err
	}
	rep := lt.report(players, rounds)
	rep.ServerAckP99ms, rep.ServerAckP99Over = serverP99(lt.bases...)
	return rep, nil
}

// remoteLoad is a load test against running servers.
type remoteLoad struct {
	bases              []string
	admin, table, game string
	players, rounds    int
	pace               live.Schedule // betting, card and result times
}

// loadtestRemote makes the players and the table on running servers, spreads the players
// over them, and measures as loadtest does.
func loadtestRemote(ctx context.Context, e *env, r remoteLoad) (loadReport, error) {
	// Wagers reuse a pool of connections per server; its bound keeps the tool within its
	// open-file limit when a server stops and its players' wagers go to the others.
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 3 * 512, MaxIdleConnsPerHost: 512, MaxConnsPerHost: 1024}}
	admin := func(method, base, path string, body any, out any) error {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+r.admin)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 300 {
			var eb struct{ Code, Message string }
			_ = json.NewDecoder(resp.Body).Decode(&eb)
			return fmt.Errorf("%s %s: %d %s %s", method, path, resp.StatusCode, eb.Code, eb.Message)
		}
		if out != nil {
			return json.NewDecoder(resp.Body).Decode(out)
		}
		return nil
	}
	spec := live.Spec{ID: r.table, Name: "Load", Mode: live.ModeAuto, Config: table.Config{Game: r.game, Cash: true},
		Schedule: r.pace}
	if err := admin("POST", r.bases[0], "/api/admin/tables", spec, nil); err != nil && !strings.Contains(err.Error(), "conflict") {
		return loadReport{}, err
	}
	run := fmt.Sprintf("load%x", rand.Uint32())
	fmt.Fprintf(e.stderr, "creating and crediting %d players on %d servers...\n", r.players, len(r.bases))
	toks := make([]string, r.players)
	var wg sync.WaitGroup
	var firstErr atomic.Value
	work := make(chan int)
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				base := r.bases[i%len(r.bases)]
				id := fmt.Sprintf("%s-%d", run, i)
				var acct struct{ Token string }
				err := admin("POST", base, "/api/admin/accounts", map[string]any{"id": id, "role": "player"}, &acct)
				if err == nil {
					err = admin("POST", base, "/api/admin/accounts/"+id+"/credit", map[string]any{"amount": 1_000_000_000}, nil)
				}
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
				}
				toks[i] = acct.Token
			}
		}()
	}
	for i := range toks {
		work <- i
	}
	close(work)
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return loadReport{}, err
	}
	lt := &loadRun{bases: r.bases, table: r.table, betting: r.pace.Betting, client: client}
	return lt.measure(ctx, e, toks, r.rounds)
}

func (lt *loadRun) report(players, rounds int) loadReport {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	rep := loadReport{Players: players, Rounds: rounds, Wagers: lt.wagers.Load(), Refused: lt.refused.Load(), Errors: lt.errors.Load(),
		Resumed: lt.resumed.Load(), Untimed: lt.untimed.Load(), Retried: lt.retried.Load(), Refusals: maps.Clone(lt.refusals)}
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

// serverP99 reads the servers' wager acknowledgement histograms from /metrics, adds them up
// and returns the upper bound of the bucket holding their 99th percentile, in milliseconds;
// over when only the +Inf bucket holds it (then ms is the last finite bound).
func serverP99(bases ...string) (ms float64, over bool) {
	counts := map[float64]float64{}
	var total float64
	for _, base := range bases {
		resp, err := http.Get(base + "/metrics")
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(resp.Body)
		resp.Body.Close()
		for _, line := range strings.Split(buf.String(), "\n") {
			var le string
			var n float64
			if _, err := fmt.Sscanf(line, "baccarat_wager_ack_seconds_bucket{le=%q} %g", &le, &n); err == nil {
				if le == "+Inf" {
					total += n
					continue
				}
				var v float64
				fmt.Sscanf(le, "%g", &v)
				counts[v] += n
			}
		}
	}
	les := make([]float64, 0, len(counts))
	for le := range counts {
		les = append(les, le)
	}
	slices.Sort(les)
	for _, le := range les {
		if total > 0 && counts[le] >= 0.99*total {
			return le * 1000, false
		}
	}
	if total > 0 && len(les) > 0 {
		return les[len(les)-1] * 1000, true // only +Inf holds the p99
	}
	return 0, false
}
