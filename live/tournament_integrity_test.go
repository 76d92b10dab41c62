package live_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/verify"
)

// TestTournamentNamesAndChipsAreReserved: a session table's id and a tournament's chips
// belong to the tournament; an admin's table may take neither, nor pass for a session.
func TestTournamentNamesAndChipsAreReserved(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	h := newHost(t, db, live.NewFakeClock(epoch))
	session := &tabletop.Session{Tournament: "cup", Round: 1, Table: 1, Session: 1, Players: []string{"ann"}}
	for _, c := range []struct {
		name string
		spec live.Spec
	}{
		{"a session table's id, before its tournament exists", live.Spec{ID: "cup-r1t1s1", Config: table.Config{Game: "mbs-tiger"}}},
		{"a session table's id, any tournament's", live.Spec{ID: "x-r12t3s9", Config: table.Config{Game: "mbs-tiger"}}},
		{"a tournament's chips at an ordinary table", live.Spec{ID: "chips", Currency: ledger.Chips("cup"), Config: table.Config{Game: "mbs-tournament"}}},
		{"a session claimed from outside its tournament", live.Spec{ID: "cup-r1t1s1", Currency: ledger.Chips("cup"), Tournament: session, Config: table.Config{Game: "mbs-tournament"}}},
		{"a session under another table's id", live.Spec{ID: "mine", Currency: ledger.Chips("cup"), Tournament: session, Config: table.Config{Game: "mbs-tournament"}}},
		{"a tournament's journal's id", live.Spec{ID: "tournament-cup", Config: table.Config{Game: "mbs-tiger"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := h.Create(ctx, c.spec); baccarat.ErrorCode(err) != baccarat.CodeReserved {
				t.Fatalf("created, or refused for another reason: %v", err)
			}
			if head, _ := db.Head(ctx, c.spec.ID); head.Seq != 0 {
				t.Fatalf("a refused table was journalled")
			}
		})
	}
	for _, id := range []string{"cup-r1t1", "cup-r0t1s1", "cup-r1t1s01", "r1t1s1", "cup-r1t1s1x"} {
		if _, _, _, _, ok := tabletop.ParseTableID(id); ok {
			t.Errorf("%s is not a session table's id", id)
		}
	}
}

// squat journals a table as a server of an older version could: one that takes an id or a
// currency that now belongs to a tournament.
func squat(t *testing.T, db live.Store, spec live.Spec) {
	t.Helper()
	spec.Mode, spec.Config.Mode, spec.Config.Currency = live.ModeAuto, table.ModeAuto, string(spec.Currency)
	data, _ := json.Marshal(spec)
	rec := journal.Seal(journal.Head{}, journal.Record{Table: spec.ID, Seq: 1, Type: "table_created", Data: data, At: epoch})
	if err := db.Commit(context.Background(), journal.Batch{Records: []journal.Record{rec}}); err != nil {
		t.Fatal(err)
	}
	for _, acct := range []string{ledger.InPlay(spec.ID, spec.Currency), ledger.House(spec.Currency)} {
		if err := db.OpenAccount(context.Background(), acct); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTournamentAdoptsOnlyTheTablesItCreated: a table journalled under a session's id before
// its tournament ran (by an older version) is not the session: the tournament does not
// adopt it, says it cannot go on, verify reports both the table and the stalled tournament,
// and an admin's cancellation refunds every entrant and leaves the books clean.
func TestTournamentAdoptsOnlyTheTablesItCreated(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	squat(t, db, live.Spec{ID: tabletop.TableID("cup", 1, 1, 1), Currency: live.PlayMoney, Config: table.Config{Game: "mbs-tiger"}})
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	spec := threeRoundSpec("cup", "mbs-tournament")
	spec.Bots = tabletop.Bots("bot", 3)
	if err := h.CreateTournament(ctx, spec); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	_ = h.Credit(ctx, "c-ann", "ann", live.PlayMoney, 5000)
	if err := h.Register(ctx, "cup", "ann"); err != nil {
		t.Fatal(err)
	}
	drive(t, clock, func() bool { return len(view(t, h, "cup").Problems) > 0 })
	v := view(t, h, "cup")
	if !strings.Contains(v.Problems[0].What, "not created by this tournament") {
		t.Fatalf("problems: %+v", v.Problems)
	}
	if recs, _ := db.Load(ctx, tabletop.TableID("cup", 1, 1, 1), 2); len(recs) != 0 {
		t.Fatalf("the squatted table was played: %d records", len(recs))
	}
	for end := clock.Now().Add(3 * time.Minute); clock.Now().Before(end); { // the host renews its leases meanwhile
		clock.Advance(time.Second)
		time.Sleep(time.Millisecond)
	}
	rep, err := verify.Database(ctx, db, clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !hasProblem(rep, "that tournament did not create it") || !hasProblem(rep, "stalled") {
		t.Fatalf("verify: %+v", rep.Problems)
	}
	if err := h.CancelTournament(ctx, "cup", ""); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Fatalf("a cancellation without a reason: %v", err)
	}
	if err := h.CancelTournament(ctx, "cup", "a table cannot be played"); err != nil {
		t.Fatal(err)
	}
	drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseCancelled })
	if got := balance(t, h, "ann"); got != 5000 {
		t.Errorf("ann has %d after the cancellation, want all 5000 back", got)
	}
	if err := h.CancelTournament(ctx, "cup", "again"); baccarat.ErrorCode(err) != baccarat.CodeBadState {
		t.Errorf("cancelling twice: %v", err)
	}
}

func hasProblem(rep verify.Report, s string) bool {
	for _, p := range rep.Problems {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// TestCancellingARunningTournamentStopsPlayAndRefundsAll: mid-session, with wagers on the
// layout, an admin's cancellation voids the round in play, hands every chip back and refunds
// each entrant all they paid; verify finds the books clean.
func TestCancellingARunningTournamentStopsPlayAndRefundsAll(t *testing.T) {
	for _, game := range []string{"mbs-tournament", "rws-no-commission", "mbs-dragon"} {
		t.Run("SPEC 5 "+game, func(t *testing.T) {
			ctx := context.Background()
			db := openDB(t, "")
			clock := live.NewFakeClock(epoch)
			h := newHost(t, db, clock)
			spec := threeRoundSpec("cup", game)
			spec.Bots = tabletop.Bots("bot", 7)
			spec.Schedule.Betting = time.Hour // ann's wager lands in betting however slow the machine
			if err := h.CreateTournament(ctx, spec); err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Second)
			_ = h.Credit(ctx, "c-ann", "ann", live.PlayMoney, 5000)
			if err := h.Register(ctx, "cup", "ann"); err != nil {
				t.Fatal(err)
			}
			tableID := waitTable(t, h, clock, "cup", "ann")
			if _, err := h.Submit(ctx, tableID, &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "player", Stake: 500}); err != nil {
				t.Fatal(err)
			}
			if err := h.CancelTournament(ctx, "cup", "the pit calls it off"); err != nil {
				t.Fatal(err)
			}
			drive(t, clock, func() bool { return view(t, h, "cup").Phase == tournament.PhaseCancelled })
			v := view(t, h, "cup")
			if got := balance(t, h, "ann"); got != 5000 {
				t.Errorf("ann has %d, want her 5000 back", got)
			}
			for _, e := range v.State.Entrants {
				if b, _ := db.Balance(ctx, ledger.Wallet(e.Player, ledger.Chips("cup"))); b != 0 {
					t.Errorf("%s still holds %d chips", e.Player, b)
				}
			}
			for _, acct := range []string{live.Pool("cup", "XXX"), ledger.House(ledger.Chips("cup"))} {
				if b, _ := db.Balance(ctx, acct); b != 0 {
					t.Errorf("%s holds %d after the cancellation", acct, b)
				}
			}
			if b, _ := db.Balance(ctx, ledger.House("XXX")); b != -5000 { // ann's credit; the bots' fees came back
				t.Errorf("the house holds %d after the cancellation, want -5000 (ann's credit)", b)
			}
			if _, err := h.Submit(ctx, tableID, &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "player", Stake: 500}); err == nil {
				t.Error("a wager was taken at a cancelled tournament's table")
			}
			rep, err := verify.Database(ctx, db, clock.Now())
			if err != nil || !rep.OK() {
				t.Fatalf("verify: %v %+v", err, rep.Problems)
			}
		})
	}
}

// TestTournamentStakesAreTheTournaments: a tournament's table refuses every change of its
// limits or differential, by the pit or an admin, a pause or a close, and a wager below the
// tournament's minimum.
func TestTournamentStakesAreTheTournaments(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, "")
	clock := live.NewFakeClock(epoch)
	h := newHost(t, db, clock)
	spec := threeRoundSpec("cup", "mbs-tournament")
	spec.Bots = tabletop.Bots("bot", 7)
	spec.Schedule.Betting = time.Hour // the wager below the minimum lands in betting however slow the machine
	if err := h.CreateTournament(ctx, spec); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	_ = h.Credit(ctx, "c-ann", "ann", live.PlayMoney, 5000)
	if err := h.Register(ctx, "cup", "ann"); err != nil {
		t.Fatal(err)
	}
	tableID := waitTable(t, h, clock, "cup", "ann")
	for _, c := range []struct {
		name string
		cmd  table.Command
		code baccarat.Code
	}{
		{"the pit cannot lower the minimum", &table.SetLimit{Header: table.Header{Actor: "pit-1", Role: table.RolePit}, Bet: "banker", Min: 1, Max: 2000}, baccarat.CodeNotAuthorized},
		{"nor an admin (the pit role at a table)", &table.SetLimit{Header: table.Header{Actor: "admin", Role: table.RolePit}, Bet: "banker", Min: 1, Max: 2000}, baccarat.CodeNotAuthorized},
		{"nor an area's limit", &table.SetAreaLimit{Header: table.Header{Actor: "pit-1", Role: table.RolePit}, Limit: 1}, baccarat.CodeNotAuthorized},
		{"nor the differential", &table.SetDifferential{Header: table.Header{Actor: "pit-1", Role: table.RolePit}, Amount: 1}, baccarat.CodeNotAuthorized},
		{"nor is the table paused: its tournament paces it", &table.Pause{Header: table.Header{Actor: "pit-1", Role: table.RolePit, Reason: "break"}}, baccarat.CodeNotAuthorized},
		{"nor closed: its tournament retires it", &table.CloseTable{Header: table.Header{Actor: "pit-1", Role: table.RolePit, Reason: "night"}}, baccarat.CodeNotAuthorized},
		{"a wager below the tournament's minimum", &table.Place{Header: table.Header{Actor: "ann", Role: table.RolePlayer}, Player: "ann", Bet: "banker", Stake: 1}, baccarat.CodeBelowMinimum},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, _ := db.Head(ctx, tableID)
			if _, err := h.Submit(ctx, tableID, c.cmd); baccarat.ErrorCode(err) != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			// The house's bots go on betting meanwhile: nothing of the refused command's
			// actor may be in the journal since.
			recs, _ := db.Load(ctx, tableID, before.Seq+1)
			for _, r := range recs {
				var e table.Event
				if json.Unmarshal(r.Data, &e) == nil && e.Actor == c.cmd.Head().Actor {
					t.Fatalf("the refusal was journalled: %s", r.Data)
				}
			}
		})
	}
}
