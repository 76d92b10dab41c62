package backofficetest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// The pit's commands the suite's play gives, as the web layer gives them.
func pit(reason string) table.Header {
	return table.Header{Actor: "pit-7", Role: table.RolePit, Reason: reason}
}

func setLimit(bet string, lo, hi baccarat.Money) table.Command {
	return &table.SetLimit{Header: pit("VIP night"), Bet: bet, Min: lo, Max: hi}
}

func voidCmd() table.Command { return &table.Void{Header: pit("dealer_error")} }
func openCmd() table.Command { return &table.Open{} }
func place(w Wager) table.Command {
	return &table.Place{Player: w.Player, Bet: w.Bet, Stake: w.Stake, Available: 1 << 50}
}

func testTournaments(t *testing.T, s Full) {
	ctx := t.Context()
	id, stream := "cup", "tournament-cup"
	var head journal.Head
	var recs []journal.Record
	add := func(typ string, at time.Time, v any) {
		data, _ := json.Marshal(v)
		r := journal.Seal(head, journal.Record{Table: stream, Type: typ, Data: data, At: at})
		head = r.Head()
		recs = append(recs, r)
	}
	day2 := At.Add(2 * time.Hour) // past midnight
	spec := map[string]any{"config": map[string]any{"id": id, "name": "Spring Cup", "game": "mbs-tournament", "currency": "EUR",
		"entry_fee": 1000, "start": day2}, "wallet": "internal"}
	add("tournament_created", At, spec)
	ev := func(e tournament.Event, at time.Time) { add(string(e.Type), at, e) }
	ev(tournament.Event{Type: tournament.EvRegistered, Player: "ann", Entry: 1, Amount: 1000}, At.Add(time.Minute))
	ev(tournament.Event{Type: tournament.EvRegistered, Player: "bob", Entry: 2, Amount: 1000}, At.Add(2*time.Minute))
	ev(tournament.Event{Type: tournament.EvRegistered, Player: "bot.house-1", Entry: 3, Amount: 1000, Bot: true}, At.Add(3*time.Minute))
	ev(tournament.Event{Type: tournament.EvUnregistered, Player: "bob", Amount: 1000}, At.Add(4*time.Minute))
	ev(tournament.Event{Type: tournament.EvStarted, Count: 2}, day2)
	ev(tournament.Event{Type: tournament.EvRebought, Player: "ann", Amount: 500, Chips: 1000, Count: 1}, day2.Add(time.Minute))
	ev(tournament.Event{Type: tournament.EvFinished, Payments: []tournament.Payment{{Player: "ann", Amount: 1800}, {Player: "bot.house-1", Amount: 700}},
		Pool: &tournament.Pool{Collected: 2500, TopUp: 0, Total: 2500}}, day2.Add(time.Hour))
	if err := s.Commit(ctx, journal.Batch{Records: recs}); err != nil {
		t.Fatal(err)
	}
	if _, err := backoffice.CatchUp(ctx, s); err != nil {
		t.Fatal(err)
	}
	all, err := s.Tournaments(ctx, "2026-03-01", "2026-03-02")
	if err != nil || len(all) != 1 {
		t.Fatalf("tournaments: %+v %v", all, err)
	}
	got := all[0]
	want := backoffice.TournamentMoney{Fees: 2000, BotFees: 1000, Rebuys: 500, Refunds: 1000, Prizes: 1800, BotPrizes: 700, Entries: 2}
	if got.TournamentMoney != want || got.Name != "Spring Cup" || got.Phase != "finished" || got.Pool != 2500 || got.Entrants != 2 ||
		!got.Ended.Equal(day2.Add(time.Hour)) || got.Currency != "EUR" {
		t.Fatalf("the cup: %+v, want money %+v, finished with a pool of 2500", got, want)
	}
	if got.Net() != 2000+500-1000-1800 {
		t.Errorf("net %d", got.Net())
	}
	first, err := s.Tournaments(ctx, "2026-03-01", "2026-03-01")
	if err != nil || len(first) != 1 || first[0].Fees != 2000 || first[0].Prizes != 0 {
		t.Fatalf("the first day alone: %+v %v", first, err)
	}
	if none, _ := s.Tournaments(ctx, "2026-04-01", "2026-04-30"); len(none) != 0 {
		t.Fatalf("a month without the cup lists %+v", none)
	}
}

func testTemplates(t *testing.T, s Full) {
	ctx := t.Context()
	tp := backoffice.Template{Name: "friday-cup", Spec: json.RawMessage(`{"config":{"game":"mbs-tournament"}}`), By: "boss", Updated: At}
	if err := s.SaveTemplate(ctx, tp, entry("boss", backoffice.ActTemplateSave, tp.Name, "", At)); err != nil {
		t.Fatal(err)
	}
	tp.Spec, tp.Updated = json.RawMessage(`{"config":{"game":"mbs-dragon"}}`), At.Add(time.Hour)
	if err := s.SaveTemplate(ctx, tp, entry("boss", backoffice.ActTemplateSave, tp.Name, "dragon now", At.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.SaveTemplate(ctx, backoffice.Template{Name: "bad name!", Spec: tp.Spec}, entry("boss", backoffice.ActTemplateSave, "x", "", At)), baccarat.CodeBadRequest)
	list, err := s.Templates(ctx)
	if err != nil || len(list) != 1 || string(list[0].Spec) != string(tp.Spec) || !list[0].Updated.Equal(tp.Updated) || list[0].By != "boss" {
		t.Fatalf("templates %+v %v", list, err)
	}
	if err := s.DeleteTemplate(ctx, tp.Name, entry("boss", backoffice.ActTemplateDelete, tp.Name, "", At)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, s.DeleteTemplate(ctx, tp.Name, entry("boss", backoffice.ActTemplateDelete, tp.Name, "", At)), baccarat.CodeNotFound)
	if list, _ := s.Templates(ctx); len(list) != 0 {
		t.Fatalf("a removed template is listed: %+v", list)
	}
	log, _ := s.AuditLog(ctx, backoffice.Filter{Target: tp.Name})
	if len(log) != 3 {
		t.Fatalf("template entries %+v: want two saves and a removal", log)
	}
}

func testBookTotals(t *testing.T, s Full) {
	ctx := t.Context()
	play(t, s, "books")
	g := NewGame(t, "yen", "punto-banco", "JPY", At)
	g.Fund(s, 50_000, "ann")
	g.Flush(s)
	g.Round(Wager{"ann", "banker", 5000})
	g.Flush(s)
	totals, err := s.BookTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sums := map[string]baccarat.Money{}
	kinds := map[string]bool{}
	for _, b := range totals {
		sums[b.Currency] += b.Balance
		kinds[b.Currency+"/"+b.Kind] = true
	}
	if len(sums) != 2 || sums["EUR"] != 0 || sums["JPY"] != 0 || !kinds["EUR/house"] || !kinds["JPY/wallet"] || !kinds["EUR/inplay"] {
		t.Fatalf("book totals %+v: want EUR and JPY, each summing to zero", totals)
	}
	w, _ := s.Balance(ctx, ledger.Wallet("ann", "JPY"))
	for _, b := range totals {
		if b.Currency == "JPY" && b.Kind == "wallet" && b.Balance != w {
			t.Errorf("JPY wallets hold %d, ann's wallet %d", b.Balance, w)
		}
	}
}
