package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/web"
)

func init() {
	register(&command{
		name:    "reconcile",
		summary: "the calls to the operator's wallet in a period, their totals, and anything undelivered",
		usage: `Usage: baccarat reconcile [--db DSN] [--from TIME] [--to TIME] [--json]

Lists what our books say passed between the platform and the operator's seamless wallet:
every call written in the period (debits of stakes, credits of returns, rollbacks of voids,
withdrawals and debits given back), one a line, with its state; totals per currency (debited
for wagers placed, credited, rolled back, given back, still outstanding, and the net paid to
players); and every call not yet settled, whenever it was written: credits and rollbacks the
operator has not answered yet (the server keeps sending them) and those it refused (they need
a person). Each tournament on the operator's wallet with calls in the period is checked whole
against its journal: what its players paid, were refunded and won, beside what was debited,
rolled back and credited, and any way the two disagree. Lay it beside the operator's own report.

It opens the database read-only (it may run beside a server). --from and --to take RFC 3339
times (2026-11-22T10:00:00Z) or dates (2026-11-22: from its start; as --to, to its end); by
default the last 24 hours.

  baccarat reconcile --db ./baccarat.db --from 2026-11-01 --to 2026-11-30
  baccarat reconcile --db postgres://… --json > november.json
`,
		run: runReconcile,
	})
}

func runReconcile(ctx context.Context, e *env, args []string) int {
	c := commands["reconcile"]
	fs := newFlags(e, c)
	dsn := fs.String("db", defaultDB, "SQLite file or postgres:// URL")
	from := fs.String("from", "", "start of the period: RFC 3339 time or date (default: a day before --to)")
	to := fs.String("to", "", "end of the period: RFC 3339 time or date (default: now)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	f, t, err := web.ParsePeriod(*from, *to, time.Now())
	if err != nil {
		return usageError(e, c.name, err)
	}
	store, err := openReadOnly(ctx, *dsn)
	if err != nil {
		return fail(e, c.name, err)
	}
	defer store.Close()
	rep, err := live.Reconcile(ctx, store, f, t)
	if err != nil {
		return fail(e, c.name, err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
		return 0
	}
	printReconciliation(e.stdout, rep)
	return 0
}

func printReconciliation(w io.Writer, rep *live.Reconciliation) {
	fmt.Fprintf(w, "wallet calls from %s to %s: %d\n", rep.From.Format(time.RFC3339), rep.To.Format(time.RFC3339), len(rep.Calls))
	for _, c := range rep.Calls {
		printCall(w, "  ", c)
	}
	curs := make([]string, 0, len(rep.Totals))
	for cur := range rep.Totals {
		curs = append(curs, cur)
	}
	sort.Strings(curs)
	for _, cur := range curs {
		t := rep.Totals[cur]
		m := func(v baccarat.Money) string { return baccarat.FormatMoney(v, cur) }
		fmt.Fprintf(w, "%s: debited %s, credited %s, rolled back %s, given back %s, outstanding %s; net to players %s\n",
			cur, m(t.Debited), m(t.Credited), m(t.RolledBack), m(t.GivenBack), m(t.Outstanding), m(t.Net))
	}
	fmt.Fprintf(w, "undelivered (any time): %d\n", len(rep.Open))
	for _, c := range rep.Open {
		printCall(w, "  ", c)
	}
	if len(rep.Failed) > 0 {
		fmt.Fprintf(w, "REFUSED by the operator (need a person): %d\n", len(rep.Failed))
		for _, c := range rep.Failed {
			printCall(w, "  ", c)
		}
	}
	for _, tc := range rep.Tournaments {
		m := func(v baccarat.Money) string { return baccarat.FormatMoney(v, tc.Currency) }
		fmt.Fprintf(w, "tournament %s (%s): by its journal players paid %s, were refunded %s, won %s; by the calls debited %s, rolled back %s, credited %s\n",
			tc.Tournament, tc.Phase, m(tc.Paid), m(tc.Refunded), m(tc.Prizes), m(tc.Debited), m(tc.RolledBack), m(tc.Credited))
		for _, p := range tc.Problems {
			fmt.Fprintf(w, "  PROBLEM: %s\n", p)
		}
	}
}

func printCall(w io.Writer, indent string, c journal.WalletCall) {
	debit := ""
	if c.DebitTx != "" {
		debit = " closes " + c.DebitTx
	}
	note := ""
	if c.Error != "" {
		note = " (" + c.Error + ")"
	}
	fmt.Fprintf(w, "%s%s %-8s %-9s %s %s %s table %s round %d wager %d%s, %d attempts%s\n", indent,
		c.Created.Format(time.RFC3339), c.Kind, c.State, c.Tx, c.Player, baccarat.FormatMoney(c.Amount, c.Currency),
		c.Table, c.Round, c.Wager, debit, c.Attempts, note)
}
