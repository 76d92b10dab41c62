package live

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

// Stakes is the port through which a table's wagers take players' money and give it back.
// It is two-phase, in the spirit of a pending transfer that is later posted or voided:
//
//   - Hold: before the table takes a wager, its stake is held where the money is. At the
//     operator's wallet the debit is made on the caller's goroutine (Submit), before the
//     table sees the wager; on the table's goroutine Hold says what the wager may stake.
//   - Settle: the commit that takes a wager, and every later one that withdraws, voids or
//     settles it, carries what it moves (Settle adds that to the batch): postings in the
//     platform's books, or the debits placed and the credits and rollbacks owed to the
//     operator's wallet, sent by the deliverer once durable.
//   - Void: a stake held for a wager the table refused, or whose batch did not commit, goes
//     back.
//
// A table's stakes are chosen once, by the wallet of its spec (stakesFor): the platform's
// own books (bookStakes) or the operator's wallet (operatorStakes). The runner and the host
// ask nothing else about where a table's money is; the adapters turn what their wallet
// answers into the platform's codes.
type Stakes interface {
	// Submit sends a command to the table through the wallet, on the caller's goroutine,
	// and answers as the table did (or as the wallet refused).
	Submit(ctx context.Context, r *runner, cmd table.Command) (*Result, error)
	// Hold is what a wager may stake, on the table's goroutine; held reports a hold taken,
	// which the commit posts or Void gives back.
	Hold(ctx context.Context, r *runner, wallet string, p *table.Place) (available baccarat.Money, held bool, err error)
	// Void gives back a hold that will not be committed.
	Void(wallet string, stake baccarat.Money)
	// CheckWithdraw refuses a withdrawal the wallet cannot give back as asked.
	CheckWithdraw(r *runner, w *table.Withdraw) error
	// Settle adds what a command's committed events move to the batch.
	Settle(r *runner, cmd table.Command, evs []table.Event, txs []ledger.Transaction, wb *walletBatch, now time.Time) []ledger.Transaction
	// Balance is a player's money for this table now.
	Balance(ctx context.Context, r *runner, player string) (baccarat.Money, error)
	// Answers reports whether the table's answer to a command carries the player's balance
	// from the books (the operator's wallet tells its own, with its debit's answer).
	Answers() bool
}

// stakesFor is the stakes port of a table by its spec.
func (h *Host) stakesFor(spec *Spec) Stakes {
	if spec.seamless() {
		return operatorStakes{h}
	}
	return bookStakes{h}
}

// askTable sends a command to the table and answers as it did.
func askTable(ctx context.Context, r *runner, cmd table.Command) (*Result, error) {
	return r.submit(ctx, cmd)
}

// bookStakes keeps a table's money in the platform's own double-entry books: a wager's stake
// is held in the bank (bank.go) until its batch commits, and moves wallet → in play in that
// commit and back with the winnings at settlement (postings.go).
type bookStakes struct{ h *Host }

func (s bookStakes) Submit(ctx context.Context, r *runner, cmd table.Command) (*Result, error) {
	if p, ok := cmd.(*table.Place); ok {
		// Read the wallet now, on the caller's goroutine, if this host has not: the table's
		// one goroutine would otherwise wait on the database for each player new to the host,
		// one after another (in a cluster, every player after another server moved their
		// money). An error here is the table's to report, when it reads the wallet again.
		_, _ = s.h.bank.load(ctx, ledger.Wallet(placer(p), r.spec.Currency))
	}
	return askTable(ctx, r, cmd)
}

func (s bookStakes) Hold(ctx context.Context, _ *runner, wallet string, p *table.Place) (baccarat.Money, bool, error) {
	return s.h.bank.hold(ctx, wallet, p.Stake)
}

func (s bookStakes) Void(wallet string, stake baccarat.Money) { s.h.bank.release(wallet, stake) }

func (bookStakes) CheckWithdraw(*runner, *table.Withdraw) error { return nil }

func (bookStakes) Settle(r *runner, _ table.Command, evs []table.Event, txs []ledger.Transaction, _ *walletBatch, _ time.Time) []ledger.Transaction {
	return append(txs, Postings(r.spec.ID, r.spec.Currency, evs)...)
}

func (s bookStakes) Balance(ctx context.Context, r *runner, player string) (baccarat.Money, error) {
	return s.h.bank.available(ctx, ledger.Wallet(player, r.spec.Currency))
}

func (bookStakes) Answers() bool { return true }

// operatorStakes keeps no money: the operator's wallet holds it (wallet.go, seamless.go). A
// wager's stake is debited at the operator before the table takes it; the commit marks the
// debit placed, and the settlement's commit writes the credits and rollbacks that close it
// to an outbox that the deliverer sends until answered (deliver.go).
type operatorStakes struct{ h *Host }

func (s operatorStakes) Submit(ctx context.Context, r *runner, cmd table.Command) (*Result, error) {
	switch c := cmd.(type) {
	case *table.Place:
		return s.h.placeSeamless(ctx, r, c)
	case *table.Withdraw:
		return s.h.withdrawSeamless(ctx, r, c)
	}
	return askTable(ctx, r, cmd)
}

// Hold: what the operator answered to the wager's debit (nothing is held here).
func (s operatorStakes) Hold(_ context.Context, r *runner, _ string, p *table.Place) (baccarat.Money, bool, error) {
	ap, ok := s.h.approved.get(approvalKey(r.spec.ID, placer(p), p.RequestID))
	if !ok {
		return 0, false, errNotDebited
	}
	return ap.balance + p.Stake, false, nil
}

// Void: nothing is held here; a debit whose wager the table refused is given back by the
// caller that made it (placeSeamless).
func (operatorStakes) Void(string, baccarat.Money) {}

func (operatorStakes) CheckWithdraw(r *runner, w *table.Withdraw) error {
	if w.Stake > 0 {
		return r.checkTakeBack(w)
	}
	return nil
}

func (operatorStakes) Settle(r *runner, cmd table.Command, evs []table.Event, txs []ledger.Transaction, wb *walletBatch, now time.Time) []ledger.Transaction {
	r.walletCalls(cmd, evs, wb, now)
	return txs
}

func (s operatorStakes) Balance(ctx context.Context, r *runner, player string) (baccarat.Money, error) {
	return s.h.operatorBalance(ctx, player, r.spec.Currency)
}

func (operatorStakes) Answers() bool { return false }
