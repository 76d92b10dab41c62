package live_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

func openDB(t *testing.T, path string) *sqlite.DB {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "live.db")
	}
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var epoch = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newHost(t *testing.T, db live.Store, clock live.Clock) *live.Host {
	t.Helper()
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "test", Shuffle: seededShuffle(1)})
	if err := h.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func seededShuffle(seed uint64) func(int) ([]baccarat.Card, []byte) {
	src := baccarat.SeededSource(seed)
	var mu sync.Mutex
	return func(decks int) ([]baccarat.Card, []byte) {
		mu.Lock()
		defer mu.Unlock()
		s := baccarat.NewShoe(decks)
		s.Shuffle(src)
		return s.Order(), baccarat.NewSalt(src)
	}
}

func submit(t *testing.T, h *live.Host, id string, c table.Command) *live.Result {
	t.Helper()
	res, err := h.Submit(context.Background(), id, c)
	if err != nil {
		t.Fatalf("%s: %v", c.Kind(), err)
	}
	return res
}

func cards(t *testing.T, h *live.Host, id string, list ...string) {
	t.Helper()
	for _, s := range list {
		k := baccarat.MustParseCard(s)
		submit(t, h, id, &table.Card{Card: &k})
	}
}

func balance(t *testing.T, h *live.Host, player string) baccarat.Money {
	t.Helper()
	b, err := h.Balance(context.Background(), player, live.PlayMoney)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDealerTableMovesMoneyThroughTheLedger(t *testing.T) {
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	ctx := context.Background()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	if err := h.Credit(ctx, "credit-ann-1", "ann", live.PlayMoney, 100_000); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	res := submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1000, RequestID: "r1"})
	if res.Wager == nil || res.Wager.Stake != 1000 {
		t.Fatalf("no wager in %+v", res)
	}
	if got := balance(t, h, "ann"); got != 99_000 {
		t.Fatalf("stake held: balance %d, want 99000", got)
	}
	_, err := h.Submit(ctx, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 200_000})
	if baccarat.ErrorCode(err) != baccarat.CodeInsufficientFunds {
		t.Fatalf("a wager beyond the wallet: %v", err)
	}
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "3d", "3c", "3s", "9d") // Banker wins on a two-card 6: pays 1:2
	if got := balance(t, h, "ann"); got != 100_500 {
		t.Fatalf("after Banker on six at 1:2: balance %d, want 100500", got)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatalf("ledger check: %v", err)
	}
	house, _ := db.Balance(ctx, ledger.House(live.PlayMoney))
	inplay, _ := db.Balance(ctx, ledger.InPlay("t1", live.PlayMoney))
	if house != -100_500 || inplay != 0 {
		t.Fatalf("house %d in-play %d", house, inplay)
	}
}

func TestSameRequestIDConcurrentlyPlacesOneWager(t *testing.T) {
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	ctx := context.Background()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	_ = h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000)
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	var wg sync.WaitGroup
	ids := make(chan uint64, 32)
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := h.Submit(ctx, "t1", &table.Place{Player: "ann", Bet: "player", Stake: 500, RequestID: "same"})
			if err != nil {
				t.Error(err)
				return
			}
			ids <- res.Wager.ID
		}()
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		if id != 1 {
			t.Fatalf("SPEC §4 the same request id placed wager %d", id)
		}
	}
	if got := balance(t, h, "ann"); got != 99_500 {
		t.Fatalf("balance %d: more than one wager was placed", got)
	}
}

func TestAutomaticTablePlaysRoundsOnItsClock(t *testing.T) {
	db := openDB(t, "")
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	ctx := context.Background()
	if err := h.Create(ctx, live.Spec{ID: "auto", Config: table.Config{Game: "bet-on-baccarat"}}); err != nil {
		t.Fatal(err)
	}
	sub, err := h.Subscribe("auto", "", 0, false)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	settled := 0
	deadline := time.Now().Add(20 * time.Second)
	for settled < 3 && time.Now().Before(deadline) {
		clock.Advance(time.Second)
		for {
			select {
			case d := <-sub.C:
				if containsType(d.Data, "round_settled") || containsType(d.Data, "round_voided") {
					settled++
				}
				continue
			case <-time.After(5 * time.Millisecond):
			}
			break
		}
	}
	if settled < 3 {
		t.Fatalf("only %d rounds finished", settled)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

func containsType(b []byte, typ string) bool {
	return len(b) > 0 && (contains(string(b), `"type":"`+typ+`"`))
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestRestartResumesAnInterruptedRound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	ctx := context.Background()
	db := openDB(t, path)
	h := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch), Owner: "a"})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	_ = h.Credit(ctx, "c1", "ann", live.PlayMoney, 10_000)
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "player", Stake: 1000})
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "Kd")
	h.Close()

	h2 := live.New(live.Options{Store: db, Clock: live.NewFakeClock(epoch.Add(time.Minute)), Owner: "b"})
	if err := h2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	snap, err := h2.Snapshot("t1", "")
	if err != nil {
		t.Fatal(err)
	}
	if !snap.State.Interrupted || !snap.State.Window || len(snap.State.Cards) != 2 {
		t.Fatalf("SPEC §4 the round resumes interrupted with its original cards and a window: %+v", snap.State)
	}
	res := submit(t, h2, "t1", &table.Withdraw{Player: "ann"})
	if len(res.Events) != 1 {
		t.Fatalf("withdraw: %+v", res.Events)
	}
	if got := balance(t, h2, "ann"); got != 10_000 {
		t.Fatalf("withdrawn stake not returned: %d", got)
	}
	submit(t, h2, "t1", &table.Resume{})
	cards(t, h2, "t1", "3c", "Qs", "4c", "9s")
	if err := db.Check(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyAfterPlay(t *testing.T) {
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	ctx := context.Background()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "rws-no-commission"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	_ = h.Credit(ctx, "c1", "ann", live.PlayMoney, 100_000)
	submit(t, h, "t1", &table.NewShoe{})
	submit(t, h, "t1", &table.Open{})
	submit(t, h, "t1", &table.Place{Player: "ann", Bet: "banker", Stake: 1000})
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "7h", "Kd", "2c", "9s") // a tie: the wager rides and stays in play
	rep, err := verify.Database(ctx, db, time.Now())
	if err != nil || !rep.OK() || rep.Rounds != 1 || rep.Tables != 1 {
		t.Fatalf("verify: %+v %v", rep, err)
	}
}

func TestScheduleJSONTakesReadableDurations(t *testing.T) {
	var s live.Schedule
	if err := json.Unmarshal([]byte(`{"betting":"20s","card":800000000}`), &s); err != nil || s.Betting != 20*time.Second || s.Card != 800*time.Millisecond {
		t.Fatalf("schedule: %+v %v", s, err)
	}
	b, _ := json.Marshal(s)
	if string(b) != `{"betting":"20s","card":"800ms"}` {
		t.Fatalf("schedule JSON: %s", b)
	}
	if err := json.Unmarshal([]byte(`{"betting":"soon"}`), &s); err == nil {
		t.Fatal("a bad duration was accepted")
	}
}

func TestRecallKeepsTheLastTenRounds(t *testing.T) {
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	ctx := context.Background()
	if err := h.Create(ctx, live.Spec{ID: "t1", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
		t.Fatal(err)
	}
	submit(t, h, "t1", &table.NewShoe{})
	for i := 0; i < 15; i++ {
		submit(t, h, "t1", &table.Open{})
		submit(t, h, "t1", &table.Close{})
		suit := string("cdhs"[i%4])
		cards(t, h, "t1", "9"+suit, "K"+suit, "Q"+suit, "2"+suit)
	}
	rounds, err := h.Rounds("t1", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rounds) != 10 || rounds[0].Round != 15 || rounds[9].Round != 6 {
		var got []uint64
		for _, r := range rounds {
			got = append(got, r.Round)
		}
		t.Fatalf("recall: rounds %v, want 15 down to 6", got)
	}
}

// TestRestartDuringBettingReopensAFreshWindow: after a restart the round resumed and
// betting closed within a millisecond. An interrupted betting phase reopens with a fresh
// betting window announced to everyone (SPEC §4), for Bet on Baccarat's later betting
// rounds too.
func TestRestartDuringBettingReopensAFreshWindow(t *testing.T) {
	for _, game := range []string{"mbs-tiger", "bet-on-baccarat"} {
		t.Run("SPEC 4 "+game, func(t *testing.T) {
			ctx := context.Background()
			db := openDB(t, filepath.Join(t.TempDir(), "live.db"))
			clock := live.NewFakeClock(epoch)
			h := live.New(live.Options{Store: db, Clock: clock, Owner: "a", Shuffle: seededShuffle(3)})
			if err := h.Open(ctx); err != nil {
				t.Fatal(err)
			}
			spec := live.Spec{ID: "auto", Config: table.Config{Game: game}, Schedule: live.Schedule{Betting: 15 * time.Second, BoBRound: 8 * time.Second}}
			if err := h.Create(ctx, spec); err != nil {
				t.Fatal(err)
			}
			waitFor(t, h, func(st table.State) bool { return st.BetOpen })
			if game == "bet-on-baccarat" { // on to the second betting round, after P1
				for i := 0; i < 40 && !isRound2(t, h); i++ {
					clock.Advance(time.Second)
					time.Sleep(5 * time.Millisecond)
				}
			}
			h.Close()
			// The server is down for an hour: every deadline it knew has passed.
			clock2 := live.NewFakeClock(clock.Now().Add(time.Hour))
			h2 := live.New(live.Options{Store: db, Clock: clock2, Owner: "b", Shuffle: seededShuffle(4)})
			if err := h2.Open(ctx); err != nil {
				t.Fatal(err)
			}
			defer h2.Close()
			st := waitFor(t, h2, func(st table.State) bool { return st.BetOpen && !st.Interrupted })
			want := 15 * time.Second
			if st.Betting > 1 {
				want = 8 * time.Second
			}
			if got := st.Until.Sub(clock2.Now()); got != want {
				t.Fatalf("betting round %d reopened with %s to bet, want a fresh %s", st.Betting, got, want)
			}
			recs, _ := db.Load(ctx, "auto", 1)
			last := recs[len(recs)-1]
			if last.Type != table.EvResumed.String() || !contains(string(last.Data), `"until"`) {
				t.Fatalf("the fresh window is not announced: last record %s %s", last.Type, last.Data)
			}
		})
	}
}

func isRound2(t *testing.T, h *live.Host) bool {
	snap, err := h.Snapshot("auto", "")
	if err != nil {
		t.Fatal(err)
	}
	return snap.State.BetOpen && snap.State.Betting == 2
}

// waitFor waits (real time) until the table's state satisfies ok.
func waitFor(t *testing.T, h *live.Host, ok func(table.State) bool) table.State {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		snap, err := h.Snapshot("auto", "")
		if err == nil && ok(snap.State) {
			return snap.State
		}
		if time.Now().After(deadline) {
			t.Fatalf("the table never got there: %+v", snap.State)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
