package journal

import (
	"slices"

	"github.com/tablehouse/baccarat"
)

// TablesOf returns the tables records belong to, sorted and without repeats: the heads a
// store reads (and locks, in this order) before appending them.
func TablesOf(records []Record) []string {
	t := make([]string, 0, 1)
	for _, r := range records {
		t = append(t, r.Table)
	}
	slices.Sort(t)
	return slices.Compact(t)
}

// Advance checks that records extend the given heads (a missing table's head is the zero
// Head) and returns the new heads of the tables they touch. Records of several tables may
// interleave; within a table they must run head+1, head+2, … each chaining to the one
// before.
//
// Every record is validated first (bad_request for a malformed or unsealed record); then a
// record that does not extend its table's head is a conflict: another writer got there
// first, so the caller must reload, not retry blindly. Advance does not modify heads.
func Advance(heads map[string]Head, records []Record) (map[string]Head, error) {
	for _, r := range records {
		if err := r.Validate(); err != nil {
			return nil, err
		}
	}
	next := make(map[string]Head, len(heads))
	for _, r := range records {
		h, ok := next[r.Table]
		if !ok {
			h = heads[r.Table]
		}
		switch {
		case r.Seq != h.Seq+1:
			return nil, baccarat.Errorf(baccarat.CodeConflict,
				"journal %s: record %d does not follow the head, record %d: another writer may own the table", r.Table, r.Seq, h.Seq)
		case r.Prev != h.Hash:
			return nil, baccarat.Errorf(baccarat.CodeConflict,
				"journal %s: record %d does not chain to the head record %d: another writer may own the table", r.Table, r.Seq, h.Seq)
		}
		next[r.Table] = r.Head()
	}
	return next, nil
}
