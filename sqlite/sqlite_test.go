package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/access/accesstest"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
	"github.com/tablehouse/baccarat/sqlite"
)

func open(t testing.TB) *sqlite.DB {
	t.Helper()
	db, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestLedgerConformance(t *testing.T) {
	ledgertest.Run(t, func(t *testing.T) ledger.Store { return open(t) })
}

func TestJournalConformance(t *testing.T) {
	journaltest.Run(t, func(t *testing.T) journal.Store { return open(t) })
}

func TestCommitterConformance(t *testing.T) {
	journaltest.RunCommitter(t, func(t *testing.T) journaltest.CommitStore { return open(t) })
}

func TestRequestConformance(t *testing.T) {
	journaltest.RunRequests(t, func(t *testing.T) journaltest.RequestStore { return open(t) })
}

func TestAccessConformance(t *testing.T) {
	accesstest.Run(t, func(t *testing.T) access.Store { return open(t) })
}
