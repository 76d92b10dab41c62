package sqlite_test

import (
	"testing"

	"github.com/tablehouse/baccarat/journal/journaltest"
)

// BenchmarkCommitWagers: durable (fsynced) committed wagers per second by group-commit
// size. Run with: go test -run '^$' -bench CommitWagers ./sqlite/
func BenchmarkCommitWagers(b *testing.B) {
	journaltest.BenchCommitWagers(b, func(b *testing.B) journaltest.CommitStore { return open(b) })
}

// BenchmarkCommitSettlement: the commit that settles a round of 5,000 wagers, with and
// without responsible gaming's bookkeeping. Run with: go test -run '^$' -bench
// CommitSettlement ./sqlite/
func BenchmarkCommitSettlement(b *testing.B) {
	journaltest.BenchCommitSettlement(b, func(b *testing.B) journaltest.CommitStore { return open(b) })
}
