package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/seamless/refwallet"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/web"
)

// fakeOperator is an operator's wallet that answers every call with a balance, the way it
// is told to sign its answers, and keeps every call it received (its path, headers, body);
// with next, it passes every call on to that wallet instead, and only listens.
type fakeOperator struct {
	secret []byte
	next   http.Handler
	mu     sync.Mutex
	sign   string // "right", "none" or "body" (over the answer alone, with the secret itself)
	calls  []wireCall
}

type wireCall struct {
	path string
	h    http.Header
	body []byte
}

func (o *fakeOperator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	o.mu.Lock()
	o.calls = append(o.calls, wireCall{r.URL.Path, r.Header.Clone(), body})
	sign := o.sign
	o.mu.Unlock()
	if o.next != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		o.next.ServeHTTP(w, r)
		return
	}
	answer := seamless.AnswerBody(1_000_000)
	switch sign {
	case "right":
		seamless.WriteSigned(w, r, o.secret, 200, answer)
		return
	case "body":
		w.Header().Set(seamless.SignatureHeader, seamless.Sign(o.secret, answer))
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(answer)
}

func (o *fakeOperator) set(sign string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.sign = sign
}

func (o *fakeOperator) received(path string) []wireCall {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []wireCall
	for _, c := range o.calls {
		if c.path == path {
			out = append(out, c)
		}
	}
	return out
}

// startSeamlessSecServer runs the whole program on the operator's wallet op, with one
// secret given (--wallet-secret, no --operator-secret), an automatic EUR Tiger table that
// stays in betting, and p5 launched and signed in.
func startSeamlessSecServer(t *testing.T, op *fakeOperator) (*secServer, wireCall) {
	t.Helper()
	dir := t.TempDir()
	cfg := serveConfig{Tables: []live.Spec{{ID: "tiger-eur", Name: "Tiger €", Mode: live.ModeAuto, Currency: "EUR",
		Config: table.Config{Game: "mbs-tiger"}, Schedule: live.Schedule{Betting: 10 * time.Minute}}}}
	b, _ := json.Marshal(cfg)
	path := filepath.Join(dir, "tables.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(op)
	t.Cleanup(hs.Close)
	s := &server{Addr: "127.0.0.1:0", DB: filepath.Join(dir, "seamless.db"), Config: path, Demo: demoTournaments{Off: true},
		Operator: operatorFlags{Wallet: live.WalletSeamless, WalletURL: hs.URL, WalletSecret: hex.EncodeToString(op.secret),
			WalletTimeout: time.Second, Outbox: live.Outbox{Every: 50 * time.Millisecond, MinBackoff: 20 * time.Millisecond,
				MaxBackoff: 200 * time.Millisecond}}}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	x := &secServer{t: t, s: s, tokens: map[string]string{"admin": s.links["admin"]}}
	launch, h := signedLaunchBody(t, map[string]string{"player": "p5", "currency": "EUR"}, op.secret)
	var ans web.LaunchAnswer
	if code, _, raw := x.post("", web.LaunchPath, launch, h); code != 200 || json.Unmarshal(raw, &ans) != nil {
		t.Fatalf("p5's launch, signed under the launch key of the wallet's secret: %d %s", code, raw)
	}
	var ex web.ExchangeAnswer
	x.want("", "POST", "/api/launch", map[string]string{"code": ans.Code}, 200, "", &ex)
	x.tokens["p5"] = ex.Token
	x.waitPhase("tiger-eur", table.PhaseBetting)
	return x, wireCall{web.LaunchPath, h, launch}
}

func signedLaunchBody(t *testing.T, body any, secret []byte) ([]byte, http.Header) {
	t.Helper()
	b, _ := json.Marshal(body)
	h := http.Header{}
	seamless.NewStamp(http.MethodPost, web.LaunchPath, time.Now()).Sign(h, seamless.DomainLaunch.Key(secret), b)
	return b, h
}

// post sends body with the headers h, as who.
func (x *secServer) post(who, path string, body []byte, h http.Header) (int, string, []byte) {
	x.t.Helper()
	req, _ := http.NewRequest("POST", x.s.web.URL()+path, bytes.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	if who != "" {
		req.Header.Set("Authorization", "Bearer "+x.tokens[who])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		x.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e struct{ Code string }
	_ = json.Unmarshal(raw, &e)
	return resp.StatusCode, e.Code, raw
}

// TestSecurityOperatorAnswersMustBeSigned: a forged 200 to three debits, unsigned, produced
// three acknowledged wagers the operator never debited. An answer is believed only when the
// operator signed it for its call: unsigned, or signed over the answer alone with the
// secret itself (as before), each wager is refused 503 wallet_unavailable and nothing is
// placed; answered rightly, the same wager is taken.
func TestSecurityOperatorAnswersMustBeSigned(t *testing.T) {
	op := &fakeOperator{secret: []byte("the operator's wallet secret, 32"), sign: "right"}
	x, _ := startSeamlessSecServer(t, op)
	for _, sign := range []string{"none", "body"} {
		op.set(sign)
		head := x.head("tiger-eur")
		for i, bet := range []string{"banker", "player", "tie"} {
			req := map[string]any{"bet": bet, "stake": 1000, "request_id": sign + "-" + bet}
			if code, ecode, raw := x.call("p5", "POST", "/api/tables/tiger-eur/wagers", req); code != 503 || ecode != "wallet_unavailable" {
				t.Errorf("debit %d answered with a 200 signed %q: %d %s, want 503 wallet_unavailable", i+1, sign, code, truncateBody(raw))
			}
		}
		if got := x.head("tiger-eur"); got != head {
			t.Errorf("answers signed %q: the table's journal moved %d → %d", sign, head, got)
		}
		snap, err := x.s.host.Snapshot("tiger-eur", "p5")
		if err != nil || len(snap.State.Wagers) != 0 {
			t.Errorf("answers signed %q: p5's wagers at the table %+v %v, want none", sign, snap.State.Wagers, err)
		}
	}
	if n := len(op.received(seamless.PathDebit)); n != 6 {
		t.Errorf("the operator received %d debits, want 6", n)
	}
	op.set("right")
	x.want("p5", "POST", "/api/tables/tiger-eur/wagers", map[string]any{"bet": "banker", "stake": 1000, "request_id": "right-1"}, 200, "", nil)
	deadline := time.Now().Add(10 * time.Second)
	for len(op.received(seamless.PathRollback)) < 6 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := len(op.received(seamless.PathRollback)); n < 6 {
		t.Errorf("%d rollbacks of the 6 debits without a believable answer", n)
	}
}

// TestSecurityOperatorWalletCallIsNoLaunch: with one secret configured for the wallet and
// launches, the platform's own signed /debit and /balance calls, captured on the wire and
// sent to the launch route, are refused (401), and so is p5's signed launch sent again
// (409); nothing is debited or placed.
func TestSecurityOperatorWalletCallIsNoLaunch(t *testing.T) {
	op := &fakeOperator{secret: []byte("the operator's wallet secret, 32"), sign: "right"}
	x, launch := startSeamlessSecServer(t, op)
	x.want("p5", "GET", "/api/me", nil, 200, "", nil)
	x.want("p5", "POST", "/api/tables/tiger-eur/wagers", map[string]any{"bet": "banker", "stake": 1000, "request_id": "w-1"}, 200, "", nil)
	captured := append(op.received(seamless.PathBalance), op.received(seamless.PathDebit)...)
	if len(op.received(seamless.PathBalance)) == 0 || len(op.received(seamless.PathDebit)) == 0 {
		t.Fatalf("captured %d balance and %d debit calls, want both", len(op.received(seamless.PathBalance)), len(op.received(seamless.PathDebit)))
	}
	head := x.head("tiger-eur")
	for _, c := range captured {
		if code, ecode, raw := x.post("", web.LaunchPath, c.body, c.h); code != 401 || ecode != "unauthenticated" {
			t.Errorf("the platform's %s call %s replayed as a launch: %d %s, want 401", c.path, c.body, code, truncateBody(raw))
		}
	}
	if code, ecode, raw := x.post("", web.LaunchPath, launch.body, launch.h); code != 409 || ecode != "conflict" {
		t.Errorf("p5's signed launch sent again: %d %s, want 409 conflict", code, truncateBody(raw))
	}
	if got := x.head("tiger-eur"); got != head {
		t.Errorf("the table's journal moved %d → %d", head, got)
	}
	if n := len(op.received(seamless.PathDebit)); n != 1 {
		t.Errorf("%d debits at the operator, want the one wager's", n)
	}
}

// TestOperatorWalletAndServerAgreeByDefault: the reference wallet and the server given the
// same secret (--secret, --wallet-secret) and nothing else speak the same protocol: a
// launch signed under that secret's launch key signs p5 in, and p5's wager is debited at
// the wallet, with the answer believed.
func TestOperatorWalletAndServerAgreeByDefault(t *testing.T) {
	secret := []byte("one secret for both, 32 bytes!!!")
	ctx := context.Background()
	store, err := refwallet.Open(ctx, filepath.Join(t.TempDir(), "wallet.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	if err := store.SetPlayer(ctx, refwallet.Player{Player: "p5", Currency: "EUR", Balance: 10_000}); err != nil {
		t.Fatal(err)
	}
	wallet, err := refwallet.New(store, refwallet.Options{Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wallet.Close)
	op := &fakeOperator{secret: secret, sign: "right", next: wallet}
	x, _ := startSeamlessSecServer(t, op)
	x.want("p5", "POST", "/api/tables/tiger-eur/wagers", map[string]any{"bet": "banker", "stake": 1000, "request_id": "w-1"}, 200, "", nil)
	if b, err := store.Balance(ctx, seamless.BalanceRequest{Player: "p5", Currency: "EUR"}); err != nil || b != 9_000 {
		t.Fatalf("p5 at the wallet: %d %v, want 9000", b, err)
	}
}
