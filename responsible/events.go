package responsible

import (
	"context"
	"time"
)

// EventKind names what happened to a player's limits or session. Every event is in the
// player's own record (GET /api/me/limits), the back office's audit trail, and, where
// Notify says so, sent to the operator (a signed webhook).
type EventKind string

const (
	EvLimitsSet      EventKind = "limits_set"      // the operator's launch or an admin set the limits
	EvExcluded       EventKind = "excluded"        // the player excluded themselves on our pages
	EvSessionStarted EventKind = "session_started" // the player signed in
	EvSessionEnded   EventKind = "session_ended"   // Reason says why
	EvRealityCheck   EventKind = "reality_check"   // the player answered one: Reason "continue" or "leave"
	EvLimitReached   EventKind = "limit_reached"   // a wager was refused: Breach says which limit
)

// Notify reports whether the operator hears of an event of this kind (a webhook): when a
// player reaches a limit, or excludes themselves here.
func (k EventKind) Notify() bool { return k == EvLimitReached || k == EvExcluded }

// Event is one entry of a player's responsible-gaming record.
type Event struct {
	Seq     int64     `json:"seq"`
	Player  string    `json:"player"`
	At      time.Time `json:"at"`
	Kind    EventKind `json:"kind"`
	By      string    `json:"by"`                // who: "operator", an admin's id, the player's id, or "table"
	Session int64     `json:"session,omitempty"` // the session it is of
	// What the event says, by kind: the limits set, the exclusion, why a session ended or
	// what a reality check was answered, the limit reached and the refusal in words.
	Limits    *Limits    `json:"limits,omitempty"`
	Exclusion *Exclusion `json:"exclusion,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	Breach    Breach     `json:"breach,omitempty"`
	Message   string     `json:"message,omitempty"`
	// The session's result when it ended or a check was answered: minutes played, and its
	// tally.
	Played int    `json:"played_minutes,omitempty"`
	Tally  *Tally `json:"tally,omitempty"`
	// Once, when set, makes the event one of a kind: a second with the same Once is not
	// recorded (a limit reached is recorded once per limit and session or day, not at every
	// refused wager).
	Once string `json:"-"`
	// Webhook delivery: pending while the operator has not answered (Notify kinds only).
	Delivery Delivery `json:"delivery,omitempty"`
	// Attempts counts the webhook's tries so far, as the store records them (Delivered):
	// the wait before the next try doubles with each.
	Attempts int `json:"-"`
}

// Delivery is where an event's webhook stands.
type Delivery string

const (
	DeliveryNone    Delivery = ""        // not sent: the operator is not told of this kind
	DeliveryPending Delivery = "pending" // to be sent, again after a failure
	DeliveryDone    Delivery = "done"    // the operator answered 2xx
)

// ClaimFor is how long a server has to deliver the webhooks it claimed (Store.Undelivered)
// before another may send them again.
const ClaimFor = time.Minute

// Store keeps players' limits, sessions, tallies and events. Every change writes its event
// in the same transaction; the tallies move only in the commits of the wagers (Book).
type Store interface {
	// Standing reads a player's standing at now: the limits, the latest session, the tallies
	// of that session and of now's day, and the stakes in play by table round. currency is
	// the player's when no limits were ever set (the tallies' currency).
	Standing(ctx context.Context, player, currency string, now time.Time) (Standing, error)
	// SetLimits replaces the limits set by the operator or an admin (by), in currency; an
	// exclusion among them ends the running session.
	SetLimits(ctx context.Context, player, currency string, l Limits, by string, now time.Time) error
	// Exclude records the player's own exclusion (never shortening one they chose before)
	// and ends the running session.
	Exclude(ctx context.Context, player string, x Exclusion, now time.Time) error
	// StartSession ends the player's running session (replaced) and begins a new one.
	StartSession(ctx context.Context, player string, now time.Time) (Session, error)
	// EndSession ends session id of player, if it runs, for reason.
	EndSession(ctx context.Context, player string, id int64, reason EndReason, now time.Time) error
	// Answer records the player's answer to a reality check of session id: continue (the
	// next check is due an interval from now) or leave (the session ends).
	Answer(ctx context.Context, player string, id int64, leave bool, now time.Time) error
	// Record writes an event (a limit reached); one with a Once already recorded is dropped.
	Record(ctx context.Context, e Event) error
	// Events lists a player's events after seq, oldest first, at most limit; player ""
	// lists everyone's (the back office). Recent lists them newest first, before seq (0:
	// from the newest).
	Events(ctx context.Context, player string, after int64, limit int) ([]Event, error)
	Recent(ctx context.Context, player string, before int64, limit int) ([]Event, error)
	// Undelivered claims events whose webhook is pending and due at now, for ClaimFor: no
	// other server of a cluster takes them meanwhile, and if this one dies before it says
	// how the delivery went they fall due again. Delivered marks one sent (ok) or to be tried
	// again at next.
	Undelivered(ctx context.Context, now time.Time, limit int) ([]Event, error)
	Delivered(ctx context.Context, seq int64, ok bool, errText string, next time.Time) error
}
