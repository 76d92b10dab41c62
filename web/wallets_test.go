package web_test

import (
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// TestPlayerWalletsInSeveralCurrencies: an admin credits a player in JPY and BHD as well as
// play money; /api/me lists the wallets, reads any of them with ?currency= (with that
// currency's decimals), the statement of each is its own, and a wager at a JPY table moves
// the JPY wallet alone.
func TestPlayerWalletsInSeveralCurrencies(t *testing.T) {
	f := newFixture(t)
	f.create(live.Spec{ID: "jpy", Mode: live.ModeDealer, Currency: "JPY", Config: table.Config{Game: "mbs-tiger"}})
	var credited struct {
		Balance    baccarat.Money
		Currency   string
		MinorUnits int `json:"minor_units"`
	}
	for _, c := range []struct {
		cur    string
		amount baccarat.Money
		units  int
	}{{"JPY", 50_000, 0}, {"BHD", 20_000, 3}, {"JPY", 1_000, 0}} {
		if code := f.do("admin", "POST", "/api/admin/accounts/ann/credit", map[string]any{"amount": c.amount, "currency": c.cur}, &credited); code != 200 ||
			credited.Currency != c.cur || credited.MinorUnits != c.units {
			t.Fatalf("crediting %d %s: %d %+v", c.amount, c.cur, code, credited)
		}
	}
	if credited.Balance != 51_000 {
		t.Fatalf("JPY after two credits: %d, want 51000", credited.Balance)
	}
	// The same key in two currencies is two credits; again in one, one.
	for _, cur := range []string{"JPY", "BHD", "BHD"} {
		if code := f.do("admin", "POST", "/api/admin/accounts/ann/credit", map[string]any{"amount": 1, "currency": cur, "key": "k1"}, nil); code != 200 {
			t.Fatalf("crediting 1 %s with key k1: %d", cur, code)
		}
	}
	for _, bad := range []map[string]any{{"amount": 1, "currency": "YEN"}, {"amount": 1, "currency": "jpy"}} {
		if code := f.do("admin", "POST", "/api/admin/accounts/ann/credit", bad, nil); code != 400 {
			t.Errorf("credit %v: %d, want 400", bad, code)
		}
	}

	var me web.Me
	f.do("ann", "GET", "/api/me", nil, &me)
	if me.Currency != live.PlayMoney || me.Balance != 100_000 || len(me.Wallets) != 3 || me.Wallets[0].Currency != live.PlayMoney ||
		me.Wallets[1] != (web.WalletView{Currency: "BHD", MinorUnits: 3}) || me.Wallets[2] != (web.WalletView{Currency: "JPY", MinorUnits: 0}) {
		t.Fatalf("ann's account: %+v", me)
	}
	for cur, want := range map[string]baccarat.Money{"JPY": 51_001, "BHD": 20_001, "XXX": 100_000, "EUR": 0} {
		var m web.Me
		if code := f.do("ann", "GET", "/api/me?currency="+cur, nil, &m); code != 200 || m.Balance != want || string(m.Currency) != cur {
			t.Errorf("ann in %s: %d %+v, want a balance of %d", cur, code, m, want)
		}
	}
	if code := f.do("ann", "GET", "/api/me?currency=chips", nil, nil); code != 400 {
		t.Errorf("a currency that is none: %d, want 400", code)
	}

	f.command("jpy", map[string]any{"cmd": "new_shoe"})
	f.command("jpy", map[string]any{"cmd": "open"})
	var placed struct{ Balance baccarat.Money }
	if code := f.do("ann", "POST", "/api/tables/jpy/wagers", map[string]any{"bet": "banker", "stake": 101}, &placed); code != 200 || placed.Balance != 50_900 {
		t.Fatalf("a ¥101 wager: %d, balance %d", code, placed.Balance)
	}
	var jpy, bhd, own []ledger.Entry
	f.do("ann", "GET", "/api/me/history?currency=JPY", nil, &jpy)
	f.do("ann", "GET", "/api/me/history?currency=BHD", nil, &bhd)
	f.do("ann", "GET", "/api/me/history", nil, &own)
	if len(jpy) != 4 || jpy[3].Amount != -101 || jpy[3].Balance != 50_900 || jpy[3].Table != "jpy" {
		t.Errorf("the JPY statement: %+v", jpy)
	}
	if len(bhd) != 2 || bhd[1].Balance != 20_001 {
		t.Errorf("the BHD statement: %+v", bhd)
	}
	if len(own) != 1 || own[0].Balance != 100_000 {
		t.Errorf("the play money statement: %+v", own)
	}
	if code := f.do("ann", "GET", "/api/me/history?currency=Y", nil, nil); code != 400 {
		t.Errorf("a statement in no currency: %d, want 400", code)
	}
}
