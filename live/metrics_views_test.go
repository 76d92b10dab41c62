package live

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/sqlite"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

func metricsStore(t *testing.T) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "metrics.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The stalled-table gauge judges by stuckAfter; verify judges by Schedule.StuckAfter. The
// two must draw the line at the same instant: an automatic table's stuckAfter is its
// schedule's StuckAfter (verify's own test holds its check to that line, to the nanosecond).
func TestStuckAfterIsVerifysRule(t *testing.T) {
	for _, spec := range []Spec{
		{ID: "auto-default", Mode: ModeAuto},
		{ID: "auto-slow-betting", Mode: ModeAuto, Schedule: Schedule{Betting: 2 * time.Minute}},
		{ID: "auto-long-window", Mode: ModeAuto, Schedule: Schedule{Betting: time.Second, Window: 90 * time.Second}},
		{ID: "auto-long-result", Mode: ModeAuto, Schedule: Schedule{Result: time.Hour}},
	} {
		t.Run(spec.ID, func(t *testing.T) {
			d := spec.stuckAfter()
			if d <= stuckGrace {
				t.Fatalf("stuckAfter %s: an automatic table gets its longest step and the grace", d)
			}
			if want := spec.Schedule.StuckAfter(); d != want {
				t.Errorf("stuckAfter %s, verify's line (Schedule.StuckAfter) %s", d, want)
			}
		})
	}
	t.Run("no schedule paces a dealer's table or a tournament's session table", func(t *testing.T) {
		for _, spec := range []Spec{{ID: "dealer", Mode: ModeDealer},
			{ID: "session", Mode: ModeAuto, Tournament: &tabletop.Session{Tournament: "cup", Round: 1, Table: 1, Session: 1}}} {
			if d := spec.stuckAfter(); d != 0 {
				t.Errorf("%s: stuckAfter %s, want 0", spec.ID, d)
			}
		}
	})
}

// silentOperator never answers (the outbox is never sent here: the host is not opened).
type silentOperator struct{}

func (silentOperator) Balance(context.Context, seamless.BalanceRequest) (seamless.Answer, error) {
	return seamless.Answer{}, context.DeadlineExceeded
}
func (silentOperator) Debit(context.Context, seamless.DebitRequest) (seamless.Answer, error) {
	return seamless.Answer{}, context.DeadlineExceeded
}
func (silentOperator) Credit(context.Context, seamless.CreditRequest) (seamless.Answer, error) {
	return seamless.Answer{}, context.DeadlineExceeded
}
func (silentOperator) Rollback(context.Context, seamless.RollbackRequest) (seamless.Answer, error) {
	return seamless.Answer{}, context.DeadlineExceeded
}

// TestHostOutbox: the outbox is the credits and rollbacks not yet answered, counted over
// several pages of the store's listing; debits on their way, answered calls and calls
// refused for good are not in it; without the operator's wallet it is empty.
func TestHostOutbox(t *testing.T) {
	ctx := context.Background()
	db := metricsStore(t)
	defer func(p int) { outboxPage = p }(outboxPage)
	outboxPage = 2
	const stream, n = "outbox", 7
	placed := journal.Batch{}
	var debits []string
	for i := range n {
		d, _, err := db.BeginDebit(ctx, journaltest.Debit("ann", fmt.Sprintf("r%d", i), stream, 100))
		if err != nil {
			t.Fatal(err)
		}
		debits = append(debits, d.Tx)
		placed.Placed = append(placed.Placed, journal.PlacedDebit{Tx: d.Tx, TableWager: uint64(i + 1), At: journaltest.At})
	}
	recs, head := journaltest.Chain(journal.Head{}, stream, 1)
	placed.Records = recs
	journaltest.Commit(t, db, placed)
	// One more debit, begun and not placed: open, and not the outbox's.
	if _, _, err := db.BeginDebit(ctx, journaltest.Debit("bob", "on-its-way", stream, 100)); err != nil {
		t.Fatal(err)
	}
	oldest := journaltest.At.Add(time.Minute)
	settled := journal.Batch{}
	for i := range n {
		settled.Calls = append(settled.Calls, journal.WalletCall{Tx: fmt.Sprintf("c%d", i), Kind: journal.CallCredit, Amount: 150,
			Table: stream, TableWager: uint64(i + 1), Created: oldest.Add(time.Duration(i) * time.Second)})
	}
	settled.Records, _ = journaltest.Chain(head, stream, 1)
	journaltest.Commit(t, db, settled)
	// The first credit answered, the second refused for good: neither is waiting any more.
	if k, err := db.UpdateCalls(ctx, []journal.CallChange{
		{Tx: "c0", CallUpdate: journal.CallUpdate{State: journal.CallDone, At: oldest}},
		{Tx: "c1", CallUpdate: journal.CallUpdate{State: journal.CallFailed, Error: "unknown_player", At: oldest}},
	}); k != 2 || err != nil {
		t.Fatalf("UpdateCalls: %d %v", k, err)
	}

	got, err := New(Options{Store: db, Operator: silentOperator{}}).Outbox(ctx)
	if want := (OutboxState{Calls: n - 2, Oldest: oldest.Add(2 * time.Second)}); err != nil || got.Calls != want.Calls || !got.Oldest.Equal(want.Oldest) {
		t.Errorf("Outbox = %+v, %v; want %+v", got, err, want)
	}
	if got, err := New(Options{Store: db}).Outbox(ctx); err != nil || got != (OutboxState{}) {
		t.Errorf("without the operator's wallet: %+v, %v; want nothing", got, err)
	}
}
