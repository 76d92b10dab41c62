package sqlite_test

import (
	"context"
	"testing"

	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/backoffice/backofficetest"
	"github.com/tablehouse/baccarat/sqlite"
)

func TestBackOfficeConformance(t *testing.T) {
	backofficetest.Run(t, func(t *testing.T) backofficetest.Full { return open(t) })
}

// plantedFault is the store with a fault planted in its folds: a settlement's return
// counted one minor unit short.
type plantedFault struct{ *sqlite.DB }

func (p plantedFault) ApplyFold(ctx context.Context, f backoffice.Fold) error {
	for i := range f.Days {
		if f.Days[i].Returned > 0 {
			f.Days[i].Returned--
			break
		}
	}
	return p.DB.ApplyFold(ctx, f)
}

// TestBooksCheckCatchesAPlantedFault: the conformance suite's check of a report against
// the books (backofficetest.BooksAgree) is apart from the folds it checks, and catches a
// fold that miscounts one minor unit.
func TestBooksCheckCatchesAPlantedFault(t *testing.T) {
	db := open(t)
	g := backofficetest.Play(t, db, "planted")
	if _, err := backoffice.CatchUp(t.Context(), plantedFault{db}); err != nil {
		t.Fatal(err)
	}
	if err := backofficetest.BooksAgree(t.Context(), db, g.ID, "EUR", []string{"ann", "bob"}, 2*10_000_000); err == nil {
		t.Fatal("the books check passed a report one minor unit short")
	}
}
