package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/web"
)

// clock is the server's clock in a test: moved by the test, read by the handlers.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// newClock starts at the wall clock's second: launches signed on it are on the second.
func newClock() *clock { return &clock{t: time.Now().Truncate(time.Second)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// launchFixture is a server taking launches signed under operatorSecret, on clock.
func launchFixture(t *testing.T, clk *clock) *fixture {
	return newFixture(t, func(o *web.Options) {
		o.Operator = web.OperatorOptions{Codes: o.Books.(access.LaunchCodes), Secret: operatorSecret, Now: clk.now}
	})
}

// signedLaunch is a launch as the operator's backend sends it: body and headers.
func signedLaunch(t *testing.T, body any, secret []byte, at time.Time) ([]byte, http.Header) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{}
	seamless.NewStamp(http.MethodPost, web.LaunchPath, at).Sign(h, seamless.DomainLaunch.Key(secret), b)
	return b, h
}

func (f *fixture) accountOf(id string) (int, web.AccountView) {
	f.t.Helper()
	var v web.AccountView
	return f.do("admin", "GET", "/api/admin/accounts/"+id, nil, &v), v
}

// TestLaunchIsTakenOnce: the same signed launch sent again gives no second session, on this
// server or another sharing the store, and changes nothing: not even the name a later
// launch gave the account.
func TestLaunchIsTakenOnce(t *testing.T) {
	clk := newClock()
	f := launchFixture(t, clk)
	other := web.New(web.Options{Host: f.host, Books: f.db, Accounts: f.db, Tokens: f.issuer,
		Operator: web.OperatorOptions{Codes: f.db, Secret: operatorSecret, Now: clk.now}})
	if err := other.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Shutdown(context.Background()) })

	first, h := signedLaunch(t, map[string]string{"player": "p-1001", "name": "Ann", "currency": "XXX"}, operatorSecret, clk.now())
	if code, ans, e := f.launchRaw(f.srv.URL(), first, h); code != 200 || ans.Code == "" {
		t.Fatalf("the launch: %d %+v", code, e)
	}
	later, h2 := signedLaunch(t, map[string]string{"player": "p-1001", "name": "Ann Lee", "currency": "XXX"}, operatorSecret, clk.now())
	if code, _, e := f.launchRaw(f.srv.URL(), later, h2); code != 200 {
		t.Fatalf("a second launch with its own nonce: %d %+v", code, e)
	}
	for name, base := range map[string]string{"here": f.srv.URL(), "on another server sharing the store": other.URL()} {
		for _, wait := range []time.Duration{0, seamless.MaxSkew} { // the last moment it is taken
			clk.add(wait)
			code, _, e := f.launchRaw(base, first, h)
			if code != 409 || e.Code != baccarat.CodeConflict || !strings.Contains(e.Message, "replayed") {
				t.Errorf("the first launch again %s, %s later: %d %+v, want 409 conflict, replayed", name, wait, code, e)
			}
		}
		clk.add(-seamless.MaxSkew)
	}
	if code, a := f.accountOf("p-1001"); code != 200 || a.Name != "Ann Lee" {
		t.Errorf("after the replays: %d %+v, want the name the later launch gave", code, a.Account)
	}
}

// TestLaunchIsTakenJustNow: a launch is taken within seamless.MaxSkew of the server's clock;
// the same signed launch 38 minutes later, or one signed 38 minutes ago or ahead, is
// refused with a message about the clock, and makes nothing.
func TestLaunchIsTakenJustNow(t *testing.T) {
	clk := newClock()
	f := launchFixture(t, clk)
	body := map[string]string{"player": "late", "currency": "XXX"}
	b, h := signedLaunch(t, body, operatorSecret, clk.now())
	clk.add(38 * time.Minute)
	for name, req := range map[string]struct {
		b []byte
		h http.Header
	}{
		"a launch sent again 38 minutes later": {b, h},
		"a launch signed 38 minutes ago": func() struct {
			b []byte
			h http.Header
		} {
			b, h := signedLaunch(t, body, operatorSecret, clk.now().Add(-38*time.Minute))
			return struct {
				b []byte
				h http.Header
			}{b, h}
		}(),
		"a launch dated 38 minutes ahead": func() struct {
			b []byte
			h http.Header
		} {
			b, h := signedLaunch(t, body, operatorSecret, clk.now().Add(38*time.Minute))
			return struct {
				b []byte
				h http.Header
			}{b, h}
		}(),
	} {
		code, _, e := f.launchRaw(f.srv.URL(), req.b, req.h)
		if code != 401 || e.Code != baccarat.CodeUnauthenticated || !strings.Contains(e.Message, "clock") ||
			!strings.Contains(e.Message, "38m0s") {
			t.Errorf("%s: %d %+v, want 401 unauthenticated saying the clock is 38m0s off", name, code, e)
		}
	}
	if code, _ := f.accountOf("late"); code != 404 {
		t.Errorf("a refused launch made the account: %d", code)
	}
	if code, _, e := f.launchAt(body, operatorSecret, clk.now().Add(-time.Minute)); code != 200 {
		t.Errorf("a launch signed a minute ago: %d %+v", code, e)
	}
}

// TestLaunchIsNoWalletCall: the platform's own signed /balance call, captured on the wire,
// sent to the launch route is refused, though its body {"player","currency"} is a launch's
// and the operator gave launches and the wallet one secret; so is a debit, a launch signed
// over the body alone (as before), or signed under the wallet's key. Nothing is made.
func TestLaunchIsNoWalletCall(t *testing.T) {
	clk := newClock()
	f := launchFixture(t, clk)
	type captured struct {
		body []byte
		h    http.Header
	}
	calls := make(chan captured, 4)
	wire := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		calls <- captured{b, r.Header.Clone()}
		seamless.WriteSigned(w, r, operatorSecret, 200, seamless.AnswerBody(100_000))
	}))
	defer wire.Close()
	cl := &seamless.Client{BaseURL: wire.URL, Secret: operatorSecret}
	if _, err := cl.Balance(context.Background(), seamless.BalanceRequest{Player: "p5", Currency: "XXX"}); err != nil {
		t.Fatal(err)
	}
	balance := <-calls
	if _, err := cl.Debit(context.Background(), seamless.DebitRequest{Tx: "d-1", Player: "p5", Currency: "XXX", Amount: 100, Table: "tiger", Round: 1, Wager: 1}); err != nil {
		t.Fatal(err)
	}
	debit := <-calls
	if string(balance.body) != `{"player":"p5","currency":"XXX"}` {
		t.Fatalf("the balance call's body %s", balance.body)
	}
	bodyOnly := http.Header{seamless.SignatureHeader: {seamless.Sign(operatorSecret, balance.body)}}
	walletKeyed := http.Header{}
	seamless.NewStamp(http.MethodPost, web.LaunchPath, clk.now()).Sign(walletKeyed, seamless.DomainWallet.Key(operatorSecret), balance.body)
	for name, c := range map[string]captured{
		"the /balance call replayed":                       balance,
		"the /debit call replayed":                         debit,
		"a launch signed over its body alone":              {balance.body, bodyOnly},
		"a launch signed for its path with the wallet key": {balance.body, walletKeyed},
	} {
		if code, _, e := f.launchRaw(f.srv.URL(), c.body, c.h); code != 401 || e.Code != baccarat.CodeUnauthenticated {
			t.Errorf("%s: %d %+v, want 401", name, code, e)
		}
	}
	if code, _ := f.accountOf("p5"); code != 404 {
		t.Errorf("a wallet call made p5's account: %d", code)
	}
	if code, _, e := f.launch(map[string]string{"player": "p5", "currency": "XXX"}, operatorSecret); code != 200 {
		t.Errorf("p5's own launch: %d %+v", code, e)
	}
}

// TestLaunchHeadersAreRead: a launch whose stamp is missing or malformed is 401 saying what
// to send; one with a nonce of a code's form still cannot touch the codes (namespaced).
func TestLaunchHeadersAreRead(t *testing.T) {
	clk := newClock()
	f := launchFixture(t, clk)
	body := map[string]string{"player": "hdr", "currency": "XXX"}
	for name, change := range map[string]func(h http.Header){
		"no X-Timestamp":            func(h http.Header) { h.Del(seamless.TimestampHeader) },
		"no X-Nonce":                func(h http.Header) { h.Del(seamless.NonceHeader) },
		"no X-Signature":            func(h http.Header) { h.Del(seamless.SignatureHeader) },
		"a timestamp in ms":         func(h http.Header) { h.Set(seamless.TimestampHeader, h.Get(seamless.TimestampHeader)+"000") },
		"a nonce of 8":              func(h http.Header) { h.Set(seamless.NonceHeader, "abcdefgh") },
		"two nonces":                func(h http.Header) { h.Add(seamless.NonceHeader, "0123456789abcdef") },
		"a nonce other than signed": func(h http.Header) { h.Set(seamless.NonceHeader, "0123456789abcdef") },
		"a signature that is not":   func(h http.Header) { h.Set(seamless.SignatureHeader, "sig") },
	} {
		b, h := signedLaunch(t, body, operatorSecret, clk.now())
		change(h)
		if code, _, e := f.launchRaw(f.srv.URL(), b, h); code != 401 || e.Code != baccarat.CodeUnauthenticated || !strings.Contains(e.Message, "X-") {
			t.Errorf("%s: %d %+v, want 401 naming the header", name, code, e)
		}
	}
	if code, _ := f.accountOf("hdr"); code != 404 {
		t.Errorf("a refused launch made the account: %d", code)
	}
}
