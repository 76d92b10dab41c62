package refwallet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/seamless"
)

// post sends body to path signed as the protocol signs it, under the wallet's key derived
// from key (no headers when key is nil), over signed in place of the body, and returns the
// status and the answer, checking the wallet signed it for this call.
func (w *wallet) post(path, body, signed string, key []byte) (int, string) {
	w.t.Helper()
	h := http.Header{}
	if key != nil {
		seamless.NewStamp(http.MethodPost, path, time.Now()).Sign(h, seamless.DomainWallet.Key(key), []byte(signed))
	}
	return w.postWith(path, body, h)
}

// postWith sends body to path with the headers h.
func (w *wallet) postWith(path, body string, h http.Header) (int, string) {
	w.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, w.url+path, strings.NewReader(body))
	for k, v := range h {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	msg := seamless.AnswerMessage(resp.StatusCode, req.Header.Get(seamless.SignatureHeader), b)
	if !seamless.Verify(seamless.DomainWallet.Key(secret), msg, resp.Header.Get(seamless.SignatureHeader)) {
		w.t.Errorf("%s: the answer %s is not signed for this call", path, b)
	}
	return resp.StatusCode, string(b)
}

func code(err error) seamless.Code {
	var re *seamless.RefusedError
	var ie *seamless.InsufficientFundsError
	switch {
	case errors.As(err, &ie):
		return seamless.CodeInsufficientFunds
	case errors.As(err, &re):
		return re.Code
	case err == nil:
		return ""
	}
	return "other: " + seamless.Code(err.Error())
}

// TestOperatorSignatureRequired: every endpoint, admin ones included, refuses with 401 a
// call with no signature, a wrong one, one made for another call, path or protocol, or one
// made long ago, and nothing is recorded or changed.
func TestOperatorSignatureRequired(t *testing.T) {
	w := newWallet(t, Faults{})
	w.player("ann", 1000)
	body := string(seamless.Canonical(debit("d-1", "ann", 100)))
	for _, c := range []struct {
		name, path, body, signed string
		key                      []byte
	}{
		{"a debit without a signature", seamless.PathDebit, body, body, nil},
		{"a debit signed with another secret", seamless.PathDebit, body, body, []byte("the wrong secret, 32 bytes long!")},
		{"a debit signed over another body", seamless.PathDebit, body + " ", body, secret},
		{"a balance without a signature", seamless.PathBalance, `{"player":"ann","currency":"EUR"}`, "", nil},
		{"an admin change without a signature", "/admin/players", `{"player":"ann","currency":"EUR","balance":5}`, "", nil},
	} {
		if status, answer := w.post(c.path, c.body, c.signed, c.key); status != 401 || !strings.Contains(answer, `"bad_signature"`) {
			t.Errorf("%s: %d %s, want 401 bad_signature", c.name, status, answer)
		}
	}
	now := time.Now()
	stamped := func(st seamless.Stamp, key []byte) http.Header {
		h := http.Header{}
		st.Sign(h, key, []byte(body))
		return h
	}
	walletKey, launchKey := seamless.DomainWallet.Key(secret), seamless.DomainLaunch.Key(secret)
	debitAt := func(at time.Time) seamless.Stamp { return seamless.NewStamp(http.MethodPost, seamless.PathDebit, at) }
	for name, h := range map[string]http.Header{
		"signed over the body alone with the secret itself": {seamless.SignatureHeader: {seamless.Sign(secret, []byte(body))}},
		"signed with the launch key (a launch replayed)":    stamped(debitAt(now), launchKey),
		"signed with the secret itself":                     stamped(debitAt(now), secret),
		"signed for /credit":                                stamped(seamless.NewStamp(http.MethodPost, seamless.PathCredit, now), walletKey),
		"signed as a GET":                                   stamped(seamless.NewStamp(http.MethodGet, seamless.PathDebit, now), walletKey),
		"signed 38 minutes ago":                             stamped(debitAt(now.Add(-38*time.Minute)), walletKey),
		"dated 10 minutes ahead":                            stamped(debitAt(now.Add(10*time.Minute)), walletKey),
		"with a short nonce": stamped(seamless.Stamp{Method: http.MethodPost, Path: seamless.PathDebit, Time: now.Unix(),
			Nonce: "abc"}, walletKey),
		"with its timestamp twice": func() http.Header {
			h := stamped(debitAt(now), walletKey)
			h.Add(seamless.TimestampHeader, h.Get(seamless.TimestampHeader))
			return h
		}(),
	} {
		if status, answer := w.postWith(seamless.PathDebit, body, h); status != 401 || !strings.Contains(answer, `"bad_signature"`) {
			t.Errorf("a debit %s: %d %s, want 401 bad_signature", name, status, answer)
		}
	}
	for _, path := range []string{"/admin/report", "/admin/faults"} {
		resp, err := http.Get(w.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("GET %s unsigned: %d, want 401", path, resp.StatusCode)
		}
	}
	rep := w.balanced()
	if len(rep.Txs) != 0 || rep.Players[0].Balance != 1000 {
		t.Fatalf("refused calls left a trace: %+v", rep)
	}
	if status, answer := w.postWith(seamless.PathDebit, body, stamped(debitAt(now.Add(-time.Minute)), walletKey)); status != 200 {
		t.Fatalf("the same debit signed a minute ago, within the %s allowed: %d %s", seamless.MaxSkew, status, answer)
	}
}

// TestOperatorIdempotency: a repeated tx id gets its first answer byte for byte and is
// applied once, even when the balance has changed since; the same id with another body,
// or for another call, is refused and changes nothing.
func TestOperatorIdempotency(t *testing.T) {
	w := newWallet(t, Faults{})
	w.player("ann", 1000)
	d := debit("d-1", "ann", 300)
	body := string(seamless.Canonical(d))
	s1, a1 := w.post(seamless.PathDebit, body, body, secret)
	if s1 != 200 || a1 != `{"balance":700}` {
		t.Fatalf("first debit: %d %s", s1, a1)
	}
	if _, err := w.client.Debit(context.Background(), debit("d-2", "ann", 100)); err != nil {
		t.Fatal(err)
	}
	s2, a2 := w.post(seamless.PathDebit, body, body, secret)
	if s2 != s1 || a2 != a1 {
		t.Errorf("the repeat: %d %s, want the first answer %d %s", s2, a2, s1, a1)
	}
	c := credit("c-1", d, 500)
	for range 3 {
		if a, err := w.client.Credit(context.Background(), c); err != nil || a.Balance != 1100 {
			t.Fatalf("credit and its repeats: %+v, %v; want the first answer, balance 1100", a, err)
		}
	}
	other := d
	other.Amount = 301
	if _, err := w.client.Debit(context.Background(), other); code(err) != seamless.CodeTxConflict {
		t.Errorf("the same tx id with another amount: %v, want tx_conflict", err)
	}
	if _, err := w.client.Rollback(context.Background(), rollback("d-1", debit("d-0", "ann", 300))); code(err) != seamless.CodeTxConflict {
		t.Errorf("a debit's tx id used for a rollback: %v, want tx_conflict", err)
	}
	rep := w.balanced()
	if len(rep.Txs) != 3 || rep.Players[0].Balance != 1100 {
		t.Fatalf("applied: %d txs, balance %d; want 3 txs, 1000 − 300 − 100 + 500 = 1100", len(rep.Txs), rep.Players[0].Balance)
	}
}

// TestOperatorInsufficientFunds: a debit over the balance is refused with the balance,
// recorded, and stays refused when retried after a deposit.
func TestOperatorInsufficientFunds(t *testing.T) {
	w := newWallet(t, Faults{})
	w.player("ann", 250)
	ctx := context.Background()
	_, err := w.client.Debit(ctx, debit("d-1", "ann", 251))
	var ie *seamless.InsufficientFundsError
	if !errors.As(err, &ie) || ie.Balance != 250 {
		t.Fatalf("a debit of 251 from 250: %v", err)
	}
	w.player("ann", 10_000)
	if _, err := w.client.Debit(ctx, debit("d-1", "ann", 251)); !errors.As(err, &ie) || ie.Balance != 250 {
		t.Errorf("the retry after a deposit: %v; want the first answer (balance 250)", err)
	}
	if a, err := w.client.Debit(ctx, debit("d-2", "ann", 10_000)); err != nil || a.Balance != 0 {
		t.Errorf("a debit of the whole balance: %+v, %v", a, err)
	}
	if _, err := w.client.Debit(ctx, debit("d-3", "ann", 1)); !errors.As(err, &ie) || ie.Balance != 0 {
		t.Errorf("a debit from 0: %v", err)
	}
	if _, err := w.client.Debit(ctx, debit("d-4", "nobody", 1)); code(err) != seamless.CodeUnknownPlayer {
		t.Errorf("a debit of an unknown player: %v", err)
	}
	if _, err := w.client.Balance(ctx, seamless.BalanceRequest{Player: "ann", Currency: "USD"}); code(err) != seamless.CodeUnknownPlayer {
		t.Errorf("a currency the player has no wallet in: %v", err)
	}
	if a, err := w.client.Balance(ctx, seamless.BalanceRequest{Player: "ann", Currency: "EUR"}); err != nil || a.Balance != 0 {
		t.Errorf("balance: %+v, %v", a, err)
	}
	w.balanced()
}

// TestOperatorRollbackBeforeDebit: a rollback of a debit never seen is OK and moves
// nothing; the debit, arriving late, is refused (rolled_back) for good. A rollback of a
// refused debit is OK too, and moves nothing.
func TestOperatorRollbackBeforeDebit(t *testing.T) {
	w := newWallet(t, Faults{})
	w.player("ann", 1000)
	ctx := context.Background()
	d := debit("d-1", "ann", 300)
	if a, err := w.client.Rollback(ctx, rollback("r-1", d)); err != nil || a.Balance != 1000 {
		t.Fatalf("rollback of a debit never seen: %+v, %v; want OK, balance 1000", a, err)
	}
	for range 2 {
		if _, err := w.client.Debit(ctx, d); code(err) != seamless.CodeRolledBack {
			t.Fatalf("the late debit: %v, want rolled_back", err)
		}
	}
	if _, err := w.client.Credit(ctx, credit("c-1", d, 600)); code(err) != seamless.CodeDebitClosed {
		t.Errorf("a credit of the rolled-back debit: %v, want debit_closed", err)
	}
	poor := debit("d-2", "ann", 5000)
	if _, err := w.client.Debit(ctx, poor); code(err) != seamless.CodeInsufficientFunds {
		t.Fatal(err)
	}
	if a, err := w.client.Rollback(ctx, rollback("r-2", poor)); err != nil || a.Balance != 1000 {
		t.Errorf("rollback of a refused debit: %+v, %v; want OK, nothing moved", a, err)
	}
	if a, err := w.client.Rollback(ctx, rollback("r-3", debit("d-3", "nobody", 5))); err != nil || a.Balance != 0 {
		t.Errorf("rollback of a never-seen debit of an unknown player: %+v, %v; want OK, balance 0", a, err)
	}
	rep := w.balanced()
	if rep.Players[0].Balance != 1000 {
		t.Fatalf("balance %d, want 1000", rep.Players[0].Balance)
	}
}

// TestOperatorDebitsCloseOnce: a credit or rollback names an applied debit of the same
// player, currency, table, round and wager (a rollback, its amount too), and a debit is
// closed once.
func TestOperatorDebitsCloseOnce(t *testing.T) {
	w := newWallet(t, Faults{})
	w.player("ann", 1000)
	w.player("bob", 1000)
	ctx := context.Background()
	d := debit("d-1", "ann", 300)
	if _, err := w.client.Debit(ctx, d); err != nil {
		t.Fatal(err)
	}
	wrongWager, bobs := credit("c-0", d, 10), credit("c-00", d, 10)
	wrongWager.Wager, bobs.Player = 2, "bob"
	short := rollback("r-0", d)
	short.Amount = 299
	for _, c := range []struct {
		name string
		call func() error
		want seamless.Code
	}{
		{"a credit of a debit never seen", func() error { _, err := w.client.Credit(ctx, credit("c-x", debit("d-x", "ann", 1), 5)); return err }, seamless.CodeUnknownDebit},
		{"a credit for another wager", func() error { _, err := w.client.Credit(ctx, wrongWager); return err }, seamless.CodeDebitMismatch},
		{"a credit to another player", func() error { _, err := w.client.Credit(ctx, bobs); return err }, seamless.CodeDebitMismatch},
		{"a rollback of less than the debit", func() error { _, err := w.client.Rollback(ctx, short); return err }, seamless.CodeDebitMismatch},
		{"the credit", func() error { _, err := w.client.Credit(ctx, credit("c-1", d, 600)); return err }, ""},
		{"a second credit", func() error { _, err := w.client.Credit(ctx, credit("c-2", d, 600)); return err }, seamless.CodeDebitClosed},
		{"a rollback after the credit", func() error { _, err := w.client.Rollback(ctx, rollback("r-1", d)); return err }, seamless.CodeDebitClosed},
		{"a rollback naming a credit", func() error {
			_, err := w.client.Rollback(ctx, rollback("r-2", debit("c-1", "ann", 600)))
			return err
		}, seamless.CodeUnknownDebit},
	} {
		if got := code(c.call()); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	rep := w.balanced()
	if rep.Players[0].Balance != 1300 || rep.Players[1].Balance != 1000 {
		t.Fatalf("balances %+v, want ann 1300, bob 1000", rep.Players)
	}
	// Refusals of calls that name a debit are recorded as the tx's answer too.
	if _, err := w.client.Credit(ctx, credit("c-2", d, 600)); code(err) != seamless.CodeDebitClosed {
		t.Errorf("the refused credit, repeated: %v", err)
	}
}

// TestOperatorAdmin: players are created and reset through the signed admin endpoint;
// the opening follows, so the books still add up; a bad player or fault setting is
// refused.
func TestOperatorAdmin(t *testing.T) {
	w := newWallet(t, Faults{})
	ctx := context.Background()
	w.player("ann", 1000)
	if _, err := w.client.Debit(ctx, debit("d-1", "ann", 400)); err != nil {
		t.Fatal(err)
	}
	w.player("ann", 50)
	rep := w.balanced()
	if p := rep.Players[0]; p.Balance != 50 || p.Opening != 450 {
		t.Errorf("after a reset to 50: %+v, want balance 50, opening 450", p)
	}
	for _, p := range []Player{{"ann", "EUR", -1}, {"a b", "EUR", 1}, {"ann", "eur", 1}, {"ann", "EUR", MaxBalance + 1}} {
		if err := w.admin.SetPlayer(ctx, p); code(err) != seamless.CodeBadRequest {
			t.Errorf("SetPlayer(%+v): %v", p, err)
		}
	}
	if err := w.admin.SetFaults(ctx, Faults{FailP: 1.5}); code(err) != seamless.CodeBadRequest {
		t.Errorf("a probability of 1.5: %v", err)
	}
	want := Faults{SlowMS: 10, SlowP: 0.25, FailP: 0.5, LoseP: 0.125}
	if err := w.admin.SetFaults(ctx, want); err != nil {
		t.Fatal(err)
	}
	if got, err := w.admin.Faults(ctx); err != nil || got != want {
		t.Errorf("faults %+v, %v; want %+v", got, err, want)
	}
	if status, _ := w.post("/admin/players", `{"player":"ann","currency":"EUR","balance":1,"extra":1}`, `{"player":"ann","currency":"EUR","balance":1,"extra":1}`, secret); status != 400 {
		t.Errorf("an admin body with an unknown field: %d", status)
	}
	if status, _ := w.post(seamless.PathDebit, strings.Repeat(" ", seamless.MaxBody+1), "", secret); status != 413 {
		t.Errorf("a body over 64 KiB: %d, want 413", status)
	}
	if !bytes.Equal(seamless.AnswerBody(5), []byte(`{"balance":5}`)) {
		t.Errorf("answer body %s", seamless.AnswerBody(5))
	}
}
