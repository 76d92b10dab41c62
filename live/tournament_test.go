package live_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/verify"
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
	drivePaced(t, clock, 2*time.Millisecond, done)
}

// drivePaced is drive with a given real pause after each quarter of a virtual second. Tests
// that count what happened within a length of virtual time (hands in a timed session) pause
// longer, so a host slowed by a loaded machine (-race, two cores) still keeps pace with the
// clock.
func drivePaced(t *testing.T, clock *live.FakeClock, pause time.Duration, done func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("not done after 90 s (virtual time %s)", clock.Now().Format(time.TimeOnly))
		}
		clock.Advance(250 * time.Millisecond)
		time.Sleep(pause)
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

// checkTournamentBooks: every session balanced and played to its end (its hands, or until
// nobody was left in play), the prizes are the pool, the books sum to zero and verify finds
// nothing.
func checkTournamentBooks(t *testing.T, db *sqlite.DB, h *live.Host, id string, now time.Time, hands int) {
	t.Helper()
	ctx := context.Background()
	v := view(t, h, id)
	if v.Phase != tournament.PhaseFinished {
		t.Fatalf("the tournament is %s", v.Phase)
	}
	rounds := map[int]bool{}
	for _, s := range v.State.Sessions {
		rounds[s.Round] = true
		// A session plays its hands, or ends sooner when nobody at the table is left in play
		// (the cards and the bots' wagers are random: a final of two can bust out early).
		played := s.Hands == hands || s.Reason == "no_players" && s.Hands < hands
		if a := s.Accounting(); !a.Balanced || !played {
			t.Errorf("SPEC 5 round %d table %d: %d hands (ended: %s), %+v", s.Round, s.Table, s.Hands, s.Reason, a)
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
	// House bots hold no money: the house paid their fees and took their prizes back.
	var botFees, botPrizes baccarat.Money
	for _, e := range v.State.Entrants {
		if !e.Bot {
			continue
		}
		botFees += e.Fee
		if b, _ := db.Balance(ctx, ledger.Wallet(e.Player, "XXX")); b != 0 {
			t.Errorf("house bot %s holds %d of money: its books are the house's", e.Player, b)
		}
	}
	for _, r := range v.State.Results {
		if tournament.IsBot(r.Player) {
			botPrizes += r.Prize
		}
	}
	if botFees == 0 {
		t.Errorf("no entrant is marked as a bot: %+v", v.State.Entrants)
	}
	if b, _ := db.Balance(ctx, ledger.House("XXX")); b != botPrizes-botFees {
		t.Errorf("the house holds %d; it paid the bots' fees (%d) and took their prizes (%d)", b, botFees, botPrizes)
	}
	if v.State.Secret == "" || tournament.Commitment(v.State.Seed, v.State.Secret) != v.State.Commitment {
		t.Errorf("over, the tournament reveals the seed %d and secret %q of its commitment %q", v.State.Seed, v.State.Secret, v.State.Commitment)
	}
	rep, err := verify.Database(ctx, db, now)
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
			checkTournamentBooks(t, db, h, "cup", clock.Now(), 3)
			// Over, the tournament lets its lease go and stays listed for its page.
			drive(t, clock, func() bool {
				l, _ := db.Lease(context.Background(), tabletop.Stream("cup"))
				return l.Owner == ""
			})
			if err := h.Register(context.Background(), "cup", "ann"); baccarat.ErrorCode(err) != baccarat.CodeBadState {
				t.Errorf("registering for a finished tournament: %v", err)
			}
			if len(h.Tournaments()) != 1 {
				t.Errorf("the finished tournament is no longer listed")
			}
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
	drive(t, clock, func() bool { // into a hand with wagers on it: the crash lands in a round
		snap, err := h.Snapshot(tabletop.TableID("cup", 2, 1, 1), "")
		if err != nil {
			return false
		}
		st := snap.State
		return st.Phase == table.PhaseDealing || st.Phase == table.PhaseClosed || st.Phase == table.PhaseBetting && len(st.Wagers) > 0
	})
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
	checkTournamentBooks(t, db, h2, "cup", clock2.Now(), 3)
	recs, _ := db.Load(context.Background(), tabletop.TableID("cup", 2, 1, 1), 1)
	interrupted := false
	for _, r := range recs {
		interrupted = interrupted || r.Type == table.EvInterrupted.String()
	}
	if !interrupted {
		t.Error("SPEC 4 the crash did not land in a round: the session's table was never interrupted")
	}
}

// A restarted host may take the tournament up before the lease of one of its tables has
// lapsed (the dead host renewed them at different moments): the tournament must try that
// table again until it gets it, not wait for news from a table nobody runs.
func TestTournamentAdoptsATableWhoseLeaseLapsesAfterItsOwn(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, filepath.Join(t.TempDir(), "live.db"))
	clock := live.NewFakeClock(epoch)
	h := live.New(live.Options{Store: db, Clock: clock, Owner: "a", Shuffle: seededShuffle(5), LeaseTTL: 15 * time.Second})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.CreateTournament(ctx, threeRoundSpec("cup", "rws-no-commission")); err != nil {
		t.Fatal(err)
	}
	drive(t, clock, func() bool {
		v := view(t, h, "cup")
		return v.State.Round == 2 && len(v.Tables) == 1 && v.Tables[0].Live && v.Tables[0].Hands == 1
	})
	h.Abandon()

	// The tournament's lease has lapsed, its table's is held for ten seconds more.
	clock2 := live.NewFakeClock(clock.Now().Add(time.Minute))
	tableID := tabletop.TableID("cup", 2, 1, 1)
	if ok, err := db.Acquire(ctx, tableID, "a", 10*time.Second, clock2.Now()); err != nil || !ok {
		t.Fatalf("holding the table's lease: %v %v", ok, err)
	}
	// Its lease renewed three times a second, the tournament plans its next wake-up more
	// often than its retry's period: that must not put the retry off for ever.
	h2 := live.New(live.Options{Store: db, Clock: clock2, Owner: "b", Shuffle: seededShuffle(6), LeaseTTL: time.Second})
	if err := h2.Open(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h2.Close)
	if _, err := h2.Snapshot(tableID, ""); err == nil {
		t.Fatal("the table was taken while another host's lease held it")
	}
	deadline := time.Now().Add(30 * time.Second)
	for view(t, h2, "cup").Phase != tournament.PhaseFinished {
		if time.Now().After(deadline) {
			t.Fatalf("not finished after 30 s (virtual time %s): the table was never taken up", clock2.Now().Format(time.TimeOnly))
		}
		clock2.Advance(100 * time.Millisecond)
		time.Sleep(time.Millisecond)
	}
	checkTournamentBooks(t, db, h2, "cup", clock2.Now(), 3)
}

func TestTournamentTimedDragonSessionsEndWhenTheirTimeIsUp(t *testing.T) {
	db := openDB(t, "")
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	spec := threeRoundSpec("timed", "mbs-dragon")
	spec.Bots = tabletop.Bots("bot", 4)
	session := tournament.Session{Duration: tournament.Duration(20 * time.Second)}
	spec.Config.MaxEntrants = 4
	spec.Config.Rounds = []tournament.Round{{Sessions: []tournament.Session{session, session}}}
	spec.Config.Rebuy = &tournament.Rebuy{Max: 1, Price: 500, Chips: 10_000, Until: tournament.Point{Round: 1, Session: 2, Hand: 2}}
	if err := h.CreateTournament(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	drivePaced(t, clock, 15*time.Millisecond, func() bool { return view(t, h, "timed").Phase == tournament.PhaseFinished })
	v := view(t, h, "timed")
	if len(v.State.Sessions) != 2 {
		t.Fatalf("sessions: %+v", v.State.Sessions)
	}
	for _, s := range v.State.Sessions {
		if a := s.Accounting(); !a.Balanced || s.Reason != "time" || s.Hands < 2 {
			t.Errorf("Dragon 1.1.13 a session of a length of time: %d hands, ended by %q, %+v", s.Hands, s.Reason, a)
		}
	}
	rep, err := verify.Database(context.Background(), db, clock.Now())
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %v %+v", err, rep)
	}
	for i := 1; i <= 2; i++ { // each session's Dragon bets were settled at its table
		recs, _ := db.Load(context.Background(), tabletop.TableID("timed", 1, 1, i), 1)
		if !hasType(recs, table.EvSessionSettled) {
			t.Errorf("session %d's table never settled its Dragon session", i)
		}
	}
}

func hasType(recs []journal.Record, typ table.EventType) bool {
	for _, r := range recs {
		if r.Type == typ.String() {
			return true
		}
	}
	return false
}

// waitTable waits until the player's session table takes bets.
func waitTable(t *testing.T, h *live.Host, clock *live.FakeClock, id, player string) string {
	t.Helper()
	var tableID string
	drive(t, clock, func() bool {
		v, _ := h.Tournament(context.Background(), id, player)
		if v.Me == nil || v.Me.TableID == "" {
			return false
		}
		tableID = v.Me.TableID
		snap, err := h.Snapshot(tableID, "")
		return err == nil && snap.State.BetOpen && snap.State.Until.Sub(clock.Now()) > time.Second
	})
	return tableID
}

func TestTournamentRegistrationTakesTheFeeFromTheWallet(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	if err := h.CreateTournament(ctx, threeRoundSpec("cup", "mbs-tournament")); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	_ = h.Credit(ctx, "c-ann", "ann", live.PlayMoney, 5000)
	_ = h.Credit(ctx, "c-bob", "bob", live.PlayMoney, 500)
	pool := func() baccarat.Money { b, _ := db.Balance(ctx, live.Pool("cup", "XXX")); return b }
	steps := []struct {
		name   string
		do     func() error
		code   baccarat.Code
		ann    baccarat.Money
		pool   baccarat.Money
		enters int
	}{
		{"SPEC 5 registering pays the entry fee into the pool", func() error { return h.Register(ctx, "cup", "ann") }, "", 4000, 1000, 1},
		{"a second registration is refused and charges nothing", func() error { return h.Register(ctx, "cup", "ann") }, tournament.CodeAlreadyRegistered, 4000, 1000, 1},
		{"a fee beyond the wallet is refused and changes nothing", func() error { return h.Register(ctx, "cup", "bob") }, baccarat.CodeInsufficientFunds, 4000, 1000, 1},
		{"a player account cannot play as a house bot", func() error { return h.Register(ctx, "cup", "bot.bot3") }, baccarat.CodeNotAuthorized, 4000, 1000, 1},
		{"unregistering before the start refunds the fee", func() error { return h.Unregister(ctx, "cup", "ann") }, "", 5000, 0, 0},
		{"registering again", func() error { return h.Register(ctx, "cup", "ann") }, "", 4000, 1000, 1},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := s.do()
			if baccarat.ErrorCode(err) != s.code && !(s.code == "" && err == nil) {
				t.Fatalf("error %v, want code %q", err, s.code)
			}
			if got := balance(t, h, "ann"); got != s.ann || pool() != s.pool || len(view(t, h, "cup").State.Entrants) != s.enters {
				t.Fatalf("ann %d, pool %d, entrants %d; want %d, %d, %d", got, pool(), len(view(t, h, "cup").State.Entrants), s.ann, s.pool, s.enters)
			}
		})
	}
	tableID := waitTable(t, h, clock, "cup", "ann")
	place := func(player, bet string, stake baccarat.Money) error {
		_, err := h.Submit(ctx, tableID, &table.Place{Header: table.Header{Actor: player, Role: table.RolePlayer}, Player: player, Bet: bet, Stake: stake})
		return err
	}
	for _, c := range []struct {
		name, player, bet string
		stake             baccarat.Money
		code              baccarat.Code
	}{
		{"SPEC 5 a seated player bets in chips", "ann", "banker", 1500, ""},
		{"SPEC 5 a hand's stakes total at most the maximum", "ann", "tie", 600, baccarat.CodeAboveMaximum},
		{"SPEC 5 every wager is at least the minimum", "ann", "tie", 50, baccarat.CodeBelowMinimum},
		{"only the session's players bet at its table", "bob", "banker", 100, tournament.CodeNotAtTable},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := place(c.player, c.bet, c.stake); baccarat.ErrorCode(err) != c.code && !(c.code == "" && err == nil) {
				t.Fatalf("got %v, want %q", err, c.code)
			}
		})
	}
	me, _ := h.Tournament(ctx, "cup", "ann")
	if me.Me == nil || me.Me.Available != 10_000-1500 || me.Me.Chips != 10_000 || me.Me.Rank == 0 || me.Me.Balance != 4000 {
		t.Fatalf("ann's view: %+v", me.Me)
	}
	drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseFinished })
	if rep, err := verify.Database(ctx, db, clock.Now()); err != nil || !rep.OK() {
		t.Fatalf("verify: %v %+v", err, rep)
	}
}

// TestTournamentBotsDrawFromACommittedSecret: while the tournament runs, what anyone can read
// of it holds the commitment of its seating seed and house secret, never the two, so nothing
// predicts a bot's wager or a later round's seats; they are revealed once it is over.
func TestTournamentBotsDrawFromACommittedSecret(t *testing.T) {
	db := openDB(t, "")
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	if err := h.CreateTournament(context.Background(), threeRoundSpec("cup", "mbs-tournament")); err != nil {
		t.Fatal(err)
	}
	drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseRunning })
	v := view(t, h, "cup")
	raw, _ := json.Marshal(v)
	if v.State.Commitment == "" || v.State.Secret != "" || v.State.Seed != 0 || strings.Contains(string(raw), `"secret"`) || strings.Contains(string(raw), `"seed"`) {
		t.Fatalf("running, the tournament shows its commitment only: %s", raw)
	}
	for _, b := range v.Bots {
		if !tournament.IsBot(b) {
			t.Errorf("bot %q is not in the house bots' namespace", b)
		}
	}
	drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseFinished })
	v = view(t, h, "cup")
	if len(v.State.Secret) != 64 || tournament.Commitment(v.State.Seed, v.State.Secret) != v.State.Commitment {
		t.Fatalf("finished: seed %d secret %q do not open commitment %q", v.State.Seed, v.State.Secret, v.State.Commitment)
	}
}
