package ledgertest

import (
	"fmt"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
)

// testStatementBefore: read backwards in pages, a statement is the same entries as read
// forwards, newest first, with nothing left out or repeated at a page's edge.
func testStatementBefore(t *testing.T, s ledger.Store) {
	nf, ok := s.(ledger.NewestFirst)
	if !ok {
		t.Fatalf("%T does not read statements newest first (ledger.NewestFirst)", s)
	}
	w := Fund(t, s, "bea", "EUR", 1000)
	p := ledger.InPlay("t1", "EUR")
	Open(t, s, p)
	for i := range 23 {
		tx := Move(fmt.Sprintf("w%d", i), w, p, baccarat.Money(i+1))
		tx.Memo, tx.Table, tx.Round = "wager", "t1", i+1
		Post(t, s, tx)
	}
	forward, err := s.Statement(t.Context(), w, ledger.Page{Limit: ledger.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	var back []ledger.Entry
	for before := int64(0); ; {
		page, err := nf.StatementBefore(t.Context(), w, before, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 10 {
			t.Fatalf("page of %d entries, limit 10", len(page))
		}
		back = append(back, page...)
		before = page[len(page)-1].Seq
	}
	if len(back) != len(forward) || len(back) != 24 {
		t.Fatalf("%d entries backwards, %d forwards, want 24 each", len(back), len(forward))
	}
	for i, e := range back {
		if want := forward[len(forward)-1-i]; !entryEqual(e, want) {
			t.Fatalf("entry %d from the newest = %+v, want %+v", i+1, e, want)
		}
	}
	if page, err := nf.StatementBefore(t.Context(), w, 3, 0); err != nil || len(page) != 2 || page[0].Seq != 2 || page[1].Seq != 1 {
		t.Fatalf("before 3: %+v %v, want entries 2 and 1", page, err)
	}
	_, err = nf.StatementBefore(t.Context(), w, -1, 0)
	WantCode(t, err, baccarat.CodeBadRequest)
	_, err = nf.StatementBefore(t.Context(), ledger.Wallet("nobody", "EUR"), 0, 0)
	WantCode(t, err, baccarat.CodeNotFound)
}
