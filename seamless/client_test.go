package seamless

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

var testDebit = DebitRequest{Tx: "d-1", Player: "ann", Currency: "EUR", Amount: 1000, Table: "tiger", Round: 1, Wager: 1}

// operator is a fake operator answering every call with answer, counting the calls it
// received and checking that each was signed over the request's canonical body.
func operator(t *testing.T, answer http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, err := ReadSigned(w, r, testSecret)
		if err != nil {
			t.Errorf("%s arrived unsigned or wrongly signed: %v", r.URL.Path, err)
		}
		if r.URL.Path == PathDebit && string(body) != string(Canonical(testDebit)) {
			t.Errorf("debit body %s, want %s", body, Canonical(testDebit))
		}
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func signed(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { WriteSigned(w, r, testSecret, status, []byte(body)) }
}

// signedWith answers status and body with an X-Signature over msg under key: a signature
// that is not the answer's.
func signedWith(key []byte, status int, body string, msg func(r *http.Request) []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(SignatureHeader, Sign(key, msg(r)))
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// TestSeamlessClientKindsOfAnswer: every answer is a result or one of the three kinds of
// error, and the call is sent exactly once whatever happens.
func TestSeamlessClientKindsOfAnswer(t *testing.T) {
	const unknown, refused, funds, ok = "outcome unknown", "refused", "insufficient funds", "ok"
	big := `{"balance":1,"pad":"` + strings.Repeat("x", MaxBody) + `"}`
	for _, c := range []struct {
		name   string
		answer http.HandlerFunc
		want   string
	}{
		{"a signed 200 with the balance", signed(200, `{"balance":9000}`), ok},
		{"402 insufficient funds", signed(402, `{"error":"insufficient_funds","balance":250}`), funds},
		{"404 unknown player", signed(404, `{"error":"unknown_player","message":"no"}`), refused},
		{"409 rolled back", signed(409, `{"error":"rolled_back"}`), refused},
		{"500: the operator failed somewhere", signed(500, `{"error":"internal"}`), unknown},
		{"503 from a proxy", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) }, unknown},
		{"200 without a balance", signed(200, `{}`), unknown},
		{"200 that is not JSON", signed(200, `<html>`), unknown},
		{"an answer over 64 KiB", signed(200, big), unknown},
		{"a wrong signature on a 200", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set(SignatureHeader, Sign([]byte("another secret, not ours!"), []byte(`{"balance":9000}`)))
			_, _ = io.WriteString(w, `{"balance":9000}`)
		}, unknown},
		{"a wrong signature on a refusal", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set(SignatureHeader, strings.Repeat("0", 64))
			w.WriteHeader(402)
			_, _ = io.WriteString(w, `{"error":"insufficient_funds","balance":0}`)
		}, unknown},
		{"an unsigned 200", func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, `{"balance":9000}`)
		}, unknown},
		{"an unsigned refusal (a proxy's 404)", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(404)
			_, _ = io.WriteString(w, `{"error":"unknown_player"}`)
		}, unknown},
		{"a 200 signed over its body alone with the secret itself", signedWith(testSecret, 200, `{"balance":9000}`,
			func(*http.Request) []byte { return []byte(`{"balance":9000}`) }), unknown},
		{"a 200 signed for another call (an answer replayed)", signedWith(DomainWallet.Key(testSecret), 200, `{"balance":9000}`,
			func(*http.Request) []byte {
				return AnswerMessage(200, Sign(testSecret, nil), []byte(`{"balance":9000}`))
			}), unknown},
		{"a 200 signed with the launch key", signedWith(DomainLaunch.Key(testSecret), 200, `{"balance":9000}`,
			func(r *http.Request) []byte {
				return AnswerMessage(200, r.Header.Get(SignatureHeader), []byte(`{"balance":9000}`))
			}), unknown},
		{"a 200 signed as a 402 (the status is signed)", signedWith(DomainWallet.Key(testSecret), 200, `{"balance":9000}`,
			func(r *http.Request) []byte {
				return AnswerMessage(402, r.Header.Get(SignatureHeader), []byte(`{"balance":9000}`))
			}), unknown},
		{"a 200 signed twice", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add(SignatureHeader, Sign(DomainWallet.Key(testSecret), AnswerMessage(200, r.Header.Get(SignatureHeader), []byte(`{"balance":9000}`))))
			w.Header().Add(SignatureHeader, strings.Repeat("0", 64))
			_, _ = io.WriteString(w, `{"balance":9000}`)
		}, unknown},
		{"a dropped connection", func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }, unknown},
		{"a redirect, never followed", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		}, unknown},
		{"an answer after the timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, unknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv, calls := operator(t, c.answer)
			cl := &Client{BaseURL: srv.URL + "/", Secret: testSecret, Timeout: 200 * time.Millisecond}
			a, err := cl.Debit(context.Background(), testDebit)
			if got := kind(err); got != c.want {
				t.Fatalf("Debit: %+v, %v (%s); want %s", a, err, got, c.want)
			}
			if n := calls.Load(); n != 1 {
				t.Errorf("the operator received the debit %d times, want once", n)
			}
			var ue *OutcomeUnknownError
			if errors.As(err, &ue) && (ue.Op != PathDebit || ue.Tx != "d-1") {
				t.Errorf("unknown outcome names %s %s", ue.Op, ue.Tx)
			}
			var ie *InsufficientFundsError
			if errors.As(err, &ie) && ie.Balance != 250 {
				t.Errorf("insufficient funds with balance %d, want 250", ie.Balance)
			}
			if c.want == ok && a.Balance != 9000 {
				t.Errorf("balance %d, want 9000", a.Balance)
			}
		})
	}
}

func kind(err error) string {
	var ue *OutcomeUnknownError
	var re *RefusedError
	var ie *InsufficientFundsError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &ue):
		return "outcome unknown"
	case errors.As(err, &ie):
		return "insufficient funds"
	case errors.As(err, &re):
		return "refused"
	}
	return "other: " + err.Error()
}

// TestSeamlessClientSendsNothing: a request that breaks the rules, a client without a
// proper secret and a context already done send nothing, and say so.
func TestSeamlessClientSendsNothing(t *testing.T) {
	srv, calls := operator(t, signed(200, `{"balance":1}`))
	cl := &Client{BaseURL: srv.URL, Secret: testSecret}
	bad := testDebit
	bad.Amount = -1
	if _, err := cl.Debit(context.Background(), bad); kind(err) != "refused" || err.(*RefusedError).Status != 0 {
		t.Errorf("a negative debit: %v", err)
	}
	weak := &Client{BaseURL: srv.URL, Secret: []byte("short")}
	if _, err := weak.Debit(context.Background(), testDebit); kind(err) != "refused" {
		t.Errorf("a 5-byte secret: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cl.Debit(ctx, testDebit); !errors.Is(err, context.Canceled) || kind(err) == "outcome unknown" {
		t.Errorf("a cancelled context: %v", err)
	}
	bogus := &Client{BaseURL: "://nowhere", Secret: testSecret}
	if _, err := bogus.Debit(context.Background(), testDebit); kind(err) != "refused" {
		t.Errorf("an unusable base URL: %v", err)
	}
	if n := calls.Load(); n != 0 {
		t.Errorf("%d calls reached the operator", n)
	}
}

// TestSeamlessClientEveryCall: each method posts to its path and reads the balance.
func TestSeamlessClientEveryCall(t *testing.T) {
	srv, _ := operator(t, func(w http.ResponseWriter, r *http.Request) {
		WriteSigned(w, r, testSecret, 200, AnswerBody(baccarat.Money(len(r.URL.Path))))
	})
	cl := &Client{BaseURL: srv.URL, Secret: testSecret, HTTP: &http.Client{}}
	ctx := context.Background()
	cr := CreditRequest{Tx: "c-1", Player: "ann", Currency: "EUR", Amount: 0, Table: "tiger", Round: 1, Wager: 1, DebitTx: "d-1"}
	rb := RollbackRequest{Tx: "r-1", Player: "ann", Currency: "EUR", Amount: 1000, Table: "tiger", Round: 1, Wager: 1, DebitTx: "d-1"}
	for path, call := range map[string]func() (Answer, error){
		PathBalance:  func() (Answer, error) { return cl.Balance(ctx, BalanceRequest{Player: "ann", Currency: "EUR"}) },
		PathDebit:    func() (Answer, error) { return cl.Debit(ctx, testDebit) },
		PathCredit:   func() (Answer, error) { return cl.Credit(ctx, cr) },
		PathRollback: func() (Answer, error) { return cl.Rollback(ctx, rb) },
	} {
		if a, err := call(); err != nil || a.Balance != baccarat.Money(len(path)) {
			t.Errorf("%s: %+v, %v", path, a, err)
		}
	}
}
