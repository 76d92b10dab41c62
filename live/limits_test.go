package live_test

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
)

// limitsHost is a host on a fresh SQLite file with two EUR dealer tables, t1 and t2, their
// betting open, and ann holding 1,000.00 EUR under the limits given.
func limitsHost(t *testing.T, path string, clock *live.FakeClock, l responsible.Limits) (*live.Host, sqliteDB) {
	t.Helper()
	db := openDB(t, path)
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "test", Shuffle: seededShuffle(1)})
	if err := h.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	ctx := context.Background()
	for _, id := range []string{"t1", "t2"} {
		if err := h.Create(ctx, live.Spec{ID: id, Currency: "EUR", Config: table.Config{Game: "mbs-tournament"}, Mode: live.ModeDealer}); err != nil {
			t.Fatal(err)
		}
		submit(t, h, id, &table.NewShoe{})
		submit(t, h, id, &table.Open{})
	}
	if err := h.Credit(ctx, "credit-ann", "ann", "EUR", 100_000); err != nil {
		t.Fatal(err)
	}
	if err := db.SetLimits(ctx, "ann", "EUR", l, "operator", clock.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.StartSession(ctx, "ann", clock.Now()); err != nil {
		t.Fatal(err)
	}
	return h, db
}

type sqliteDB = *sqlite.DB

func wager(h *live.Host, id string, stake baccarat.Money) error {
	_, err := h.Submit(context.Background(), id, &table.Place{Player: "ann", Bet: "banker", Stake: stake})
	return err
}

func refusedAs(t *testing.T, what string, err error, code baccarat.Code) {
	t.Helper()
	if baccarat.ErrorCode(err) != code {
		t.Fatalf("%s: got %v, want %s", what, err, code)
	}
}

// A loss limit is the player's, not a table's: wagers sent to two tables at once never
// stake past it together, to the minor unit.
func TestLossLimitHoldsAcrossTwoTablesAtOnce(t *testing.T) {
	h, db := limitsHost(t, "", live.NewFakeClock(epoch), responsible.Limits{LossPerDay: 10_000})
	var taken atomic.Int64
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := wager(h, []string{"t1", "t2"}[i%2], 300)
			switch baccarat.ErrorCode(err) {
			case "":
				taken.Add(1)
			case baccarat.CodeLimitReached:
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if taken.Load() != 33 { // 33 × 3.00 = 99.00; a 34th could take the loss to 102.00 > 100.00
		t.Fatalf("%d wagers of 3.00 taken under a daily loss limit of 100.00; want 33", taken.Load())
	}
	refusedAs(t, "one minor unit over", wager(h, "t2", 101), baccarat.CodeLimitReached)
	if err := wager(h, "t1", 100); err != nil {
		t.Fatalf("up to the limit exactly: %v", err)
	}
	refusedAs(t, "at the limit", wager(h, "t2", 1), baccarat.CodeLimitReached)
	st, err := db.Standing(context.Background(), "ann", "EUR", epoch)
	if err != nil {
		t.Fatal(err)
	}
	if st.DayTally.Staked != 10_000 || st.SessionTally.Staked != 10_000 {
		t.Fatalf("tallies %+v %+v", st.DayTally, st.SessionTally)
	}
	evs, _ := db.Events(context.Background(), "ann", 0, 100)
	reached := 0
	for _, e := range evs {
		if e.Kind == responsible.EvLimitReached && e.Breach == responsible.BreachLossDay {
			reached++
		}
	}
	if reached != 1 {
		t.Fatalf("a limit reached is recorded once per day: %d", reached)
	}
}

// The tallies are the database's: after a restart the limit still counts what was staked,
// and a settlement after it gives back what the player won.
func TestLossLimitHoldsAcrossARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "limits.db")
	clock := live.NewFakeClock(epoch)
	h, db := limitsHost(t, path, clock, responsible.Limits{LossPerSession: 5_000})
	if err := wager(h, "t1", 4_000); err != nil {
		t.Fatal(err)
	}
	h.Close()
	db.Close()

	db2 := openDB(t, path)
	h2 := newHost(t, db2, clock)
	submit(t, h2, "t1", &table.Resume{}) // a restart interrupts a dealer's round until the pit resumes it
	submit(t, h2, "t2", &table.Resume{})
	refusedAs(t, "after the restart", wager(h2, "t2", 1_001), baccarat.CodeLimitReached)
	if err := wager(h2, "t2", 1_000); err != nil {
		t.Fatalf("up to the limit after the restart: %v", err)
	}
	// t1 settles: Banker wins with 7 against 5 and pays 1:1 here. ann gets 80.00 back for her
	// 40.00: the session is 30.00 up on settled wagers, less the 10.00 open at t2, so losing
	// everything in play could cost 10.00 of the 50.00 allowed (staked 90.00 − returned 80.00
	// once the next 40.00 is placed): 40.00 more fits, and not a cent beyond.
	submit(t, h2, "t1", &table.Close{})
	cards(t, h2, "t1", "2h", "3d", "3c", "4s", "Kd")
	submit(t, h2, "t1", &table.Open{})
	if err := wager(h2, "t1", 4_000); err != nil {
		t.Fatalf("winnings give room back: %v", err)
	}
	refusedAs(t, "one minor unit over", wager(h2, "t2", 4_001), baccarat.CodeLimitReached)
	if err := wager(h2, "t2", 4_000); err != nil {
		t.Fatalf("up to the limit: %v", err)
	}
	refusedAs(t, "and no more", wager(h2, "t1", 100), baccarat.CodeLimitReached)
	st, _ := db2.Standing(context.Background(), "ann", "EUR", clock.Now())
	if st.SessionTally != (responsible.Tally{Staked: 13_000, Settled: 4_000, Returned: 8_000}) || st.SessionTally.Exposure() != 5_000 {
		t.Fatalf("session tally %+v", st.SessionTally)
	}
}

// The stake limit counts every wager of one round of one table, and a reality check and the
// session's time limit stop betting at their minute.
func TestLimitsAtTheTableEdges(t *testing.T) {
	clock := live.NewFakeClock(epoch)
	h, db := limitsHost(t, "", clock, responsible.Limits{StakePerRound: 2_500, RealityCheck: 30, SessionTime: 60})
	if err := wager(h, "t1", 2_000); err != nil {
		t.Fatal(err)
	}
	refusedAs(t, "stake per round, one minor unit over", wager(h, "t1", 501), baccarat.CodeLimitReached)
	if err := wager(h, "t1", 500); err != nil {
		t.Fatalf("stake per round, up to it: %v", err)
	}
	if err := wager(h, "t2", 2_500); err != nil {
		t.Fatalf("another table's round is its own: %v", err)
	}
	clock.Advance(30*time.Minute - time.Second)
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "3d", "3c", "4s", "Kd")
	submit(t, h, "t1", &table.Open{})
	if err := wager(h, "t1", 2_500); err != nil {
		t.Fatalf("a new round, a second before the reality check: %v", err)
	}
	clock.Advance(time.Second)
	refusedAs(t, "reality check due", wager(h, "t2", 1), baccarat.CodeRealityCheck)
	st, err := h.Standing(context.Background(), "ann", "EUR")
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Answer(context.Background(), "ann", st.Session.ID, false, clock.Now()); err != nil {
		t.Fatal(err)
	}
	h.ForgetLimits("ann")
	refusedAs(t, "the stake limit still holds after the check", wager(h, "t2", 1), baccarat.CodeLimitReached)
	clock.Advance(30*time.Minute - time.Second)
	submit(t, h, "t2", &table.Close{})
	cards(t, h, "t2", "2h", "3d", "3c", "4s", "Kd")
	submit(t, h, "t2", &table.Open{})
	if err := wager(h, "t2", 100); err != nil {
		t.Fatalf("a second before the session's end: %v", err)
	}
	clock.Advance(time.Second)
	refusedAs(t, "the session's time limit", wager(h, "t2", 100), baccarat.CodeLimitReached)
	// Its open wagers still settle.
	submit(t, h, "t1", &table.Close{})
	cards(t, h, "t1", "2h", "3d", "3c", "4s", "Kd")
	st, _ = db.Standing(context.Background(), "ann", "EUR", clock.Now())
	if st.Session.EndReason != responsible.EndTimeLimit || !st.Session.Ended.Equal(epoch.Add(time.Hour)) {
		t.Fatalf("session %+v", st.Session)
	}
	if st.SessionTally.Staked != 7_600 || st.SessionTally.Settled != 7_500 {
		t.Fatalf("open wagers settle after the session's end: %+v", st.SessionTally)
	}
}

// An exclusion stops wagers at once, at every table.
func TestExcludedPlayerCannotWager(t *testing.T) {
	clock := live.NewFakeClock(epoch)
	h, db := limitsHost(t, "", clock, responsible.Limits{})
	if err := wager(h, "t1", 100); err != nil {
		t.Fatal(err)
	}
	if err := db.Exclude(context.Background(), "ann", responsible.Exclusion{Kind: responsible.CoolOff, Until: epoch.Add(24 * time.Hour)}, clock.Now()); err != nil {
		t.Fatal(err)
	}
	h.ForgetLimits("ann")
	refusedAs(t, "excluded", wager(h, "t2", 100), baccarat.CodeExcluded)
	refusedAs(t, "excluded, another table", wager(h, "t1", 100), baccarat.CodeExcluded)
}
