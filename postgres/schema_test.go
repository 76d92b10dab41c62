package postgres_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
	"github.com/tablehouse/baccarat/postgres"
)

// rawConn connects to the test's schema directly, past the store.
func rawConn(t *testing.T, cfg *pgx.ConnConfig) *pgx.Conn {
	t.Helper()
	c, err := pgx.ConnectConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// TestSchemaEnforcesMoneyRules bypasses the Go code: the constraints alone refuse an
// overdrawn wallet, a reused key, a second record at one seq, edits of history and
// entries in accounts that do not exist.
func TestSchemaEnforcesMoneyRules(t *testing.T) {
	needPostgres(t)
	db, cfg := openSchema(t)
	w := ledgertest.Fund(t, db, "alice", "EUR", 10)
	recs, _ := journaltest.Chain(journal.Head{}, "t1", 1)
	journaltest.Append(t, db, recs...)
	c := rawConn(t, cfg)
	for _, tc := range []struct{ name, sql string }{
		{"a wallet never goes below zero", `UPDATE accounts SET balance = -1 WHERE id = '` + w + `'`},
		{"idempotency keys are unique", `INSERT INTO ledger_transactions (key, digest, currency, memo, table_id, round, at_ns)
			SELECT key, digest, currency, memo, table_id, round, at_ns FROM ledger_transactions`},
		{"one record per table and seq", `INSERT INTO journal SELECT * FROM journal`},
		{"the journal is append-only", `UPDATE journal SET data = '\x7b7d'`},
		{"entries are append-only", `DELETE FROM ledger_entries`},
		{"accounts are never removed", `DELETE FROM accounts`},
		{"entries name existing accounts", `INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance)
			SELECT 'wallet/nobody/EUR', 1, id, 1, 1 FROM ledger_transactions`},
		{"entries name existing transactions", `INSERT INTO ledger_entries (account_id, seq, tx_id, amount, balance) VALUES ('` + w + `', 9, 999999, 1, 1)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.Exec(t.Context(), tc.sql); err == nil {
				t.Fatalf("the schema accepted: %s", tc.sql)
			}
		})
	}
}

// TestAuditDetectsTampering edits stored rows as an attacker with database access would
// (disabling the append-only triggers first) and expects verify to name the fault.
func TestAuditDetectsTampering(t *testing.T) {
	needPostgres(t)
	cases := []struct{ name, sql, want string }{
		{"an edited record's data", `UPDATE journal SET data = convert_to('{"seq":2}', 'UTF8') WHERE seq = 2`, "record 2:"},
		{"an edited record's time", `UPDATE journal SET at_ns = at_ns + 1 WHERE seq = 3`, "record 3:"},
		{"a deleted record", `DELETE FROM journal WHERE seq = 2`, "record 2 is missing"},
		{"a head that is not the last record", `UPDATE journal_heads SET seq = 2`, "stored head"},
		{"a balance edited without an entry", `UPDATE accounts SET balance = balance + 5 WHERE id = 'wallet/alice/EUR'`, "stores balance"},
		{"an entry's amount edited", `UPDATE ledger_entries SET amount = amount - 1 WHERE seq = 2 AND account_id = 'wallet/alice/EUR'`, "r1/0"},
	}
	for _, tc := range cases {
		t.Run(tc.name+" is detected", func(t *testing.T) {
			t.Parallel()
			db, cfg := openSchema(t)
			tamper(t, db, cfg, tc.sql)
			_, err := journal.Audit(t.Context(), db, db)
			if baccarat.ErrorCode(err) != baccarat.CodeIntegrity || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Audit = %v; want an integrity error mentioning %q", err, tc.want)
			}
		})
	}
}

func tamper(t *testing.T, db *postgres.DB, cfg *pgx.ConnConfig, sql string) {
	t.Helper()
	w := ledgertest.Fund(t, db, "alice", "EUR", 1000)
	ledgertest.Open(t, db, ledger.InPlay("t1", "EUR"))
	b, _ := journaltest.Wagers(journal.Head{}, "t1", w, 10, "r1", 4)
	journaltest.Commit(t, db, b)
	if _, err := journal.Audit(t.Context(), db, db); err != nil {
		t.Fatalf("sound store: %v", err)
	}
	c := rawConn(t, cfg)
	if _, err := c.Exec(t.Context(), `ALTER TABLE journal DISABLE TRIGGER USER; ALTER TABLE ledger_entries DISABLE TRIGGER USER`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(t.Context(), sql); err != nil {
		t.Fatal(err)
	}
}

func TestMigrationsAreRecordedAndRunOnce(t *testing.T) {
	needPostgres(t)
	db, cfg := openSchema(t)
	ledgertest.Fund(t, db, "alice", "EUR", 10)
	again, err := postgres.OpenConfig(t.Context(), cfg, 1) // a second server starting up
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	ledgertest.WantBalances(t, again, map[string]baccarat.Money{ledger.Wallet("alice", "EUR"): 10})
	c := rawConn(t, cfg)
	var n int
	files, _ := filepath.Glob("migrations/*.sql")
	if err := c.QueryRow(t.Context(), `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(files) {
		t.Fatalf("schema_migrations has %d rows (%v), want one per migration, %d", n, err, len(files))
	}
	if _, err := c.Exec(t.Context(), `INSERT INTO schema_migrations (version, name) VALUES (999, 'future')`); err != nil {
		t.Fatal(err)
	}
	if _, err := postgres.OpenConfig(t.Context(), cfg, 1); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("opening a database from a newer program: %v, want refused", err)
	}
}

// TestEntryCheckLooksUpByKey: the check that new ledger entries name existing accounts and
// transactions runs with hash and merge joins and sequential scans off, so it looks each
// entry up by primary key rather than reading all of ledger_transactions on every commit
// (which the planner chose while its statistics were young, making a commit cost grow with
// the books).
func TestEntryCheckLooksUpByKey(t *testing.T) {
	needPostgres(t)
	_, cfg := openSchema(t)
	c := rawConn(t, cfg)
	var conf []string
	if err := c.QueryRow(t.Context(), `SELECT proconfig FROM pg_proc
		WHERE proname = 'check_new_entries' AND pronamespace = current_schema()::regnamespace`).Scan(&conf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"enable_hashjoin=off", "enable_mergejoin=off", "enable_seqscan=off"} {
		if !strings.Contains(strings.Join(conf, " "), want) {
			t.Errorf("check_new_entries runs with %v: want %s", conf, want)
		}
	}
}
