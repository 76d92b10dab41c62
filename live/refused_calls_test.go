package live_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/seamless/refwallet"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// gate stands between the platform and a reference operator wallet, as a proxy or an
// operator in trouble would: it answers chosen credits and rollbacks itself, before they
// reach the wallet. A player it locks has every credit and rollback refused with a signed
// 409 of the operator's own code, and, as the protocol says, a refused tx id keeps its
// refusal for ever; otherwise the next answers of its script are given first.
type gate struct {
	next   http.Handler
	mu     sync.Mutex
	locked map[string]bool // players
	kept   map[string]bool // tx ids refused once, refused for ever
	script []scripted
	seen   map[string]int // tx → times it arrived
}

// scripted is an answer the gate gives instead of the wallet.
type scripted struct {
	status int
	body   string
	signed bool
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.URL.Path != seamless.PathCredit && r.URL.Path != seamless.PathRollback {
		g.next.ServeHTTP(w, r)
		return
	}
	var q struct{ Tx, Player string }
	_ = json.Unmarshal(body, &q)
	g.mu.Lock()
	g.seen[q.Tx]++
	var a *scripted
	switch {
	case g.kept[q.Tx] || g.locked[q.Player]:
		g.kept[q.Tx] = true
		a = &scripted{409, `{"error":"account_locked","message":"the player's account is locked"}`, true}
	case len(g.script) > 0:
		a = &g.script[0]
		g.script = g.script[1:]
	}
	g.mu.Unlock()
	if a == nil {
		g.next.ServeHTTP(w, r)
		return
	}
	if a.signed {
		msg := seamless.AnswerMessage(a.status, r.Header.Get(seamless.SignatureHeader), []byte(a.body))
		w.Header().Set(seamless.SignatureHeader, seamless.Sign(seamless.DomainWallet.Key(walletSecret), msg))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func (g *gate) lock(player string, on bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.locked[player] = on
}

func (g *gate) times(tx string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.seen[tx]
}

// untrusted is an Operator that is not a *seamless.Client: whether its refusals were
// signed is not known.
type untrusted struct{ *seamless.Client }

// gated is a reference wallet behind a gate, and a host that calls it through the gate
// with a *seamless.Client (trusted) or another Operator.
func gated(t *testing.T, db walletStore, trusted bool, script ...scripted) (*operator, *gate, *live.Host) {
	t.Helper()
	op := newOperator(t, map[string]baccarat.Money{"ann": 100_000, "bob": 5_000}, "EUR")
	g := &gate{next: op.srv, locked: map[string]bool{}, kept: map[string]bool{}, script: script, seen: map[string]int{}}
	hs := httptest.NewServer(g)
	t.Cleanup(hs.Close)
	var client live.Operator = &seamless.Client{BaseURL: hs.URL, Secret: walletSecret, Timeout: time.Second}
	if !trusted {
		client = untrusted{client.(*seamless.Client)}
	}
	h := live.New(live.Options{Store: db, Owner: "test", Shuffle: seededShuffle(1), Operator: client, Outbox: fastOutbox})
	if err := h.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	if err := h.Create(context.Background(), live.Spec{ID: "eur", Config: table.Config{Game: "mbs-tiger"}, Mode: live.ModeDealer, Currency: "EUR"}); err != nil {
		t.Fatal(err)
	}
	return op, g, h
}

// playRound: ann stakes 1001 on the Banker, bob 2000 on the Player, and the Banker wins on
// a two-card 6 (1:2): ann is owed a credit of 1501, bob one of 0. It returns ann's credit.
func playRound(t *testing.T, h *live.Host) string {
	t.Helper()
	submit(t, h, "eur", &table.NewShoe{})
	submit(t, h, "eur", &table.Open{})
	w := submit(t, h, "eur", &table.Place{Player: "ann", Bet: "banker", Stake: 1001, RequestID: "a1"})
	submit(t, h, "eur", &table.Place{Player: "bob", Bet: "player", Stake: 2000, RequestID: "b1"})
	submit(t, h, "eur", &table.Close{})
	cards(t, h, "eur", "2h", "3d", "3c", "3s", "9d")
	return live.CloseTx(journal.CallCredit, "eur", w.Wager.ID)
}

func wantBalance(t *testing.T, op *operator, player string, want baccarat.Money) {
	t.Helper()
	if got := op.balance(t, player, "EUR"); got != want {
		t.Fatalf("%s at the operator: %d, want %d", player, got, want)
	}
}

func reconcile(t *testing.T, db walletStore) *verify.Reconciliation {
	t.Helper()
	rec, err := verify.Reconcile(context.Background(), db, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// refusedOnce waits for the outbox, then checks that tx was refused for good after one
// try, is listed as refused by the reconciliation with the operator's reason, and that
// verify reports it as something to act on.
func refusedOnce(t *testing.T, db walletStore, g *gate, tx string, amount baccarat.Money) {
	t.Helper()
	settledOutbox(t, db)
	time.Sleep(5 * fastOutbox.Every) // a refused call is not tried again
	c, err := db.Call(context.Background(), tx)
	if err != nil || c.State != journal.CallFailed || !strings.Contains(c.Error, "account_locked") || g.times(tx) != 1 {
		t.Fatalf("the refused credit: %+v (%v), sent %d times", c, err, g.times(tx))
	}
	rec := reconcile(t, db)
	if len(rec.Failed) != 1 || rec.Failed[0].Tx != tx || rec.Totals["EUR"].Refused != amount {
		t.Fatalf("reconciliation: failed %+v, totals %+v", rec.Failed, rec.Totals["EUR"])
	}
	rep, err := verify.Database(context.Background(), db, time.Now())
	if err != nil || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], tx) || !strings.Contains(rep.Problems[0], "resend it or settle it") {
		t.Fatalf("verify of an open refused credit: %q, %v", rep.Problems, err)
	}
}

func TestRefusedCreditIsResentAndPaidOnce(t *testing.T) {
	stores(t, testResendRefused)
}

func testResendRefused(t *testing.T, db walletStore) {
	ctx := context.Background()
	op, g, h := gated(t, db, true)
	g.lock("ann", true)
	tx := playRound(t, h)
	refusedOnce(t, db, g, tx, 1501)
	wantBalance(t, op, "ann", 100_000-1001)
	// The operator unlocks the account; an admin resends the credit.
	g.lock("ann", false)
	at := time.Now().UTC()
	out, err := h.ResolveCall(ctx, tx, journal.Resolution{Action: journal.ActionResend, By: "admin", At: at, Reason: "the operator unlocked ann"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Call.State != journal.CallResent || out.Resent == nil || out.Resent.Replaces != tx || out.Call.Resolution.ResentAs != out.Resent.Tx {
		t.Fatalf("resent: %+v", out)
	}
	settledOutbox(t, db)
	wantBalance(t, op, "ann", 100_000+500)
	if n, _ := db.Call(ctx, out.Resent.Tx); n.State != journal.CallDone || g.times(out.Resent.Tx) != 1 || g.times(tx) != 1 {
		t.Fatalf("the resent credit: %+v, sent %d times; the refused one %d", n, g.times(out.Resent.Tx), g.times(tx))
	}
	// Once is all: the refused call is not resent again, nor settled.
	_, err = h.ResolveCall(ctx, tx, journal.Resolution{Action: journal.ActionResend, By: "admin", At: at})
	wantCode(t, err, baccarat.CodeBadState)
	_, err = h.ResolveCall(ctx, out.Resent.Tx, journal.Resolution{Action: journal.ActionSettle, By: "admin", At: at, Reason: "x"})
	wantCode(t, err, baccarat.CodeBadState)
	rep := verifyClean(t, db)
	if len(rep.Resolved) != 1 || !strings.Contains(rep.Resolved[0], "resent as "+out.Resent.Tx+" by admin") {
		t.Fatalf("verify's resolved: %q", rep.Resolved)
	}
	rec := reconcile(t, db)
	if tot := rec.Totals["EUR"]; len(rec.Failed) != 0 || len(rec.Resolved) != 1 || rec.Resolved[0].Resolution.By != "admin" ||
		tot.Credited != 1501 || tot.Refused != 0 || tot.Net != -1500 {
		t.Fatalf("reconciliation: failed %d, resolved %+v, totals %+v", len(rec.Failed), rec.Resolved, tot)
	}
	paidOnce(t, op)
}

func TestRefusedCreditIsSettledByHandAndNeverSentAgain(t *testing.T) {
	stores(t, testSettleRefused)
}

func testSettleRefused(t *testing.T, db walletStore) {
	ctx := context.Background()
	op, g, h := gated(t, db, true)
	g.lock("ann", true)
	tx := playRound(t, h)
	refusedOnce(t, db, g, tx, 1501)
	_, err := h.ResolveCall(ctx, tx, journal.Resolution{Action: journal.ActionSettle, By: "admin", At: time.Now()})
	wantCode(t, err, baccarat.CodeBadRequest)
	// The operator pays ann by hand; an admin settles the credit, saying so.
	if err := op.store.SetPlayer(ctx, refwallet.Player{Player: "ann", Currency: "EUR", Balance: 100_000 - 1001 + 1501}); err != nil {
		t.Fatal(err)
	}
	g.lock("ann", false)
	out, err := h.ResolveCall(ctx, tx, journal.Resolution{Action: journal.ActionSettle, By: "admin", At: time.Now(), Reason: "paid by bank transfer, ticket 4411"})
	if err != nil || out.Call.State != journal.CallSettled || out.Resent != nil {
		t.Fatalf("settled: %+v, %v", out, err)
	}
	time.Sleep(10 * fastOutbox.Every)
	if g.times(tx) != 1 {
		t.Fatalf("a credit settled by hand was sent %d times", g.times(tx))
	}
	wantBalance(t, op, "ann", 100_000+500)
	_, err = h.ResolveCall(ctx, tx, journal.Resolution{Action: journal.ActionResend, By: "admin", At: time.Now()})
	wantCode(t, err, baccarat.CodeBadState)
	rep := verifyClean(t, db)
	if len(rep.Resolved) != 1 || !strings.Contains(rep.Resolved[0], "settled by hand by admin") || !strings.Contains(rep.Resolved[0], "ticket 4411") {
		t.Fatalf("verify's resolved: %q", rep.Resolved)
	}
	rec := reconcile(t, db)
	if tot := rec.Totals["EUR"]; len(rec.Failed) != 0 || len(rec.Resolved) != 1 || tot.SettledByHand != 1501 || tot.Credited != 0 || tot.Net != -1500 {
		t.Fatalf("reconciliation: failed %d, resolved %d, totals %+v", len(rec.Failed), len(rec.Resolved), tot)
	}
	paidOnce(t, op)
}

// noAnswers are answers no credit may stop at: each is retried.
var noAnswers = []scripted{
	{429, `{"error":"rate_limited"}`, false},                  // a proxy's
	{409, `{"error":"tx_conflict","message":"proxy"}`, false}, // unsigned, whoever wrote it
	{429, `{"error":"debit_closed"}`, true},                   // "ask me later", whatever the code
	{400, `<html>bad request</html>`, true},                   // does not decode
	{502, `bad gateway`, false},
	{503, `{"error":"internal"}`, true},
	{401, `{"error":"bad_signature"}`, true},          // nothing was read
	{404, `{"error":"debit_closed"}`, true},           // not the code's status
	{400, `{"message":"no code"}`, true},              // no code
	{409, `{"error":"internal","message":"x"}`, true}, // internal is never a refusal
}

func TestCreditsWithoutATrustedRefusalAreRetriedUntilPaid(t *testing.T) {
	stores(t, func(t *testing.T, db walletStore) {
		op, g, h := gated(t, db, true, noAnswers...)
		tx := playRound(t, h)
		settledOutbox(t, db)
		wantBalance(t, op, "ann", 100_000+500)
		wantBalance(t, op, "bob", 3_000)
		calls, _ := db.Calls(context.Background(), journal.CallFilter{Kind: journal.CallCredit})
		attempts := 0
		for _, c := range calls {
			if c.State != journal.CallDone {
				t.Fatalf("credit %s is %s (%s)", c.Tx, c.State, c.Error)
			}
			attempts += c.Attempts
		}
		if attempts != len(noAnswers)+2 || g.times(tx) < 1 {
			t.Fatalf("%d attempts for 2 credits after %d answers without a refusal", attempts, len(noAnswers))
		}
		verifyClean(t, db)
		if rec := reconcile(t, db); len(rec.Failed) != 0 || rec.Totals["EUR"].Credited != 1501 {
			t.Fatalf("reconciliation: %+v", rec.Totals["EUR"])
		}
		paidOnce(t, op)
	})
}

// TestAnOperatorNotKnownToCheckSignaturesIsTrustedWithNoRefusal: an Operator other than
// a *seamless.Client may hand on a refusal nobody checked the signature of, so even a 409
// of the operator's own code leaves the credit pending, retried (and listed undelivered),
// until it is paid.
func TestAnOperatorNotKnownToCheckSignaturesIsTrustedWithNoRefusal(t *testing.T) {
	db := openDB(t, "")
	op, g, h := gated(t, db, false, noAnswers...)
	g.lock("ann", true)
	tx := playRound(t, h)
	deadline := time.Now().Add(10 * time.Second)
	for g.times(tx) < 4 && time.Now().Before(deadline) {
		time.Sleep(fastOutbox.Every)
	}
	c, err := db.Call(context.Background(), tx)
	if err != nil || c.State != journal.CallPending || !strings.Contains(c.Error, "not a definite refusal") {
		t.Fatalf("a credit refused to an untrusting client: %+v, %v", c, err)
	}
	if rep, _ := verify.Database(context.Background(), db, time.Now()); len(rep.Undelivered) == 0 || !rep.OK() {
		t.Fatalf("verify while it is retried: undelivered %q, problems %q", rep.Undelivered, rep.Problems)
	}
	g.mu.Lock()
	g.locked["ann"], g.kept = false, map[string]bool{} // the operator takes it in the end
	g.mu.Unlock()
	settledOutbox(t, db)
	wantBalance(t, op, "ann", 100_000+500)
	verifyClean(t, db)
	paidOnce(t, op)
}

// paidOnce: the operator applied no tx twice and closed each debit once (its own rules),
// and every credit it applied is one our books hold as done.
func paidOnce(t *testing.T, op *operator) {
	t.Helper()
	ctx := context.Background()
	if err := op.srv.Idle(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := op.admin.Report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen, closed := map[string]bool{}, map[string]string{}
	for _, x := range rep.Txs {
		if seen[x.Tx] {
			t.Errorf("tx %s recorded twice", x.Tx)
		}
		seen[x.Tx] = true
		if x.Closes != "" && closed[x.Closes] != "" {
			t.Errorf("debit %s closed by %s and %s", x.Closes, closed[x.Closes], x.Tx)
		}
		if x.Closes != "" {
			closed[x.Closes] = x.Tx
		}
	}
}

// TestVerifyCatchesAResendNothingCarriesOn plants a fault past the store: the call that
// carries a resent credit on no longer says so. The audit names it.
func TestVerifyCatchesAResendNothingCarriesOn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	db := openDB(t, path)
	_, g, h := gated(t, db, true)
	g.lock("ann", true)
	tx := playRound(t, h)
	refusedOnce(t, db, g, tx, 1501)
	g.lock("ann", false)
	if _, err := h.ResolveCall(context.Background(), tx, journal.Resolution{Action: journal.ActionResend, By: "admin", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	settledOutbox(t, db)
	verifyClean(t, db)
	h.Close() // nothing writes while the fault is planted
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE wallet_calls SET replaces = NULL WHERE replaces = ?`, tx); err != nil {
		t.Fatal(err)
	}
	rep, err := verify.Database(context.Background(), db, time.Now())
	if err != nil || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "not recorded as carrying it on") {
		t.Fatalf("verify after the fault: %q, %v", rep.Problems, err)
	}
}

// TestBackoffIsCappedForEver: the wait doubles from MinBackoff to MaxBackoff and stays
// there however many attempts came before (a call is retried until answered), without
// overflowing on a long ceiling.
func TestBackoffIsCappedForEver(t *testing.T) {
	d := live.Outbox{MinBackoff: 500 * time.Millisecond, MaxBackoff: 5 * time.Minute}
	for _, c := range []struct {
		n    int
		want time.Duration
	}{
		{1, 500 * time.Millisecond}, {2, time.Second}, {3, 2 * time.Second}, {10, 256 * time.Second},
		{11, 5 * time.Minute}, {1000, 5 * time.Minute}, {1 << 40, 5 * time.Minute},
	} {
		if got := d.Backoff(c.n); got != c.want {
			t.Errorf("retry %d: %s, want %s", c.n, got, c.want)
		}
	}
	if got := (live.Outbox{}).Backoff(1 << 20); got != 5*time.Minute {
		t.Errorf("the defaults' ceiling: %s", got)
	}
	huge := live.Outbox{MinBackoff: time.Second, MaxBackoff: time.Duration(1<<63 - 1)}
	for n := 1; n < 100; n++ {
		if got := huge.Backoff(n); got <= 0 || (n > 1 && got < huge.Backoff(n-1)) {
			t.Fatalf("retry %d under a ceiling of %s: %s", n, huge.MaxBackoff, got)
		}
	}
	if got := (live.Outbox{MinBackoff: time.Hour, MaxBackoff: time.Minute}).Backoff(3); got != time.Minute {
		t.Errorf("a floor over the ceiling: %s, want the ceiling", got)
	}
}
