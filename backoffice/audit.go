// Package backoffice is what the operator's back office runs on, apart from the live tables:
// the audit trail of staff actions, and the summaries its reports read, kept up to date by an
// aggregator that folds the journals past a stored watermark (aggregator.go) rather than by
// the commit path. Folding is pure (fold.go): records in, deltas out; the stores in sqlite/
// and postgres/ keep the results and run backofficetest, the conformance suite.
package backoffice

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// Action names what a member of staff did. The part before the dot is what it was done to.
type Action string

// The actions of the audit trail.
const (
	ActAccountCreate  Action = "account.create"
	ActAccountUpdate  Action = "account.update" // a name or the tables assigned
	ActAccountDisable Action = "account.disable"
	ActAccountEnable  Action = "account.enable"
	ActAccountRevoke  Action = "account.revoke" // every token so far stops working
	ActAccountToken   Action = "account.token"  // another token issued
	ActWalletCredit   Action = "wallet.credit"
	ActWalletDebit    Action = "wallet.debit"
	ActTableCreate    Action = "table.create"
	ActTableLimit     Action = "table.limit"        // a bet's minimum and maximum
	ActTableArea      Action = "table.area_limit"   // wagers per playing area
	ActTableDiff      Action = "table.differential" // the table differential
	ActTableVoid      Action = "table.void"
	ActTableCommand   Action = "table.command" // another staff command: interrupt, resume, correct, a shoe…
	ActTournamentNew  Action = "tournament.create"
	ActTournamentStop Action = "tournament.cancel"
	ActTemplateSave   Action = "template.save"
	ActTemplateDelete Action = "template.delete"
	ActCallResend     Action = "reconciliation.resend"
	ActCallSettle     Action = "reconciliation.settle"
	ActPlayerLimits   Action = "player.limits" // a player's responsible-gaming limits replaced
)

// Actions lists every action, for validation and for the audit page's filter.
var Actions = []Action{ActAccountCreate, ActAccountUpdate, ActAccountDisable, ActAccountEnable, ActAccountRevoke,
	ActAccountToken, ActWalletCredit, ActWalletDebit, ActTableCreate, ActTableLimit, ActTableArea, ActTableDiff,
	ActTableVoid, ActTableCommand, ActTournamentNew, ActTournamentStop, ActTemplateSave, ActTemplateDelete,
	ActCallResend, ActCallSettle, ActPlayerLimits}

// Known reports whether a is one of Actions.
func (a Action) Known() bool {
	for _, x := range Actions {
		if x == a {
			return true
		}
	}
	return false
}

// Source says where an entry came from: the back office's own routes, which write it with
// the action (or right after a table command), or a table's journal, whose staff events the
// aggregator copies (they carry who, when and why already).
type Source string

// The sources of entries.
const (
	SourceOffice  Source = "office"
	SourceJournal Source = "journal"
)

// Limits of an entry.
const (
	MaxReason = 500
	MaxDetail = 16 << 10
	MaxRef    = 200
)

// Entry is one line of the audit trail: who did what to what, when and why. Entries are
// never changed or removed (the stores refuse it with a trigger, as they do for the ledger).
type Entry struct {
	Seq    int64     `json:"seq"` // assigned by the store, rising
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`
	Role   string    `json:"role"`
	Action Action    `json:"action"`
	// Target is the id of what was acted on: an account, a table, a tournament, a wallet
	// call's tx, a template's name.
	Target string `json:"target"`
	Reason string `json:"reason,omitempty"`
	// Detail is what the action changed, as a JSON object (amounts, limits, the account as it
	// became).
	Detail json.RawMessage `json:"detail,omitempty"`
	// Ref names the record the action made, where there is one: a table's event, by the
	// table and the event's seq ("tiger-1#57", the seq its ledger keys carry too) or a
	// ledger transaction's key. An entry copied from a journal is not copied when an entry
	// with its Ref is there already.
	Ref    string `json:"ref,omitempty"`
	Source Source `json:"source"`
}

// EventRef is the Ref of a table's event: its table and its seq among the table's events.
func EventRef(table string, seq uint64) string {
	return table + "#" + uintText(seq)
}

func uintText(v uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// Validate checks an entry before it is stored. Errors are bad_request.
func (e Entry) Validate() error {
	bad := func(format string, args ...any) error {
		return baccarat.Errorf(baccarat.CodeBadRequest, "audit entry: "+format, args...)
	}
	switch {
	case !ledger.StorableTime(e.At):
		return bad("a time is needed")
	case e.Actor == "" || len(e.Actor) > baccarat.MaxIDLen || !printable(e.Actor):
		return bad("actor %q: 1 to %d printable bytes", e.Actor, baccarat.MaxIDLen)
	case len(e.Role) > 16 || !printable(e.Role):
		return bad("role %q", e.Role)
	case !e.Action.Known():
		return bad("unknown action %q", e.Action)
	case len(e.Target) > 200 || !printable(e.Target):
		return bad("target: at most 200 printable bytes")
	case len(e.Reason) > MaxReason || !printable(e.Reason):
		return bad("reason: at most %d bytes of printable text", MaxReason)
	case len(e.Ref) > MaxRef || !printable(e.Ref):
		return bad("ref: at most %d printable bytes", MaxRef)
	case e.Source != SourceOffice && e.Source != SourceJournal:
		return bad("source %q: office or journal", e.Source)
	case len(e.Detail) > MaxDetail:
		return bad("detail: at most %d bytes", MaxDetail)
	case len(e.Detail) > 0 && (!json.Valid(e.Detail) || !strings.HasPrefix(strings.TrimSpace(string(e.Detail)), "{")):
		return bad("detail must be a JSON object")
	}
	return nil
}

// printable refuses invalid UTF-8, control characters and the direction overrides that make
// text print as something else.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return true
}

// Filter selects entries of the audit trail, newest first.
type Filter struct {
	Actor  string // exactly
	Target string // exactly
	// Action: exactly, or every action of a kind when it ends with a dot ("table.").
	Action string
	// Text: entries whose reason, detail or ref contain it (any case for ASCII letters).
	Text     string
	From, To time.Time // From ≤ At < To; zero: unbounded
	// Before pages back: entries with Seq below it (0: from the newest).
	Before int64
	Limit  int // DefaultAuditLimit when 0, at most MaxAuditLimit
}

// Page sizes of the audit trail.
const (
	DefaultAuditLimit = 100
	MaxAuditLimit     = 1000
)

// Norm checks f and fills in its limit.
func (f Filter) Norm() (Filter, error) {
	switch {
	case f.Limit < 0 || f.Before < 0:
		return f, baccarat.Errorf(baccarat.CodeBadRequest, "audit: limit and before are not negative")
	case f.Limit == 0:
		f.Limit = DefaultAuditLimit
	case f.Limit > MaxAuditLimit:
		f.Limit = MaxAuditLimit
	}
	for _, s := range []string{f.Actor, f.Target, f.Action, f.Text} {
		if len(s) > 200 || !printable(s) {
			return f, baccarat.Errorf(baccarat.CodeBadRequest, "audit: a filter is at most 200 printable bytes")
		}
	}
	return f, nil
}

// Matches reports whether e passes f: the rule every store's query follows, and what the
// conformance suite checks them against.
func (f Filter) Matches(e Entry) bool {
	switch {
	case f.Actor != "" && e.Actor != f.Actor,
		f.Target != "" && e.Target != f.Target,
		f.Before > 0 && e.Seq >= f.Before,
		!f.From.IsZero() && e.At.Before(f.From),
		!f.To.IsZero() && !e.At.Before(f.To):
		return false
	case f.Action != "" && strings.HasSuffix(f.Action, "."):
		if !strings.HasPrefix(string(e.Action), f.Action) {
			return false
		}
	case f.Action != "" && string(e.Action) != f.Action:
		return false
	}
	if f.Text == "" {
		return true
	}
	q := strings.ToLower(f.Text)
	return strings.Contains(strings.ToLower(e.Reason), q) || strings.Contains(strings.ToLower(string(e.Detail)), q) ||
		strings.Contains(strings.ToLower(e.Ref), q)
}
