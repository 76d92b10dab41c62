package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/seamless/refwallet"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
	"github.com/tablehouse/baccarat/web"
)

// The chaos test: a seamless deployment against the reference operator wallet with every
// fault switched on (calls held past the client's timeout, calls failed, answers lost),
// players wagering over HTTP at three tables in three currencies, and the server killed
// with SIGKILL again and again. At the end the operator's books and ours must agree to the
// minor unit.

// chaosChild is what the parent tells the server process it starts.
type chaosChild struct {
	DB, Addr, Config, WalletURL, Secret, Log string
}

// TestChaosChild is the server process the chaos test kills: 'baccarat serve' with a
// seamless wallet, quick tables and a quick outbox. It runs only when asked to.
func TestChaosChild(t *testing.T) {
	arg := os.Getenv("BACCARAT_CHAOS_CHILD")
	if arg == "" {
		t.Skip("run by TestChaosSeamlessWallet")
	}
	var c chaosChild
	if err := json.Unmarshal([]byte(arg), &c); err != nil {
		fmt.Println("ERR", err)
		os.Exit(3)
	}
	logf, _ := os.OpenFile(c.Log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	s := &server{Addr: c.Addr, DB: c.DB, Config: c.Config, Owner: "chaos", // the restarted server takes its tables back at once, as the one SQLite process
		Log:         slog.New(slog.NewJSONHandler(logf, &slog.HandlerOptions{Level: slog.LevelWarn})),
		AddressRate: 1e6, TokenRate: 1e6, Demo: demoTournaments{Off: true},
		Operator: operatorFlags{Wallet: live.WalletSeamless, WalletURL: c.WalletURL, WalletSecret: c.Secret,
			WalletTimeout: 250 * time.Millisecond,
			Outbox: live.Outbox{Every: 50 * time.Millisecond, MinBackoff: 20 * time.Millisecond, MaxBackoff: 400 * time.Millisecond,
				Claim: 2 * time.Second, StaleDebit: 2 * time.Second}}}
	if err := s.Start(context.Background()); err != nil {
		fmt.Println("ERR", err)
		os.Exit(3)
	}
	fmt.Println("READY")
	select {}
}

// chaosSize is how big a run is: everyday, or BACCARAT_LONG=1.
type chaosSize struct {
	players, clients int
	run              time.Duration
}

func chaosSizeFromEnv() chaosSize {
	if os.Getenv("BACCARAT_LONG") != "" {
		return chaosSize{players: 24, clients: 24, run: 5 * time.Minute}
	}
	return chaosSize{players: 8, clients: 6, run: 40 * time.Second}
}

// chaosTables: three automatic tables, one per currency and game, quick rounds.
var chaosTables = []live.Spec{
	{ID: "eur-tiger", Name: "Tiger €", Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}},
	{ID: "jpy-punto", Name: "Punto banco ¥", Currency: "JPY", Config: table.Config{Game: "punto-banco"}},
	{ID: "bhd-rws", Name: "RWS BHD", Currency: "BHD", Config: table.Config{Game: "rws-no-commission", Cash: true}},
}

// chaosAck is a wager the server acknowledged.
type chaosAck struct {
	table, player, request string
	wager                  uint64
	stake                  baccarat.Money
}

type chaos struct {
	t        *testing.T
	dir      string
	child    chaosChild
	base     string
	tokens   map[string]string
	wallet   *refwallet.Server
	store    *refwallet.Store
	secret   []byte
	mu       sync.Mutex
	acks     []chaosAck
	sent     atomic.Int64
	retried  atomic.Int64
	refused  sync.Map // code → *atomic.Int64
	cmd      *exec.Cmd
	kills    int
	openings map[string]baccarat.Money
	voids    atomic.Int64
	withdraw atomic.Int64
}

func TestChaosSeamlessWallet(t *testing.T) {
	if os.Getenv("BACCARAT_CHAOS_CHILD") != "" {
		t.Skip("this is the child")
	}
	size := chaosSizeFromEnv()
	c := newChaos(t, size)
	c.start()
	c.launchPlayers(size.players)
	c.signatures()
	_ = c.wallet.SetFaults(refwallet.Faults{SlowMS: 600, SlowP: 0.04, FailP: 0.05, LoseP: 0.05})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.pit(stop)
	}()
	for i := range size.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.client(i, size.players, stop)
		}()
	}
	rng := rand.New(rand.NewPCG(3, 5))
	began := time.Now()
	for time.Since(began) < size.run {
		time.Sleep(time.Duration(1500+rng.IntN(2500)) * time.Millisecond)
		c.kill()
		c.start()
	}
	close(stop)
	wg.Wait()
	// The operator calms down; the server settles what is in play and empties its outbox.
	_ = c.wallet.SetFaults(refwallet.Faults{})
	c.kill()
	c.start()
	c.drain()
	c.kill()
	if err := c.wallet.Idle(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.check(began)
}

func newChaos(t *testing.T, size chaosSize) *chaos {
	dir := t.TempDir()
	c := &chaos{t: t, dir: dir, tokens: map[string]string{}, secret: []byte("the chaos test's shared secret!!"), openings: map[string]baccarat.Money{}}
	ctx := context.Background()
	var err error
	if c.store, err = refwallet.Open(ctx, filepath.Join(dir, "operator.db")); err != nil {
		t.Fatal(err)
	}
	if c.wallet, err = refwallet.New(c.store, refwallet.Options{Secret: c.secret, Source: refwallet.NewSource(11)}); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(c.wallet)
	t.Cleanup(func() {
		if c.cmd != nil && c.cmd.Process != nil {
			_ = c.cmd.Process.Kill()
		}
		c.wallet.Close()
		hs.Close()
		c.store.Close()
	})
	for i := range size.players {
		for _, cur := range []string{"EUR", "JPY", "BHD"} {
			p := refwallet.Player{Player: fmt.Sprintf("p%d", i), Currency: cur, Balance: 5_000_000}
			if err := c.store.SetPlayer(ctx, p); err != nil {
				t.Fatal(err)
			}
			c.openings[p.Player+"/"+cur] = p.Balance
		}
	}
	schedule := live.Schedule{Betting: time.Second, Card: 5 * time.Millisecond, Result: 40 * time.Millisecond,
		Window: 50 * time.Millisecond}
	specs := make([]live.Spec, len(chaosTables))
	for i, s := range chaosTables {
		s.Schedule = schedule
		specs[i] = s
	}
	cfg, _ := json.Marshal(serveConfig{Tables: specs})
	c.child = chaosChild{DB: filepath.Join(dir, "baccarat.db"), Addr: freeAddr(t), Config: filepath.Join(dir, "tables.json"),
		WalletURL: hs.URL, Secret: hex.EncodeToString(c.secret), Log: filepath.Join(dir, "server.log")}
	if err := os.WriteFile(c.child.Config, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	c.base = "http://" + c.child.Addr
	return c
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start runs the server process and waits until it serves.
func (c *chaos) start() {
	c.t.Helper()
	arg, _ := json.Marshal(c.child)
	for attempt := 0; ; attempt++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChaosChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "BACCARAT_CHAOS_CHILD="+string(arg))
		out, err := cmd.StdoutPipe()
		if err != nil {
			c.t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			c.t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		go func() { _, _ = io.Copy(io.Discard, out) }()
		if strings.HasPrefix(line, "READY") {
			c.cmd = cmd
			return
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if attempt == 20 { // the port or the database lock may still be held a moment after a kill
			c.t.Fatalf("the server did not start: %q", line)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (c *chaos) kill() {
	if c.cmd == nil {
		return
	}
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	_ = c.cmd.Wait()
	c.cmd = nil
	c.kills++
}

// post sends a JSON body, signed as a launch under key's launch key when key is set, as
// who ("" for no token).
func (c *chaos) post(path, who string, body any, key []byte, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.base+path, bytes.NewReader(b))
	if key != nil { // a launch, signed as the operator's backend signs it
		seamless.NewStamp(http.MethodPost, path, time.Now()).Sign(req.Header, seamless.DomainLaunch.Key(key), b)
	}
	if who != "" {
		c.mu.Lock()
		req.Header.Set("Authorization", "Bearer "+c.tokens[who])
		c.mu.Unlock()
	}
	hc := &http.Client{Timeout: 5 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		_ = json.Unmarshal(raw, out)
	}
	return resp.StatusCode, nil
}

// launchPlayers launches every player as the operator's backend does and signs them in
// through the launch code.
func (c *chaos) launchPlayers(n int) {
	for i := range n {
		p := fmt.Sprintf("p%d", i)
		var ans web.LaunchAnswer
		if code, err := c.post("/api/operator/launch", "", map[string]string{"player": p, "currency": "EUR", "table": "eur-tiger"},
			c.secret, &ans); err != nil || code != 200 {
			c.t.Fatalf("launch %s: %d %v", p, code, err)
		}
		var ex web.ExchangeAnswer
		if code, err := c.post("/api/launch", "", map[string]string{"code": ans.Code}, nil, &ex); err != nil || code != 200 {
			c.t.Fatalf("exchange %s: %d %v", p, code, err)
		}
		c.tokens[p] = ex.Token
	}
}

// signatures: a launch with a wrong signature is refused by us; a call with a wrong
// signature is refused by the operator's wallet.
func (c *chaos) signatures() {
	if code, _ := c.post("/api/operator/launch", "", map[string]string{"player": "mallory", "currency": "EUR"},
		[]byte("not the shared secret, 32 bytes!"), nil); code != 401 {
		c.t.Errorf("a launch with a wrong signature: %d, want 401", code)
	}
	body := seamless.Canonical(seamless.DebitRequest{Tx: "forged-1", Player: "p0", Currency: "EUR", Amount: 100, Table: "eur-tiger", Round: 1, Wager: 1})
	req, _ := http.NewRequest("POST", c.child.WalletURL+seamless.PathDebit, bytes.NewReader(body))
	seamless.NewStamp(http.MethodPost, seamless.PathDebit, time.Now()).Sign(req.Header, seamless.DomainWallet.Key([]byte("not the shared secret, 32 bytes!")), body)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	var e seamless.ErrorAnswer
	_ = json.NewDecoder(resp.Body).Decode(&e)
	resp.Body.Close()
	if resp.StatusCode != 401 || e.Error != seamless.CodeBadSignature {
		c.t.Errorf("a debit with a wrong signature: %d %s, want 401 bad_signature", resp.StatusCode, e.Error)
	}
	if b, _ := c.store.Balance(context.Background(), seamless.BalanceRequest{Player: "p0", Currency: "EUR"}); b != c.openings["p0/EUR"] {
		c.t.Errorf("the forged debit moved money: %d", b)
	}
}

var chaosBets = map[string][]string{
	"eur-tiger": {"player", "banker", "tie", "tiger", "small_tiger", "tiger_pair"},
	"jpy-punto": {"player", "banker", "tie", "player_pair", "banker_pair"},
	"bhd-rws":   {"banker", "player"},
}

// client wagers for random players at random tables until stop, retrying a request with
// the same id while the answer is unknown (a dropped connection, a 5xx) as a real client
// does, and recording every wager acknowledged.
func (c *chaos) client(n, players int, stop chan struct{}) {
	rng := rand.New(rand.NewPCG(uint64(n), 99))
	for k := 0; ; k++ {
		select {
		case <-stop:
			return
		default:
		}
		tb := chaosTables[rng.IntN(len(chaosTables))].ID
		bets := chaosBets[tb]
		player := fmt.Sprintf("p%d", (n+k)%players)
		if tb == "bhd-rws" {
			player = fmt.Sprintf("p%d", n%players) // RWS: one side per player and round; keep to one client's player
		}
		body := map[string]any{"bet": bets[rng.IntN(len(bets))], "stake": 101 + 100*rng.Int64N(10), "request_id": fmt.Sprintf("c%d-%d", n, k)}
		c.wager(tb, player, body, stop)
		time.Sleep(time.Duration(5+rng.IntN(30)) * time.Millisecond)
	}
}

func (c *chaos) wager(tb, player string, body map[string]any, stop chan struct{}) {
	for try := 0; try < 12; try++ {
		c.sent.Add(1)
		var out struct {
			Wager   *table.Wager
			Code    string
			Message string
		}
		status, err := c.post("/api/tables/"+tb+"/wagers", player, body, nil, &out)
		switch {
		case err == nil && status == 200 && out.Wager != nil:
			c.mu.Lock()
			// A chip on a spot the player holds raises that wager: the acknowledgement is of
			// this request's chip, debited on its own.
			c.acks = append(c.acks, chaosAck{table: tb, player: player, request: body["request_id"].(string), wager: out.Wager.ID,
				stake: baccarat.Money(body["stake"].(int64))})
			c.mu.Unlock()
			if tb != "bhd-rws" && out.Wager.ID%8 == 0 { // RWS takes no wager back during betting
				if status, err := c.post("/api/tables/"+tb+"/withdraw", player, map[string]uint64{"wager": out.Wager.ID}, nil, nil); err == nil && status == 200 {
					c.withdraw.Add(1)
				}
			}
			return
		case err == nil && status < 500 && status != 429:
			v, _ := c.refused.LoadOrStore(out.Code, new(atomic.Int64))
			v.(*atomic.Int64).Add(1)
			if out.Code == "idempotency_conflict" || out.Code == "integrity" || out.Code == "not_found" {
				c.t.Errorf("wager %v at %s: %d %s %s", body, tb, status, out.Code, out.Message)
			}
			return // a refusal took nothing: the client gives up
		}
		c.retried.Add(1) // no answer, or wallet_unavailable / busy: the same request again
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// pit voids a round at a random table now and then, as the pit does for a dealer's error:
// every stake of the round is rolled back at the operator.
func (c *chaos) pit(stop chan struct{}) {
	secret, err := os.ReadFile(c.child.DB + ".secret")
	if err != nil {
		c.t.Error(err)
		return
	}
	key, _ := hex.DecodeString(strings.TrimSpace(string(secret)))
	c.mu.Lock()
	c.tokens["admin"] = access.NewTokens(key).Issue(access.Account{ID: "admin", Role: access.RoleAdmin})
	c.mu.Unlock()
	rng := rand.New(rand.NewPCG(17, 19))
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Duration(700+rng.IntN(1500)) * time.Millisecond):
		}
		tb := chaosTables[rng.IntN(len(chaosTables))].ID
		if status, err := c.post("/api/tables/"+tb+"/commands", "admin", map[string]string{"cmd": "void", "reason": "dealer_error"}, nil, nil); err == nil && status == 200 {
			c.voids.Add(1)
		}
	}
}

// drain waits until every wager in play is settled and nothing is left to deliver.
func (c *chaos) drain() {
	deadline := time.Now().Add(90 * time.Second)
	for {
		open, unsettled := c.openCalls()
		if open == 0 && unsettled == 0 {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("after the run: %d wallet calls open, %d placed debits not closed", open, unsettled)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (c *chaos) readDB() *sqlite.DB {
	db, err := sqlite.OpenReadOnly(context.Background(), c.child.DB)
	if err != nil {
		c.t.Fatal(err)
	}
	return db
}

func (c *chaos) calls(db *sqlite.DB) []journal.WalletCall {
	rec, err := verify.Reconcile(context.Background(), db, time.Time{}, time.Time{})
	if err != nil {
		c.t.Fatal(err)
	}
	return rec.Calls
}

func (c *chaos) openCalls() (open, unsettled int) {
	db := c.readDB()
	defer db.Close()
	calls := c.calls(db)
	closed := map[string]bool{}
	for _, x := range calls {
		if x.Closes() {
			closed[x.DebitTx] = true
		}
	}
	for _, x := range calls {
		if x.State == journal.CallPending {
			open++
		}
		if x.Kind == journal.CallDebit && x.State == journal.CallPlaced && !closed[x.Tx] {
			unsettled++
		}
	}
	return open, unsettled
}
