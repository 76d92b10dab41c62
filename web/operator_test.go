package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
	"github.com/tablehouse/baccarat/web"
)

var operatorSecret = []byte("the operator's launch secret, 32")

// launch posts a launch call signed as an operator signs it (launch_sign.go) under the
// launch key of secret, now (nil: unsigned).
func (f *fixture) launch(body any, secret []byte) (int, web.LaunchAnswer, apiError) {
	f.t.Helper()
	return f.launchAt(body, secret, time.Now())
}

// launchAt is launch signed at the time at.
func (f *fixture) launchAt(body any, secret []byte, at time.Time) (int, web.LaunchAnswer, apiError) {
	f.t.Helper()
	b, _ := json.Marshal(body)
	h := http.Header{}
	if secret != nil {
		seamless.NewStamp(http.MethodPost, web.LaunchPath, at).Sign(h, seamless.DomainLaunch.Key(secret), b)
	}
	return f.launchRaw(f.srv.URL(), b, h)
}

// launchRaw posts body with the headers h to the launch route of the server at base.
func (f *fixture) launchRaw(base string, body []byte, h http.Header) (int, web.LaunchAnswer, apiError) {
	f.t.Helper()
	req, _ := http.NewRequest("POST", base+web.LaunchPath, bytes.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var ans web.LaunchAnswer
	var e apiError
	_ = json.Unmarshal(raw, &ans)
	_ = json.Unmarshal(raw, &e)
	return resp.StatusCode, ans, e
}

// exchange trades a launch code for a token, kept under the player's id.
func (f *fixture) exchange(code string) (int, web.ExchangeAnswer) {
	f.t.Helper()
	var ans web.ExchangeAnswer
	status := f.do("", "POST", "/api/launch", map[string]string{"code": code}, &ans)
	if status == 200 {
		f.tokens[ans.Player] = ans.Token
	}
	return status, ans
}

func (f *fixture) create(spec live.Spec) {
	f.t.Helper()
	if err := f.host.Create(context.Background(), spec); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) command(table string, cmd map[string]any) {
	f.t.Helper()
	var e apiError
	if code := f.do("admin", "POST", "/api/tables/"+table+"/commands", cmd, &e); code != 200 {
		f.t.Fatalf("admin %v at %s: %d %+v", cmd, table, code, e)
	}
}

func TestOperatorLaunchesAPlayer(t *testing.T) {
	now := time.Now()
	f := newFixture(t, func(o *web.Options) {
		o.Operator = web.OperatorOptions{Codes: o.Books.(access.LaunchCodes), Secret: operatorSecret, Now: func() time.Time { return now }}
	})
	f.create(live.Spec{ID: "jpy", Name: "Tiger ¥", Mode: live.ModeDealer, Currency: "JPY", Config: table.Config{Game: "mbs-tiger"}})
	body := map[string]string{"player": "yuki", "name": "Yuki", "currency": "JPY", "language": "ja", "table": "jpy"}
	t.Run("a launch without a signature, or with a wrong one, is refused", func(t *testing.T) {
		for _, key := range [][]byte{nil, []byte("a wrong secret of thirty-two by")} {
			if code, _, e := f.launch(body, key); code != 401 || e.Code != "unauthenticated" {
				t.Fatalf("launch signed with %q: %d %+v", key, code, e)
			}
		}
		if code := f.do("admin", "GET", "/api/admin/accounts/yuki", nil, nil); code != 404 {
			t.Fatalf("a refused launch made the account: %d", code)
		}
	})
	code, ans, e := f.launch(body, operatorSecret)
	if code != 200 || !strings.HasPrefix(ans.URL, f.srv.URL()+"/launch?code=") || ans.Table != "jpy" || ans.Player != "yuki" {
		t.Fatalf("launch: %d %+v %+v", code, ans, e)
	}
	resp, err := http.Get(ans.URL)
	if err != nil || resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the launch URL: %v %v", resp, err)
	}
	resp.Body.Close()
	t.Run("the code signs the player in once", func(t *testing.T) {
		status, ex := f.exchange(ans.Code)
		if status != 200 || ex.Table != "jpy" || ex.Currency != "JPY" || ex.Language != "ja" {
			t.Fatalf("exchange: %d %+v", status, ex)
		}
		var me web.Me
		if code := f.do("yuki", "GET", "/api/me", nil, &me); code != 200 || me.ID != "yuki" || me.Name != "Yuki" ||
			me.Currency != "JPY" || me.MinorUnits != 0 || me.Language != "ja" || me.Role != web.RolePlayer {
			t.Fatalf("me: %d %+v", code, me)
		}
		if status, _ := f.exchange(ans.Code); status != 409 {
			t.Fatalf("a second use of the code: %d, want 409", status)
		}
	})
	t.Run("a code that is not ours, or expired, signs nobody in", func(t *testing.T) {
		_, again, _ := f.launch(body, operatorSecret)
		forged := again.Code[:len(again.Code)-2] + "xx"
		if status, _ := f.exchange(forged); status != 401 {
			t.Fatalf("a forged code: %d", status)
		}
		now = now.Add(access.LaunchTTL + time.Second)
		if status, _ := f.exchange(again.Code); status != 401 {
			t.Fatalf("an expired code: %d", status)
		}
	})
	t.Run("a launch that cannot be is refused", func(t *testing.T) {
		for name, c := range map[string]struct {
			body map[string]string
			want int
		}{
			"a table in another currency": {map[string]string{"player": "yuki", "currency": "EUR", "table": "jpy"}, 400},
			"a table that does not exist": {map[string]string{"player": "yuki", "currency": "JPY", "table": "nope"}, 404},
			"a currency that is not one":  {map[string]string{"player": "yuki", "currency": "ABC"}, 400},
			"an account that is staff":    {map[string]string{"player": "admin", "currency": "XXX"}, 403},
			"a player id that is not one": {map[string]string{"player": "a b", "currency": "XXX"}, 400},
		} {
			if code, _, e := f.launchAt(c.body, operatorSecret, now); code != c.want {
				t.Errorf("%s: %d %+v, want %d", name, code, e, c.want)
			}
		}
	})
}

// TestTablesInTheirCurrency: a JPY table (no decimals) and a BHD table (three) settle
// Banker on six at 1:2 of an odd stake rounded down in the currency's minor unit, and every
// amount the API shows is in the table's currency.
func TestTablesInTheirCurrency(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, c := range []struct {
		cur          string
		units        int
		stake, after baccarat.Money
		minimum      string
	}{
		{"JPY", 0, 101, 10_000 + 50, "100 JPY"},      // ¥101 wins ¥50 (50.5 rounded down)
		{"BHD", 3, 1_001, 10_000 + 500, "0.100 BHD"}, // 1.001 BHD wins 0.500 (0.5005 rounded down)
	} {
		id := strings.ToLower(c.cur)
		f.create(live.Spec{ID: id, Mode: live.ModeDealer, Currency: ledger.Currency(c.cur), Config: table.Config{Game: "mbs-tiger"}})
		if err := f.host.Credit(ctx, "c-"+id, "ann", ledger.Currency(c.cur), 10_000); err != nil {
			t.Fatal(err)
		}
		var snap web.SnapshotView
		f.do("", "GET", "/api/tables/"+id, nil, &snap)
		if snap.Table.Currency != ledger.Currency(c.cur) || snap.Table.MinorUnits != c.units {
			t.Fatalf("%s table view: %s, %d decimals", c.cur, snap.Table.Currency, snap.Table.MinorUnits)
		}
		f.command(id, map[string]any{"cmd": "new_shoe"})
		f.command(id, map[string]any{"cmd": "open"})
		var e apiError
		if code := f.do("ann", "POST", "/api/tables/"+id+"/wagers", map[string]any{"bet": "banker", "stake": 1}, &e); code != 400 ||
			!strings.Contains(e.Message, c.minimum) {
			t.Errorf("%s: a stake below the minimum: %d %q, want the minimum as %q", c.cur, code, e.Message, c.minimum)
		}
		var placed struct{ Balance baccarat.Money }
		if code := f.do("ann", "POST", "/api/tables/"+id+"/wagers", map[string]any{"bet": "banker", "stake": c.stake}, &placed); code != 200 ||
			placed.Balance != 10_000-c.stake {
			t.Fatalf("%s wager: %d, balance %d", c.cur, code, placed.Balance)
		}
		f.command(id, map[string]any{"cmd": "close"})
		for _, k := range []string{"2h", "3d", "3c", "3s", "9d"} {
			f.command(id, map[string]any{"cmd": "card", "card": k})
		}
		if got, err := f.host.Balance(ctx, "ann", ledger.Currency(c.cur)); err != nil || got != c.after {
			t.Errorf("%s after Banker on six: %d %v, want %d", c.cur, got, err, c.after)
		}
	}
}

func TestReconciliationIsForAdmins(t *testing.T) {
	f := newFixture(t)
	var rep verify.Reconciliation
	if code := f.do("admin", "GET", "/api/admin/reconciliation?from=2026-01-01&to=2026-01-31", nil, &rep); code != 200 ||
		!rep.From.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) || !rep.To.Equal(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("reconciliation: %d %+v", code, rep)
	}
	if code := f.do("ann", "GET", "/api/admin/reconciliation", nil, nil); code != 403 {
		t.Fatalf("a player read the reconciliation: %d", code)
	}
	if code := f.do("admin", "GET", "/api/admin/reconciliation?from=yesterday", nil, nil); code != 400 {
		t.Fatalf("a bad period: %d", code)
	}
}
