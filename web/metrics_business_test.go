package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/web"
)

// sample is the value of the sample name{labels} in an exposition (labels as name, value
// pairs, in any order), and whether there is one.
func sample(text, name string, labels ...string) (float64, bool) {
	var pairs []string
	for i := 0; i+1 < len(labels); i += 2 {
		pairs = append(pairs, labels[i]+"="+strconv.Quote(labels[i+1]))
	}
	slices.Sort(pairs) // the exposition sorts labels by name
	prefix := name + " "
	if len(pairs) > 0 {
		prefix = name + "{" + strings.Join(pairs, ",") + "} "
	}
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			f, err := strconv.ParseFloat(v, 64)
			return f, err == nil
		}
	}
	return 0, false
}

// wantSamples checks each sample's exact value; a missing one is an error.
func wantSamples(t *testing.T, text string, want []wantSample) {
	t.Helper()
	for _, w := range want {
		got, ok := sample(text, w.name, w.labels...)
		if !ok || got != w.value {
			t.Errorf("%s%v = %v (present %v), want %v", w.name, w.labels, got, ok, w.value)
		}
	}
}

type wantSample struct {
	name   string
	labels []string
	value  float64
}

func at(tableID, game, currency string) []string {
	return []string{"table", tableID, "game", game, "currency", currency}
}

// TestMetricsBusinessFigures: after wagers at three tables, one round settled, one voided and
// one under way, and a tournament's registrations, /metrics has each table's wagers, stakes,
// returns and takings exactly, by table, game and currency; the takings are what the
// settlement posted to the house's account.
func TestMetricsBusinessFigures(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.create(live.Spec{ID: "eur", Name: "Tiger €", Mode: live.ModeDealer, Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}})
	if err := f.host.Credit(ctx, "c-ann-eur", "ann", "EUR", 50_000); err != nil {
		t.Fatal(err)
	}
	house := func() baccarat.Money {
		b, err := f.db.Balance(ctx, ledger.House(live.PlayMoney))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	houseBefore := house()
	wager := func(who, tableID, bet string, stake baccarat.Money) {
		t.Helper()
		id := fmt.Sprintf("%s-%s-%s", who, tableID, bet)
		if code := f.do(who, "POST", "/api/tables/"+tableID+"/wagers", map[string]any{"bet": bet, "stake": stake, "request_id": id}, nil); code != 200 {
			t.Fatalf("%s's %s wager at %s: %d", who, bet, tableID, code)
		}
	}
	for _, id := range []string{"tiger", "rws", "eur"} {
		f.command(id, map[string]any{"cmd": "new_shoe"})
		f.command(id, map[string]any{"cmd": "open"})
	}
	wager("ann", "tiger", "banker", 1000)
	wager("ann", "tiger", "tie", 100)
	wager("bob", "tiger", "player", 3000)
	f.dealer("tiger", map[string]any{"cmd": "close"})
	f.cards("tiger", "2h", "9c", "3d", "Kd") // Player 5, Banker a natural 9: banker 1:1, player and tie lose
	wager("bob", "rws", "banker", 500)
	if code := f.do("pit", "POST", "/api/tables/rws/commands", map[string]any{"cmd": "void", "reason": "dealer_error"}, nil); code != 200 {
		t.Fatalf("the pit voids the round: %d", code)
	}
	wager("ann", "eur", "banker", 700) // in play

	text := scrape(t, f)
	tiger, rws, eur := at("tiger", "mbs-tiger", "XXX"), at("rws", "rws-no-commission", "XXX"), at("eur", "mbs-tiger", "EUR")
	wantSamples(t, text, []wantSample{
		{"baccarat_wagers_placed_total", tiger, 3},
		{"baccarat_stakes_placed_minor_total", tiger, 4100},
		{"baccarat_rounds_settled_total", tiger, 1},
		{"baccarat_rounds_voided_total", tiger, 0},
		{"baccarat_stakes_settled_minor_total", tiger, 4100},
		{"baccarat_returned_minor_total", tiger, 2000},
		{"baccarat_stakes_refunded_minor_total", tiger, 0},

		{"baccarat_wagers_placed_total", rws, 1},
		{"baccarat_stakes_placed_minor_total", rws, 500},
		{"baccarat_rounds_settled_total", rws, 0},
		{"baccarat_rounds_voided_total", rws, 1},
		{"baccarat_stakes_settled_minor_total", rws, 0},
		{"baccarat_returned_minor_total", rws, 0},
		{"baccarat_stakes_refunded_minor_total", rws, 500},

		{"baccarat_wagers_placed_total", eur, 1},
		{"baccarat_stakes_placed_minor_total", eur, 700},
		{"baccarat_stakes_settled_minor_total", eur, 0},
		{"baccarat_returned_minor_total", eur, 0},
	})
	// The takings are stakes settled − returned, by currency: what the house's account gained.
	settled, _ := sample(text, "baccarat_stakes_settled_minor_total", tiger...)
	returned, _ := sample(text, "baccarat_returned_minor_total", tiger...)
	if takings, books := baccarat.Money(settled-returned), house()-houseBefore; takings != 2100 || takings != books {
		t.Errorf("takings %d, the house's account moved %d; want 2100 both", takings, books)
	}
	if t.Failed() {
		t.Log(text)
	}
}

// TestMetricsTournamentFigures: registrations, withdrawals and their fees are counted by the
// tournament's game and currency; entrants and the pool of a tournament not yet ended are read
// when scraped; each lease taken is counted.
func TestMetricsTournamentFigures(t *testing.T) {
	f := newFixture(t)
	if code := f.do("admin", "POST", "/api/admin/tournaments", cupSpec(), nil); code != 201 {
		t.Fatalf("creating the tournament: %d", code)
	}
	waitPhase(t, f, "registering")
	for _, c := range []struct{ who, action string }{{"ann", "register"}, {"bob", "register"}, {"bob", "unregister"}} {
		if code := f.do(c.who, "POST", "/api/tournaments/cup/"+c.action, nil, nil); code != 200 {
			t.Fatalf("%s %ss: %d", c.who, c.action, code)
		}
	}
	text := scrape(t, f)
	dragon := []string{"game", "mbs-dragon", "currency", "XXX"}
	registering := append(slices.Clone(dragon), "phase", "registering")
	wantSamples(t, text, []wantSample{
		{"baccarat_tournament_registrations_total", dragon, 2},
		{"baccarat_tournament_unregistrations_total", dragon, 1},
		{"baccarat_tournament_fees_minor_total", dragon, 5000},
		{"baccarat_tournament_refunds_minor_total", dragon, 2500},
		{"baccarat_tournament_prizes_minor_total", dragon, 0},
		{"baccarat_tournaments_ended_total", append(slices.Clone(dragon), "outcome", "finished"), 0},
		{"baccarat_tournament_entrants", append(slices.Clone(registering), "entrant", "player"), 1},
		{"baccarat_tournament_entrants", append(slices.Clone(registering), "entrant", "bot"), 0},
		{"baccarat_tournament_pool_minor", registering, 2500},
		// The fixture's two tables and the tournament's journal.
		{"baccarat_lease_changes_total", []string{"lease", "held"}, 3},
		{"baccarat_lease_changes_total", []string{"lease", "released"}, 0},
		{"baccarat_ready", nil, 1},
	})
	if t.Failed() {
		t.Log(text)
	}
}

// TestMetricsTournamentTablesShareSeries: a tournament's session tables, which come and go,
// are counted together by game, in chips, so their ids never become labels; a table's
// counters outlive its lease (a table taken up again counts on).
func TestMetricsTournamentTablesShareSeries(t *testing.T) {
	f := newFixture(t)
	placed := func(stake baccarat.Money) []table.Event {
		return []table.Event{{Type: table.EvWagerPlaced, Wager: &table.Wager{Player: "ann", Bet: "banker", Stake: stake}}}
	}
	session := func(id string, n int) *live.Spec {
		return &live.Spec{ID: id, Mode: live.ModeAuto, Currency: ledger.Chips("cup"), Config: table.Config{Game: "mbs-tournament"},
			Tournament: &tabletop.Session{Tournament: "cup", Round: 1, Table: n, Session: 1}}
	}
	one, two := session("cup-r1-t1-s1", 1), session("cup-r1-t2-s1", 2)
	cash := &live.Spec{ID: "tiger", Mode: live.ModeDealer, Currency: live.PlayMoney, Config: table.Config{Game: "mbs-tiger"}}
	f.metrics.TableCommitted(one, placed(100))
	f.metrics.TableCommitted(two, placed(200))
	f.metrics.TableCommitted(cash, placed(5))
	f.metrics.LeaseChanged(one.ID, false)
	f.metrics.LeaseChanged(cash.ID, false)
	again := *one
	f.metrics.TableCommitted(&again, placed(50))
	f.metrics.TableCommitted(cash, placed(7))
	text := scrape(t, f)
	wantSamples(t, text, []wantSample{
		{"baccarat_stakes_placed_minor_total", at("(tournament)", "mbs-tournament", "chips"), 350},
		{"baccarat_wagers_placed_total", at("(tournament)", "mbs-tournament", "chips"), 3},
		{"baccarat_stakes_placed_minor_total", at("tiger", "mbs-tiger", "XXX"), 12},
		{"baccarat_lease_changes_total", []string{"lease", "released"}, 2},
	})
	if strings.Contains(text, `table="cup-`) {
		t.Error("a session table's id is a label")
	}
}

// TestMetricsCountLogs: the records a logger writes are counted by level.
func TestMetricsCountLogs(t *testing.T) {
	f := newFixture(t)
	log := slog.New(f.metrics.CountLogs(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo})))
	log.Debug("not written: below the handler's level")
	log.Info("one")
	log.With("table", "tiger").WithGroup("g").Error("two")
	log.Log(context.Background(), slog.LevelError+2, "three")
	log.Warn("four")
	wantSamples(t, scrape(t, f), []wantSample{
		{"baccarat_log_messages_total", []string{"level", "DEBUG"}, 0},
		{"baccarat_log_messages_total", []string{"level", "INFO"}, 1},
		{"baccarat_log_messages_total", []string{"level", "WARN"}, 1},
		{"baccarat_log_messages_total", []string{"level", "ERROR"}, 2},
	})
}

// fakeClock is a clock a test moves; safe to read from any goroutine.
type fakeClock struct{ ns atomic.Int64 }

func (c *fakeClock) now() time.Time            { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) add(d time.Duration)       { c.ns.Add(int64(d)) }
func newFakeClock(at time.Time) *fakeClock     { c := &fakeClock{}; c.ns.Store(at.UnixNano()); return c }
func (c *fakeClock) since(t time.Time) float64 { return c.now().Sub(t).Seconds() }

// metricsServer is a server on a new database whose metrics judge by clock, with the
// operator's wallet op (nil: none); the host is opened only without one (so no deliverer
// sends the outbox a test writes).
func metricsServer(t *testing.T, clock *fakeClock, op live.Operator) (*live.Host, *sqlite.DB, string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "metrics.db"))
	if err != nil {
		t.Fatal(err)
	}
	m := web.NewMetrics()
	m.Now = clock.now
	host := live.New(live.Options{Store: db, Owner: "test", Observer: m, Operator: op})
	if op == nil {
		if err := host.Open(ctx); err != nil {
			t.Fatal(err)
		}
	}
	srv := web.New(web.Options{Host: host, Books: db, Accounts: db})
	srv.UseMetrics(m)
	if err := srv.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Shutdown(ctx)
		host.Close()
		db.Close()
	})
	return host, db, srv.URL()
}

// TestMetricsStalledTable: an automatic table whose journal has not moved for longer than its
// schedule allows (verify's rule: its longest step and 30 s) is stalled; one that moves is
// not again; a dealer's table is not judged.
func TestMetricsStalledTable(t *testing.T) {
	clock := newFakeClock(time.Now())
	start := clock.now()
	host, _, url := metricsServer(t, clock, nil)
	ctx := context.Background()
	for _, spec := range []live.Spec{
		{ID: "slow", Name: "Slow", Mode: live.ModeAuto, Schedule: live.Schedule{Betting: time.Hour}, Config: table.Config{Game: "mbs-tiger"}},
		{ID: "dealt", Name: "Dealt", Mode: live.ModeDealer, Config: table.Config{Game: "mbs-tiger"}},
	} {
		if err := host.Create(ctx, spec); err != nil {
			t.Fatal(err)
		}
	}
	if err := host.Credit(ctx, "c-ann", "ann", live.PlayMoney, 10_000); err != nil {
		t.Fatal(err)
	}
	// Betting opens for an hour at once: the table waits, its journal still.
	waitFor(t, "betting to open at slow", func() bool {
		s, err := host.Snapshot("slow", "")
		return err == nil && s.State.BetOpen
	})
	allowed := time.Hour + 30*time.Second
	stalled := func(want float64) {
		t.Helper()
		text := scrapeURL(t, url)
		if got, ok := sample(text, "baccarat_table_stalled", "table", "slow"); !ok || got != want {
			t.Errorf("at +%s: stalled %v (present %v), want %v", clock.now().Sub(start), got, ok, want)
		}
		if _, ok := sample(text, "baccarat_table_stalled", "table", "dealt"); ok {
			t.Error("a dealer's table is judged stalled or not: a dealer sets its pace")
		}
	}
	stalled(0) // first seen now
	clock.add(allowed)
	stalled(0) // exactly the allowance: not yet
	clock.add(time.Nanosecond)
	stalled(1)
	if _, err := host.Submit(ctx, "slow", &table.Place{Header: table.Header{Role: table.RolePlayer, Actor: "ann"}, Player: "ann",
		Bet: "banker", Stake: 100, RequestID: "moves"}); err != nil {
		t.Fatal(err)
	}
	stalled(0) // it moved
	clock.add(allowed + time.Nanosecond)
	stalled(1)
}

// operatorDown never answers.
type operatorDown struct{}

var errDown = fmt.Errorf("the operator's wallet does not answer")

func (operatorDown) Balance(context.Context, seamless.BalanceRequest) (seamless.Answer, error) {
	return seamless.Answer{}, errDown
}
func (operatorDown) Debit(context.Context, seamless.DebitRequest) (seamless.Answer, error) {
	return seamless.Answer{}, errDown
}
func (operatorDown) Credit(context.Context, seamless.CreditRequest) (seamless.Answer, error) {
	return seamless.Answer{}, errDown
}
func (operatorDown) Rollback(context.Context, seamless.RollbackRequest) (seamless.Answer, error) {
	return seamless.Answer{}, errDown
}

// TestMetricsOutbox: the outbox gauges are 0 without the operator's wallet; with it, they
// count the credits and rollbacks not yet answered and give the age of the oldest.
func TestMetricsOutbox(t *testing.T) {
	clock := newFakeClock(time.Now())
	_, _, url := metricsServer(t, clock, nil)
	wantSamples(t, scrapeURL(t, url), []wantSample{
		{"baccarat_operator_outbox_calls", nil, 0},
		{"baccarat_operator_outbox_oldest_seconds", nil, 0},
	})

	_, db, url := metricsServer(t, clock, operatorDown{})
	ctx := context.Background()
	const stream = "outbox"
	var placed journal.Batch
	for i := range 3 {
		d, _, err := db.BeginDebit(ctx, journaltest.Debit("ann", fmt.Sprintf("r%d", i), stream, 100))
		if err != nil {
			t.Fatal(err)
		}
		placed.Placed = append(placed.Placed, journal.PlacedDebit{Tx: d.Tx, TableWager: uint64(i + 1), At: journaltest.At})
	}
	var head journal.Head
	placed.Records, head = journaltest.Chain(head, stream, 1)
	journaltest.Commit(t, db, placed)
	oldest := clock.now().Add(-90 * time.Second)
	var settled journal.Batch
	for i := range 3 {
		settled.Calls = append(settled.Calls, journal.WalletCall{Tx: fmt.Sprintf("c%d", i), Kind: journal.CallCredit, Amount: 150,
			Table: stream, TableWager: uint64(i + 1), Created: oldest.Add(time.Duration(i) * time.Second)})
	}
	settled.Records, _ = journaltest.Chain(head, stream, 1)
	journaltest.Commit(t, db, settled)
	text := scrapeURL(t, url)
	wantSamples(t, text, []wantSample{{"baccarat_operator_outbox_calls", nil, 3}})
	// The store keeps times to the nanosecond, the exposition prints the float exactly.
	if got, ok := sample(text, "baccarat_operator_outbox_oldest_seconds"); !ok || got != clock.since(oldest) {
		t.Errorf("oldest %v (present %v), want %v", got, ok, clock.since(oldest))
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for range 500 {
		if ok() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("waited 5 s for %s", what)
}

// The observer runs on each table's goroutine after every commit: once a table's counters
// are made it allocates nothing.
func TestObserverAllocatesNothing(t *testing.T) {
	m := web.NewMetrics()
	spec, wager, settle := observed()
	m.TableCommitted(spec, wager) // makes the table's counters
	if n := testing.AllocsPerRun(1000, func() { m.TableCommitted(spec, wager) }); n != 0 {
		t.Errorf("a wager: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(1000, func() { m.TableCommitted(spec, settle) }); n != 0 {
		t.Errorf("a settlement: %v allocations, want 0", n)
	}
}

// observed is a table, a committed wager and a settlement of 7 seats × 3 wagers.
func observed() (*live.Spec, []table.Event, []table.Event) {
	spec := &live.Spec{ID: "tiger-1", Mode: live.ModeAuto, Currency: "EUR", Config: table.Config{Game: "mbs-tiger"}}
	wager := []table.Event{{Seq: 10, Type: table.EvWagerPlaced, Round: 3, Wager: &table.Wager{ID: 1, Round: 3, Player: "ann", Bet: "banker", Stake: 1000}}}
	settle := table.Event{Seq: 40, Type: table.EvRoundSettled, Round: 3}
	for i := range 21 {
		settle.Settlements = append(settle.Settlements, table.Settlement{Wager: uint64(i + 1), Player: fmt.Sprintf("p%d", i/3),
			Bet: "banker", Stake: 1000, Net: 1000, Returned: 2000})
	}
	return spec, wager, []table.Event{settle}
}

// BenchmarkObserveWager is the observer's cost per committed wager (README, "Speed").
func BenchmarkObserveWager(b *testing.B) {
	m := web.NewMetrics()
	spec, wager, _ := observed()
	b.ReportAllocs()
	for b.Loop() {
		m.TableCommitted(spec, wager)
	}
}

// BenchmarkObserveWagerParallel: every table's goroutine at once, one table each.
func BenchmarkObserveWagerParallel(b *testing.B) {
	m := web.NewMetrics()
	var n atomic.Int64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		spec, wager, _ := observed()
		spec.ID = fmt.Sprintf("tiger-%d", n.Add(1))
		for pb.Next() {
			m.TableCommitted(spec, wager)
		}
	})
}

// BenchmarkObserveSettlement is its cost per settlement of 21 wagers.
func BenchmarkObserveSettlement(b *testing.B) {
	m := web.NewMetrics()
	spec, _, settle := observed()
	b.ReportAllocs()
	for b.Loop() {
		m.TableCommitted(spec, settle)
	}
}
