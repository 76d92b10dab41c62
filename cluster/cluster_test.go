package cluster_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/cluster"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/postgres"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// The cluster tests need a real PostgreSQL (BACCARAT_TEST_POSTGRES) and a real NATS server
// (BACCARAT_TEST_NATS); .ci/run sets both and each skips cleanly without them.

func needServices(t *testing.T) (pg, nats string) {
	t.Helper()
	pg, nats = os.Getenv("BACCARAT_TEST_POSTGRES"), os.Getenv("BACCARAT_TEST_NATS")
	if pg == "" || nats == "" {
		t.Skip("BACCARAT_TEST_POSTGRES and BACCARAT_TEST_NATS are needed")
	}
	return pg, nats
}

// server is one baccarat server of a test cluster: its own database pool, host and node.
type server struct {
	name     string
	db       *postgres.DB
	host     *live.Host
	node     *cluster.Node
	accounts *access.Cache
}

// startCluster starts n servers sharing a fresh PostgreSQL schema, joined over NATS under a
// prefix of their own.
func startCluster(t *testing.T, n int) []*server {
	t.Helper()
	dsn, url := needServices(t)
	ctx := context.Background()
	schema := fmt.Sprintf("cluster_%016x", rand.Uint64())
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	admin.Close(ctx)
	t.Cleanup(func() {
		if c, err := pgx.Connect(ctx, dsn); err == nil {
			_, _ = c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			c.Close(ctx)
		}
	})
	var out []*server
	for i := range n {
		cfg, _ := pgx.ParseConfig(dsn)
		cfg.RuntimeParams["search_path"] = schema
		db, err := postgres.OpenConfig(ctx, cfg, 4)
		if err != nil {
			t.Fatal(err)
		}
		s := &server{name: fmt.Sprintf("s%d", i), db: db}
		s.accounts = access.NewCache(db, time.Hour, func(id string) { s.node.AccountChanged(id) })
		s.host = live.New(live.Options{Store: db, Owner: s.name, LeaseTTL: 2 * time.Second, Shuffle: shuffle(uint64(i + 1))})
		if s.node, err = cluster.Connect(s.host, cluster.Options{URL: url, Prefix: schema, Secret: testSecret, Leases: db, LobbyEvery: 200 * time.Millisecond,
			Accounts: s.accounts}); err != nil {
			t.Fatal(err)
		}
		if err := s.host.Open(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.host.Close(); s.node.Close(); db.Close() })
		out = append(out, s)
	}
	return out
}

func shuffle(seed uint64) func(int) ([]baccarat.Card, []byte) {
	var mu sync.Mutex
	src := baccarat.SeededSource(seed)
	return func(decks int) ([]baccarat.Card, []byte) {
		mu.Lock()
		defer mu.Unlock()
		s := baccarat.NewShoe(decks)
		s.Shuffle(src)
		return s.Order(), baccarat.NewSalt(src)
	}
}

// collector reads a stream and keeps every table event's seq, in the order received.
type collector struct {
	mu   sync.Mutex
	seqs []uint64
	dups int
	last uint64
}

func collect(t *testing.T, sub *live.Subscription) *collector {
	c := &collector{}
	if sub.Snapshot != nil {
		c.last = sub.Snapshot.State.Seq
	}
	go func() {
		for d := range sub.C {
			var m struct {
				Type string `json:"type"`
				Seq  uint64 `json:"seq"`
			}
			if json.Unmarshal(d.Data, &m) != nil || (m.Type != "event" && m.Type != "mine") || m.Seq == 0 {
				continue
			}
			c.mu.Lock()
			if m.Seq == c.last && m.Type == "mine" { // a settlement: the result, then the player's own copy
				c.mu.Unlock()
				continue
			}
			c.mu.Unlock()
			c.mu.Lock()
			if m.Seq <= c.last {
				c.dups++
			} else {
				c.seqs = append(c.seqs, m.Seq)
				c.last = m.Seq
			}
			c.mu.Unlock()
		}
	}()
	return c
}

// TestAnyServerServesAnyTable: a wager through server B on a table server A runs is placed
// once, even when retried through server C with the same request id; a stream on C sees
// every event of the table, in order; when A dies, another server takes the table over and
// the streams on B and C go on without a gap or a duplicate.
func TestAnyServerServesAnyTable(t *testing.T) {
	ss := startCluster(t, 3)
	a, b, c := ss[0], ss[1], ss[2]
	ctx := context.Background()
	if err := a.host.Create(ctx, live.Spec{ID: "t1", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tournament"}}); err != nil {
		t.Fatal(err)
	}
	if err := b.host.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	// Ann watches on B and on C: she sees every event, her own wagers included.
	subB, err := b.host.Subscribe("t1", "ann", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	subC, err := c.host.Subscribe("t1", "ann", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	onB, onC := collect(t, subB), collect(t, subC)
	dealer := table.Header{Actor: "d", Role: table.RoleDealer}
	must := func(s *server, cmd table.Command) *live.Result {
		t.Helper()
		res, err := s.host.Submit(ctx, "t1", cmd)
		if err != nil {
			t.Fatalf("%s through %s: %v", cmd.Kind(), s.name, err)
		}
		return res
	}
	must(b, &table.NewShoe{Header: dealer})
	must(c, &table.Open{Header: dealer})
	place := func() *table.Place {
		return &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "banker", Stake: 1000, RequestID: "r-1"}
	}
	first := must(b, place())
	again := must(c, place())
	if first.Wager == nil || again.Wager == nil || again.Wager.ID != first.Wager.ID {
		t.Fatalf("the same request id through B then C: %+v then %+v", first.Wager, again.Wager)
	}
	if bal, err := c.host.Balance(ctx, "ann", live.PlayMoney); err != nil || bal != 99_000 {
		t.Fatalf("ann's balance as C sees it: %d, %v; want 99000 (one wager)", bal, err)
	}
	must(a, &table.Close{Header: dealer})
	for _, k := range []string{"9h", "Kd", "Qc", "2s"} {
		card := baccarat.MustParseCard(k)
		must(c, &table.Card{Header: dealer, Card: &card})
	}
	if len(c.host.Tables(ctx)) == 0 || c.host.Tables(ctx)[0].Owner != "s0" {
		time.Sleep(500 * time.Millisecond)
		if ts := c.host.Tables(ctx); len(ts) != 1 || ts[0].Owner != "s0" {
			t.Fatalf("C's lobby: %+v, want t1 run by s0", ts)
		}
	}
	// A dies in the middle of the next round.
	must(b, &table.Open{Header: dealer})
	must(b, place2())
	a.host.Abandon()
	a.node.Close()
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, err := b.host.Submit(ctx, "t1", &table.Resume{Header: dealer})
		if err == nil || baccarat.ErrorCode(err) == baccarat.CodeBadState {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nobody took the table over: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	must(c, &table.Close{Header: dealer})
	for _, k := range []string{"4h", "5d", "4c", "5s"} {
		card := baccarat.MustParseCard(k)
		must(b, &table.Card{Header: dealer, Card: &card})
	}
	head, _ := b.db.Head(ctx, "t1")
	last := head.Seq - 1 // event seq: the journal's first record is the table's spec
	waitFor(t, func() bool { return onB.at() >= last && onC.at() >= last })
	for name, col := range map[string]*collector{"B": onB, "C": onC} {
		col.mu.Lock()
		if col.dups != 0 || !contiguous(col.seqs) || col.seqs[len(col.seqs)-1] != last {
			t.Errorf("the stream on %s: %d duplicates, events %v, want 1..%d without a gap", name, col.dups, col.seqs, last)
		}
		col.mu.Unlock()
	}
	if err := b.db.Check(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Database(ctx, b.db, time.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

func place2() *table.Place {
	return &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "player", Stake: 500, RequestID: "r-2"}
}

func (c *collector) at() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.seqs) == 0 {
		return 0
	}
	return c.seqs[len(c.seqs)-1]
}

func contiguous(seqs []uint64) bool {
	if len(seqs) == 0 {
		return false
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			return false
		}
	}
	return true
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestOneWalletOnTwoServers: two servers credit and spend one wallet at once, at two tables
// each runs: the database refuses every overdraft, and every balance either shows is right.
// An account changed on one server (disabled, its tokens revoked) is changed for every
// server's cache before the change is answered: the next request anywhere sees it.
func TestAnAccountChangedOnOneServerIsChangedOnEvery(t *testing.T) {
	ss := startCluster(t, 3)
	ctx := context.Background()
	if err := ss[0].accounts.CreateAccount(ctx, access.Account{ID: "ann", Role: access.RolePlayer, Created: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	for _, s := range ss { // every server has read ann, and keeps her
		if a, err := s.accounts.Account(ctx, "ann"); err != nil || a.Disabled {
			t.Fatalf("%s: %+v %v", s.name, a, err)
		}
	}
	for round, change := range []func(*access.Account) error{
		func(a *access.Account) error { a.Disabled = true; return nil },
		func(a *access.Account) error { a.Disabled = false; a.Epoch++; return nil },
	} {
		by := ss[round%len(ss)]
		want, err := by.accounts.UpdateAccount(ctx, "ann", change)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			deadline := time.Now().Add(2 * time.Second)
			for {
				a, err := s.accounts.Account(ctx, "ann")
				if err == nil && a.Disabled == want.Disabled && a.Epoch == want.Epoch {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("change %d made on %s: %s still shows %+v (%v)", round, by.name, s.name, a, err)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
}

func TestOneWalletOnTwoServers(t *testing.T) {
	ss := startCluster(t, 2)
	ctx := context.Background()
	for i, s := range ss {
		id := fmt.Sprintf("t%d", i)
		if err := s.host.Create(ctx, live.Spec{ID: id, Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tournament"}}); err != nil {
			t.Fatal(err)
		}
		for _, c := range []table.Command{&table.NewShoe{}, &table.Open{}} {
			if _, err := s.host.Submit(ctx, id, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := ss[0].host.Credit(ctx, "start", "ann", live.PlayMoney, 10_000); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	placed := map[string]baccarat.Money{}
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 40; k++ {
				if k%10 == 0 {
					_ = s.host.Credit(ctx, fmt.Sprintf("top-%d-%d", i, k), "ann", live.PlayMoney, 500)
				}
				p := &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "banker",
					Stake: 700, RequestID: fmt.Sprintf("w-%d-%d", i, k)}
				if res, err := s.host.Submit(ctx, fmt.Sprintf("t%d", i), p); err == nil && res.Wager != nil {
					mu.Lock()
					placed[p.RequestID] = p.Stake // a chip on a held spot raises it by its stake
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	var staked baccarat.Money
	for _, v := range placed {
		staked += v
	}
	want := baccarat.Money(10_000+2*4*500) - staked
	wallet, err := ss[0].db.Balance(ctx, ledger.Wallet("ann", live.PlayMoney))
	if err != nil || wallet != want || wallet < 0 {
		t.Fatalf("the wallet holds %d (%v); credits less the %d wagers placed leave %d", wallet, err, len(placed), want)
	}
	for _, s := range ss {
		if bal, err := s.host.Balance(ctx, "ann", live.PlayMoney); err != nil || bal != want {
			t.Errorf("%s shows %d (%v), the database %d", s.name, bal, err, want)
		}
	}
	keys := make([]string, 0, len(placed))
	for k := range placed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if err := ss[1].db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

// testSecret is the test clusters' shared secret.
var testSecret = []byte("the test cluster's shared secret")
