package sqlite

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/backoffice/backofficetest"
)

// TestAuditTrailIsNeverEdited: the database itself refuses to change or remove an entry of
// the audit trail, whatever the code path, as it refuses edits of the ledger's history.
func TestAuditTrailIsNeverEdited(t *testing.T) {
	db := openAt(t, filepath.Join(t.TempDir(), "a.db"))
	ctx := t.Context()
	e, err := db.RecordAudit(ctx, backoffice.Entry{At: backofficetest.At, Actor: "boss", Role: "admin",
		Action: backoffice.ActWalletCredit, Target: "ann", Reason: "deposit", Source: backoffice.SourceOffice})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE audit_log SET reason = 'nothing' WHERE seq = ?`, `DELETE FROM audit_log WHERE seq = ?`} {
		if _, err := db.w.ExecContext(ctx, q, e.Seq); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: %v, want refused as append-only", q, err)
		}
	}
	got, _ := db.AuditLog(ctx, backoffice.Filter{})
	if len(got) != 1 || got[0].Reason != "deposit" {
		t.Fatalf("the entry after the attempts: %+v", got)
	}
}
