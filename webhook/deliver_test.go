package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/webhook"
)

var (
	secret = []byte("0123456789abcdef0123456789abcdef")
	t0     = time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
)

// clock is the test's time: the Deliverer stamps and schedules by it, the receiver checks
// timestamps by it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// receiver is an operator's webhook endpoint: it verifies every request, answers each try
// with answers[n] (200 once they run out), and keeps what it took.
type receiver struct {
	t       *testing.T
	clk     *clock
	answers []http.HandlerFunc
	mu      sync.Mutex
	tries   int
	taken   []taken
}

type taken struct {
	header http.Header
	path   string
	body   []byte
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rv.mu.Lock()
	n := rv.tries
	rv.tries++
	rv.mu.Unlock()
	if n < len(rv.answers) {
		rv.answers[n](w, r)
		return
	}
	body, err := seamless.VerifyWebhook(w, r, secret, rv.clk.now())
	if err != nil {
		rv.t.Errorf("a webhook did not verify: %v", err)
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	rv.mu.Lock()
	rv.taken = append(rv.taken, taken{r.Header.Clone(), r.URL.Path, body})
	rv.mu.Unlock()
}

func (rv *receiver) counts() (int, []taken) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return rv.tries, append([]taken(nil), rv.taken...)
}

// warnings counts the log records at WARN and above.
type warnings struct {
	mu sync.Mutex
	n  int
}

func (h *warnings) Enabled(context.Context, slog.Level) bool { return true }
func (h *warnings) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *warnings) WithGroup(string) slog.Handler            { return h }

func (h *warnings) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn {
		h.mu.Lock()
		h.n++
		h.mu.Unlock()
	}
	return nil
}

func (h *warnings) count() int { h.mu.Lock(); defer h.mu.Unlock(); return h.n }

type rig struct {
	store *sqlite.DB
	clk   *clock
	rv    *receiver
	srv   *httptest.Server
	d     *webhook.Deliverer
	warns *warnings
}

func newRig(t *testing.T, answers ...http.HandlerFunc) *rig {
	t.Helper()
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "baccarat.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clk := &clock{t: t0}
	rv := &receiver{t: t, clk: clk, answers: answers}
	srv := httptest.NewServer(rv)
	t.Cleanup(srv.Close)
	warns := &warnings{}
	d := &webhook.Deliverer{Store: db, URL: srv.URL + "/hooks/baccarat", Secret: secret, Now: clk.now,
		Client: &http.Client{Timeout: 200 * time.Millisecond}, Logger: slog.New(warns)}
	return &rig{store: db, clk: clk, rv: rv, srv: srv, d: d, warns: warns}
}

// deliverAt runs one pass of the Deliverer at t and says how many events it tried.
func (r *rig) deliverAt(t *testing.T, at time.Time) int {
	t.Helper()
	r.clk.set(at)
	n, err := r.d.DeliverDue(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (r *rig) exclude(t *testing.T, player string) {
	t.Helper()
	x := responsible.Exclusion{Kind: responsible.SelfExclusion, Until: t0.AddDate(1, 0, 0)}
	if err := r.store.Exclude(t.Context(), player, x, t0); err != nil {
		t.Fatal(err)
	}
}

// event is the only event of kind in the store.
func (r *rig) event(t *testing.T, kind responsible.EventKind) responsible.Event {
	t.Helper()
	evs, err := r.store.Events(t.Context(), "", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Kind == kind {
			return e
		}
	}
	t.Fatalf("no %s event among %v", kind, evs)
	return responsible.Event{}
}

func TestDeliveredOnceSignedWithItsID(t *testing.T) {
	r := newRig(t)
	reached := responsible.Event{Player: "p-1001", At: t0, Kind: responsible.EvLimitReached, By: "table",
		Breach: responsible.BreachLossDay, Message: "the daily loss limit is reached", Once: "p-1001/loss_per_day/d:2026-11-28"}
	if err := r.store.Record(t.Context(), reached); err != nil {
		t.Fatal(err)
	}
	if n := r.deliverAt(t, t0); n != 1 {
		t.Fatalf("tried %d events, want 1", n)
	}
	if n := r.deliverAt(t, t0.Add(time.Hour)); n != 0 {
		t.Errorf("an event answered 200 was tried again an hour later (%d)", n)
	}
	tries, got := r.rv.counts()
	if tries != 1 || len(got) != 1 {
		t.Fatalf("the receiver had %d tries and took %d webhooks, want 1 and 1", tries, len(got))
	}
	e := r.event(t, responsible.EvLimitReached)
	if e.Delivery != responsible.DeliveryDone {
		t.Errorf("delivery %q after a 200, want done", e.Delivery)
	}
	w := got[0]
	if w.path != "/hooks/baccarat" || w.header.Get("Content-Type") != "application/json" {
		t.Errorf("path %q, Content-Type %q", w.path, w.header.Get("Content-Type"))
	}
	var b webhook.Body
	if err := json.Unmarshal(w.body, &b); err != nil {
		t.Fatal(err)
	}
	if b.ID != e.Seq || b.Seq != e.Seq || b.Kind != responsible.EvLimitReached || b.Player != "p-1001" || b.Breach != responsible.BreachLossDay {
		t.Errorf("body %s: want id and seq %d, the limit reached of p-1001", w.body, e.Seq)
	}
	if bytes.Contains(w.body, []byte(`"delivery"`)) {
		t.Errorf("body %s tells the operator our delivery state", w.body)
	}
}

func TestOnlyTheKindsTheOperatorHearsOfAreSent(t *testing.T) {
	r := newRig(t)
	if _, err := r.store.StartSession(t.Context(), "p-7", t0); err != nil {
		t.Fatal(err)
	}
	r.exclude(t, "p-7") // excluded, and the session ended: only the exclusion is the operator's
	r.deliverAt(t, t0)
	_, got := r.rv.counts()
	if len(got) != 1 || !bytes.Contains(got[0].body, []byte(`"kind":"excluded"`)) {
		t.Fatalf("sent %d webhooks, want the exclusion alone", len(got))
	}
}

// A try that is not answered 2xx in time is tried again: after 1 s, then 2 s, doubling.
func TestFailedTriesAreTriedAgainAfterABackoff(t *testing.T) {
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "not now", code) }
	}
	hang := func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so the server sees the client hang up
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	drop := func(w http.ResponseWriter, r *http.Request) {
		c, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			c.Close()
		}
	}
	redirect := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
	}
	for _, tc := range []struct {
		name  string
		fails []http.HandlerFunc
	}{
		{"a 500 is no delivery", []http.HandlerFunc{status(500)}},
		{"a 4xx is no delivery either", []http.HandlerFunc{status(401)}},
		{"no answer within the timeout is no delivery", []http.HandlerFunc{hang}},
		{"a dropped connection is no delivery", []http.HandlerFunc{drop}},
		{"a redirect is not followed: the signature covers the path", []http.HandlerFunc{redirect}},
		{"the wait doubles: 1 s, then 2 s", []http.HandlerFunc{status(503), status(503)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.fails...)
			r.exclude(t, "p-9")
			at, wait := t0, time.Second
			for i := range tc.fails {
				if n := r.deliverAt(t, at); n != 1 {
					t.Fatalf("try %d: %d events due, want 1", i+1, n)
				}
				if e := r.event(t, responsible.EvExcluded); e.Delivery != responsible.DeliveryPending || e.Attempts != i+1 {
					t.Fatalf("after failure %d: delivery %q, attempts %d", i+1, e.Delivery, e.Attempts)
				}
				at = r.clk.now().Add(wait)
				if n := r.deliverAt(t, at.Add(-time.Millisecond)); n != 0 {
					t.Fatalf("tried again before the backoff of %s was over", wait)
				}
				wait *= 2
			}
			if n := r.deliverAt(t, at); n != 1 {
				t.Fatalf("not tried again once the backoff was over")
			}
			if _, got := r.rv.counts(); len(got) != 1 || r.event(t, responsible.EvExcluded).Delivery != responsible.DeliveryDone {
				t.Fatalf("not delivered on the try after the failures (%d taken)", len(got))
			}
			if w := r.warns.count(); w != 1 {
				t.Errorf("%d warnings for one event's failures, want 1 (the first)", w)
			}
		})
	}
}

func TestBackoffDoublesFromOneSecondToFiveMinutes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		attempts int
		want     time.Duration
	}{
		{"the first failure waits 1 s", 0, time.Second},
		{"the second waits 2 s", 1, 2 * time.Second},
		{"each doubles the last", 5, 32 * time.Second},
		{"256 s is still under the cap", 8, 256 * time.Second},
		{"the cap is 5 minutes", 9, 5 * time.Minute},
		{"and stays there, however many", 10_000, 5 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := webhook.Backoff(tc.attempts); got != tc.want {
				t.Errorf("Backoff(%d) = %s, want %s", tc.attempts, got, tc.want)
			}
		})
	}
}

// What a receiver refuses: the check is VerifyWebhook, run on a webhook the Deliverer
// signed, each time with one fault planted.
func TestAWebhookVerifiesOnlyAsItWasSent(t *testing.T) {
	r := newRig(t)
	r.exclude(t, "p-3")
	r.deliverAt(t, t0)
	_, got := r.rv.counts()
	if len(got) != 1 {
		t.Fatalf("%d webhooks taken, want 1", len(got))
	}
	sent := got[0]
	for _, tc := range []struct {
		name   string
		path   string
		body   []byte
		at     time.Time
		secret []byte
		ok     bool
	}{
		{"as sent, it verifies", "/hooks/baccarat", sent.body, t0, secret, true},
		{"a changed body does not", "/hooks/baccarat", bytes.Replace(sent.body, []byte("p-3"), []byte("p-4"), 1), t0, secret, false},
		{"sent to another path it does not", "/api/operator/launch", sent.body, t0, secret, false},
		{"another secret's signature does not", "/hooks/baccarat", sent.body, t0, []byte("fedcba9876543210fedcba9876543210"), false},
		{"more than 2 minutes later it does not", "/hooks/baccarat", sent.body, t0.Add(seamless.MaxSkew + time.Second), secret, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, tc.path, bytes.NewReader(tc.body))
			req.Header = sent.header.Clone()
			_, err := seamless.VerifyWebhook(httptest.NewRecorder(), req, tc.secret, tc.at)
			if (err == nil) != tc.ok {
				t.Errorf("verified: %v, want %v (err %v)", err == nil, tc.ok, err)
			}
		})
	}
	// Domain separation: under the same secret, a webhook is neither a wallet call nor a launch.
	st, sig, err := seamless.ReadStamp(sent.header, http.MethodPost, "/hooks/baccarat")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []seamless.Domain{seamless.DomainWallet, seamless.DomainLaunch} {
		if st.Check(d.Key(secret), sig, sent.body, t0) == nil {
			t.Errorf("a webhook verifies under the %q key", d)
		}
	}
}

func TestRunDeliversUntilStopped(t *testing.T) {
	r := newRig(t)
	r.d.Now, r.d.Every = nil, 10*time.Millisecond // the wall clock, the receiver's too
	r.clk.set(time.Now())
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.d.Run(ctx) }()
	x := responsible.Exclusion{Kind: responsible.CoolOff, Until: time.Now().AddDate(0, 0, 7)}
	if err := r.store.Exclude(t.Context(), "p-5", x, time.Now()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, got := r.rv.counts(); len(got) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Run did not deliver the exclusion within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // a few more passes: none sends it again
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run returned %v once stopped, want nil", err)
	}
	if tries, _ := r.rv.counts(); tries != 1 {
		t.Errorf("%d tries of one event answered 200, want 1", tries)
	}
}

func TestRunRefusesWhatCannotBeSent(t *testing.T) {
	r := newRig(t)
	for _, tc := range []struct {
		name string
		edit func(d *webhook.Deliverer)
		want string
	}{
		{"a URL that is not http(s) is refused", func(d *webhook.Deliverer) { d.URL = "ftp://ops.example/hook" }, "http(s)://"},
		{"a URL without a host is refused", func(d *webhook.Deliverer) { d.URL = "https:///hook" }, "http(s)://"},
		{"a secret under 16 bytes is refused", func(d *webhook.Deliverer) { d.Secret = secret[:15] }, "at least 16"},
		{"no store is refused", func(d *webhook.Deliverer) { d.Store = nil }, "no store"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := *r.d
			tc.edit(&d)
			err := d.Run(t.Context()) // returns at once: a Run that started would block
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// The stores fill Attempts from what Delivered counted; the Deliverer's backoff reads it.
func TestTheStoreCountsAttempts(t *testing.T) {
	r := newRig(t)
	r.exclude(t, "p-8")
	e := r.event(t, responsible.EvExcluded)
	for i := 1; i <= 3; i++ {
		if err := r.store.Delivered(t.Context(), e.Seq, false, "503", t0); err != nil {
			t.Fatal(err)
		}
		due, err := r.store.Undelivered(t.Context(), t0, 10)
		if err != nil || len(due) != 1 || due[0].Attempts != i {
			t.Fatalf("after %d failures: %v, %v", i, due, err)
		}
	}
}
