package journal

import (
	"context"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// Report is what Audit checked.
type Report struct {
	Tables  int // journals verified
	Records int // records verified
	Ledger  bool
}

// Audit is the check behind `baccarat verify`: it loads every table's journal, verifies its
// chain from the first record and that it ends at the stored head, and then, if books is
// not nil, runs the ledger's Check. It returns what it verified and the first fault as an
// integrity error. The two are one audit because a commit writes both: events without
// their postings, or the reverse, would show as a fault in one of them.
func Audit(ctx context.Context, j Store, books ledger.Store) (Report, error) {
	var rep Report
	tables, err := j.Tables(ctx)
	if err != nil {
		return rep, err
	}
	for _, t := range tables {
		n, err := verifyTable(ctx, j, t)
		if err != nil {
			return rep, err
		}
		rep.Tables++
		rep.Records += n
	}
	if books != nil {
		if err := books.Check(ctx); err != nil {
			return rep, err
		}
		rep.Ledger = true
	}
	return rep, nil
}

// verifyTable reads the head first and the records after, so a table that is being
// appended to meanwhile verifies too: the records must reach the head read earlier and
// agree with it there.
func verifyTable(ctx context.Context, j Store, table string) (int, error) {
	head, err := j.Head(ctx, table)
	if err != nil {
		return 0, err
	}
	recs, err := j.Load(ctx, table, 1)
	if err != nil {
		return 0, err
	}
	if len(recs) > 0 && (recs[0].Seq != 1 || recs[0].Table != table) {
		return 0, baccarat.Errorf(baccarat.CodeIntegrity, "journal %s: starts at record %d of table %s, not record 1", table, recs[0].Seq, recs[0].Table)
	}
	if err := Verify(recs); err != nil {
		return 0, err
	}
	if head.Seq > uint64(len(recs)) || (head.Seq > 0 && recs[head.Seq-1].Head() != head) {
		return 0, baccarat.Errorf(baccarat.CodeIntegrity, "journal %s: the stored head, record %d, does not match the records (%d of them)",
			table, head.Seq, len(recs))
	}
	return len(recs), nil
}
