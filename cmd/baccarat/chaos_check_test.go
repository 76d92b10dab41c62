package main

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/seamless/refwallet"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/verify"
)

// check compares the operator's books with ours and with the journals, and reports the
// run's figures.
func (c *chaos) check(began time.Time) {
	t := c.t
	ctx := context.Background()
	db := c.readDB()
	defer db.Close()
	calls := c.calls(db)
	rep, err := c.store.Report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byTx := map[string]journal.WalletCall{}
	for _, x := range calls {
		byTx[x.Tx] = x
	}
	op := map[string]refwallet.TxReport{}
	for _, x := range rep.Txs {
		if _, twice := op[x.Tx]; twice {
			t.Errorf("the operator recorded tx %s twice", x.Tx)
		}
		op[x.Tx] = x
		if _, ok := byTx[x.Tx]; !ok {
			t.Errorf("the operator has tx %s (%s) that our books do not", x.Tx, x.Kind)
		}
	}
	c.checkBalances(rep, calls, byTx)
	c.checkAcks(calls, op)
	settled := c.checkSettlements(db, op)
	for _, x := range calls {
		if x.State == journal.CallPending || x.State == journal.CallFailed {
			t.Errorf("left in the outbox: %s %s is %s (%s)", x.Kind, x.Tx, x.State, x.Error)
		}
	}
	v, err := verify.Database(ctx, db, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !v.OK() || len(v.Undelivered) > 0 {
		t.Errorf("verify: %q; undelivered %q", v.Problems, v.Undelivered)
	}
	kinds := map[string]int{}
	for _, x := range calls {
		kinds[string(x.Kind)+" "+string(x.State)]++
	}
	faults := map[string]int{}
	for _, x := range rep.Txs {
		if x.Error != "" {
			faults["refused "+x.Error]++
		}
	}
	var refusals []string
	c.refused.Range(func(k, v any) bool {
		refusals = append(refusals, k.(string)+"="+itoa(v.(interface{ Load() int64 }).Load()))
		return true
	})
	sort.Strings(refusals)
	t.Logf("chaos: %s, %d SIGKILLs; %d wager requests sent (%d retried), %d acknowledged, %d withdrawn, %d rounds voided, %d settlements checked; refused %s",
		time.Since(began).Round(time.Second), c.kills, c.sent.Load(), c.retried.Load(), len(c.acks), c.withdraw.Load(), c.voids.Load(),
		settled, strings.Join(refusals, " "))
	t.Logf("chaos: our wallet calls %v; the operator recorded %d txs, refusals %v", kinds, len(rep.Txs), faults)
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// checkBalances: every operator balance is its opening balance less the debits, plus the
// credits and rollbacks our books say happened.
func (c *chaos) checkBalances(rep *refwallet.Report, calls []journal.WalletCall, byTx map[string]journal.WalletCall) {
	want := map[string]baccarat.Money{}
	for _, p := range rep.Players {
		want[p.Player+"/"+p.Currency] = p.Opening
		if p.Opening != c.openings[p.Player+"/"+p.Currency] {
			c.t.Errorf("%s %s opened at %d", p.Player, p.Currency, p.Opening)
		}
	}
	for _, x := range calls {
		k := x.Player + "/" + x.Currency
		switch {
		case x.Kind == journal.CallDebit && x.State == journal.CallPlaced:
			want[k] -= x.Amount
		case x.Kind == journal.CallCredit && x.State == journal.CallDone:
			want[k] += x.Amount
		case x.Kind == journal.CallRollback && x.State == journal.CallDone && byTx[x.DebitTx].State == journal.CallPlaced:
			want[k] += x.Amount
		}
	}
	for _, p := range rep.Players {
		if got := want[p.Player+"/"+p.Currency]; got != p.Balance {
			c.t.Errorf("%s %s: the operator holds %d, our books say %d", p.Player, p.Currency, p.Balance, got)
		}
	}
}

// checkAcks: every acknowledged wager (or chip raising one) has exactly one placed debit of
// its stake, which the operator applied once; every other attempt at its request moved
// nothing in the end.
func (c *chaos) checkAcks(calls []journal.WalletCall, op map[string]refwallet.TxReport) {
	placed := map[string][]journal.WalletCall{} // by player/request
	byRequest := map[string][]journal.WalletCall{}
	closer := map[string]journal.WalletCall{}
	for _, x := range calls {
		switch {
		case x.Kind == journal.CallDebit && x.State == journal.CallPlaced:
			placed[x.Player+"/"+x.RequestID] = append(placed[x.Player+"/"+x.RequestID], x)
		case x.Closes():
			closer[x.DebitTx] = x
		}
		if x.Kind == journal.CallDebit {
			byRequest[x.Player+"/"+x.RequestID] = append(byRequest[x.Player+"/"+x.RequestID], x)
		}
	}
	for _, a := range c.acks {
		ds := placed[a.player+"/"+a.request]
		if len(ds) != 1 || ds[0].Amount != a.stake || ds[0].Table != a.table {
			c.t.Errorf("acknowledged wager %d at %s (%s, %d): placed debits %+v", a.wager, a.table, a.request, a.stake, ds)
			continue
		}
		if x := op[ds[0].Tx]; x.Moved != -a.stake {
			c.t.Errorf("acknowledged wager %d at %s: the operator moved %d for its debit %s", a.wager, a.table, x.Moved, ds[0].Tx)
		}
		var net baccarat.Money
		for _, d := range byRequest[a.player+"/"+a.request] {
			net += op[d.Tx].Moved
			if d.State != journal.CallPlaced {
				net += op[closer[d.Tx].Tx].Moved // a given-back attempt: its rollback undoes whatever it took
			}
		}
		if net != -a.stake {
			c.t.Errorf("request %s of %s: its debits moved %d in all, want %d", a.request, a.player, net, -a.stake)
		}
	}
}

// checkSettlements: every settled wager of every table's journal was credited exactly its
// return once (a void: rolled back once), as the operator applied it. It returns how many.
func (c *chaos) checkSettlements(db interface {
	Load(context.Context, string, uint64) ([]journal.Record, error)
}, op map[string]refwallet.TxReport) int {
	n := 0
	for _, spec := range chaosTables {
		recs, err := db.Load(context.Background(), spec.ID, 2)
		if err != nil {
			c.t.Fatal(err)
		}
		chips := map[uint64][]uint64{} // a wager's chips, by their wallet numbers (live.ChipWager)
		moved := func(kind journal.CallKind, cs []uint64) (sum baccarat.Money) {
			for _, cw := range cs {
				sum += op[live.CloseTx(kind, spec.ID, cw)].Moved
			}
			return sum
		}
		for _, r := range recs {
			var e table.Event
			if err := json.Unmarshal(r.Data, &e); err != nil {
				c.t.Fatal(err)
			}
			switch e.Type {
			case table.EvWagerRaised: // a chip debited on its own, closed with its wager
				chips[e.Wager.ID] = append(chips[e.Wager.ID], live.ChipWager(e.Seq))
				continue
			case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
			case table.EvWagerWithdrawn:
				for _, w := range e.Withdrawn() {
					n++
					x, ok := op[live.CloseTx(journal.CallRollback, spec.ID, w.ID)]
					back := x.Moved + moved(journal.CallRollback, chips[w.ID])
					if !ok || x.Error != "" || back != w.Stake {
						c.t.Errorf("%s wager %d withdrawn: the operator's rollbacks gave back %d of %d: %+v", spec.ID, w.ID, back, w.Stake, x)
					}
				}
				continue
			default:
				continue
			}
			for _, s := range e.Settlements {
				if s.Rides {
					continue
				}
				n++
				kind, amount := journal.CallCredit, s.Returned
				if e.Type == table.EvRoundVoided || s.Outcome == games.Void {
					kind, amount = journal.CallRollback, s.Stake
				}
				x, ok := op[live.CloseTx(kind, spec.ID, s.Wager)]
				got := x.Moved
				if kind == journal.CallRollback {
					got += moved(kind, chips[s.Wager]) // each chip's debit rolled back too
				} else if m := moved(kind, chips[s.Wager]); m != 0 {
					c.t.Errorf("%s wager %d: its chips were credited %d (the return is the total's)", spec.ID, s.Wager, m)
				}
				if !ok || x.Error != "" || got != amount || x.Kind != string(kind) {
					c.t.Errorf("%s wager %d (%s %d): the operator's %s moved %d: %+v", spec.ID, s.Wager, s.Outcome, s.Returned, kind, got, x)
				}
			}
		}
	}
	return n
}
