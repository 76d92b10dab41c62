// Package responsibletest is the conformance suite every store of players' limits runs:
// sessions, limits, exclusions and events as responsible.Store describes them, and the
// tallies booked inside a journal commit, with a limit holding when two commits for one
// player race.
package responsibletest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/responsible"
)

// Store is what the suite needs: limits kept, and commits that book plays.
type Store interface {
	responsible.Store
	journal.Committer
}

var t0 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

// Run runs the suite; open returns a new empty store.
func Run(t *testing.T, open func(t *testing.T) Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s Store)
	}{
		{"a session begins, is replaced by the next and ends once", testSessions},
		{"a reality check answered moves the next one; leave ends the session", testRealityCheck},
		{"limits are replaced; the player's own exclusion is never shortened", testLimitsAndExclusion},
		{"a commit counts stakes and returns where the stake was counted", testCommitTallies},
		{"a wager past a limit fails its whole commit", testCommitRefused},
		{"two commits racing for one player's limit: one is taken", testRace},
		{"a limit reached is recorded once, and its webhook waits for delivery", testEventsOnce},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func standing(t *testing.T, s Store, player string, at time.Time) responsible.Standing {
	t.Helper()
	st, err := s.Standing(context.Background(), player, "EUR", at)
	must(t, err)
	return st
}

func testSessions(t *testing.T, s Store) {
	ctx := context.Background()
	if st := standing(t, s, "ann", t0); st.Session.ID != 0 || st.Currency != "EUR" {
		t.Fatalf("a new player: %+v", st)
	}
	a, err := s.StartSession(ctx, "ann", t0)
	must(t, err)
	b, err := s.StartSession(ctx, "ann", t0.Add(time.Minute))
	must(t, err)
	if b.ID == a.ID {
		t.Fatal("the same session twice")
	}
	st := standing(t, s, "ann", t0.Add(2*time.Minute))
	if st.Session.ID != b.ID || !st.Session.Ended.IsZero() || !st.Session.Started.Equal(t0.Add(time.Minute)) {
		t.Fatalf("latest session: %+v", st.Session)
	}
	must(t, s.EndSession(ctx, "ann", b.ID, responsible.EndTimeLimit, t0.Add(61*time.Minute)))
	must(t, s.EndSession(ctx, "ann", b.ID, responsible.EndLeft, t0.Add(62*time.Minute))) // ends once
	st = standing(t, s, "ann", t0.Add(70*time.Minute))
	if st.Session.EndReason != responsible.EndTimeLimit || !st.Session.Ended.Equal(t0.Add(61*time.Minute)) {
		t.Fatalf("ended: %+v", st.Session)
	}
	evs, err := s.Events(ctx, "ann", 0, 100)
	must(t, err)
	var kinds []string
	for _, e := range evs {
		kinds = append(kinds, string(e.Kind)+"/"+e.Reason)
	}
	want := []string{"session_started/", "session_ended/replaced", "session_started/", "session_ended/time_limit"}
	if len(kinds) != len(want) {
		t.Fatalf("events %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("events %v, want %v", kinds, want)
		}
	}
	if evs[3].Played != 60 || evs[3].Tally == nil {
		t.Fatalf("the session's end says what was played: %+v", evs[3])
	}
}

func testRealityCheck(t *testing.T, s Store) {
	ctx := context.Background()
	sess, err := s.StartSession(ctx, "bea", t0)
	must(t, err)
	must(t, s.Answer(ctx, "bea", sess.ID, false, t0.Add(30*time.Minute)))
	if st := standing(t, s, "bea", t0.Add(31*time.Minute)); !st.Session.Checked.Equal(t0.Add(30 * time.Minute)) {
		t.Fatalf("checked: %v", st.Session.Checked)
	}
	must(t, s.Answer(ctx, "bea", sess.ID, true, t0.Add(60*time.Minute)))
	if st := standing(t, s, "bea", t0.Add(61*time.Minute)); st.Session.EndReason != responsible.EndLeft {
		t.Fatalf("left: %+v", st.Session)
	}
	if err := s.Answer(ctx, "bea", sess.ID, false, t0.Add(62*time.Minute)); baccarat.ErrorCode(err) != baccarat.CodeSessionEnded {
		t.Fatalf("an ended session answers nothing: %v", err)
	}
	if err := s.Answer(ctx, "cat", sess.ID, false, t0); baccarat.ErrorCode(err) != baccarat.CodeNotFound {
		t.Fatalf("another player's session: %v", err)
	}
}

func testLimitsAndExclusion(t *testing.T, s Store) {
	ctx := context.Background()
	_, err := s.StartSession(ctx, "cat", t0)
	must(t, err)
	must(t, s.SetLimits(ctx, "cat", "GBP", responsible.Limits{LossPerDay: 5_000, RealityCheck: 30}, "operator", t0))
	must(t, s.SetLimits(ctx, "cat", "GBP", responsible.Limits{LossPerSession: 2_000}, "admin1", t0.Add(time.Second)))
	st := standing(t, s, "cat", t0.Add(2*time.Second))
	if st.Currency != "GBP" || st.Limits != (responsible.Limits{LossPerSession: 2_000}) || !st.Session.Ended.IsZero() {
		t.Fatalf("replaced: %+v", st)
	}
	year := responsible.Exclusion{Kind: responsible.SelfExclusion, Until: t0.AddDate(1, 0, 0)}
	must(t, s.Exclude(ctx, "cat", year, t0.Add(time.Minute)))
	must(t, s.Exclude(ctx, "cat", responsible.Exclusion{Kind: responsible.CoolOff, Until: t0.AddDate(0, 0, 1)}, t0.Add(2*time.Minute)))
	st = standing(t, s, "cat", t0.Add(3*time.Minute))
	if st.Self == nil || !st.Self.Until.Equal(year.Until) || st.Self.Kind != responsible.SelfExclusion {
		t.Fatalf("the longer exclusion stands: %+v", st.Self)
	}
	if st.Session.EndReason != responsible.EndExcluded {
		t.Fatalf("an exclusion ends the session: %+v", st.Session)
	}
	// The operator's limits replace each other and leave the player's exclusion be.
	must(t, s.SetLimits(ctx, "cat", "GBP", responsible.Limits{}, "operator", t0.Add(4*time.Minute)))
	if st := standing(t, s, "cat", t0.Add(5*time.Minute)); st.Exclusion(t0.Add(5*time.Minute)) == nil {
		t.Fatal("the player's exclusion was lifted by the operator's limits")
	}
}

func place(player string, wager uint64, table string, round uint64, stake baccarat.Money, at time.Time) responsible.Play {
	return responsible.Play{Player: player, Currency: "EUR", Table: table, Round: round, Wager: wager, Stake: stake, At: at}
}

func settle(player string, wager uint64, table string, stake, returned baccarat.Money, at time.Time) responsible.Play {
	return responsible.Play{Player: player, Currency: "EUR", Table: table, Wager: wager, Settles: true, Stake: stake, Returned: returned, At: at}
}

func commit(s Store, plays ...responsible.Play) error {
	return s.Commit(context.Background(), journal.Batch{Plays: plays})
}

func testCommitTallies(t *testing.T, s Store) {
	ctx := context.Background()
	first, err := s.StartSession(ctx, "dan", t0)
	must(t, err)
	must(t, commit(s, place("dan", 1, "t1", 1, 1_000, t0), place("dan", 2, "t1", 1, 500, t0)))
	st := standing(t, s, "dan", t0)
	if st.SessionTally != (responsible.Tally{Staked: 1_500}) || st.DayTally != st.SessionTally {
		t.Fatalf("placed: %+v", st)
	}
	// A new session and a new day: the settlement still counts where its stakes were.
	next := t0.Add(24 * time.Hour)
	second, err := s.StartSession(ctx, "dan", next)
	must(t, err)
	must(t, commit(s, settle("dan", 1, "t1", 1_000, 2_000, next), settle("dan", 2, "t1", 500, 0, next), settle("dan", 9, "t1", 100, 100, next)))
	st = standing(t, s, "dan", next)
	if st.Session.ID != second.ID || st.SessionTally != (responsible.Tally{}) || st.DayTally != (responsible.Tally{}) || len(st.Rounds) != 0 {
		t.Fatalf("new session and day untouched: %+v", st)
	}
	old := standing(t, s, "dan", t0)
	if old.DayTally != (responsible.Tally{Staked: 1_500, Settled: 1_500, Returned: 2_000}) {
		t.Fatalf("the first day: %+v", old.DayTally)
	}
	evs, err := s.Events(ctx, "dan", 0, 100)
	must(t, err)
	for _, e := range evs {
		if e.Kind == responsible.EvSessionEnded && e.Session == first.ID {
			if e.Tally == nil || *e.Tally != (responsible.Tally{Staked: 1_500}) {
				t.Fatalf("the first session's end tells its tally: %+v", e.Tally)
			}
			return
		}
	}
	t.Fatal("no end of the first session")
}

func testCommitRefused(t *testing.T, s Store) {
	ctx := context.Background()
	_, err := s.StartSession(ctx, "eve", t0)
	must(t, err)
	must(t, s.SetLimits(ctx, "eve", "EUR", responsible.Limits{LossPerSession: 1_000, StakePerRound: 600}, "operator", t0))
	must(t, commit(s, place("eve", 1, "t1", 1, 600, t0)))
	err = commit(s, place("eve", 2, "t2", 1, 300, t0), place("eve", 3, "t1", 1, 1, t0))
	if baccarat.ErrorCode(err) != baccarat.CodeLimitReached {
		t.Fatalf("stake per round: %v", err)
	}
	if st := standing(t, s, "eve", t0); st.SessionTally.Staked != 600 {
		t.Fatalf("a refused commit wrote: %+v", st.SessionTally)
	}
	must(t, commit(s, place("eve", 2, "t2", 1, 400, t0)))
	err = commit(s, place("eve", 4, "t2", 2, 1, t0))
	if r, ok := err.(*responsible.Refusal); !ok || r.Breach != responsible.BreachLossSession {
		t.Fatalf("loss per session at its edge: %v", err)
	}
	// A loss settled as a win gives the room back.
	must(t, commit(s, settle("eve", 2, "t2", 400, 800, t0)))
	must(t, commit(s, place("eve", 4, "t2", 2, 400, t0)))
}

func testRace(t *testing.T, s Store) {
	ctx := context.Background()
	_, err := s.StartSession(ctx, "fay", t0)
	must(t, err)
	must(t, s.SetLimits(ctx, "fay", "EUR", responsible.Limits{LossPerDay: 1_000}, "operator", t0))
	const tables = 8
	var wg sync.WaitGroup
	errs := make([]error, tables)
	for i := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = commit(s, place("fay", uint64(i+1), "t"+string(rune('a'+i)), 1, 400, t0))
		}()
	}
	wg.Wait()
	taken := 0
	for _, err := range errs {
		switch baccarat.ErrorCode(err) {
		case "":
			taken++
		case baccarat.CodeLimitReached:
		default:
			t.Fatal(err)
		}
	}
	if taken != 2 {
		t.Fatalf("%d wagers of 400 taken under a limit of 1,000; want 2", taken)
	}
	if st := standing(t, s, "fay", t0); st.DayTally.Staked != 800 {
		t.Fatalf("day tally %+v", st.DayTally)
	}
}

func testEventsOnce(t *testing.T, s Store) {
	ctx := context.Background()
	e := responsible.Event{Player: "gus", At: t0, Kind: responsible.EvLimitReached, By: "table", Breach: responsible.BreachLossDay, Once: "gus/loss_per_day/d:2026-11-28"}
	must(t, s.Record(ctx, e))
	must(t, s.Record(ctx, e))
	must(t, s.Exclude(ctx, "gus", responsible.Exclusion{Kind: responsible.CoolOff, Until: t0.AddDate(0, 0, 7)}, t0))
	evs, err := s.Events(ctx, "gus", 0, 100)
	must(t, err)
	if len(evs) != 2 || evs[0].Delivery != responsible.DeliveryPending || evs[1].Kind != responsible.EvExcluded {
		t.Fatalf("events: %+v", evs)
	}
	due, err := s.Undelivered(ctx, t0, 10)
	must(t, err)
	if len(due) != 2 {
		t.Fatalf("due: %+v", due)
	}
	if again, _ := s.Undelivered(ctx, t0, 10); len(again) != 0 {
		t.Fatalf("claimed webhooks were claimed again (another server would send them too): %+v", again)
	}
	must(t, s.Delivered(ctx, due[0].Seq, true, "", time.Time{}))
	must(t, s.Delivered(ctx, due[1].Seq, false, "503", t0.Add(time.Minute)))
	if due, _ := s.Undelivered(ctx, t0.Add(30*time.Second), 10); len(due) != 0 {
		t.Fatalf("a failed delivery waits: %+v", due)
	}
	if due, _ := s.Undelivered(ctx, t0.Add(time.Minute), 10); len(due) != 1 || due[0].Kind != responsible.EvExcluded {
		t.Fatalf("then comes again: %+v", due)
	}
	all, err := s.Events(ctx, "", 0, 1000)
	must(t, err)
	if len(all) < 2 {
		t.Fatalf("everyone's events: %d", len(all))
	}
	recent, err := s.Recent(ctx, "gus", 0, 1)
	must(t, err)
	if len(recent) != 1 || recent[0].Seq != evs[1].Seq {
		t.Fatalf("the newest first: %+v", recent)
	}
	if older, _ := s.Recent(ctx, "gus", recent[0].Seq, 10); len(older) != 1 || older[0].Seq != evs[0].Seq {
		t.Fatalf("then the ones before: %+v", older)
	}
}
