package live

// When a batch cannot be committed: every request in it answered, the table rebuilt from
// its journal, and what was refused after the fact voided.

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

// recoverFrom handles a failed commit: nothing of the batch is durable, so the table goes
// back to its journal and the commands are tried again one at a time. A command that still
// cannot be committed on its own is refused; if it would have settled the round, the round
// is voided for a technical failure and every stake returned, so that the table goes on
// rather than trying the same settlement for ever.
func (r *runner) recoverFrom(batch []request, staged []staged, holds []Held, txs []ledger.Transaction, err error) {
	for _, h := range holds {
		r.stakes.Void(h.Wallet, h.Stake)
	}
	var wallets []string
	for _, tx := range txs {
		for _, p := range tx.Postings {
			wallets = append(wallets, p.Account)
		}
	}
	r.h.bank.forget(wallets...)
	if isCode(err, baccarat.CodeLeaseLost) {
		// Another server holds the table: this one stops at once, answers nothing as done,
		// and never writes it again (the run loop returns).
		r.h.opt.Logger.Error("lease lost: stopping the table without writing", "table", r.spec.ID, "err", err)
		r.lease.lost = true
		answerAll(batch, err)
		return
	}
	if !r.reload() || isCode(err, baccarat.CodeUnavailable) {
		// The store is out of reach: every command of the batch is refused (503, nothing
		// done) and the table waits for the store, as it is, rather than voiding anything.
		r.h.opt.Logger.Error("the store is out of reach: the table waits for it", "table", r.spec.ID, "err", err)
		answerAll(batch, err)
		return
	}
	if isCode(err, baccarat.CodeConflict) || len(batch) == 1 {
		if isCode(err, baccarat.CodeConflict) {
			r.h.opt.Logger.Error("journal conflict: another server writes this table", "table", r.spec.ID)
		}
		answerAll(batch, err)
		if len(batch) == 1 && !isCode(err, baccarat.CodeConflict) && r.h.ctx.Err() == nil {
			r.voidRefused(staged[0].events, err)
		}
		return
	}
	for _, req := range batch {
		r.process([]request{req})
	}
}

// reload rebuilds the table from its journal after a failed commit; false (the table stays
// stale) when the store cannot be read.
func (r *runner) reload() bool {
	reloaded, err := r.h.load(r.h.ctx, r.spec.ID)
	if err != nil {
		r.stale = true
		r.h.opt.Logger.Error("reloading table after a failed commit", "table", r.spec.ID, "err", err)
		return false
	}
	r.t, r.head, r.stale = reloaded.t, reloaded.head, false
	r.rebuildBoard()
	return true
}

// answerAll refuses every request of a batch with err.
func answerAll(batch []request, err error) {
	for _, req := range batch {
		req.refuse(err)
	}
}

// errUnavailable answers a command while the table cannot be rebuilt from its journal.
var errUnavailable = baccarat.Errorf(baccarat.CodeUnavailable, "the table's storage is out of reach: nothing was done; try again in a moment")

// voidRefused voids the round whose settlement the store refused to commit (SPEC §4,
// technical_failure). A refused void is not voided again: the table waits for the store.
func (r *runner) voidRefused(events []table.Event, err error) {
	settles := false
	for i := range events {
		switch events[i].Type {
		case table.EvRoundSettled, table.EvSessionSettled:
			settles = true
		case table.EvRoundVoided:
			r.h.opt.Logger.Error("the store refused to commit a void: the table waits for it", "table", r.spec.ID, "round", events[i].Round, "err", err)
			return
		}
	}
	if _, ok := asRefusal(err); ok {
		return // a wager the player's limits do not allow (another server's commit got there first)
	}
	r.h.opt.Logger.Error("the store refused to commit a command", "table", r.spec.ID, "round", r.t.Round(), "settles", settles, "err", err)
	if !settles {
		return
	}
	void := &table.Void{Header: table.Header{Role: table.RoleSystem, Actor: "recovery", Reason: "technical_failure"}}
	r.h.opt.Logger.Error("voiding the round the store refused to settle; every stake is returned", "table", r.spec.ID, "round", r.t.Round())
	r.process([]request{&commandReq{cmd: void}})
}
