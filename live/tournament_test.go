package live_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// tournamentPace deals a hand in a few virtual seconds.
var tournamentPace = live.Schedule{Betting: 2 * time.Second, Card: 100 * time.Millisecond, Result: 500 * time.Millisecond,
	Window: time.Second}

// threeRoundSpec: eight bots at two tables of four, the top two of each table to a
// semi-final, its top two to the final; sessions of three hands.
func threeRoundSpec(id, game string) live.TournamentSpec {
	cfg := tournament.Config{ID: id, Name: "Cup " + id, Game: game, Currency: "XXX", EntryFee: 1000,
		StartingChips: 10_000, MaxEntrants: 8, TableSize: 4,
		RegistrationOpens: epoch, RegistrationCloses: epoch.Add(30 * time.Second), Start: epoch.Add(30 * time.Second),
		Break:  tournament.Duration(2 * time.Second),
		Stakes: tournament.Stakes{Min: 100, Max: 2000, Required: true},
		Rounds: []tournament.Round{{Hands: 3, Advance: 2}, {Hands: 3, Advance: 2}, {Hands: 3}},
		Prizes: []int{7000, 3000}, Dragon: game == "mbs-dragon"}
	return live.TournamentSpec{Config: cfg, Schedule: tournamentPace, Bots: tabletop.Bots("bot", 8)}
}

// drive moves the fake clock on in small steps, letting the host work between them, until
// done says so (or a real minute has passed).
func drive(t *testing.T, clock *live.FakeClock, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("not done after 90 s (virtual time %s)", clock.Now().Format(time.TimeOnly))
		}
		clock.Advance(250 * time.Millisecond)
		time.Sleep(2 * time.Millisecond)
	}
}

func view(t *testing.T, h *live.Host, id string) *live.TournamentView {
	t.Helper()
	v, err := h.Tournament(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkTournamentBooks: every session balanced, the prizes are the pool, the books sum to
// zero and Verify finds nothing.
func checkTournamentBooks(t *testing.T, db *sqlite.DB, h *live.Host, id string, now time.Time) {
	t.Helper()
	ctx := context.Background()
	v := view(t, h, id)
	if v.Phase != tournament.PhaseFinished {
		t.Fatalf("the tournament is %s", v.Phase)
	}
	rounds := map[int]bool{}
	for _, s := range v.State.Sessions {
		rounds[s.Round] = true
		if a := s.Accounting(); !a.Balanced || s.Hands != 3 {
			t.Errorf("SPEC 5 round %d table %d: %d hands, %+v", s.Round, s.Table, s.Hands, a)
		}
	}
	if len(rounds) != 3 {
		t.Errorf("played rounds %v, want 3", rounds)
	}
	var paid baccarat.Money
	for _, r := range v.State.Results {
		paid += r.Prize
	}
	if paid != v.State.Pool.Total || paid != 8000 {
		t.Errorf("prizes %d, pool %d", paid, v.State.Pool.Total)
	}
	if err := db.Check(ctx); err != nil {
		t.Errorf("ledger: %v", err)
	}
	for _, acct := range []string{live.Pool(id, "XXX"), ledger.House(ledger.Chips(id))} {
		if b, _ := db.Balance(ctx, acct); b != 0 {
			t.Errorf("%s holds %d after the tournament", acct, b)
		}
	}
	rep, err := live.Verify(ctx, db, now)
	if err != nil || !rep.OK() || rep.Tournaments != 1 {
		t.Errorf("verify: %v %+v", err, rep)
	}
}

func TestTournamentOfThreeRoundsWithBotsAtAutomaticTables(t *testing.T) {
	for _, game := range []string{"mbs-tournament", "rws-no-commission", "mbs-dragon"} {
		t.Run("SPEC 5 "+game, func(t *testing.T) {
			db := openDB(t, "")
			clock := live.NewFakeClock(epoch)
			h := newHost(t, db, clock)
			if err := h.CreateTournament(context.Background(), threeRoundSpec("cup", game)); err != nil {
				t.Fatal(err)
			}
			drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseFinished })
			checkTournamentBooks(t, db, h, "cup", clock.Now())
		})
	}
}

func TestTournamentResumesASessionAfterACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	db := openDB(t, path)
	clock := live.NewFakeClock(epoch)
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "a", Shuffle: seededShuffle(5), LeaseTTL: 15 * time.Second})
	if err := h.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := h.CreateTournament(context.Background(), threeRoundSpec("cup", "rws-no-commission")); err != nil {
		t.Fatal(err)
	}
	midSession := func() bool {
		v := view(t, h, "cup")
		return v.State.Round == 2 && len(v.Tables) == 1 && v.Tables[0].Live && v.Tables[0].Hands == 1
	}
	drive(t, clock, midSession)
	for range 5 { // into the next hand's dealing
		clock.Advance(500 * time.Millisecond)
		time.Sleep(2 * time.Millisecond)
	}
	h.Abandon()

	clock2 := live.NewFakeClock(clock.Now().Add(time.Minute)) // the dead host's leases have lapsed
	h2 := live.New(live.Options{Store: db, Clock: clock2, Owner: "b", Shuffle: seededShuffle(6)})
	if err := h2.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h2.Close)
	v := view(t, h2, "cup")
	if v.State.Round != 2 || !v.Tables[0].Live {
		t.Fatalf("after the restart: round %d, tables %+v", v.State.Round, v.Tables)
	}
	drive(t, clock2, func() bool { return view(t, h2, "cup").Phase == tournament.PhaseFinished })
	checkTournamentBooks(t, db, h2, "cup", clock2.Now())
	recs, _ := db.Load(context.Background(), tabletop.TableID("cup", 2, 1, 1), 1)
	interrupted := false
	for _, r := range recs {
		interrupted = interrupted || r.Type == table.EvInterrupted.String()
	}
	if !interrupted {
		t.Error("SPEC 4 the crash did not land in a round: the session's table was never interrupted")
	}
}
