package sqlite

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
)

func openAt(t *testing.T, path string) *DB {
	t.Helper()
	db, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestDurabilitySettings pins what "durable before acknowledged" rests on.
func TestDurabilitySettings(t *testing.T) {
	db := openAt(t, filepath.Join(t.TempDir(), "d.db"))
	for _, c := range []struct {
		pragma, want string
	}{
		{"journal_mode", "wal"},
		{"synchronous", "2"}, // FULL: the WAL is fsynced at every commit
		{"foreign_keys", "1"},
		{"busy_timeout", "10000"},
	} {
		var got string
		if err := db.w.QueryRowContext(t.Context(), "PRAGMA "+c.pragma).Scan(&got); err != nil || got != c.want {
			t.Errorf("writer PRAGMA %s = %q, %v; want %q", c.pragma, got, err, c.want)
		}
	}
	var sync string
	if err := db.r.QueryRowContext(t.Context(), "PRAGMA synchronous").Scan(&sync); err != nil || sync != "2" {
		t.Errorf("reader PRAGMA synchronous = %q, %v", sync, err)
	}
}

func TestMigrationsAreRecordedAndRunOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	db := openAt(t, path)
	ledgertest.Fund(t, db, "alice", "EUR", 10)
	db.Close()
	db = openAt(t, path) // a second open applies nothing and keeps the data
	ledgertest.WantBalances(t, db, map[string]baccarat.Money{ledger.Wallet("alice", "EUR"): 10})
	ms, _ := migrations()
	var n, max int
	if err := db.r.QueryRowContext(t.Context(), `SELECT COUNT(*), MAX(version) FROM schema_migrations`).Scan(&n, &max); err != nil || n != len(ms) || max != len(ms) {
		t.Fatalf("schema_migrations has %d rows up to %d (%v), want %d", n, max, err, len(ms))
	}
	if _, err := db.w.ExecContext(t.Context(), `INSERT INTO schema_migrations (version, name) VALUES (999, 'future')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(t.Context(), path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("opening a database from a newer program: %v, want refused", err)
	}
}

// TestSchemaEnforcesMoneyRules bypasses the Go code: the constraints alone refuse an
// overdrawn wallet, a reused key, a second record at one seq, and edits of history.
func TestSchemaEnforcesMoneyRules(t *testing.T) {
	db := openAt(t, filepath.Join(t.TempDir(), "s.db"))
	w := ledgertest.Fund(t, db, "alice", "EUR", 10)
	recs, _ := journaltest.Chain(journal.Head{}, "t1", 1)
	journaltest.Append(t, db, recs...)
	for _, c := range []struct{ name, sql string }{
		{"a wallet never goes below zero", `UPDATE accounts SET balance = -1 WHERE id = '` + w + `'`},
		{"idempotency keys are unique", `INSERT INTO ledger_transactions (key, digest, currency, memo, table_id, round, at)
			SELECT key, digest, currency, memo, table_id, round, at FROM ledger_transactions`},
		{"one record per table and seq", `INSERT INTO journal SELECT * FROM journal`},
		{"the journal is append-only", `UPDATE journal SET data = '{}'`},
		{"entries are append-only", `DELETE FROM ledger_entries`},
		{"no zero entries", `INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance) VALUES ('` + w + `', 9, 1, 0, 10)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := db.w.ExecContext(t.Context(), c.sql); err == nil {
				t.Fatalf("the schema accepted: %s", c.sql)
			}
		})
	}
}

// TestAuditDetectsTampering edits stored rows the way an attacker with file access would
// (dropping the append-only triggers first) and expects verify to name the fault.
func TestAuditDetectsTampering(t *testing.T) {
	cases := []struct {
		name, sql, want string
	}{
		{"an edited record's data", `UPDATE journal SET data = CAST('{"seq":2,"stake":1}' AS BLOB) WHERE seq = 2`, "record 2:"},
		{"an edited record's time", `UPDATE journal SET at = at + 1 WHERE seq = 3`, "record 3:"},
		{"a deleted record", `DELETE FROM journal WHERE seq = 2`, "record 2 is missing"},
		{"a head that is not the last record", `UPDATE journal_heads SET seq = 2`, "stored head"},
		{"a balance edited without an entry", `UPDATE accounts SET balance = balance + 5 WHERE id = 'wallet/alice/EUR'`, "stores balance"},
		{"an entry's amount edited", `UPDATE ledger_entries SET amount = amount - 1 WHERE seq = 2 AND account_id = 'wallet/alice/EUR'`, "r1/0"},
		{"money made from nothing", `UPDATE ledger_entries SET amount = amount + 1, balance = balance + 1 WHERE account_id = 'inplay/t1/EUR' AND seq = 1;
			UPDATE accounts SET balance = balance + 1 WHERE id = 'inplay/t1/EUR'`, "does not balance"},
	}
	for _, c := range cases {
		t.Run(c.name+" is detected", func(t *testing.T) {
			db := openAt(t, filepath.Join(t.TempDir(), "a.db"))
			w := ledgertest.Fund(t, db, "alice", "EUR", 1000)
			ledgertest.Open(t, db, ledger.InPlay("t1", "EUR"))
			b, _ := journaltest.Wagers(journal.Head{}, "t1", w, 10, "r1", 4)
			journaltest.Commit(t, db, b)
			if _, err := journal.Audit(t.Context(), db, db); err != nil {
				t.Fatalf("sound store: %v", err)
			}
			for _, trg := range []string{"journal_append_only_u", "journal_append_only_d", "ledger_entries_append_only_u"} {
				if _, err := db.w.ExecContext(t.Context(), "DROP TRIGGER "+trg); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := db.w.ExecContext(t.Context(), c.sql); err != nil {
				t.Fatal(err)
			}
			_, err := journal.Audit(t.Context(), db, db)
			if baccarat.ErrorCode(err) != baccarat.CodeIntegrity || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Audit = %v; want an integrity error mentioning %q", err, c.want)
			}
		})
	}
}
