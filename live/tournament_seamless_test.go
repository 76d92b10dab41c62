package live_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless/refwallet"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/verify"
)

// euroCup: a tournament in EUR with an entry fee of 10.00, a guarantee of 80.00, 1,000 chips
// each and stakes of 100 to 1,000 (a player can lose every chip on one hand), a rebuy of
// 5.00 for 1,000 chips until the third hand of round 1; six bots fill the entries up to six,
// at two tables of three; the top two of each go to a final of four.
func euroCup(id string) live.TournamentSpec {
	cfg := tournament.Config{ID: id, Name: "Euro " + id, Game: "mbs-tournament", Currency: "EUR", EntryFee: 1000, Guarantee: 8000,
		StartingChips: 1000, MaxEntrants: 8, TableSize: 4,
		RegistrationOpens: epoch, RegistrationCloses: epoch.Add(30 * time.Second), Start: epoch.Add(30 * time.Second),
		Break:  tournament.Duration(2 * time.Second),
		Stakes: tournament.Stakes{Min: 100, Max: 1000, Required: true},
		Rounds: []tournament.Round{{Hands: 4, Advance: 2}, {Hands: 3}}, Prizes: []int{7000, 3000},
		Rebuy: &tournament.Rebuy{Max: 1, Price: 500, Chips: 1000, Until: tournament.Point{Round: 1, Session: 1, Hand: 3}}}
	return live.TournamentSpec{Config: cfg, Schedule: tournamentPace, Bots: tabletop.Bots("bot", 6)}
}

func newSeamlessTourneyHost(t *testing.T, db walletStore, op *operator, clock live.Clock, owner string) *live.Host {
	t.Helper()
	h := live.New(live.Options{Store: db, Clock: clock, Owner: owner, Shuffle: seededShuffle(1), Operator: op.client, Outbox: fastOutbox})
	if err := h.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

func TestTournamentSeamlessFeesRebuysRefundsAndPrizesAreTheOperators(t *testing.T) {
	stores(t, testTournamentSeamless)
}

func testTournamentSeamless(t *testing.T, db walletStore) {
	ctx := context.Background()
	opening := map[string]baccarat.Money{"ann": 10_000, "bob": 10_000, "cat": 10_000, "dan": 500, "eve": 10_000, "fay": 10_000}
	op := newOperator(t, opening, "EUR")
	clock := live.NewFakeClock(epoch)
	h := newSeamlessTourneyHost(t, db, op, clock, "test")
	if err := h.CreateTournament(ctx, euroCup("cup")); err != nil {
		t.Fatal(err)
	}
	if v := view(t, h, "cup"); v.Wallet != live.WalletSeamless {
		t.Fatalf("a EUR tournament in a seamless deployment keeps its money in the %q wallet", v.Wallet)
	}
	clock.Advance(time.Second)
	entrants := func() int { return len(view(t, h, "cup").State.Entrants) }
	steps := []struct {
		name   string
		do     func() error
		code   baccarat.Code
		player string
		at     baccarat.Money // the player's balance at the operator after it
		enters int
	}{
		{"registering debits the entry fee at the operator", func() error { return h.Register(ctx, "cup", "ann") }, "", "ann", 9_000, 1},
		{"a second registration is refused before any call", func() error { return h.Register(ctx, "cup", "ann") }, tournament.CodeAlreadyRegistered, "ann", 9_000, 1},
		{"a debit the operator refuses refuses the registration", func() error { return h.Register(ctx, "cup", "dan") }, baccarat.CodeInsufficientFunds, "dan", 500, 1},
		{"bob registers", func() error { return h.Register(ctx, "cup", "bob") }, "", "bob", 9_000, 2},
		{"cat registers", func() error { return h.Register(ctx, "cup", "cat") }, "", "cat", 9_000, 3},
		{"eve registers", func() error { return h.Register(ctx, "cup", "eve") }, "", "eve", 9_000, 4},
		{"unregistering before the start rolls the entry's debit back", func() error { return h.Unregister(ctx, "cup", "eve") }, "", "eve", 10_000, 3},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			err := s.do()
			if baccarat.ErrorCode(err) != s.code && !(s.code == "" && err == nil) {
				t.Fatalf("error %v, want code %q", err, s.code)
			}
			settledOutbox(t, db)
			if got := op.balance(t, s.player, "EUR"); got != s.at || entrants() != s.enters {
				t.Fatalf("%s at the operator %d, entrants %d; want %d, %d", s.player, got, entrants(), s.at, s.enters)
			}
		})
	}
	t.Run("a debit without an answer is given back and the registration refused", func(t *testing.T) {
		_ = op.srv.SetFaults(refwallet.Faults{LoseP: 1})
		err := h.Register(ctx, "cup", "fay")
		_ = op.srv.SetFaults(refwallet.Faults{})
		wantCode(t, err, baccarat.CodeWalletUnavailable)
		drive(t, clock, func() bool { // the rollback's retries wait on the host's clock
			open, _ := db.Calls(ctx, journal.CallFilter{Open: true})
			return len(open) == 0
		})
		if got := op.balance(t, "fay", "EUR"); got != 10_000 || entrants() != 3 {
			t.Fatalf("fay at the operator %d, entrants %d", got, entrants())
		}
	})

	// ann stakes all her chips on a pair bet that the shoe's next cards will not make, and
	// rebuys; bob, who is not busted, may not.
	tableID := waitTable(t, h, clock, "cup", "ann")
	bet := missingPair(t, h, db, tableID)
	if _, err := h.Submit(ctx, tableID, &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: bet, Stake: 1000}); err != nil {
		t.Fatal(err)
	}
	drive(t, clock, func() bool {
		v, _ := h.Tournament(ctx, "cup", "ann")
		return v.Me != nil && v.Me.Busted
	})
	if err := h.Rebuy(ctx, "cup", "bob"); baccarat.ErrorCode(err) != tournament.CodeNotBusted {
		t.Fatalf("bob's rebuy: %v", err)
	}
	if err := h.Rebuy(ctx, "cup", "ann"); err != nil {
		t.Fatalf("ann's rebuy: %v", err)
	}
	if got := op.balance(t, "ann", "EUR"); got != 8_500 {
		t.Fatalf("after the rebuy ann holds %d at the operator, want 8500", got)
	}
	if me, _ := h.Tournament(ctx, "cup", "ann"); me.Me.Chips != 1000 || me.Me.Rebuys != 1 || me.Me.Balance != 8_500 {
		t.Fatalf("ann's view after the rebuy: %+v", me.Me)
	}

	drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseFinished })
	settledOutbox(t, db)
	v := view(t, h, "cup")
	prize := map[string]baccarat.Money{}
	for _, r := range v.State.Results {
		prize[r.Player] = r.Prize
	}
	if v.State.Pool.Total != 8000 && v.State.Pool.TopUp != 0 {
		t.Errorf("the pool %+v: topped up to a total other than the guarantee", v.State.Pool)
	}
	paid := map[string]baccarat.Money{"ann": 1500, "bob": 1000, "cat": 1000}
	var prizes baccarat.Money
	for p, open := range opening {
		want := open - paid[p] + prize[p]
		if paid[p] > 0 {
			prizes += prize[p]
		}
		if got := op.balance(t, p, "EUR"); got != want {
			t.Errorf("%s at the operator: %d, want %d − %d paid + %d prize", p, got, open, paid[p], prize[p])
		}
	}
	t.Logf("pool %+v; prizes %v; ann lost on %s and rebought", v.State.Pool, prize, bet)
	checkOperatorBooks(t, op, db)
	// Our books hold none of its money: no pool, no house top-up, no prizes.
	for _, acct := range []string{live.Pool("cup", "EUR"), ledger.House("EUR"), ledger.Wallet("ann", "EUR"), ledger.House(ledger.Chips("cup"))} {
		if b, err := db.Balance(ctx, acct); err == nil && b != 0 {
			t.Errorf("%s holds %d", acct, b)
		}
	}
	rep := verifyClean(t, db)
	if rep.Tournaments != 1 {
		t.Fatalf("verify checked %d tournaments", rep.Tournaments)
	}
	checkTournamentCalls(t, db, prizes)
}

// checkTournamentCalls: the tournament's calls, as Reconcile lays them beside its journal
// and as they are: five debits placed (ann's entry and rebuy, bob's, cat's, eve's), eve's
// rolled back, the other four closed by credits summing to the players' prizes.
func checkTournamentCalls(t *testing.T, db walletStore, prizes baccarat.Money) {
	t.Helper()
	ctx := context.Background()
	rec, err := verify.Reconcile(ctx, db, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Tournaments) != 1 {
		t.Fatalf("reconciliation: tournaments %+v", rec.Tournaments)
	}
	tc := rec.Tournaments[0]
	if len(tc.Problems) != 0 || tc.Phase != tournament.PhaseFinished || tc.Paid != 4500 || tc.Debited != 4500 ||
		tc.Refunded != 1000 || tc.RolledBack != 1000 || tc.Prizes != prizes || tc.Credited != prizes {
		t.Fatalf("reconciliation of the tournament: %+v", tc)
	}
	calls, _ := db.Calls(ctx, journal.CallFilter{})
	count := map[journal.CallKind]int{}
	for _, c := range calls {
		if c.Table == tabletop.Stream("cup") && (c.Kind != journal.CallDebit || c.State == journal.CallPlaced) {
			count[c.Kind]++
		}
	}
	if count[journal.CallDebit] != 5 || count[journal.CallCredit] != 4 || count[journal.CallRollback] != 2 { // eve's, fay's given back
		t.Fatalf("the tournament's calls: %v", count)
	}
}

// missingPair is a pair bet the next round at the table loses: the shoe's order is in the
// table's journal (the commitment's secret), and the round's first four cards are the next
// four of it.
func missingPair(t *testing.T, h *live.Host, db walletStore, tableID string) string {
	t.Helper()
	snap, err := h.Snapshot(tableID, "")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := db.Load(context.Background(), tableID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var order []baccarat.Card
	for _, r := range recs {
		if r.Type != table.EvShoeStarted.String() {
			continue
		}
		var e table.Event
		if err := json.Unmarshal(r.Data, &e); err != nil {
			t.Fatal(err)
		}
		if s := e.Shoe(); s != nil && s.Number == snap.State.Shoe.Number {
			order = s.Order
		}
	}
	next := len(order) - snap.State.Shoe.Left
	if order == nil || next+4 > len(order) {
		t.Fatalf("no order for shoe %d (%d left)", snap.State.Shoe.Number, snap.State.Shoe.Left)
	}
	p1, b1, p2, b2 := order[next], order[next+1], order[next+2], order[next+3]
	switch {
	case p1.Rank() != p2.Rank():
		return "player_pair"
	case b1.Rank() != b2.Rank():
		return "banker_pair"
	}
	t.Skip("both hands of the next round pair: no bet is sure to lose")
	return ""
}

// stallingStore stalls, while armed, the commit that would place a debit until its host
// stops: a server that dies between the operator's debit and the commit of what it paid for.
type stallingStore struct {
	walletStore
	armed   atomic.Bool
	reached chan struct{}
}

func (s *stallingStore) Commit(ctx context.Context, b journal.Batch) error {
	if s.armed.Load() && len(b.Placed) > 0 {
		s.reached <- struct{}{}
		<-ctx.Done()
		return ctx.Err()
	}
	return s.walletStore.Commit(ctx, b)
}

func TestTournamentSeamlessDebitLeftByACrashIsGivenBack(t *testing.T) {
	stores(t, testTournamentSeamlessCrash)
}

func testTournamentSeamlessCrash(t *testing.T, db walletStore) {
	ctx := context.Background()
	op := newOperator(t, map[string]baccarat.Money{"ann": 10_000, "bob": 10_000}, "EUR")
	store := &stallingStore{walletStore: db, reached: make(chan struct{}, 1)}
	clock := live.NewFakeClock(epoch)
	h := live.New(live.Options{Store: store, Clock: clock, Owner: "a", Shuffle: seededShuffle(1), Operator: op.client, Outbox: fastOutbox})
	if err := h.Open(ctx); err != nil {
		t.Fatal(err)
	}
	spec := euroCup("cup")
	spec.Config.RegistrationCloses, spec.Config.Start = epoch.Add(time.Hour), epoch.Add(time.Hour)
	if err := h.CreateTournament(ctx, spec); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	if err := h.Register(ctx, "cup", "bob"); err != nil {
		t.Fatal(err)
	}
	// ann's debit is taken; the server dies before the commit of her registration.
	store.armed.Store(true)
	annCtx, gone := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- h.Register(annCtx, "cup", "ann") }()
	<-store.reached
	gone() // the player's connection goes with the server
	if err := <-done; err == nil {
		t.Fatal("a registration whose commit never happened was acknowledged")
	}
	h.Abandon()
	if got := op.balance(t, "ann", "EUR"); got != 9_000 {
		t.Fatalf("the operator took ann's debit: %d", got)
	}
	pending, _ := db.Calls(ctx, journal.CallFilter{Open: true})
	if len(pending) != 1 || pending[0].Kind != journal.CallDebit || pending[0].Player != "ann" {
		t.Fatalf("open calls after the crash: %+v", pending)
	}

	// The next server gives the debit back once it is stale; ann's registration never
	// happened, and she may register again.
	clock2 := live.NewFakeClock(clock.Now().Add(time.Minute))
	h2 := newSeamlessTourneyHost(t, db, op, clock2, "b")
	settledOutbox(t, db)
	if got := op.balance(t, "ann", "EUR"); got != 10_000 {
		t.Fatalf("after the give-back ann holds %d at the operator", got)
	}
	if c, _ := db.Call(ctx, pending[0].Tx); c.State != journal.CallCancelled {
		t.Fatalf("the debit is %s", c.State)
	}
	if v := view(t, h2, "cup"); len(v.State.Entrants) != 1 {
		t.Fatalf("entrants after the crash: %+v", v.State.Entrants)
	}
	verifyClean(t, db)
	if err := h2.Register(ctx, "cup", "ann"); err != nil {
		t.Fatal(err)
	}
	if got := op.balance(t, "ann", "EUR"); got != 9_000 || len(view(t, h2, "cup").State.Entrants) != 2 {
		t.Fatalf("ann's second try: %d at the operator", got)
	}
	verifyClean(t, db)
	checkOperatorBooks(t, op, db)
}

func TestTournamentSeamlessCancellationRollsEveryEntryBack(t *testing.T) {
	stores(t, func(t *testing.T, db walletStore) {
		ctx := context.Background()
		op := newOperator(t, map[string]baccarat.Money{"ann": 10_000}, "EUR")
		clock := live.NewFakeClock(epoch)
		h := newSeamlessTourneyHost(t, db, op, clock, "test")
		spec := euroCup("few")
		spec.Bots = nil // ann alone: fewer than the two it takes to start
		if err := h.CreateTournament(ctx, spec); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Second)
		if err := h.Register(ctx, "few", "ann"); err != nil {
			t.Fatal(err)
		}
		if got := op.balance(t, "ann", "EUR"); got != 9_000 {
			t.Fatalf("ann at the operator after registering: %d", got)
		}
		drive(t, clock, func() bool { return view(t, h, "few").Phase == tournament.PhaseCancelled })
		settledOutbox(t, db)
		if got := op.balance(t, "ann", "EUR"); got != 10_000 {
			t.Fatalf("ann at the operator after the cancellation: %d", got)
		}
		verifyClean(t, db)
		checkOperatorBooks(t, op, db)
		rec, err := verify.Reconcile(ctx, db, time.Time{}, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Tournaments) != 1 || len(rec.Tournaments[0].Problems) != 0 || rec.Tournaments[0].RolledBack != 1000 || rec.Tournaments[0].Refunded != 1000 {
			t.Fatalf("reconciliation: %+v", rec.Tournaments)
		}
	})
}

func TestTournamentSeamlessNeedsAnEntryFee(t *testing.T) {
	op := newOperator(t, nil, "EUR")
	h := newSeamlessTourneyHost(t, openDB(t, ""), op, live.NewFakeClock(epoch), "test")
	spec := euroCup("free")
	spec.Config.EntryFee = 0
	wantCode(t, h.CreateTournament(context.Background(), spec), baccarat.CodeBadRequest)
	spec.Wallet = live.WalletInternal // a freeroll keeps its money, the guarantee, in our books
	if err := h.CreateTournament(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	spec = euroCup("xxx")
	spec.Config.Currency = "XXX"
	if err := h.CreateTournament(context.Background(), spec); err != nil || view(t, h, "xxx").Wallet != live.WalletInternal {
		t.Fatalf("a play-money tournament in a seamless deployment: %v", err)
	}
}
