package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablehouse/baccarat/verify"
)

func init() {
	register(&command{
		name:    "verify",
		summary: "audit a database: hash chains, every round recomputed, the books",
		usage: `Usage: baccarat verify [--db DSN] [--json] [--allow-empty]

Checks a database written by 'baccarat serve' the way an auditor would. It opens the
database read-only (it changes nothing, and may run while a server uses it) and refuses
a file that is not a baccarat database. It checks:
  - every table's journal: each record carries the hash of the one before, so any edited
    byte is found;
  - every settled round recomputed from its cards and wagers with the game's pay table,
    every void returning every stake, every Dragon session from its streaks;
  - every table's in-play account against the stakes its journal says are in play;
  - the books: each currency sums to zero and every balance equals its postings;
  - with the operator's seamless wallet, our side of every call against the journals: every
    wager placed has one placed debit of its stake, every settled wager one credit of its
    return (a void or a withdrawal one rollback of its stake), no wager in play is closed,
    no debit pays for a wager no journal holds; calls the operator refused are problems,
    and calls not yet answered are listed as undelivered;
  - that no automatic table a server hosts has been stuck in one phase for longer than its
    schedule allows.
Prints what it checked and every problem; exits 1 if there is any problem, and when the
database holds no table at all (an empty or wrong file), unless --allow-empty. A PostgreSQL
server it cannot reach (refused, unknown host, a wrong password, no such database) is a
connection failure naming the address (never the password), not a database that is not
ours; exit 1.

  baccarat verify                                   # ./baccarat.db
  baccarat verify --db postgres://postgres@127.0.0.1/test
`,
		run: runVerify,
	})
}

func runVerify(ctx context.Context, e *env, args []string) int {
	c := commands["verify"]
	fs := newFlags(e, c)
	dsn := fs.String("db", defaultDB, "SQLite file or postgres:// URL")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	allowEmpty := fs.Bool("allow-empty", false, "accept a database that holds no table yet")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	store, err := openReadOnly(ctx, *dsn)
	if err != nil {
		return fail(e, c.name, err)
	}
	defer store.Close()
	rep, err := verify.Database(ctx, store, time.Now())
	if err != nil {
		return fail(e, c.name, err)
	}
	if rep.Tables == 0 && !*allowEmpty {
		rep.Problems = append(rep.Problems, "the database holds no table: is this the right file? (--allow-empty accepts it)")
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		fmt.Fprintf(e.stdout, "checked %d tables, %d journal records (hash chains)\n", rep.Tables, rep.Records)
		fmt.Fprintf(e.stdout, "recomputed %d settled rounds, %d voids, %d Dragon sessions: %d settlements\n", rep.Rounds, rep.Voids, rep.Sessions, rep.Wagers)
		fmt.Fprintf(e.stdout, "checked %d accounts: every currency sums to zero, every balance equals its postings\n", rep.Accounts)
		if rep.WalletCalls > 0 {
			fmt.Fprintf(e.stdout, "checked %d calls to the operator's wallet against the journals\n", rep.WalletCalls)
		}
		for _, u := range rep.Undelivered {
			fmt.Fprintf(e.stdout, "undelivered: %s\n", u)
		}
		for _, r := range rep.Resolved {
			fmt.Fprintf(e.stdout, "resolved: %s\n", r)
		}
		for _, p := range rep.Paused {
			fmt.Fprintf(e.stdout, "paused: %s\n", p)
		}
		for _, p := range rep.Problems {
			fmt.Fprintf(e.stdout, "PROBLEM: %s\n", p)
		}
		if rep.OK() {
			fmt.Fprintln(e.stdout, "OK: no problems")
		} else {
			fmt.Fprintf(e.stdout, "%d problems\n", len(rep.Problems))
		}
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

func isPostgres(dsn string) bool {
	return len(dsn) > 11 && (dsn[:11] == "postgres://" || (len(dsn) > 13 && dsn[:13] == "postgresql://"))
}
