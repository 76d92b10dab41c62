package journal

import (
	"context"

	"github.com/tablehouse/baccarat"
)

// Snapshot is a table's state as of one of its journal records (Seq): what recovery restores
// before it replays the records after Seq. The journal stays the record: a snapshot is a
// shortcut through it, which `verify` checks against a replay of the whole journal.
type Snapshot struct {
	Table string
	Seq   uint64
	Data  []byte
}

// Validate checks a snapshot on its own.
func (s *Snapshot) Validate() error {
	if !baccarat.ValidStoredID(s.Table) || s.Seq < 1 || len(s.Data) == 0 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "a snapshot of table %q at record %d with %d bytes", s.Table, s.Seq, len(s.Data))
	}
	return nil
}

// Snapshots is a store that keeps tables' snapshots (written with a Batch) and reads a
// journal by ranges, so that a table is recovered from its latest snapshot and the records
// after it, whatever the length of its history.
type Snapshots interface {
	// LatestSnapshot is a table's latest snapshot; ok false when it has none.
	LatestSnapshot(ctx context.Context, table string) (Snapshot, bool, error)
	// SnapshotsOf is every snapshot of a table, oldest first (for audits).
	SnapshotsOf(ctx context.Context, table string) ([]Snapshot, error)
	// LoadRange is Load of the records from fromSeq to toSeq, both included.
	LoadRange(ctx context.Context, table string, fromSeq, toSeq uint64) ([]Record, error)
}
