package live

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
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
//     settles it, carries what it moves (Settle adds that to the batch's Moves): postings in
//     the platform's books, or the debits placed and the credits and rollbacks owed to the
//     operator's wallet, sent by the deliverer once durable (Committed wakes it).
//   - Void: a stake held for a wager the table refused, or whose batch did not commit, goes
//     back.
//
// A table's stakes are chosen once, by the wallet its spec names (Spec.Wallet): the
// platform's own books (bookStakes, "internal"), the operator's wallet (operatorStakes,
// "seamless"), or one more kind a deployment plugs in by name (Options.Wallets). The runner
// and the host ask nothing else about where a table's money is; an adapter turns what its
// wallet answers into the platform's codes. Every method but Submit and Balance runs on the
// table's goroutine.
type Stakes interface {
	// Submit sends a command to the table through the wallet, on the caller's goroutine,
	// and answers as the table did (StakeTable.Ask) or as the wallet refused.
	Submit(ctx context.Context, t StakeTable, cmd table.Command) (*Result, error)
	// Hold is what a wager may stake; held reports a hold taken, which the commit posts or
	// Void gives back.
	Hold(ctx context.Context, t StakeTable, wallet string, p *table.Place) (available baccarat.Money, held bool, err error)
	// Void gives back a hold that will not be committed.
	Void(wallet string, stake baccarat.Money)
	// CheckWithdraw refuses a withdrawal the wallet cannot give back as asked.
	CheckWithdraw(t StakeTable, w *table.Withdraw) error
	// Settle adds what a command's events move to the batch's moves, committed with them.
	Settle(t StakeTable, cmd table.Command, evs []table.Event, m *Moves, now time.Time)
	// Committed follows a batch's commit (or a batch that wrote nothing): what it moved is
	// durable and its holds are spent. balances are the wallets' balances after it where the
	// store told them (journal.BalanceCommitter), else nil. It returns the wallets whose
	// balance changed, with their balances, for the table's players and the cluster.
	Committed(t StakeTable, m *Moves, held []Held, balances map[string]baccarat.Money) (changed map[string]baccarat.Money)
	// Balance is a player's money for this table now.
	Balance(ctx context.Context, t StakeTable, player string) (baccarat.Money, error)
	// Answers reports whether the table's answer to a command carries the player's balance
	// from Balance (the operator's wallet tells its own, with its debit's answer).
	Answers() bool
}

// StakeTable is a table as its stakes see it.
type StakeTable interface {
	ID() string
	Currency() ledger.Currency
	// State is the table itself: read it only on the table's goroutine.
	State() *table.Table
	// Betting reports whether the table takes wagers now, and Round is its round: both
	// readable from any goroutine (a wallet that calls out before the table, in Submit).
	Betting() bool
	Round() uint64
	// Ask sends a command to the table and answers as the table did.
	Ask(ctx context.Context, cmd table.Command) (*Result, error)
}

// Held is a stake held for a wager (Stakes.Hold) until its batch commits or it is voided.
type Held struct {
	Wallet string
	Stake  baccarat.Money
}

// Moves is what a batch of commands moves, committed in the batch's transaction.
type Moves struct {
	// Transactions are postings in the platform's books.
	Transactions []ledger.Transaction
	// Placed are the operator's debits that wagers of the batch placed; Calls the credits
	// and rollbacks the batch owes the operator's wallet (journal.WalletCall).
	Placed []journal.PlacedDebit
	Calls  []journal.WalletCall
}

// The runner is its stakes' table.
var _ StakeTable = (*runner)(nil)

func (r *runner) ID() string                { return r.spec.ID }
func (r *runner) Currency() ledger.Currency { return r.spec.Currency }
func (r *runner) State() *table.Table       { return r.t }
func (r *runner) Betting() bool             { return r.money.open.Load() }
func (r *runner) Round() uint64             { return r.money.round.Load() }
func (r *runner) Ask(ctx context.Context, cmd table.Command) (*Result, error) {
	return r.submit(ctx, cmd)
}

// stakesFor is the stakes port of a table by its spec.
func (h *Host) stakesFor(spec *Spec) Stakes {
	switch spec.Wallet {
	case WalletSeamless:
		return operatorStakes{h}
	case WalletInternal, "":
		return bookStakes{h}
	}
	return h.opt.Wallets[spec.Wallet] // checkWallet let only these by
}

// bookStakes keeps a table's money in the platform's own double-entry books: a wager's stake
// is held in the bank (bank.go) until its batch commits, and moves wallet → in play in that
// commit and back with the winnings at settlement (postings.go).
type bookStakes struct{ h *Host }

func (s bookStakes) Submit(ctx context.Context, t StakeTable, cmd table.Command) (*Result, error) {
	if p, ok := cmd.(*table.Place); ok {
		// Read the wallet now, on the caller's goroutine, if this host has not: the table's
		// one goroutine would otherwise wait on the database for each player new to the host,
		// one after another (in a cluster, every player after another server moved their
		// money). An error here is the table's to report, when it reads the wallet again.
		_, _ = s.h.bank.load(ctx, ledger.Wallet(placer(p), t.Currency()))
	}
	return t.Ask(ctx, cmd)
}

func (s bookStakes) Hold(ctx context.Context, _ StakeTable, wallet string, p *table.Place) (baccarat.Money, bool, error) {
	return s.h.bank.hold(ctx, wallet, p.Stake)
}

func (s bookStakes) Void(wallet string, stake baccarat.Money) { s.h.bank.release(wallet, stake) }

func (bookStakes) CheckWithdraw(StakeTable, *table.Withdraw) error { return nil }

func (bookStakes) Settle(t StakeTable, _ table.Command, evs []table.Event, m *Moves, _ time.Time) {
	m.Transactions = append(m.Transactions, Postings(t.ID(), t.Currency(), evs)...)
}

// Committed: the bank's cache takes in the batch's postings and lets its holds go, at once,
// so no other table sees the money both held and spent, or neither.
func (s bookStakes) Committed(_ StakeTable, m *Moves, held []Held, balances map[string]baccarat.Money) map[string]baccarat.Money {
	return s.h.bank.committed(m.Transactions, held, balances)
}

func (s bookStakes) Balance(ctx context.Context, t StakeTable, player string) (baccarat.Money, error) {
	return s.h.bank.available(ctx, ledger.Wallet(player, t.Currency()))
}

func (bookStakes) Answers() bool { return true }

// operatorStakes keeps no money: the operator's wallet holds it (wallet.go, seamless.go). A
// wager's stake is debited at the operator before the table takes it; the commit marks the
// debit placed, and the settlement's commit writes the credits and rollbacks that close it
// to an outbox that the deliverer sends until answered (deliver.go).
type operatorStakes struct{ h *Host }

func (s operatorStakes) Submit(ctx context.Context, t StakeTable, cmd table.Command) (*Result, error) {
	switch c := cmd.(type) {
	case *table.Place:
		return s.h.placeSeamless(ctx, t, c)
	case *table.Withdraw:
		return s.h.withdrawSeamless(ctx, t, c)
	}
	return t.Ask(ctx, cmd)
}

// Hold: what the operator answered to the wager's debit (nothing is held here).
func (s operatorStakes) Hold(_ context.Context, t StakeTable, _ string, p *table.Place) (baccarat.Money, bool, error) {
	ap, ok := s.h.approved.get(approvalKey(t.ID(), placer(p), p.RequestID))
	if !ok {
		return 0, false, errNotDebited
	}
	return ap.balance + p.Stake, false, nil
}

// Void: nothing is held here; a debit whose wager the table refused is given back by the
// caller that made it (placeSeamless).
func (operatorStakes) Void(string, baccarat.Money) {}

func (operatorStakes) CheckWithdraw(t StakeTable, w *table.Withdraw) error {
	if w.Stake > 0 {
		return checkTakeBack(t.State(), w)
	}
	return nil
}

func (s operatorStakes) Settle(t StakeTable, cmd table.Command, evs []table.Event, m *Moves, now time.Time) {
	s.walletCalls(t, cmd, evs, m, now)
}

// Committed wakes the deliverer for the credits and rollbacks the batch owes. The
// platform's books moved nothing of the players' (the operator tells each balance).
func (s operatorStakes) Committed(_ StakeTable, m *Moves, _ []Held, _ map[string]baccarat.Money) map[string]baccarat.Money {
	if len(m.Calls) > 0 {
		s.h.kickDelivery()
	}
	return nil
}

func (s operatorStakes) Balance(ctx context.Context, t StakeTable, player string) (baccarat.Money, error) {
	return s.h.operatorBalance(ctx, player, t.Currency())
}

func (operatorStakes) Answers() bool { return false }
