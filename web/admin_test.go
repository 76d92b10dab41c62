package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/web"
)

// audit reads the audit trail as the admin.
func (f *fixture) audit(query string) []backoffice.Entry {
	f.t.Helper()
	var out []backoffice.Entry
	if code := f.do("admin", "GET", "/api/admin/audit"+query, nil, &out); code != 200 {
		f.t.Fatalf("audit%s: %d", query, code)
	}
	return out
}

func TestBackOfficeCreditsAndDebitsLandWithTheirEntries(t *testing.T) {
	f := newFixture(t)
	var e apiError
	var out struct{ Balance baccarat.Money }
	if code := f.do("admin", "POST", "/api/admin/accounts/ann/credit", map[string]any{"amount": 5000, "key": "dep-1", "reason": "cash at the cage"}, &out); code != 200 || out.Balance != 105_000 {
		t.Fatalf("credit: %d %+v", code, out)
	}
	if code := f.do("admin", "POST", "/api/admin/accounts/ann/debit", map[string]any{"amount": 2000, "key": "wd-1", "reason": "withdrawal"}, &out); code != 200 || out.Balance != 103_000 {
		t.Fatalf("debit: %d %+v", code, out)
	}
	// The same debit again changes nothing and records nothing; one without a reason, or for
	// more than the wallet holds, is refused and records nothing.
	f.do("admin", "POST", "/api/admin/accounts/ann/debit", map[string]any{"amount": 2000, "key": "wd-1", "reason": "withdrawal"}, &out)
	if code := f.do("admin", "POST", "/api/admin/accounts/ann/debit", map[string]any{"amount": 1, "key": "wd-2"}, &e); code != 400 {
		t.Fatalf("a debit without a reason: %d %+v", code, e)
	}
	if code := f.do("admin", "POST", "/api/admin/accounts/ann/debit", map[string]any{"amount": 1_000_000, "key": "wd-3", "reason": "too much"}, &e); code != 402 {
		t.Fatalf("a debit beyond the balance: %d %+v", code, e)
	}
	if got := f.balance("ann"); got != 103_000 {
		t.Fatalf("ann's balance as the host tells it: %d, want 103000", got)
	}
	log := f.audit("?action=wallet.")
	if len(log) != 2 || log[0].Action != backoffice.ActWalletDebit || log[0].Reason != "withdrawal" || log[0].Actor != "admin" ||
		log[1].Action != backoffice.ActWalletCredit || log[1].Reason != "cash at the cage" || log[1].Target != "ann" {
		t.Fatalf("wallet entries: %+v", log)
	}
	// A dealer may do neither.
	if code := f.do("dealer", "POST", "/api/admin/accounts/ann/debit", map[string]any{"amount": 1, "reason": "x"}, &e); code != 403 {
		t.Fatalf("a dealer's debit: %d", code)
	}
}

func TestBackOfficeAccountChangesAreRecordedAndTakeEffect(t *testing.T) {
	f := newFixture(t)
	var made web.AccountView
	if code := f.do("admin", "POST", "/api/admin/accounts", map[string]any{"id": "lin", "name": "Lin", "role": "dealer", "tables": []string{"tiger"}, "reason": "new hire"}, &made); code != 201 || made.Token == "" {
		t.Fatalf("create: %d %+v", code, made)
	}
	f.tokens["lin"] = made.Token
	if code := f.do("lin", "GET", "/api/me", nil, nil); code != 200 {
		t.Fatalf("lin signs in: %d", code)
	}
	if code := f.do("admin", "PATCH", "/api/admin/accounts/lin", map[string]any{"tables": []string{"tiger", "rws"}, "reason": "covers RWS"}, nil); code != 200 {
		t.Fatalf("assign: %d", code)
	}
	if code := f.do("admin", "PATCH", "/api/admin/accounts/lin", map[string]any{"disabled": true, "reason": "left"}, nil); code != 200 {
		t.Fatalf("disable: %d", code)
	}
	if code := f.do("lin", "GET", "/api/me", nil, nil); code != 401 {
		t.Fatalf("a disabled account's token still works: %d", code)
	}
	log := f.audit("?target=lin")
	want := []backoffice.Action{backoffice.ActAccountDisable, backoffice.ActAccountUpdate, backoffice.ActAccountCreate}
	if len(log) != len(want) {
		t.Fatalf("entries %+v", log)
	}
	for i, a := range want {
		if log[i].Action != a {
			t.Fatalf("entry %d is %s, want %s: %+v", i, log[i].Action, a, log)
		}
	}
	if !strings.Contains(string(log[1].Detail), `"rws"`) || log[0].Reason != "left" {
		t.Fatalf("the entries do not say what changed and why: %+v", log)
	}
	if f.do("admin", "POST", "/api/admin/accounts/ann/revoke", map[string]any{"reason": "lost phone"}, nil) != 200 ||
		f.do("admin", "POST", "/api/admin/accounts/bob/token", nil, nil) != 200 {
		t.Fatal("revoke or token refused")
	}
	if got := f.audit("?action=account."); len(got) != 5 || got[0].Action != backoffice.ActAccountToken || got[1].Action != backoffice.ActAccountRevoke || got[1].Reason != "lost phone" {
		t.Fatalf("account entries: %+v", got)
	}
	var found []map[string]any
	if f.do("admin", "GET", "/api/admin/search/accounts?q=LI", nil, &found); len(found) != 1 || found[0]["id"] != "lin" {
		t.Fatalf("search: %v", found)
	}
}

// playRound plays a Tiger round at the dealer table: ann on Banker, bob on Player.
func (f *fixture) playRound(table string, annStake, bobStake baccarat.Money, cards ...string) {
	f.t.Helper()
	f.dealer(table, map[string]any{"cmd": "open"})
	for who, st := range map[string]baccarat.Money{"ann": annStake, "bob": bobStake} {
		bet := map[string]string{"ann": "banker", "bob": "player"}[who]
		var e apiError
		if code := f.do(who, "POST", "/api/tables/"+table+"/wagers", map[string]any{"bet": bet, "stake": st}, &e); code != 200 {
			f.t.Fatalf("%s wagers: %d %+v", who, code, e)
		}
	}
	f.dealer(table, map[string]any{"cmd": "close"})
	f.cards(table, cards...)
}

func TestBackOfficeRecallReportAndTheBooksAgree(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.playRound("tiger", 1000, 500, "2h", "3d", "3c", "3s", "9d") // Banker 6 over Player 5: Tiger 4.1 pays 1:2
	f.playRound("tiger", 700, 300, "9h", "2c", "Kd", "Qs")        // a Player natural 9
	// The pit voids the third round after the wagers, with a note.
	f.dealer("tiger", map[string]any{"cmd": "open"})
	f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 400}, nil)
	var voided struct{ Events []table.Event }
	if code := f.do("pit", "POST", "/api/admin/tables/tiger/void", map[string]any{"reason": "dealer_error", "note": "card on the floor"}, &voided); code != 200 || len(voided.Events) == 0 {
		t.Fatalf("void: %d %+v", code, voided)
	}
	// The recall finds the round by number, by wager and by a ledger key, whether or not the
	// aggregator folded it yet (it folds the table on demand).
	var rc web.RoundRecall
	if code := f.do("pit", "GET", "/api/admin/rounds?table=tiger&round=1", nil, &rc); code != 200 || rc.Status != "settled" || len(rc.Cards) != 5 ||
		rc.Cards[0].Card.String() != "2h" || len(rc.Settlements) != 2 || rc.Shoe == nil || !rc.Shoe.Live || rc.Shoe.Revealed ||
		len(rc.Postings) != 3 || rc.Postings[2].Memo != "round_settled" {
		t.Fatalf("round 1: %d %+v", code, rc)
	}
	for _, e := range rc.Events {
		if strings.Contains(string(e.Event), `"order"`) {
			t.Fatalf("the recall shows a live shoe's order: %s", e.Event)
		}
	}
	if code := f.do("pit", "GET", "/api/admin/rounds?table=tiger&wager=3", nil, &rc); code != 200 || rc.Round != 2 {
		t.Fatalf("by wager 3: %d round %d", code, rc.Round)
	}
	if code := f.do("admin", "GET", "/api/admin/rounds?tx="+rc.Postings[0].Key, nil, &rc); code != 200 || rc.Round != 2 {
		t.Fatalf("by transaction %s: %d round %d", rc.Postings[0].Key, code, rc.Round)
	}
	if code := f.do("admin", "GET", "/api/admin/rounds?table=tiger&round=3", nil, &rc); code != 200 || rc.Status != "void" || rc.Result != "dealer_error" {
		t.Fatalf("round 3: %d %+v", code, rc)
	}
	if code := f.do("dealer", "GET", "/api/admin/rounds?table=tiger&round=1", nil, nil); code != 403 {
		t.Fatalf("a dealer's recall: %d", code)
	}
	// The report's takings are what the house's account moved by the settlements.
	if _, err := backoffice.CatchUp(ctx, f.db); err != nil {
		t.Fatal(err)
	}
	var rep web.ReportView
	today := backoffice.Day(time.Now())
	if code := f.do("admin", "GET", "/api/admin/reports?from="+today+"&to="+today+"&group=table", nil, &rep); code != 200 || len(rep.Totals) != 1 {
		t.Fatalf("report: %d %+v", code, rep)
	}
	tot := rep.Totals[0]
	house := houseTakings(t, f, "XXX")
	if tot.Takings != house || tot.Rounds != 2 || tot.Voids != 1 || tot.Wagers != 5 || tot.Staked != 2900 || tot.Refunded != 400 {
		t.Fatalf("report %+v, the house took %d", tot, house)
	}
	if tot.Hold == nil || tot.Theory == nil || tot.Priced != tot.Settled || len(tot.Bets) != 2 {
		t.Fatalf("hold and theory: %+v", tot)
	}
	// The CSV carries the same figures, in major units.
	req, _ := http.NewRequest("GET", f.srv.URL()+"/api/admin/reports?from="+today+"&to="+today+"&format=csv", nil)
	req.Header.Set("Authorization", "Bearer "+f.tokens["admin"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := csv.NewReader(resp.Body).ReadAll()
	resp.Body.Close()
	if err != nil || resp.Header.Get("Content-Type") != "text/csv; charset=utf-8" || len(lines) != 3 || lines[2][0] != "total" ||
		lines[2][12] != fmt.Sprintf("%d.%02d", house/100, house%100) {
		t.Fatalf("csv %q %v: %q", resp.Header.Get("Content-Type"), err, lines)
	}
	// The void is in the audit trail once: the back office's entry, with its note; the
	// journal's copy of it is not added again.
	voids := f.audit("?action=table.void")
	if len(voids) != 1 || voids[0].Actor != "pit" || !strings.Contains(voids[0].Reason, "card on the floor") || voids[0].Source != backoffice.SourceOffice {
		t.Fatalf("void entries: %+v", voids)
	}
	if code := f.do("pit", "GET", "/api/admin/reports", nil, nil); code != 403 {
		t.Fatalf("a pit's report: %d", code)
	}
}

// houseTakings is what the settlements moved into the house's account of a currency.
func houseTakings(t *testing.T, f *fixture, cur ledger.Currency) baccarat.Money {
	t.Helper()
	entries, err := f.db.Statement(context.Background(), ledger.House(cur), ledger.Page{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var sum baccarat.Money
	for _, e := range entries {
		if e.Memo == "round_settled" || e.Memo == "session_settled" {
			sum += e.Amount
		}
	}
	return sum
}

func TestBackOfficeChecksATableAsItsCreationDoes(t *testing.T) {
	f := newFixture(t)
	var c web.TableCheck
	spec := map[string]any{"id": "cup-cash", "mode": "auto", "currency": "EUR", "config": map[string]any{"game": "mbs-tournament"}}
	if code := f.do("admin", "POST", "/api/admin/tables/check", spec, &c); code != 200 || c.OK || c.Problem == nil ||
		!strings.Contains(c.Problem.Message, `"cash": true`) || len(c.PlayerEdge) == 0 || !c.Tournament || c.MinorUnits != 2 {
		t.Fatalf("a tournament game for money without cash: %d %+v", code, c)
	}
	banker := ""
	for _, e := range c.PlayerEdge {
		if e.Bet == "banker" {
			banker = e.PlayerEdge
		}
	}
	if banker != "+1.2351%" {
		t.Fatalf("SPEC 5 Banker at 1:1 gives the player +1.2351%%, shown %q", banker)
	}
	spec["config"] = map[string]any{"game": "mbs-tournament", "cash": true, "squeeze_seconds": 61}
	if f.do("admin", "POST", "/api/admin/tables/check", spec, &c); c.OK || c.Problem == nil || !strings.Contains(c.Problem.Message, "squeeze_seconds") ||
		c.Ranges["squeeze_seconds"].To != 60 || c.Ranges["decks"].From != 4 {
		t.Fatalf("a setting out of range: %+v", c)
	}
	spec["config"] = map[string]any{"game": "mbs-tournament", "cash": true}
	if f.do("admin", "POST", "/api/admin/tables/check", spec, &c); !c.OK {
		t.Fatalf("a good spec: %+v", c)
	}
	var tables []web.AdminTable
	f.do("admin", "GET", "/api/admin/tables", nil, &tables)
	for _, tb := range tables {
		if tb.ID == "cup-cash" {
			t.Fatal("a check made the table")
		}
	}
	// Creating it is recorded with who did it.
	if code := f.do("admin", "POST", "/api/admin/tables", spec, nil); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if log := f.audit("?action=table.create"); len(log) != 1 || log[0].Target != "cup-cash" || log[0].Actor != "admin" {
		t.Fatalf("table entries: %+v", log)
	}
	// A pit lists only its tables, with their health.
	var pits []web.AdminTable
	if code := f.do("pit", "GET", "/api/admin/tables", nil, &pits); code != 200 || len(pits) != 2 || pits[0].Health.Status != web.HealthPaced {
		t.Fatalf("the pit's tables: %d %+v", code, pits)
	}
}

func TestBackOfficeFloorRaisesAlerts(t *testing.T) {
	f := newFixture(t)
	f.dealer("tiger", map[string]any{"cmd": "new_shoe"})
	f.do("pit", "POST", "/api/tables/tiger/commands", map[string]any{"cmd": "set_differential", "amount": 1000, "reason": "quiet night"}, nil)
	f.playRound("tiger", 1000, 500, "2h", "3d", "3c", "3s", "9d")
	f.dealer("tiger", map[string]any{"cmd": "open"})
	f.do("ann", "POST", "/api/tables/tiger/wagers", map[string]any{"bet": "banker", "stake": 900}, nil)
	var v web.FloorView
	if code := f.do("pit", "GET", "/api/admin/floor?large_win_x=1", nil, &v); code != 200 || len(v.Tables) != 2 {
		t.Fatalf("floor: %d %+v", code, v)
	}
	kinds := map[string]web.Alert{}
	for _, a := range v.Alerts {
		kinds[a.Kind] = a
	}
	if a, ok := kinds[web.AlertDifferential]; !ok || a.Amount != 900 || a.Limit != 1000 {
		t.Errorf("Tiger 5.18 a differential of 900 at a limit of 1000: alerts %+v", v.Alerts)
	}
	if a, ok := kinds[web.AlertLargeWin]; !ok || a.Player != "ann" || a.Amount != 500 || a.Round != 1 {
		t.Errorf("a win of 500 at 1 × the minimum: alerts %+v", v.Alerts)
	}
	var tiger web.FloorTable
	for _, ft := range v.Tables {
		if ft.ID == "tiger" {
			tiger = ft
		}
	}
	if tiger.Staked != 900 || tiger.Last == nil || tiger.Last.Round != 1 || len(tiger.LargestWins) != 1 {
		t.Errorf("the tiger table on the floor: %+v", tiger)
	}
	// The pit's differential change is in the audit trail, from the table's journal.
	if _, err := backoffice.CatchUp(context.Background(), f.db); err != nil {
		t.Fatal(err)
	}
	if log := f.audit("?action=table.differential"); len(log) != 1 || log[0].Reason != "quiet night" || log[0].Source != backoffice.SourceJournal {
		t.Fatalf("differential entries: %+v", log)
	}
}

func TestBackOfficeTournamentsTemplatesAndCancel(t *testing.T) {
	f := newFixture(t)
	now := time.Now().UTC().Truncate(time.Second)
	spec := live.TournamentSpec{Config: tournament.Config{ID: "cup", Name: "Cup", Game: "mbs-tournament", Currency: "XXX", EntryFee: 1000,
		StartingChips: 10_000, MaxEntrants: 8, TableSize: 8, RegistrationOpens: now, RegistrationCloses: now.Add(time.Hour), Start: now.Add(time.Hour),
		Stakes: tournament.Stakes{Min: 100, Max: 2000}, Rounds: []tournament.Round{{Hands: 3}}, Prizes: []int{10000}}}
	var c web.TournamentCheck
	if code := f.do("admin", "POST", "/api/admin/tournaments/check", spec, &c); code != 200 || !c.OK || c.Config.MinEntrants != 2 {
		t.Fatalf("check: %d %+v", code, c)
	}
	bad := spec
	bad.Config.TableSize = 1
	if f.do("admin", "POST", "/api/admin/tournaments/check", bad, &c); c.OK || c.Problem == nil || !strings.Contains(c.Problem.Message, "table_size") {
		t.Fatalf("a table of one: %+v", c)
	}
	if code := f.do("admin", "PUT", "/api/admin/tournament-templates/weekly", spec, nil); code != 200 {
		t.Fatalf("save template: %d", code)
	}
	var tpls []backoffice.Template
	if f.do("admin", "GET", "/api/admin/tournament-templates", nil, &tpls); len(tpls) != 1 || !strings.Contains(string(tpls[0].Spec), `"cup"`) {
		t.Fatalf("templates: %+v", tpls)
	}
	if code := f.do("admin", "POST", "/api/admin/tournaments", spec, nil); code != 201 {
		t.Fatalf("create: %d", code)
	}
	if code := f.do("admin", "POST", "/api/admin/tournaments/cup/cancel", map[string]any{"reason": "no players"}, nil); code != 200 {
		t.Fatalf("cancel: %d", code)
	}
	if code := f.do("admin", "DELETE", "/api/admin/tournament-templates/weekly", nil, nil); code != 204 {
		t.Fatalf("delete template: %d", code)
	}
	log := f.audit("?target=cup")
	if len(log) != 2 || log[0].Action != backoffice.ActTournamentStop || log[0].Reason != "no players" || log[1].Action != backoffice.ActTournamentNew {
		t.Fatalf("tournament entries: %+v", log)
	}
	if got := f.audit("?action=template."); len(got) != 2 {
		t.Fatalf("template entries: %+v", got)
	}
}
