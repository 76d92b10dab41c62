// Package webhook tells the operator of the responsible-gaming events it must hear of (the
// kinds whose Notify says so: a player reached a limit, a player excluded themselves), by a
// signed POST to the operator's URL (seamless.SignWebhook).
//
// The store writes each such event "pending" in the transaction of the change, so a crash
// loses none; a Deliverer sends what is pending until the operator answers 2xx, waiting
// longer after each failure. A server claims the events it sends for a minute
// (responsible.ClaimFor), so the servers of a cluster, each running a Deliverer over the
// one store, do not send the same event together. Delivery is still at least once: an
// answer lost on its way, or a server stopped between the answer and its record, sends an
// event again, so the body carries the event's "id" and the receiver does each id once.
package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/seamless"
)

// The pace of delivery. A try gets Timeout to be answered; a failed one is tried again
// after FirstBackoff, doubling with each failure to at most MaxBackoff, which bounds how
// late the operator hears of an exclusion once its receiver is back. Batch events are read
// at a time, every DefaultEvery unless Deliverer.Every says otherwise.
const (
	Timeout      = 10 * time.Second
	FirstBackoff = time.Second
	MaxBackoff   = 5 * time.Minute
	Batch        = 100
	DefaultEvery = time.Second
)

// Deliverer sends the pending webhooks of a store to one operator. Run it once per server;
// the store's claims keep the servers sharing it from sending an event together.
type Deliverer struct {
	Store  responsible.Store
	URL    string // the operator's receiver, http(s)
	Secret []byte // the operator secret (the launches'); the key is seamless.DomainWebhook's
	// Client sends; nil: a client of its own. Its redirects are not followed (a 3xx is a
	// failure: the signature covers the path), and a try is given at most Timeout, less if
	// the Client's own Timeout is shorter.
	Client *http.Client
	Now    func() time.Time // stamps the requests and dates the next try; nil: time.Now
	Logger *slog.Logger     // nil: no log
	Every  time.Duration    // how often the store is read; 0: DefaultEvery
}

// Body is a webhook's body: the event as the player's record shows it, and "id", its
// sequence number, the same on every try, by which the receiver does each event once.
type Body struct {
	ID int64 `json:"id"`
	responsible.Event
}

// Encode is the body sent for e. Where delivery stands is ours to know, not the operator's,
// so it is left out.
func Encode(e responsible.Event) ([]byte, error) {
	e.Delivery = responsible.DeliveryNone
	return json.Marshal(Body{ID: e.Seq, Event: e})
}

// Backoff is how long to wait after a failed try of an event that had failed attempts times
// before: FirstBackoff, doubled for each earlier failure, at most MaxBackoff.
func Backoff(attempts int) time.Duration {
	d := FirstBackoff
	for i := 0; i < attempts && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// CheckURL refuses a receiver's URL that is not http(s)://host…: anything else would fail
// every try, and quietly.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q: want http(s)://host/path, the operator's webhook receiver", raw)
	}
	return nil
}

// Check refuses a Deliverer that cannot send or sign.
func (d *Deliverer) Check() error {
	switch {
	case d.Store == nil:
		return errors.New("webhook: no store of events to deliver")
	case len(d.Secret) < seamless.MinSecret:
		return fmt.Errorf("webhook: the secret is %d bytes: sign with at least %d", len(d.Secret), seamless.MinSecret)
	}
	if err := CheckURL(d.URL); err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	return nil
}

// Run delivers what is due every Every until ctx is done, then returns nil; a Deliverer
// that fails Check returns its error at once. A full batch is followed by the next at once.
// A store that cannot be read is logged when it fails and when it is back, not every time.
func (d *Deliverer) Run(ctx context.Context) error {
	if err := d.Check(); err != nil {
		return err
	}
	tick := time.NewTicker(d.every())
	defer tick.Stop()
	failing := false
	for {
		n, err := d.DeliverDue(ctx)
		switch {
		case err != nil && ctx.Err() == nil && !failing:
			d.logger().Error("webhooks: the store of events fails; trying again", "err", err)
		case err == nil && failing:
			d.logger().Info("webhooks: the store of events is back")
		}
		failing = err != nil && ctx.Err() == nil
		if err == nil && n == Batch {
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// DeliverDue sends, one after another, the events due at Now (at most Batch) and records
// each outcome; it returns how many it tried. Its error is the store's. When ctx ends
// mid-way the events not answered stay due as they were, for the next start or another
// server.
func (d *Deliverer) DeliverDue(ctx context.Context) (int, error) {
	due, err := d.Store.Undelivered(ctx, d.now(), Batch)
	if err != nil {
		return 0, err
	}
	for i, e := range due {
		if ctx.Err() != nil {
			return i, nil
		}
		if err := d.deliver(ctx, e); err != nil {
			return i + 1, err
		}
	}
	return len(due), nil
}

// deliver sends one event and records the outcome. A failure is logged at WARN on an
// event's first failure only (then at DEBUG): a receiver that is down would otherwise log
// every pending event every few minutes; the store keeps each one's last error.
func (d *Deliverer) deliver(ctx context.Context, e responsible.Event) error {
	sendErr := d.send(ctx, e)
	if sendErr != nil && ctx.Err() != nil {
		return nil // stopping: no fault of the operator's, and no try to count
	}
	// An answer in hand is recorded even while stopping, so it is not sent again for it.
	rec, cancel := context.WithTimeout(context.WithoutCancel(ctx), Timeout)
	defer cancel()
	log := d.logger().With("seq", e.Seq, "kind", string(e.Kind))
	if sendErr == nil {
		if e.Attempts > 0 {
			log.Info("webhook delivered after failures", "tries", e.Attempts+1)
		}
		return d.Store.Delivered(rec, e.Seq, true, "", time.Time{})
	}
	wait := Backoff(e.Attempts)
	level := slog.LevelDebug
	if e.Attempts == 0 {
		level = slog.LevelWarn
	}
	log.Log(ctx, level, "webhook not delivered; it is tried again until answered 2xx", "err", sendErr, "retry_in", wait.String())
	return d.Store.Delivered(rec, e.Seq, false, sendErr.Error(), d.now().Add(wait))
}

// maxErrText bounds what of a refusal's body is kept with the event (the store's error).
const maxErrText = 200

// send POSTs e, signed, and reports whether it was answered 2xx in time.
func (d *Deliverer) send(ctx context.Context, e responsible.Event) error {
	body, err := Encode(e)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	seamless.SignWebhook(req, d.Secret, body, d.now())
	resp, err := d.client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrText))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, seamless.MaxWebhookBody)) // so the connection is used again
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("status %d: %s", resp.StatusCode, strings.ToValidUTF8(strings.TrimSpace(string(answer)), "?"))
	}
	return nil
}

func (d *Deliverer) client() *http.Client {
	var c http.Client
	if d.Client != nil {
		c = *d.Client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

func (d *Deliverer) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

func (d *Deliverer) every() time.Duration {
	if d.Every > 0 {
		return d.Every
	}
	return DefaultEvery
}

func (d *Deliverer) logger() *slog.Logger {
	if d.Logger != nil {
		return d.Logger
	}
	return slog.New(slog.DiscardHandler)
}
