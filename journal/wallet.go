package journal

import (
	"context"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
)

// A seamless deployment keeps no money of its own: the operator's wallet is called for every
// stake and every return (package seamless). Our books keep our side of every call, one row
// per call in a table of wallet calls, written in the same database transactions as what the
// calls are for: a debit before it is sent (so a crash can never forget one), its wager's
// placement in the wager's commit, and the credits and rollbacks that settle wagers in the
// settlement's commit (an outbox: a deliverer sends them until they are answered).

// CallKind is what a wallet call does.
type CallKind string

// The calls.
const (
	CallDebit    CallKind = "debit"    // takes a stake
	CallCredit   CallKind = "credit"   // pays a wager's return (0 for a lost wager), closing its debit
	CallRollback CallKind = "rollback" // gives a debit's amount back, closing it
)

// CallState is where a wallet call stands.
type CallState string

// The states. A debit is pending from before it is sent until its wager is placed (placed,
// in the wager's commit), it is refused (failed: nothing moved) or it is given back
// (cancelled: its rollback is in the outbox). A credit or rollback is pending until the
// operator answers it (done) or definitely refuses it (failed: a person must decide); an
// admin then resends it (resent: a new call, with a new tx id, carries it on) or settles it
// by hand (settled: the operator paid the player some other way). Done, resent and settled
// are final: the call is never sent again.
//
//	credit, rollback:  pending → done
//	                   pending → failed → resent   (and its successor, pending → …)
//	                                    → settled
const (
	CallPending   CallState = "pending"
	CallPlaced    CallState = "placed"
	CallCancelled CallState = "cancelled"
	CallDone      CallState = "done"
	CallFailed    CallState = "failed"
	CallResent    CallState = "resent"
	CallSettled   CallState = "settled"
)

// WalletCall is one call to the operator's wallet as our books keep it. Player, Currency,
// Amount, Table, Round, Wager and DebitTx are the call's fields on the wire (seamless).
type WalletCall struct {
	Seq      int64          `json:"seq"` // the store's order of writing
	Tx       string         `json:"tx"`
	Kind     CallKind       `json:"kind"`
	Player   string         `json:"player"`
	Currency string         `json:"currency"`
	Amount   baccarat.Money `json:"amount"`
	Table    string         `json:"table"`
	Round    uint64         `json:"round"`
	// Wager is the wager's number on the wire: for a debit the store gives it Seq, a number
	// unique in the deployment (the table numbers a wager only when it places it); a credit
	// or rollback carries its debit's.
	Wager   uint64    `json:"wager"`
	DebitTx string    `json:"debit_tx,omitempty"`
	State   CallState `json:"state"`
	// A debit: the player's request id, which attempt at it this is (a new attempt follows
	// a refused or given-back one), and the request's digest (RequestDigest of the wager).
	RequestID string `json:"request_id,omitempty"`
	Attempt   int    `json:"attempt,omitempty"`
	Digest    string `json:"-"`
	// TableWager is the wager's id at the table: a debit's once placed; a credit or rollback
	// written at settlement names its debit by Table and TableWager.
	TableWager uint64 `json:"table_wager,omitempty"`
	// Balance is the player's balance the operator gave in its answer, when there was one.
	Balance  *baccarat.Money `json:"balance,omitempty"`
	Attempts int             `json:"attempts"` // deliveries tried
	Error    string          `json:"error,omitempty"`
	Created  time.Time       `json:"created"`
	Updated  time.Time       `json:"updated"`
	NextAt   time.Time       `json:"next_at,omitzero"` // a credit or rollback: when it is next tried
	// Replaces is, on a call an admin resent, the refused call it carries on.
	Replaces string `json:"replaces,omitempty"`
	// Resolution is what an admin did with the call after the operator refused it.
	Resolution *Resolution `json:"resolution,omitempty"`
}

// Closes reports whether the call closes a debit (a credit or a rollback).
func (c *WalletCall) Closes() bool { return c.Kind == CallCredit || c.Kind == CallRollback }

// Open reports whether the call still waits for something: a debit not yet placed, refused
// or given back; a credit or rollback not yet answered.
func (c *WalletCall) Open() bool { return c.State == CallPending }

// Refused reports whether the call is a credit or rollback the operator definitely refused
// and no admin has resolved yet: money still owed, waiting for a person.
func (c *WalletCall) Refused() bool { return c.Closes() && c.State == CallFailed }

// Validate checks a call written in a Batch (a credit or rollback) or begun as a debit.
func (c *WalletCall) Validate() error {
	bad := func(format string, args ...any) error {
		return baccarat.Errorf(baccarat.CodeBadRequest, "wallet call %s: "+format, append([]any{c.Tx}, args...)...)
	}
	if err := baccarat.CheckID("wallet call tx", c.Tx); err != nil {
		return err
	}
	switch {
	case c.Kind == CallDebit && (c.Amount < 1 || c.Amount > baccarat.MaxAmount):
		return bad("a debit of %d: want 1 to %d", c.Amount, baccarat.MaxAmount)
	case c.Kind == CallDebit && (c.Player == "" || c.Table == "" || c.Currency == ""):
		return bad("a debit names its player, currency and table")
	case c.Kind == CallDebit && (c.RequestID == "" || c.Attempt < 1 || len(c.Digest) != 64):
		return bad("a debit carries its request id, attempt and digest")
	case c.Closes() && (c.Amount < 0 || c.Amount > baccarat.MaxAmount):
		return bad("an amount of %d: want 0 to %d", c.Amount, baccarat.MaxAmount)
	case c.Closes() && c.DebitTx == "" && (c.Table == "" || c.TableWager == 0):
		return bad("a %s names its debit: by debit_tx, or by table and table wager", c.Kind)
	case c.Kind != CallDebit && !c.Closes():
		return bad("kind %q: want debit, credit or rollback", c.Kind)
	}
	return nil
}

// PlacedDebit marks a pending debit as placed: the wager it paid for is in the same
// commit, with its id at the table. The commit fails, writing nothing, unless the debit is
// pending (not refused, not given back, not placed before): a debit pays for one wager.
type PlacedDebit struct {
	Tx         string          `json:"tx"`
	TableWager uint64          `json:"table_wager"`
	Balance    *baccarat.Money `json:"balance,omitempty"` // the operator's answer
	At         time.Time       `json:"at"`
}

// CallUpdate is a change to one call (WalletCalls.UpdateCall). Zero fields are left as
// they are, except Error, which is always written.
type CallUpdate struct {
	State      CallState
	Balance    *baccarat.Money
	Error      string
	AddAttempt bool
	NextAt     time.Time
	At         time.Time // when: the call's Updated
}

// CallChange is one change of UpdateCalls: the pending call Tx, as CallUpdate says.
type CallChange struct {
	Tx string
	CallUpdate
}

// CallFilter selects wallet calls (WalletCalls.Calls): written in [From, To) (zero: no
// bound), only open ones, after a Seq, at most Limit (0: MaxCalls).
type CallFilter struct {
	From, To time.Time
	Open     bool
	Kind     CallKind
	// StaleBefore with Kind debit: pending debits last updated before it.
	StaleBefore time.Time
	After       int64
	Limit       int
}

// MaxCalls is the most calls one Calls or ClaimCalls returns.
const MaxCalls = 1000

// WalletCalls keeps our side of the operator's wallet. Both stores implement it and run
// journaltest.RunWalletCalls; Commit writes Batch.Calls and Batch.Placed.
type WalletCalls interface {
	// BeginDebit writes a debit before it is sent, unless the player's request id has one
	// that is pending or placed: then it returns that one (a retried request sends the same
	// debit), and created is false. A request id whose last debit was refused or given back
	// gets a new attempt. The same request id with another digest is idempotency_conflict.
	// The store sets Seq, Wager (= Seq), State (pending), Created and Updated.
	BeginDebit(ctx context.Context, c WalletCall) (got WalletCall, created bool, err error)
	// UpdateCall changes a call if it is in one of the states from, and reports whether it was.
	UpdateCall(ctx context.Context, tx string, from []CallState, u CallUpdate) (bool, error)
	// UpdateCalls makes several changes in one transaction (a deliverer's round of answers):
	// each as UpdateCall would, from pending; it returns how many calls changed.
	UpdateCalls(ctx context.Context, changes []CallChange) (int, error)
	// CancelDebit gives a pending debit back: in one transaction, it becomes cancelled and
	// its rollback (rollback.Tx, the debit's fields and amount) is written to the outbox.
	// False when the debit was not pending (placed, refused, or given back already).
	CancelDebit(ctx context.Context, debitTx, rollbackTx string, at time.Time) (bool, error)
	// ClaimCalls returns pending credits and rollbacks due at now (NextAt ≤ now), oldest
	// first, and moves their NextAt to until, so that no other deliverer takes them meanwhile.
	ClaimCalls(ctx context.Context, now, until time.Time, limit int) ([]WalletCall, error)
	// Call reads one call by tx (not_found if there is none).
	Call(ctx context.Context, tx string) (WalletCall, error)
	// Calls lists calls in Seq order.
	Calls(ctx context.Context, f CallFilter) ([]WalletCall, error)
	// ResolveCall records an admin's action on a refused credit or rollback (state failed),
	// in one transaction: settle makes it settled; resend makes it resent and writes its
	// successor r.ResentAs, a pending copy (same kind, debit, player, amount) due at r.At,
	// with Replaces set. It returns the call as resolved. A call that is not a refused
	// credit or rollback is bad_state (another admin's action came first, say), an unknown
	// tx not_found, and nothing is written.
	ResolveCall(ctx context.Context, tx string, r Resolution) (WalletCall, error)
}

// CallAction is what an admin does with a credit or rollback the operator refused.
type CallAction string

// The actions.
const (
	// ActionResend sends the call again under a new tx id (Resolution.ResentAs): the
	// operator answers a refused tx id with its refusal for ever. It cannot pay twice: the
	// refused call moved nothing, and the operator closes a debit once, so if the first
	// had been applied the second would be refused (debit_closed).
	ActionResend CallAction = "resend"
	// ActionSettle closes the call by hand: the operator paid the player (or gave the stake
	// back) some other way. It is never sent again.
	ActionSettle CallAction = "settle"
)

// MaxReason is the longest reason an admin may give, in bytes.
const MaxReason = 500

// Resolution is an admin's action on a refused call, kept with the call for the audit:
// who, when, what and why.
type Resolution struct {
	Action CallAction `json:"action"`
	By     string     `json:"by"` // the admin's account id, or "cli:<user>" from the command line
	At     time.Time  `json:"at"`
	Reason string     `json:"reason,omitempty"` // required to settle
	// ResentAs is, for a resend, the tx id of the call that carries it on.
	ResentAs string `json:"resent_as,omitempty"`
}

// State is the state a call takes when resolved this way.
func (r *Resolution) State() CallState {
	if r.Action == ActionResend {
		return CallResent
	}
	return CallSettled
}

// Validate checks a resolution before it is written.
func (r *Resolution) Validate() error {
	bad := func(format string, args ...any) error {
		return baccarat.Errorf(baccarat.CodeBadRequest, format, args...)
	}
	switch {
	case r.Action != ActionResend && r.Action != ActionSettle:
		return bad("action %q: want resend or settle", baccarat.Truncate(string(r.Action), 20))
	case !printable(r.By, 100):
		return bad("who resolves a call: 1 to 100 printable characters")
	case r.At.IsZero():
		return bad("when a call is resolved: a time")
	case len(r.Reason) > MaxReason || (r.Reason != "" && !printable(r.Reason, MaxReason)):
		return bad("reason: at most %d bytes of printable text", MaxReason)
	case r.Action == ActionSettle && r.Reason == "":
		return bad("settling a call by hand needs a reason: how the operator paid the player")
	case r.Action == ActionSettle && r.ResentAs != "":
		return bad("a call settled by hand is not resent")
	case r.Action == ActionResend:
		return baccarat.CheckID("the resent call's tx", r.ResentAs)
	}
	return nil
}

// CallNotRefused is the error of an action on a call that is not a refused credit or
// rollback.
func CallNotRefused(c WalletCall) error {
	if c.Kind == CallDebit {
		return baccarat.Errorf(baccarat.CodeBadState, "call %s is a debit: only a refused credit or rollback is resent or settled", c.Tx)
	}
	return baccarat.Errorf(baccarat.CodeBadState, "%s %s is %s: only a refused credit or rollback (failed) is resent or settled", c.Kind, c.Tx, c.State)
}

// printable: 1 to n bytes of valid UTF-8 without control characters.
func printable(s string, n int) bool {
	if s == "" || len(s) > n || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// Limit is a listing's limit: 1 to MaxCalls, MaxCalls for 0 or more than that.
func Limit(n int) int {
	if n <= 0 || n > MaxCalls {
		return MaxCalls
	}
	return n
}

// NewDebit is the debit c begins as its attempt-th attempt (WalletCalls.BeginDebit): its
// tx is c.Tx with "-<attempt>" added, its state pending, Created and Updated c.Created.
func NewDebit(c WalletCall, attempt int) (WalletCall, error) {
	c.Kind, c.State, c.Attempt = CallDebit, CallPending, attempt
	c.Tx = c.Tx + "-" + strconv.Itoa(attempt)
	c.Updated = c.Created
	c.DebitTx, c.TableWager, c.Balance, c.Attempts, c.Error = "", 0, nil, 0, ""
	return c, c.Validate()
}

// DebitNotPending is the error of a commit that marks placed a debit that is no longer
// pending: it was given back (its outcome was unknown), so the wager must not be placed.
func DebitNotPending(tx string) error {
	return baccarat.Errorf(baccarat.CodeWalletUnavailable,
		"the stake's debit %s was given back before the wager was placed: nothing was taken; place the wager again", tx)
}
