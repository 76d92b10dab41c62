package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tablehouse/baccarat/sqlite"
)

func init() {
	register(&command{
		name:    "backup",
		summary: "copy an SQLite database consistently, even while a server uses it",
		usage: `Usage: baccarat backup [--db ./baccarat.db] --to FILE|DIR [--force]

Writes a consistent copy of a baccarat SQLite database: the database exactly as it was at
one moment, every table's journal whole and the books balanced, never half of a round. It
may run while 'baccarat serve' is using the file: like 'verify' it opens the database
read-only and takes no lock, so the server goes on taking wagers; the copy is SQLite's
VACUUM INTO on one read transaction, which under WAL sees a single snapshot and neither
waits for the server's writes nor holds them up.

The copy is written under a temporary name beside the target, fsynced, checked (it opens
as a baccarat database of a schema this program reads, and SQLite's quick_check passes)
and only then given its name, so a backup that fails or is stopped leaves nothing under
that name. An existing file is never replaced unless --force. --to naming a directory
writes baccarat-<UTC time>.db in it. It prints what it wrote: the size, the schema
version, the journals (tables and tournaments), their records and the newest one's time.
Exit 0 when the copy is written and checked; 1 otherwise.

  baccarat backup --db /data/baccarat.db --to /backups/             # a timestamped file
  baccarat backup --db /data/baccarat.db --to /backups/today.db --force
  podman exec baccarat /baccarat backup --db /data/baccarat.db --to /data/backups/
  baccarat verify --db /backups/today.db                            # audit the copy

Restoring a copy (README, "Deploying"): stop the server; move baccarat.db and its
baccarat.db-wal and baccarat.db-shm aside (a WAL left by a crash belongs to the old file
and must not meet the copy); put the copy in place as baccarat.db; start the server. It
resumes every table from the copy's journals. Keep baccarat.db.secret (the token key, not
copied here; keep it with your secrets) and players' tokens stay valid.

A PostgreSQL --db is not copied by this command: it prints the pg_dump and pg_restore
commands to use (the password never on their command line) and exits 1, as it wrote
nothing.
`,
		run: runBackup,
	})
}

func runBackup(ctx context.Context, e *env, args []string) int {
	c := commands["backup"]
	fs := newFlags(e, c)
	dsn := fs.String("db", defaultDB, "the SQLite file to copy (a postgres:// URL prints the pg_dump command)")
	to := fs.String("to", "", "the copy's file name, or a directory to write baccarat-<UTC time>.db in")
	force := fs.Bool("force", false, "replace an existing file")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	now := time.Now().UTC()
	if isPostgres(*dsn) {
		printPgDump(e, *dsn, *to, now)
		fmt.Fprintln(e.stderr, "baccarat backup: a PostgreSQL database is backed up with pg_dump (above): nothing was written")
		return 1
	}
	if *to == "" {
		fmt.Fprintln(e.stderr, "baccarat backup: give --to FILE (or a directory): where to write the copy")
		return 2
	}
	src := strings.TrimPrefix(*dsn, "sqlite:")
	dst := backupName(*to, now)
	start := time.Now()
	sum, err := sqlite.Backup(ctx, src, dst, *force)
	if err != nil {
		return fail(e, c.name, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s: %s, schema version %d, in %s\n", dst, sizeOf(sum.Bytes), sum.Schema, time.Since(start).Round(time.Millisecond))
	last := "none yet"
	if !sum.Last.IsZero() {
		last = "the newest at " + sum.Last.Format(time.RFC3339Nano)
	}
	fmt.Fprintf(e.stdout, "  %d journals (tables and tournaments), %d records, %s\n", sum.Journals, sum.Records, last)
	fmt.Fprintln(e.stdout, "  checked: it opens as a baccarat database and passes SQLite's quick_check")
	fmt.Fprintf(e.stdout, "restore: stop the server, move %s and its -wal and -shm files aside, put the copy in its place, start\n", src)
	return 0
}

// backupName is the copy's file name: to, or a timestamped name in to when it is a
// directory (or ends in a slash).
func backupName(to string, now time.Time) string {
	if fi, err := os.Stat(to); (err == nil && fi.IsDir()) || strings.HasSuffix(to, string(os.PathSeparator)) {
		return filepath.Join(to, "baccarat-"+now.Format("20060102T150405Z")+".db")
	}
	return to
}

// sizeOf is a file size for people: bytes, and KiB, MiB or GiB above 1024.
func sizeOf(n int64) string {
	f, units := float64(n), []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	u := -1
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	return fmt.Sprintf("%.1f %s (%d bytes)", f, units[u], n)
}

// libpqParams are the connection-URL parameters pg_dump (libpq) understands; the others in
// a --db URL are pgx's or ours (pool_max_conns, io_timeout), which libpq would refuse.
var libpqParams = map[string]bool{
	"sslmode": true, "sslcert": true, "sslkey": true, "sslrootcert": true, "sslcrl": true, "sslsni": true,
	"connect_timeout": true, "application_name": true, "target_session_attrs": true, "channel_binding": true,
	"gssencmode": true, "krbsrvname": true, "service": true, "passfile": true,
	"keepalives": true, "keepalives_idle": true, "keepalives_interval": true, "keepalives_count": true,
}

// printPgDump prints the pg_dump and pg_restore commands for the database dsn names:
// without its password (pg_dump reads PGPASSWORD or ~/.pgpass) and without the parameters
// libpq does not know; a search_path names the schema to dump.
func printPgDump(e *env, dsn, to string, now time.Time) {
	file := "baccarat-" + now.Format("20060102T150405Z") + ".dump"
	if to != "" {
		if fi, err := os.Stat(to); (err == nil && fi.IsDir()) || strings.HasSuffix(to, "/") {
			file = filepath.Join(to, file)
		} else {
			file = to
		}
	}
	u, err := url.Parse(dsn)
	if err != nil {
		fmt.Fprintf(e.stdout, "pg_dump --format=custom --file=%s DATABASE\n", shellQuote(file))
		return
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	q, keep := u.Query(), url.Values{}
	schema := q.Get("search_path")
	for k, v := range q {
		if libpqParams[k] {
			keep[k] = v
		}
	}
	u.RawQuery = keep.Encode()
	target := shellQuote(u.String())
	dump := "pg_dump --format=custom --file=" + shellQuote(file)
	if schema != "" {
		dump += " --schema=" + shellQuote(schema)
	}
	fmt.Fprintf(e.stdout, "Back up PostgreSQL with pg_dump (a consistent snapshot while the servers run; the password\n")
	fmt.Fprintf(e.stdout, "from PGPASSWORD or ~/.pgpass, never the command line):\n\n  %s %s\n\n", dump, target)
	fmt.Fprintf(e.stdout, "Restore into an empty database with every server stopped, then start them:\n\n")
	fmt.Fprintf(e.stdout, "  pg_restore --exit-on-error --single-transaction --no-owner --dbname=%s %s\n", target, shellQuote(file))
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%_+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
