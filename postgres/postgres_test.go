package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/access/accesstest"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/journal/journaltest"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/ledger/ledgertest"
	"github.com/tablehouse/baccarat/postgres"
)

// open returns a store in a schema of its own, created for the test and dropped after
// it, so tests are isolated and run in parallel. It skips when BACCARAT_TEST_POSTGRES
// (a DSN such as postgres://postgres@127.0.0.1:5432/test?sslmode=disable) is unset.
func open(t testing.TB) *postgres.DB {
	t.Helper()
	db, _ := openSchema(t)
	return db
}

// openSchema is open that also returns the connection config of the schema, for tests
// that reach past the store.
func openSchema(t testing.TB) (*postgres.DB, *pgx.ConnConfig) {
	t.Helper()
	dsn := os.Getenv("BACCARAT_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("BACCARAT_TEST_POSTGRES is not set")
	}
	schema := fmt.Sprintf("bt_%016x", rand.Uint64())
	admin, err := pgx.Connect(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = schema
	db, err := postgres.OpenConfig(t.Context(), cfg, 3) // small: parallel tests share max_connections
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, cfg
}

// needPostgres skips the whole test, once, when no server is configured.
func needPostgres(t *testing.T) {
	if os.Getenv("BACCARAT_TEST_POSTGRES") == "" {
		t.Skip("BACCARAT_TEST_POSTGRES is not set")
	}
}

func TestLedgerConformance(t *testing.T) {
	needPostgres(t)
	ledgertest.Run(t, func(t *testing.T) ledger.Store { return open(t) })
}

func TestJournalConformance(t *testing.T) {
	needPostgres(t)
	journaltest.Run(t, func(t *testing.T) journal.Store { return open(t) })
}

func TestCommitterConformance(t *testing.T) {
	needPostgres(t)
	journaltest.RunCommitter(t, func(t *testing.T) journaltest.CommitStore { return open(t) })
}

// BenchmarkCommitWagers: committed wagers per second by group-commit size, durable as the
// server's synchronous_commit setting makes them (on by default). Run with:
// BACCARAT_TEST_POSTGRES=… go test -run '^$' -bench CommitWagers ./postgres/
func BenchmarkCommitWagers(b *testing.B) {
	journaltest.BenchCommitWagers(b, func(b *testing.B) journaltest.CommitStore { return open(b) })
}

func TestRequestConformance(t *testing.T) {
	needPostgres(t)
	journaltest.RunRequests(t, func(t *testing.T) journaltest.RequestStore { return open(t) })
}

func TestAccessConformance(t *testing.T) {
	needPostgres(t)
	accesstest.Run(t, func(t *testing.T) access.Store { return open(t) })
}

// TestOpenTakesPoolSizeFromConnectionString: pool_max_conns in the connection string sets
// the pool (and is not sent to the server, which would refuse it); without it the pool has
// DefaultMaxConns.
func TestOpenTakesPoolSizeFromConnectionString(t *testing.T) {
	needPostgres(t)
	_, cfg := openSchema(t) // a schema of the test's own, migrated
	base := os.Getenv("BACCARAT_TEST_POSTGRES")
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	for _, tc := range []struct {
		query string
		want  int
	}{
		{"", postgres.DefaultMaxConns},
		{"pool_max_conns=3", 3},
	} {
		dsn := base + sep + "search_path=" + cfg.RuntimeParams["search_path"]
		if tc.query != "" {
			dsn += "&" + tc.query
		}
		db, err := postgres.Open(t.Context(), dsn)
		if err != nil {
			t.Fatalf("%q: %v", tc.query, err)
		}
		if _, err := db.Tables(t.Context()); err != nil {
			t.Fatalf("%q: %v", tc.query, err)
		}
		if got := db.MaxConns(); got != tc.want {
			t.Errorf("%q: a pool of %d, want %d", tc.query, got, tc.want)
		}
		db.Close()
	}
}

// A commit refused after its transaction opened (here a journal conflict, found once the
// heads are read and locked) changes nothing and leaves the connection clean: the next
// commit, on the same and only connection, goes through.
func TestARefusedCommitChangesNothingAndTheNextGoesThrough(t *testing.T) {
	needPostgres(t)
	_, cfg := openSchema(t)
	db, err := postgres.OpenConfig(t.Context(), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := t.Context()
	at := time.Unix(1_800_000_000, 0).UTC()
	first := journal.Seal(journal.Head{}, journal.Record{Table: "t1", Seq: 1, Type: "spec", Data: []byte(`{}`), At: at})
	if err := db.Commit(ctx, journal.Batch{Records: []journal.Record{first}}); err != nil {
		t.Fatal(err)
	}
	again := journal.Seal(journal.Head{}, journal.Record{Table: "t1", Seq: 1, Type: "spec", Data: []byte(`{"x":1}`), At: at})
	if err := db.Commit(ctx, journal.Batch{Records: []journal.Record{again}}); baccarat.ErrorCode(err) != baccarat.CodeConflict {
		t.Fatalf("a second record 1: %v, want a conflict", err)
	}
	second := journal.Seal(first.Head(), journal.Record{Table: "t1", Seq: 2, Type: "note", Data: []byte(`{}`), At: at})
	if err := db.Commit(ctx, journal.Batch{Records: []journal.Record{second}}); err != nil {
		t.Fatal(err)
	}
	recs, err := db.Load(ctx, "t1", 1)
	if err != nil || len(recs) != 2 || string(recs[0].Data) != `{}` {
		t.Fatalf("the journal after: %+v %v", recs, err)
	}
}
