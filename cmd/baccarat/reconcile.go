package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/user"
	"sort"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/verify"
	"github.com/tablehouse/baccarat/web"
)

func init() {
	register(&command{
		name:    "reconcile",
		summary: "the calls to the operator's wallet in a period, their totals, and anything undelivered",
		usage: `Usage: baccarat reconcile [--db DSN] [--from TIME] [--to TIME] [--json]
       baccarat reconcile [--db DSN] --resend TX [--reason TEXT] [--by NAME] [--json]
       baccarat reconcile [--db DSN] --settle TX --reason TEXT [--by NAME] [--json]

Lists what our books say passed between the platform and the operator's seamless wallet:
every call written in the period (debits of stakes, credits of returns, rollbacks of voids,
withdrawals and debits given back), one a line, with its state; totals per currency (debited
for wagers placed, credited, rolled back, given back, still outstanding, and the net paid to
players); and every call not yet settled, whenever it was written: credits and rollbacks the
operator has not answered yet (the server keeps sending them) and those it refused (they need
a person). Each tournament on the operator's wallet with calls in the period is checked whole
against its journal: what its players paid, were refunded and won, beside what was debited,
rolled back and credited, and any way the two disagree. Lay it beside the operator's own report.

It opens the database read-only (it may run beside a server); a PostgreSQL server it cannot
reach is reported as a connection failure naming the address (exit 1). --from and --to take
RFC 3339 times (2026-11-22T10:00:00Z) or dates (2026-11-22: from its start; as --to, to its
end); by default the last 24 hours.

A credit or rollback the operator refused for good (listed as REFUSED) is money still
owed to a player, and waits for an admin to do one of two things, each recorded with the
call (who: --by, by default cli:<your user name>; when; why: --reason), and shown by this
report (resolved) and by verify:

  --resend TX   send it again, under a new tx id (the operator answers a refused tx id
                with its refusal for ever); the refused call is never sent again, and the
                player cannot be paid twice: the operator closes a debit once. A running
                server sends it within a second.
  --settle TX   close it as settled by hand (the operator paid the player, or gave the
                stake back, some other way), with --reason; it is never sent again.

These write to the database: a SQLite file must not be in use by a server (stop it, or use
POST /api/admin/reconciliation/calls/{tx}/resend and …/settle on the running server); a
PostgreSQL database may be.

  baccarat reconcile --db ./baccarat.db --from 2026-11-01 --to 2026-11-30
  baccarat reconcile --db postgres://… --json > november.json
  baccarat reconcile --db postgres://… --resend c1f0… --reason "the operator unlocked the account"
  baccarat reconcile --db postgres://… --settle c1f0… --reason "paid by bank transfer, ticket 4411"
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
	var act resolveFlags
	fs.StringVar(&act.resend, "resend", "", "send the refused call `TX` again, under a new tx id")
	fs.StringVar(&act.settle, "settle", "", "close the refused call `TX` as settled by hand (with --reason)")
	fs.StringVar(&act.reason, "reason", "", "why (required with --settle; at most 500 bytes)")
	fs.StringVar(&act.by, "by", "", "who does it, for the record (default cli:<user name>)")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if act.resend != "" || act.settle != "" || act.reason != "" || act.by != "" {
		return runResolve(ctx, e, *dsn, act, *asJSON)
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
	rep, err := verify.Reconcile(ctx, store, f, t)
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

func printReconciliation(w io.Writer, rep *verify.Reconciliation) {
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
		fmt.Fprintf(w, "%s: debited %s, credited %s, rolled back %s, given back %s, outstanding %s, refused %s, settled by hand %s; net to players %s\n",
			cur, m(t.Debited), m(t.Credited), m(t.RolledBack), m(t.GivenBack), m(t.Outstanding), m(t.Refused), m(t.SettledByHand), m(t.Net))
	}
	fmt.Fprintf(w, "undelivered (any time): %d\n", len(rep.Open))
	for _, c := range rep.Open {
		printCall(w, "  ", c)
	}
	if len(rep.Failed) > 0 {
		fmt.Fprintf(w, "REFUSED by the operator, owed to players (--resend TX, or --settle TX --reason …): %d\n", len(rep.Failed))
		for _, c := range rep.Failed {
			printCall(w, "  ", c)
		}
	}
	if len(rep.Resolved) > 0 {
		fmt.Fprintf(w, "resolved by an admin in the period: %d\n", len(rep.Resolved))
		for _, c := range rep.Resolved {
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
	if c.Replaces != "" {
		debit += ", resends " + c.Replaces
	}
	note := ""
	if c.Error != "" {
		note = " (" + c.Error + ")"
	}
	fmt.Fprintf(w, "%s%s %-8s %-9s %s %s %s table %s round %d wager %d%s, %d attempts%s%s\n", indent,
		c.Created.Format(time.RFC3339), c.Kind, c.State, c.Tx, c.Player, baccarat.FormatMoney(c.Amount, c.Currency),
		c.Table, c.Round, c.Wager, debit, c.Attempts, note, resolutionNote(c.Resolution))
}

// resolutionNote is an admin's action on a call, as the report prints it.
func resolutionNote(r *journal.Resolution) string {
	if r == nil {
		return ""
	}
	s := "; settled by hand"
	if r.Action == journal.ActionResend {
		s = "; resent as " + r.ResentAs
	}
	s += " by " + r.By + " at " + r.At.Format(time.RFC3339)
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	return s
}

// resolveFlags are an admin's action on a refused call.
type resolveFlags struct {
	resend, settle, reason, by string
}

// runResolve resends or settles a refused call (live.ResolveCall) and prints the outcome.
func runResolve(ctx context.Context, e *env, dsn string, act resolveFlags, asJSON bool) int {
	const name = "reconcile"
	r := journal.Resolution{Action: journal.ActionResend, By: act.by, At: time.Now(), Reason: act.reason}
	tx := act.resend
	switch {
	case act.resend != "" && act.settle != "":
		return usageError(e, name, baccarat.Errorf(baccarat.CodeBadRequest, "--resend or --settle: one call, one action"))
	case act.settle != "":
		r.Action, tx = journal.ActionSettle, act.settle
	case act.resend == "":
		return usageError(e, name, baccarat.Errorf(baccarat.CodeBadRequest, "--reason and --by go with --resend TX or --settle TX"))
	}
	if r.By == "" {
		r.By = cliUser()
	}
	if r.Action == journal.ActionSettle && r.Reason == "" {
		return usageError(e, name, baccarat.Errorf(baccarat.CodeBadRequest, "--settle needs --reason: how the operator paid the player"))
	}
	store, err := openStore(ctx, dsn)
	if err != nil {
		return fail(e, name, err)
	}
	defer store.Close()
	out, err := live.ResolveCall(ctx, store, tx, r)
	if err != nil {
		return fail(e, name, err)
	}
	if asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(out)
		return 0
	}
	printCall(e.stdout, "", out.Call)
	if out.Resent != nil {
		fmt.Fprintln(e.stdout, "sent again as:")
		printCall(e.stdout, "  ", *out.Resent)
	}
	return 0
}

// cliUser is who acts from the command line, for the record: cli:<the OS user's name>.
func cliUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "cli:" + u.Username
	}
	return "cli"
}
