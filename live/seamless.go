package live

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/seamless"
	"github.com/tablehouse/baccarat/table"
)

// A wager at a seamless table (wallet.go): the debit is written to our books, sent to the
// operator, and only once it is answered does the wager go to the table. The table's
// commit marks the debit placed (journal.PlacedDebit); a debit that is refused took nothing;
// one without an answer, or whose wager the table refuses, is given back (its rollback goes
// to the outbox, and is retried until answered).

// approval is a debit the operator answered, waiting for its wager to reach the table.
type approval struct {
	tx      string
	balance baccarat.Money // after the debit
}

// approvals are the debits answered and on their way to their tables, by table, player and
// request id. The runner takes a seamless wager only with one: the stake is the operator's.
type approvals struct {
	mu sync.Mutex
	m  map[string]approval
}

func approvalKey(tableID, player, requestID string) string {
	return tableID + "\x00" + player + "\x00" + requestID
}

func (a *approvals) put(key string, ap approval) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]approval{}
	}
	a.m[key] = ap
}

func (a *approvals) get(key string) (approval, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ap, ok := a.m[key]
	return ap, ok
}

func (a *approvals) drop(key string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.m, key)
}

// runnerMoney is what other goroutines may read of a runner: its round and last event, for
// the debits of wagers on their way and the balance messages of the deliverer; and whether
// the pit stopped it, for a watcher that judges whether it still moves (Progress).
type runnerMoney struct {
	round   atomic.Uint64
	seq     atomic.Uint64
	open    atomic.Bool // betting is open: a wager may be taken
	stopped atomic.Bool // paused or closed between rounds (table.Status.Stopped)
}

func (m *runnerMoney) note(t *table.Table) {
	st := t.Status()
	m.round.Store(st.Round)
	m.seq.Store(t.Seq())
	m.open.Store(st.BetOpen && !st.Interrupted)
	m.stopped.Store(st.Stopped())
}

var errNotDebited = baccarat.Errorf(baccarat.CodeWalletUnavailable,
	"this table's stakes are taken by the operator's wallet, and this wager's was not: place it again")

// placeSeamless places a wager at a seamless table: debit, then the table.
func (h *Host) placeSeamless(ctx context.Context, t StakeTable, p *table.Place) (*Result, error) {
	if p.Stake < 1 {
		return nil, baccarat.Errorf(baccarat.CodeBelowMinimum, "a stake of %d: a wager stakes something", p.Stake)
	}
	if p.Stake > baccarat.MaxAmount {
		return nil, baccarat.Errorf(baccarat.CodeAboveMaximum, "a stake of %d is over what one wager may move", p.Stake)
	}
	if !t.Betting() {
		// The table would refuse it (SPEC §4): no call to the operator for a wager that
		// cannot be placed. The table has the last word when betting is open.
		return nil, baccarat.Errorf(baccarat.CodeBettingClosed, "no more bets: betting is closed")
	}
	cp := *p // the caller's command stays as it was sent
	if cp.RequestID == "" {
		cp.RequestID = uuid.NewString()
	}
	player := placer(&cp)
	d := journal.WalletCall{Tx: DebitTx(player, cp.RequestID), Player: player, Currency: string(t.Currency()),
		Amount: cp.Stake, Table: t.ID(), Round: max(t.Round(), 1), RequestID: cp.RequestID,
		Digest: requestDigest(t.ID(), &cp)}
	ap, err := h.debit(ctx, d, stakeName)
	if err != nil {
		return nil, err
	}
	key := approvalKey(t.ID(), player, cp.RequestID)
	h.approved.put(key, ap)
	defer h.approved.drop(key)
	res, err := t.Ask(ctx, &cp)
	switch {
	case err == nil:
		if !placedIn(res) {
			h.releaseUnplaced(ap.tx) // the table already had this request's wager
		}
		res.Balance, res.HasBalance = ap.balance, true
		return res, nil
	case errors.Is(err, errStopped) || ctx.Err() != nil:
		// The wager may yet be committed: the debit stays pending; if its wager is not placed
		// within Outbox.StaleDebit it is given back.
		return nil, err
	}
	if cerr := h.cancelDebit(context.WithoutCancel(ctx), ap.tx); cerr != nil {
		h.opt.Logger.Error("giving back a debit", "tx", ap.tx, "err", cerr)
	}
	return nil, err
}

func placedIn(res *Result) bool {
	for i := range res.Events {
		if t := res.Events[i].Type; t == table.EvWagerPlaced || t == table.EvWagerRaised {
			return true
		}
	}
	return false
}

// releaseUnplaced gives back a debit that may not have paid for a wager: if it is still
// pending (another try of the request placed the wager with it, it is placed), it is.
func (h *Host) releaseUnplaced(tx string) {
	if err := h.cancelDebit(h.ctx, tx); err != nil {
		h.opt.Logger.Error("giving back a debit", "tx", tx, "err", err)
	}
}

// debit writes a debit (or finds the request's), sends it and reads the answer: an
// approval, or an error that took nothing (an unanswered debit is given back first); what
// names the payment in the error.
func (h *Host) debit(ctx context.Context, c journal.WalletCall, what string) (approval, error) {
	calls, err := h.calls()
	if err != nil {
		return approval{}, err
	}
	if h.opt.Operator == nil {
		return approval{}, baccarat.Errorf(baccarat.CodeWalletUnavailable, "this server is not connected to the operator's wallet (serve --wallet seamless)")
	}
	c.Created = h.opt.Clock.Now()
	d, _, err := calls.BeginDebit(ctx, c)
	if err != nil {
		return approval{}, err
	}
	ans, err := h.opt.Operator.Debit(ctx, seamless.DebitRequest{Tx: d.Tx, Player: d.Player, Currency: d.Currency,
		Amount: d.Amount, Table: d.Table, Round: d.Round, Wager: d.Wager})
	if err == nil {
		return approval{tx: d.Tx, balance: ans.Balance}, nil
	}
	var re *seamless.RefusedError
	if seamless.Definite(err, h.signedRefusals()) && !(errors.As(err, &re) && re.Code == seamless.CodeRolledBack) {
		// A definite no (seamless.Definite: a signed refusal the operator would give again):
		// nothing moved. The request's next try is a new attempt. Anything else (a 429, a 5xx,
		// no answer) may have taken the money and is rolled back below.
		u := journal.CallUpdate{State: journal.CallFailed, Error: refusalText(err), At: h.opt.Clock.Now()}
		if _, uerr := calls.UpdateCall(context.WithoutCancel(ctx), d.Tx, []journal.CallState{journal.CallPending}, u); uerr != nil {
			h.opt.Logger.Error("recording a refused debit", "tx", d.Tx, "err", uerr)
		}
		return approval{}, walletError(err, what, c.Amount, c.Currency)
	}
	// No answer to trust (or a debit our own rollback closed first): give it back.
	h.opt.Logger.Warn("debit without an answer: giving it back", "tx", d.Tx, "err", err)
	if cerr := h.cancelDebit(context.WithoutCancel(ctx), d.Tx); cerr != nil {
		h.opt.Logger.Error("giving back a debit", "tx", d.Tx, "err", cerr)
	}
	return approval{}, walletError(err, what, c.Amount, c.Currency)
}

func refusalText(err error) string {
	var ie *seamless.InsufficientFundsError
	var re *seamless.RefusedError
	switch {
	case errors.As(err, &ie):
		return string(seamless.CodeInsufficientFunds) + ": balance " + strconv.FormatInt(int64(ie.Balance), 10)
	case errors.As(err, &re):
		return string(re.Code) + ": " + baccarat.Truncate(re.Message, 200)
	}
	return baccarat.Truncate(err.Error(), 200)
}

// cancelDebit gives back a debit that is still pending: it becomes cancelled and its
// rollback is queued for delivery. A debit placed (or given back already) stays as it is.
func (h *Host) cancelDebit(ctx context.Context, tx string) error {
	calls, err := h.calls()
	if err != nil {
		return err
	}
	ok, err := calls.CancelDebit(ctx, tx, CancelTx(tx), h.opt.Clock.Now())
	if ok {
		h.kickDelivery()
	}
	return err
}

// operatorBalance asks the operator's wallet.
func (h *Host) operatorBalance(ctx context.Context, player string, cur ledger.Currency) (baccarat.Money, error) {
	if h.opt.Operator == nil {
		return 0, baccarat.Errorf(baccarat.CodeWalletUnavailable, "this server is not connected to the operator's wallet")
	}
	ans, err := h.opt.Operator.Balance(ctx, seamless.BalanceRequest{Player: player, Currency: string(cur)})
	if err == nil {
		return ans.Balance, nil
	}
	var re *seamless.RefusedError
	if errors.As(err, &re) && re.Code == seamless.CodeUnknownPlayer {
		return 0, baccarat.Errorf(baccarat.CodeNotFound, "the operator has no %s wallet for %s", cur, player)
	}
	return 0, baccarat.Errorf(baccarat.CodeWalletUnavailable, "the operator's wallet did not answer: try again")
}

// withdrawSeamless submits a withdrawal at a seamless table and delivers its rollbacks at
// once (the deliverer retries any that fail), so the answer carries the balance with the
// stakes back.
func (h *Host) withdrawSeamless(ctx context.Context, t StakeTable, cmd table.Command) (*Result, error) {
	res, err := t.Ask(ctx, cmd)
	if err != nil {
		return res, err
	}
	for _, e := range res.Events {
		for _, w := range e.Withdrawn() {
			if bal, ok := h.deliverNow(ctx, CloseTx(journal.CallRollback, t.ID(), w.ID)); ok {
				res.Balance, res.HasBalance = bal, true
			}
		}
	}
	return res, nil
}
