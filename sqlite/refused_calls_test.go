package sqlite

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/tablehouse/baccarat/journal"
)

// TestRefusedCallsMigrationKeepsEveryCall: 0005 makes wallet_calls again (SQLite cannot
// alter a CHECK); every row of a database written before it comes through, seq and all, and
// the schema then refuses a resolution without its audit.
func TestRefusedCallsMigrationKeepsEveryCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for i, m := range ms {
		if m.Name == "0005_refused_calls.sql" {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("no migration 0005_refused_calls.sql")
	}
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, old, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)`)
	for _, m := range ms[:at] {
		mustExec(t, old, m.SQL)
		mustExec(t, old, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name)
	}
	mustExec(t, old, `INSERT INTO wallet_calls (seq, tx, kind, player, currency, amount, table_id, round, wager, state,
		request_id, attempt, digest, table_wager, balance, attempts, error, created, updated) VALUES
		(7, 'd-1', 'debit', 'ann', 'EUR', 250, 't1', 3, 7, 'placed', 'r1', 1, 'x', 5, 900, 0, '', 10, 11)`)
	mustExec(t, old, `INSERT INTO wallet_calls (seq, tx, kind, player, currency, amount, table_id, round, wager, debit_tx,
		state, table_wager, attempts, error, created, updated, next_at) VALUES
		(9, 'c-1', 'credit', 'ann', 'EUR', 375, 't1', 3, 7, 'd-1', 'failed', 5, 4, 'unknown_player: gone', 12, 13, 14)`)
	old.Close()

	db := openAt(t, path)
	d, err := db.Call(t.Context(), "d-1")
	if err != nil || d.Seq != 7 || d.State != journal.CallPlaced || d.Balance == nil || *d.Balance != 900 || d.TableWager != 5 {
		t.Fatalf("the debit after the migration: %+v, %v", d, err)
	}
	c, err := db.Call(t.Context(), "c-1")
	if err != nil || c.Seq != 9 || c.State != journal.CallFailed || c.DebitTx != "d-1" || c.Attempts != 4 || c.Error != "unknown_player: gone" ||
		c.NextAt.UnixNano() != 14 || c.Resolution != nil || c.Replaces != "" {
		t.Fatalf("the refused credit after the migration: %+v, %v", c, err)
	}
	for name, q := range map[string]string{
		"a settled call has its resolution": `UPDATE wallet_calls SET state = 'settled' WHERE tx = 'c-1'`,
		"a resolution names who and when":   `UPDATE wallet_calls SET state = 'settled', resolution = 'settle', reason = 'x' WHERE tx = 'c-1'`,
		"a settlement has a reason": `UPDATE wallet_calls SET state = 'settled', resolution = 'settle', resolved_by = 'a',
			resolved_at = 1 WHERE tx = 'c-1'`,
		"a resent call names its successor": `UPDATE wallet_calls SET state = 'resent', resolution = 'resend', resolved_by = 'a',
			resolved_at = 1 WHERE tx = 'c-1'`,
		"a debit is never settled": `UPDATE wallet_calls SET state = 'settled', resolution = 'settle', resolved_by = 'a',
			resolved_at = 1, reason = 'x' WHERE tx = 'd-1'`,
	} {
		if _, err := db.w.ExecContext(t.Context(), q); err == nil {
			t.Errorf("%s: the schema took %s", name, q)
		}
	}
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(t.Context(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
