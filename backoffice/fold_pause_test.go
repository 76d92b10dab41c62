package backoffice

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
)

// TestTheTrailCopiesThePitsPauseReopenAndClose: the pit's pause, reopening and closing of a
// table, written in its journal, are staff actions of the audit trail, each with who and why
// and the event it was; the shoe the close ended is the table's routine and is not.
func TestTheTrailCopiesThePitsPauseReopenAndClose(t *testing.T) {
	tab, err := table.New(table.Config{Game: "mbs-tiger"})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)
	recs := []journal.Record{{Table: "t1", Seq: 1, Type: tableCreated, At: at, Data: json.RawMessage(`{"id":"t1","config":{"game":"mbs-tiger"}}`)}}
	pit := func(why string) table.Header { return table.Header{Role: table.RolePit, Actor: "pit-7", Reason: why} }
	for _, c := range []table.Command{&table.NewShoe{}, &table.Pause{Header: pit("dealer change")}, &table.Reopen{Header: pit("")},
		&table.Pause{Header: pit("end of the night")}, &table.CloseTable{Header: pit("end of the night")}} {
		ev, err := tab.Apply(c)
		if err != nil {
			t.Fatalf("%s: %v", c.Kind(), err)
		}
		for i := range ev {
			b, _ := json.Marshal(&ev[i])
			recs = append(recs, journal.Record{Table: "t1", Seq: uint64(len(recs) + 1), Type: ev[i].Type.String(), Data: b, At: at})
		}
	}
	f, err := FoldRecords(Mark{Table: "t1"}, recs)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ event, reason string }{{"table_paused", "dealer change"}, {"table_reopened", ""},
		{"table_paused", "end of the night"}, {"table_closed", "end of the night"}}
	if len(f.Audit) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(f.Audit), len(want), f.Audit)
	}
	for i, e := range f.Audit {
		var d struct{ Event string }
		_ = json.Unmarshal(e.Detail, &d)
		if e.Action != ActTableCommand || e.Actor != "pit-7" || e.Role != "pit" || e.Target != "t1" || e.Source != SourceJournal ||
			d.Event != want[i].event || e.Reason != want[i].reason {
			t.Errorf("entry %d: %+v (%s), want %s with %q", i, e, e.Detail, want[i].event, want[i].reason)
		}
	}
}
