package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/backoffice/backofficetest"
)

func TestBackOfficeConformance(t *testing.T) {
	needPostgres(t)
	backofficetest.Run(t, func(t *testing.T) backofficetest.Full { return open(t) })
}

// TestAuditTrailIsNeverEdited: the database itself refuses to change, remove or truncate an
// entry of the audit trail, whatever the code path, as it refuses edits of the ledger's.
func TestAuditTrailIsNeverEdited(t *testing.T) {
	needPostgres(t)
	db, cfg := openSchema(t)
	ctx := t.Context()
	e, err := db.RecordAudit(ctx, backoffice.Entry{At: backofficetest.At, Actor: "boss", Role: "admin",
		Action: backoffice.ActWalletCredit, Target: "ann", Reason: "deposit", Source: backoffice.SourceOffice})
	if err != nil {
		t.Fatal(err)
	}
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	for _, q := range []string{`UPDATE audit_log SET reason = 'nothing' WHERE seq = $1`, `DELETE FROM audit_log WHERE seq = $1`, `TRUNCATE audit_log`} {
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, e.Seq)
		}
		if _, err := c.Exec(ctx, q, args...); err == nil || !strings.Contains(err.Error(), "history is kept") {
			t.Errorf("%s: %v, want refused", q, err)
		}
	}
	got, _ := db.AuditLog(ctx, backoffice.Filter{})
	if len(got) != 1 || got[0].Reason != "deposit" {
		t.Fatalf("the entry after the attempts: %+v", got)
	}
}
