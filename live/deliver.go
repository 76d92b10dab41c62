package live

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/seamless"
)

// The deliverer sends the outbox (the credits and rollbacks written with settlements and
// give-backs) to the operator's wallet until each is answered: an unanswered call is tried
// again with the same tx id after a growing wait (MinBackoff doubling up to MaxBackoff,
// with jitter), across restarts, since the outbox is in the database. A call the operator
// refuses is marked failed and logged at ERROR: it needs a person (the reconciliation
// report lists it). Each round of work first gives back the debits left pending too long
// (Outbox.StaleDebit): their wagers never reached a table.

// startDelivery starts the deliverer of a seamless deployment.
func (h *Host) startDelivery() {
	if h.opt.Operator == nil {
		return
	}
	if _, err := h.calls(); err != nil {
		h.opt.Logger.Error("no deliverer for the operator's wallet", "err", err)
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.deliverLoop()
	}()
}

// kickDelivery wakes the deliverer: there is something to send now.
func (h *Host) kickDelivery() {
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

func (h *Host) deliverLoop() {
	d := h.opt.Outbox
	for {
		h.sweepDebits()
		for h.deliverDue() {
		}
		select {
		case <-h.ctx.Done():
			return
		case <-h.kick:
		case <-h.opt.Clock.After(d.Every):
		}
	}
}

// sweepDebits gives back the debits pending longer than StaleDebit.
func (h *Host) sweepDebits() {
	calls, _ := h.calls()
	now := h.opt.Clock.Now()
	stale, err := calls.Calls(h.ctx, journal.CallFilter{Kind: journal.CallDebit, StaleBefore: now.Add(-h.opt.Outbox.StaleDebit), Limit: 100})
	if err != nil {
		if h.ctx.Err() == nil {
			h.opt.Logger.Warn("looking for stale debits", "err", err)
		}
		return
	}
	for _, c := range stale {
		h.opt.Logger.Warn("giving back a debit whose wager was not placed", "tx", c.Tx, "player", c.Player, "table", c.Table, "since", c.Updated)
		if err := h.cancelDebit(h.ctx, c.Tx); err != nil && h.ctx.Err() == nil {
			h.opt.Logger.Error("giving back a debit", "tx", c.Tx, "err", err)
		}
	}
}

// deliverDue sends the calls due now, Workers at a time; it reports whether it found a
// full batch (there may be more).
func (h *Host) deliverDue() bool {
	calls, _ := h.calls()
	d := h.opt.Outbox
	now := h.opt.Clock.Now()
	batch := 4 * d.Workers
	due, err := calls.ClaimCalls(h.ctx, now, now.Add(d.Claim), batch)
	if err != nil {
		if h.ctx.Err() == nil {
			h.opt.Logger.Warn("reading the outbox", "err", err)
		}
		return false
	}
	results := make([]delivered, len(due))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(d.Workers, len(due)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = h.attempt(h.ctx, due[i])
			}
		}()
	}
	for i := range due {
		work <- i
	}
	close(work)
	wg.Wait()
	h.record(results...)
	return len(due) == batch && h.ctx.Err() == nil
}

// deliverNow sends one call of the outbox at once, if it is still pending, and returns the
// balance the operator answered with.
func (h *Host) deliverNow(ctx context.Context, tx string) (baccarat.Money, bool) {
	calls, err := h.calls()
	if err != nil || h.opt.Operator == nil {
		return 0, false
	}
	c, err := calls.Call(ctx, tx)
	if err != nil || c.State != journal.CallPending {
		return 0, false
	}
	return h.deliver(ctx, c)
}

// delivered is what came of sending one call.
type delivered struct {
	call journal.WalletCall
	journal.CallUpdate
	answered bool
}

// deliver sends one credit or rollback and records what came of it.
func (h *Host) deliver(ctx context.Context, c journal.WalletCall) (baccarat.Money, bool) {
	r := h.attempt(ctx, c)
	h.record(r)
	if !r.answered {
		return 0, false
	}
	return *r.Balance, true
}

// attempt sends one credit or rollback: answered, refused (failed: it needs a person), or
// to be tried again after a backoff.
func (h *Host) attempt(ctx context.Context, c journal.WalletCall) delivered {
	ans, err := h.send(ctx, c)
	now := h.opt.Clock.Now()
	r := delivered{call: c, CallUpdate: journal.CallUpdate{AddAttempt: true, At: now}}
	var re *seamless.RefusedError
	switch {
	case err == nil:
		b := ans.Balance
		r.State, r.Balance, r.answered = journal.CallDone, &b, true
	case errors.As(err, &re) && re.Status != 0:
		r.State, r.Error = journal.CallFailed, refusalText(err)
		h.opt.Logger.Error("the operator refused a "+string(c.Kind)+": it needs a person", "tx", c.Tx, "debit_tx", c.DebitTx,
			"player", c.Player, "amount", c.Amount, "err", err)
	default:
		r.Error, r.NextAt = truncate(err.Error(), 200), now.Add(h.backoff(c.Attempts+1))
	}
	return r
}

// record writes what came of a round of deliveries, in one transaction, and tells the
// players whose calls were answered their balance.
func (h *Host) record(rs ...delivered) {
	if len(rs) == 0 {
		return
	}
	calls, _ := h.calls()
	changes := make([]journal.CallChange, len(rs))
	for i, r := range rs {
		changes[i] = journal.CallChange{Tx: r.call.Tx, CallUpdate: r.CallUpdate}
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), 10*time.Second)
	defer cancel()
	if _, err := calls.UpdateCalls(ctx, changes); err != nil {
		h.opt.Logger.Warn("recording deliveries", "calls", len(rs), "err", err) // sent again later: the operator answers a repeat alike
	}
	for _, r := range rs {
		if r.answered {
			h.pushBalance(r.call.Table, r.call.Player, *r.Balance)
		}
	}
}

func (h *Host) send(ctx context.Context, c journal.WalletCall) (seamless.Answer, error) {
	switch c.Kind {
	case journal.CallCredit:
		return h.opt.Operator.Credit(ctx, seamless.CreditRequest{Tx: c.Tx, Player: c.Player, Currency: c.Currency, Amount: c.Amount,
			Table: c.Table, Round: c.Round, Wager: c.Wager, DebitTx: c.DebitTx})
	case journal.CallRollback:
		return h.opt.Operator.Rollback(ctx, seamless.RollbackRequest{Tx: c.Tx, Player: c.Player, Currency: c.Currency, Amount: c.Amount,
			Table: c.Table, Round: c.Round, Wager: c.Wager, DebitTx: c.DebitTx})
	}
	return seamless.Answer{}, &seamless.RefusedError{Code: seamless.CodeBadRequest, Message: "not a call the outbox sends: " + string(c.Kind)}
}

// backoff is the wait before the n-th retry: MinBackoff doubling, at most MaxBackoff, less
// up to a fifth at random so that calls that failed together are not retried together.
func (h *Host) backoff(n int) time.Duration {
	d := h.opt.Outbox
	b := d.MinBackoff
	for i := 1; i < n && b < d.MaxBackoff; i++ {
		b *= 2
	}
	b = min(b, d.MaxBackoff)
	return b - time.Duration(rand.Int64N(int64(b)/5+1))
}

// pushBalance tells a player's streams at a table their balance at the operator.
func (h *Host) pushBalance(tableID, player string, balance baccarat.Money) {
	r, err := h.runner(tableID)
	if err != nil {
		return // not a table this host runs (a tournament's stream, or another server's)
	}
	seq := r.money.seq.Load()
	b := append(strconv.AppendUint([]byte(`{"type":"balance","seq":`), seq, 10), `,"balance":`...)
	b = append(strconv.AppendInt(b, balance, 10), '}')
	ds := []Delivery{{Seq: seq, Player: player, Data: b}}
	if c := h.opt.Cluster; c != nil {
		c.Publish(tableID, ds)
		return
	}
	r.hub.publishAll(ds)
}
