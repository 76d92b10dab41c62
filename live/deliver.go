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
	"github.com/tablehouse/baccarat/wire"
)

// The deliverer sends the outbox (the credits and rollbacks written with settlements and
// give-backs) to the operator's wallet until each is answered. A credit or rollback is
// money owed to a player, so it ends in one of two ways only: answered (done), or refused
// for good by the operator's own, signed word (failed), which a person then resolves
// (resolve.go: resent under a new tx id, or settled by hand). Everything else is retried
// with the same tx id, for as long as it takes, across restarts (the outbox is in the
// database), the waits growing from MinBackoff to at most MaxBackoff (Outbox.Backoff, with
// jitter); meanwhile the call is listed as undelivered by the reconciliation and by
// verify, with its attempts and its last error, and logged at WARN on its 1st, 2nd, 4th,
// 8th … attempt. What counts as refused for good is seamless.Definite: a signed 4xx with
// a code the operator gives again to every retry of the tx (unknown_player, debit_closed,
// tx_conflict …); never an unsigned answer, a 408, 425 or 429, bad_signature, a 5xx, a
// timeout or an answer that does not decode. A refusal is known to be signed when the
// operator is a *seamless.Client (it turns an unsigned answer into no answer); any other
// Operator's refusals are retried. Each round of work first
// gives back the debits left pending too long (Outbox.StaleDebit): their wagers never
// reached a table.

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
// balance the operator answered with. The deliverer, woken by the same commit, may have sent
// it first: then the balance is the one its answer recorded.
func (h *Host) deliverNow(ctx context.Context, tx string) (baccarat.Money, bool) {
	calls, err := h.calls()
	if err != nil || h.opt.Operator == nil {
		return 0, false
	}
	c, err := calls.Call(ctx, tx)
	switch {
	case err != nil:
		return 0, false
	case c.State == journal.CallDone && c.Balance != nil:
		return *c.Balance, true
	case c.State != journal.CallPending:
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

// attempt sends one credit or rollback: answered, refused for good (failed: a person
// resends or settles it), or to be tried again after a backoff.
func (h *Host) attempt(ctx context.Context, c journal.WalletCall) delivered {
	ans, err := h.send(ctx, c)
	now := h.opt.Clock.Now()
	r := delivered{call: c, CallUpdate: journal.CallUpdate{AddAttempt: true, At: now}}
	switch {
	case err == nil:
		b := ans.Balance
		r.State, r.Balance, r.answered = journal.CallDone, &b, true
	case seamless.Definite(err, h.signedRefusals()):
		r.State, r.Error = journal.CallFailed, refusalText(err)
		h.opt.Logger.Error("the operator refused a "+string(c.Kind)+" for good: resend it or settle it by hand (baccarat reconcile --resend/--settle)",
			"tx", c.Tx, "debit_tx", c.DebitTx, "player", c.Player, "amount", c.Amount, "err", err)
	default:
		n := c.Attempts + 1
		r.Error, r.NextAt = retryText(err), now.Add(h.backoff(n))
		if n&(n-1) == 0 {
			h.opt.Logger.Warn("no answer to trust from the operator: the "+string(c.Kind)+" is sent again", "tx", c.Tx,
				"player", c.Player, "amount", c.Amount, "attempts", n, "next", r.NextAt, "err", err)
		}
	}
	return r
}

// signedRefusals reports whether a refusal the operator's client returns is known to carry
// the operator's signature: a *seamless.Client believes no unsigned answer (it returns one
// as *seamless.OutcomeUnknownError). Another Operator's refusals are not trusted.
func (h *Host) signedRefusals() bool {
	_, ok := h.opt.Operator.(*seamless.Client)
	return ok
}

// retryText is the error a call retried keeps: a refusal that does not stop it (not known
// to be signed, or one that asks to be asked again) says so.
func retryText(err error) string {
	var re *seamless.RefusedError
	if errors.As(err, &re) && re.Status != 0 {
		return baccarat.Truncate("not a definite refusal, sent again: "+refusalText(err)+" (status "+strconv.Itoa(re.Status)+")", 200)
	}
	return baccarat.Truncate(err.Error(), 200)
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

// backoff is the wait before the n-th retry (Outbox.Backoff), less up to a fifth at random
// so that calls that failed together are not retried together.
func (h *Host) backoff(n int) time.Duration {
	b := h.opt.Outbox.Backoff(n)
	return b - time.Duration(rand.Int64N(int64(b)/5+1))
}

// pushBalance tells a player's streams at a table their balance at the operator.
func (h *Host) pushBalance(tableID, player string, balance baccarat.Money) {
	r := h.local(tableID)
	if r == nil {
		return // not a table this host runs (a tournament's stream, or another server's)
	}
	seq := r.money.seq.Load()
	ds := []Delivery{{Seq: seq, Player: player, Data: wire.Balance(seq, balance)}}
	if c := h.opt.Cluster; c != nil {
		c.Publish(tableID, ds)
		return
	}
	r.hub.publishAll(ds)
}
