package journal_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablehouse/baccarat/journal"
)

// Each record is sealed to the one before it; editing any stored byte breaks the chain
// at that record.
func ExampleVerify() {
	at := time.Date(2025, 3, 1, 20, 0, 0, 0, time.UTC)
	var recs []journal.Record
	var head journal.Head
	for i, typ := range []string{"round_opened", "wager_placed", "round_settled"} {
		r := journal.Seal(head, journal.Record{Table: "t1", Type: typ, At: at, Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))})
		recs, head = append(recs, r), r.Head()
	}
	fmt.Println(journal.Verify(recs))
	recs[1].Data = json.RawMessage(`{"n":9}`)
	fmt.Println(journal.Verify(recs))
	// Output:
	// <nil>
	// journal t1: record 2: its contents do not match its hash
}
