package backoffice

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
)

// Store keeps the back office's tables: the audit trail, the aggregator's marks and the
// summaries it folds, and the templates. sqlite.DB and postgres.DB implement it and run
// backofficetest. All errors are *baccarat.Error with a stable code.
type Store interface {
	// RecordAudit appends an entry (its Seq is assigned) and returns it as stored.
	RecordAudit(ctx context.Context, e Entry) (Entry, error)
	// AuditLog lists the entries f selects, newest first.
	AuditLog(ctx context.Context, f Filter) ([]Entry, error)
	// PostAudited posts tx as ledger.Store.Post does and appends e in the same database
	// transaction: both land or neither. A key already posted with the same postings changes
	// nothing and appends nothing (applied false): a retry is recorded once.
	PostAudited(ctx context.Context, tx ledger.Transaction, e Entry) (applied bool, err error)
	// CreateAccountAudited creates an account (access.Store.CreateAccount) and appends e in
	// the same transaction.
	CreateAccountAudited(ctx context.Context, a access.Account, e Entry) error
	// UpdateAccountAudited changes an account as access.Store.UpdateAccount does; change
	// returns the entry to append with it, in the same transaction. An error from change
	// changes nothing.
	UpdateAccountAudited(ctx context.Context, id string, change func(*access.Account) (Entry, error)) (access.Account, error)
	// SearchAccounts lists up to limit accounts whose id or name contains q (any case for
	// ASCII letters), by id.
	SearchAccounts(ctx context.Context, q string, limit int) ([]access.Account, error)

	// Lagging lists up to limit journals whose head is past their mark (a journal never
	// folded has the zero mark), by id.
	Lagging(ctx context.Context, limit int) ([]Lag, error)
	// ApplyFold applies a fold (see Fold) and moves the journal's mark to f.To, in one
	// transaction; conflict, changing nothing, when the mark is not f.From−1.
	ApplyFold(ctx context.Context, f Fold) error

	// Report adds up the day rows q selects, grouped as it says; see Query.
	Report(ctx context.Context, q Query) (Summary, error)
	// Tournaments lists the tournaments with money on the days from..to, with that money.
	Tournaments(ctx context.Context, from, to string) ([]TournamentRow, error)
	// TableInfos lists every table folded so far, by id.
	TableInfos(ctx context.Context) ([]TableInfo, error)
	// Round finds a round of a table; Wager a wager of a table; Shoe a shoe of a table.
	Round(ctx context.Context, table string, round uint64) (RoundRef, error)
	Wager(ctx context.Context, table string, wager uint64) (WagerRef, error)
	Shoe(ctx context.Context, table string, shoe uint64) (ShoeRef, error)
	// Transaction finds the table and round of a ledger transaction's key, or of a call to
	// the operator's wallet by its tx.
	Transaction(ctx context.Context, key string) (table string, round uint64, err error)
	// WagerCalls lists the calls to the operator's wallet for wagers of a table (a seamless
	// table's debits, and the credits and rollbacks that close them), by seq.
	WagerCalls(ctx context.Context, table string, wagers []uint64) ([]journal.WalletCall, error)
	// Sessions lists a player's sessions (their wagers at one table on one day), latest first.
	Sessions(ctx context.Context, player string, limit int) ([]Session, error)
	// BookTotals adds up the books' accounts by currency and kind.
	BookTotals(ctx context.Context) ([]BookTotal, error)

	// SaveTemplate keeps a template (replacing one of its name) and appends e with it.
	SaveTemplate(ctx context.Context, t Template, e Entry) error
	// DeleteTemplate removes a template and appends e with it (not_found if there is none).
	DeleteTemplate(ctx context.Context, name string, e Entry) error
	// Templates lists the templates by name.
	Templates(ctx context.Context) ([]Template, error)
}

// Journals is a Store that also reads journals: what the aggregator folds from.
type Journals interface {
	Store
	LoadRange(ctx context.Context, table string, fromSeq, toSeq uint64) ([]journal.Record, error)
}

// Query selects and groups day rows. From and To are UTC days, both included. Rows are
// always apart by currency (two currencies never add up); ByDay, ByTable and ByGame group
// them further, and the keys not grouped by are empty in the answer. Table, Game and
// Currency filter.
type Query struct {
	From, To               string
	Table, Game, Currency  string
	ByDay, ByTable, ByGame bool
}

// MaxDays is the longest period a report covers: ten years.
const MaxDays = 3660

// Check checks q.
func (q Query) Check() error {
	from, err1 := time.Parse(DayFormat, q.From)
	to, err2 := time.Parse(DayFormat, q.To)
	switch {
	case err1 != nil || err2 != nil:
		return baccarat.Errorf(baccarat.CodeBadRequest, "a report's from and to are days: 2026-11-22")
	case to.Before(from):
		return baccarat.Errorf(baccarat.CodeBadRequest, "a report's from must not be after its to")
	case to.Sub(from) > MaxDays*24*time.Hour:
		return baccarat.Errorf(baccarat.CodeBadRequest, "a report covers at most %d days", MaxDays)
	}
	for _, s := range []string{q.Table, q.Game, q.Currency} {
		if len(s) > 80 || !printable(s) {
			return baccarat.Errorf(baccarat.CodeBadRequest, "a report's filter is at most 80 printable bytes")
		}
	}
	return nil
}

// Summary is what Report answers: the day rows and the bet rows, grouped alike (bet rows are
// also apart by bet and by variant, which prices them).
type Summary struct {
	Rows []DayRow `json:"rows"`
	Bets []BetRow `json:"bets"`
}

// MonthFormat is how a month is written in the bets' monthly rows: "2026-11".
const MonthFormat = "2006-01"

// Span is how a report's days are read: the whole months within them from the monthly rows,
// the days before and after those months from the daily ones. A report by day reads days
// only (Months empty).
type Span struct {
	Days      [][2]string // ranges of days, both ends included
	FromMonth string      // the months from FromMonth to ToMonth, both included; "" for none
	ToMonth   string
}

// Split splits q's days into whole months and the days around them.
func (q Query) Split() Span {
	from, _ := time.Parse(DayFormat, q.From)
	to, _ := time.Parse(DayFormat, q.To)
	if q.ByDay {
		return Span{Days: [][2]string{{q.From, q.To}}}
	}
	first := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	if !first.Equal(from) {
		first = first.AddDate(0, 1, 0)
	}
	end := time.Date(to.Year(), to.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0) // the month after to's
	if !end.AddDate(0, 0, -1).Equal(to) {
		end = end.AddDate(0, -1, 0)
	}
	if !first.Before(end) {
		return Span{Days: [][2]string{{q.From, q.To}}}
	}
	var s Span
	if from.Before(first) {
		s.Days = append(s.Days, [2]string{q.From, Day(first.AddDate(0, 0, -1))})
	}
	if end.Before(to) || end.Equal(to) {
		s.Days = append(s.Days, [2]string{Day(end), q.To})
	}
	s.FromMonth, s.ToMonth = first.Format(MonthFormat), end.AddDate(0, -1, 0).Format(MonthFormat)
	return s
}
