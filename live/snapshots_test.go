package live_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// quick is an automatic table's pace for tests that play many rounds.
var quick = live.Schedule{Betting: 10 * time.Millisecond, BoBRound: 10 * time.Millisecond, Card: time.Millisecond,
	Result: time.Millisecond, Window: time.Millisecond}

// playRounds runs an automatic table until it has settled or voided n rounds, with a wager
// on most of them.
func playRounds(t testing.TB, h *live.Host, clock *live.FakeClock, id string, n uint64) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	for i := 0; ; i++ {
		snap, err := h.Snapshot(id, "")
		if err == nil && snap.State.Round >= n && snap.State.Phase != table.PhaseBetting && snap.State.Phase != table.PhaseClosed && snap.State.Phase != table.PhaseDealing {
			return
		}
		if err == nil && snap.State.Phase == table.PhaseBetting {
			_, _ = h.Submit(ctx, id, &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann",
				Bet: "banker", Stake: 100, RequestID: "r" + strconv.Itoa(i)})
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table did not reach round %d", n)
		}
		clock.Advance(5 * time.Millisecond)
		time.Sleep(200 * time.Microsecond)
	}
}

// TestARecoveredTableStartsFromItsLatestSnapshot: a table writes a snapshot every few rounds;
// a host that takes it over rebuilds it from the latest and the records after it, into the
// very table a replay of the whole journal gives, with its recall of recent rounds; verify
// checks every snapshot against the replay and catches one that lies.
func TestARecoveredTableStartsFromItsLatestSnapshot(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "snap.db")
	db := openDB(t, path)
	clock := live.NewFakeClock(epoch)
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "a", Shuffle: seededShuffle(3), SnapshotEvery: 4})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tiger"}, Schedule: quick}); err != nil {
		t.Fatal(err)
	}
	if err := h.Credit(ctx, "c", "ann", live.PlayMoney, 1_000_000); err != nil {
		t.Fatal(err)
	}
	playRounds(t, h, clock, "t1", 13)
	h.Close()
	snaps, err := db.SnapshotsOf(ctx, "t1")
	if err != nil || len(snaps) < 3 {
		t.Fatalf("snapshots: %d, %v; want one every 4 rounds", len(snaps), err)
	}
	recs, _ := db.Load(ctx, "t1", 1)
	var spec live.Spec
	_ = json.Unmarshal(recs[0].Data, &spec)
	var events []table.Event
	for _, r := range recs[1:] {
		var e table.Event
		_ = json.Unmarshal(r.Data, &e)
		events = append(events, e)
	}
	whole, err := table.Replay(spec.Config, events)
	if err != nil {
		t.Fatal(err)
	}

	h2 := live.New(live.Options{Store: db, Clock: clock, Owner: "b", Shuffle: seededShuffle(3), SnapshotEvery: 4})
	if err := h2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	snap, err := h2.Snapshot("t1", "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mustJSON(snap.State), mustJSON(whole.State()); got != want {
		t.Fatalf("recovered from the snapshot:\n%s\nthe whole journal replayed:\n%s", got, want)
	}
	rounds, err := h2.Rounds("t1", "", 10)
	if err != nil || len(rounds) < 5 {
		t.Fatalf("the recall after the recovery: %d rounds, %v", len(rounds), err)
	}
	rep, err := verify.Database(ctx, db, clock.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %v %+v", err, rep.Problems)
	}

	// A snapshot that lies (written to the store behind the host's back) is caught.
	var bent table.Snapshot
	_ = json.Unmarshal(snaps[0].Data, &bent)
	bent.House += 1_000
	data, _ := json.Marshal(&bent)
	if err := db.Commit(ctx, journal.Batch{Snapshot: &journal.Snapshot{Table: "t1", Seq: snaps[len(snaps)-1].Seq - 1, Data: data}}); err != nil {
		t.Fatal(err)
	}
	rep, _ = verify.Database(ctx, db, clock.Now())
	if rep.OK() {
		t.Fatal("verify missed a snapshot that differs from the journal")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// BenchmarkRestartAfterLongPlay: how long a host takes to recover a table with a long
// history (BACCARAT_BENCH_ROUNDS rounds, 2,000 by default; the README's figure is for
// 1,000,000), from its latest snapshot. The journal is built once per run, then every
// iteration opens a fresh host on it and waits until the table is up.
func BenchmarkRestartAfterLongPlay(b *testing.B) {
	rounds := uint64(2000)
	if s := os.Getenv("BACCARAT_BENCH_ROUNDS"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		rounds = n
	}
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "long.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	built := time.Now()
	buildLongTable(b, db, "long", rounds)
	b.Logf("built %d rounds in %s", rounds, time.Since(built).Round(time.Millisecond))
	b.ResetTimer()
	for range b.N {
		h := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch.Add(time.Hour)), Owner: fmt.Sprint("bench-", time.Now().UnixNano()), Exclusive: true})
		if err := h.Open(ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := h.Snapshot("long", ""); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		h.Abandon()
		b.StartTimer()
	}
}

// buildLongTable journals an automatic Tiger table that has played rounds rounds (a wager
// on each), with a snapshot every DefaultSnapshotEvery rounds, straight into the store.
func buildLongTable(b *testing.B, db *sqlite.DB, id string, rounds uint64) {
	ctx := context.Background()
	spec := live.Spec{ID: id, Name: "Long", Mode: live.ModeAuto, Currency: live.PlayMoney,
		Config: table.Config{Game: "mbs-tiger", Mode: table.ModeAuto, Currency: string(live.PlayMoney)}, Schedule: quick}
	tab, err := table.New(spec.Config)
	if err != nil {
		b.Fatal(err)
	}
	spec.Config = tab.Config()
	data, _ := json.Marshal(spec)
	at := epoch
	head := journal.Head{}
	var batch []journal.Record
	var snap *journal.Snapshot
	add := func(typ string, data []byte) {
		rec := journal.Seal(head, journal.Record{Table: id, Seq: head.Seq + 1, Type: typ, Data: data, At: at})
		head = rec.Head()
		batch = append(batch, rec)
	}
	flush := func() {
		if err := db.Commit(ctx, journal.Batch{Records: batch, Snapshot: snap}); err != nil {
			b.Fatal(err)
		}
		batch, snap = batch[:0], nil
	}
	add("table_created", data)
	apply := func(c table.Command) {
		evs, err := tab.Apply(c)
		if err != nil {
			b.Fatalf("%s: %v", c.Kind(), err)
		}
		for i := range evs {
			d, _ := json.Marshal(&evs[i])
			add(evs[i].Type.String(), d)
		}
	}
	src := seededShuffle(7)
	sys := table.Header{Role: table.RoleSystem, Actor: "auto"}
	for tab.Round() < rounds || !tab.CanSnapshot() {
		at = at.Add(time.Second)
		if !tab.ShoeActive() {
			order, salt := src(8)
			apply(&table.NewShoe{Header: sys, Order: order, Salt: hex.EncodeToString(salt)})
		}
		apply(&table.Open{Header: sys, Until: at.Add(time.Second)})
		apply(&table.Place{Header: table.Header{Role: table.RolePlayer, Actor: "ann"}, Player: "ann", Bet: "banker", Stake: 100,
			Available: 1 << 40, RequestID: "r" + strconv.FormatUint(tab.Round(), 10)})
		apply(&table.Close{Header: sys})
		for tab.Phase() == table.PhaseClosed || tab.Phase() == table.PhaseDealing {
			apply(&table.Deal{Header: sys})
		}
		if tab.Round()%live.DefaultSnapshotEvery == 0 && tab.CanSnapshot() {
			s, _ := tab.Snapshot()
			d, _ := json.Marshal(s)
			snap = &journal.Snapshot{Table: id, Seq: head.Seq, Data: d}
			flush()
		}
		if len(batch) > 20_000 {
			flush()
		}
	}
	if len(batch) > 0 {
		flush()
	}
}
