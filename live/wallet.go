package live

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/seamless"
)

// The wallet port. Players' money is kept in one of two places, chosen per deployment:
//
//   - the internal wallet (the default, a transfer wallet): the platform's own double-entry
//     books; a wager's stake moves wallet → in-play in the same commit as the wager, and back
//     with the winnings at settlement (postings.go).
//   - the seamless wallet: the operator's own wallet, called over HTTP (package seamless).
//     The platform keeps no money: a wager's stake is debited at the operator before the
//     table takes the wager (Host.Submit, outside the table's goroutine), and the credits
//     and rollbacks that settle it are written in the settlement's own commit to an outbox
//     that a deliverer sends until answered (deliver.go). A round never waits for the
//     operator. Our side of every call is kept in the store's wallet calls (journal.WalletCall).
//
// A table keeps the wallet it was created with (Spec.Wallet): in a seamless deployment, a
// table in a real currency is seamless; play money (XXX) and tournament chips stay on the
// internal wallet unless a table's spec says otherwise.

// Wallet names in a table's Spec.
const (
	WalletInternal = "internal"
	WalletSeamless = "seamless"
)

// Operator is the operator's wallet as the host calls it: *seamless.Client. Its errors are
// the seamless package's three kinds (see its documentation).
type Operator interface {
	Balance(ctx context.Context, q seamless.BalanceRequest) (seamless.Answer, error)
	Debit(ctx context.Context, q seamless.DebitRequest) (seamless.Answer, error)
	Credit(ctx context.Context, q seamless.CreditRequest) (seamless.Answer, error)
	Rollback(ctx context.Context, q seamless.RollbackRequest) (seamless.Answer, error)
}

// Outbox tunes the deliverer of credits and rollbacks (zero fields take the defaults).
type Outbox struct {
	Every      time.Duration // how often it looks for calls due, besides being woken (1 s)
	MinBackoff time.Duration // the wait before the first retry of an unanswered call (500 ms)
	MaxBackoff time.Duration // the longest wait between retries (5 min): a call is retried until answered, at least this often
	Claim      time.Duration // how long a call taken for delivery is kept from other deliverers (30 s)
	Workers    int           // calls sent at once (8)
	// StaleDebit is how long a debit may stay pending before it is given back: a debit whose
	// wager never reached the table (the server died between the two, or the caller gave up
	// waiting). Default 1 min, well past a call's timeout.
	StaleDebit time.Duration
}

// Backoff is the wait before the n-th retry of a call (n ≥ 1), before jitter: MinBackoff
// doubling, never more than MaxBackoff, however many attempts came before (a call is
// retried for as long as it takes). Zero fields take the defaults.
func (d Outbox) Backoff(n int) time.Duration {
	d = d.withDefaults()
	b := d.MinBackoff
	for i := 1; i < n && b < d.MaxBackoff; i++ {
		if b > d.MaxBackoff/2 {
			b = d.MaxBackoff // doubling would reach it, or overflow
			break
		}
		b *= 2
	}
	return min(b, d.MaxBackoff)
}

func (d Outbox) withDefaults() Outbox {
	def := func(v *time.Duration, x time.Duration) {
		if *v <= 0 {
			*v = x
		}
	}
	def(&d.Every, time.Second)
	def(&d.MinBackoff, 500*time.Millisecond)
	def(&d.MaxBackoff, 5*time.Minute)
	def(&d.Claim, 30*time.Second)
	def(&d.StaleDebit, time.Minute)
	if d.Workers <= 0 {
		d.Workers = 8
	}
	return d
}

// Wallet is the money of one currency, wherever it is kept: the port tables use for wagers
// and tournaments for entry fees and prizes. Host.Wallet returns it.
//
// With the internal wallet (Seamless false) money moves by ledger postings in the commit
// that decides it, as it always has; Debit, Credit and Rollback are for seamless wallets.
// With a seamless wallet, a payment is a debit taken now, before the commit that records
// what it pays for (the caller puts Debited.Placed in that commit's Batch.Placed, and calls
// Release if the commit fails or is refused), closed later by exactly one credit or one
// rollback that the caller writes in the commit that decides it (Batch.Calls).
type Wallet interface {
	Currency() ledger.Currency
	// Seamless reports whether the operator keeps this money.
	Seamless() bool
	// Balance is what the player may spend now.
	Balance(ctx context.Context, player string) (baccarat.Money, error)
	// Debit takes money at the operator. A refusal (insufficient_funds, wallet_unavailable,
	// conflict) took nothing: an unanswered debit has been given back already.
	Debit(ctx context.Context, o DebitOrder) (Debited, error)
	// Release gives back a debit whose commit did not happen; it is safe to call again.
	Release(ctx context.Context, d Debited) error
	// Credit is the call, for Batch.Calls, that pays amount (0: nothing) and closes the debit.
	Credit(debitTx string, amount baccarat.Money, at time.Time) journal.WalletCall
	// Rollback is the call, for Batch.Calls, that gives the debit's amount back and closes it.
	Rollback(debitTx string, at time.Time) journal.WalletCall
}

// DebitOrder is a payment taken from a player at the operator. Ref is stable for one
// payment (a retry with the same Ref is the same debit); Table and Round are what the
// operator sees it for (a tournament's stream id, and any positive number). What names the
// payment in a refusal ("the entry fee"; "the payment" if empty).
type DebitOrder struct {
	Player string
	Amount baccarat.Money
	Table  string
	Round  uint64
	Ref    string
	What   string
}

// Debited is a debit the operator took.
type Debited struct {
	Tx      string
	Balance baccarat.Money // the player's balance after it
}

// Placed is the mark, for Batch.Placed, that the commit records what the debit paid for;
// item numbers it there (a tournament's entry, say) and must be unique per Table.
func (d Debited) Placed(item uint64, at time.Time) journal.PlacedDebit {
	b := d.Balance
	return journal.PlacedDebit{Tx: d.Tx, TableWager: item, Balance: &b, At: at}
}

// Wallet is the wallet of a currency on this host.
func (h *Host) Wallet(cur ledger.Currency) Wallet {
	return &hostWallet{h: h, cur: cur, seamless: h.seamlessCurrency(cur)}
}

// seamlessCurrency: in a seamless deployment, every real currency is the operator's.
func (h *Host) seamlessCurrency(cur ledger.Currency) bool {
	return h.opt.Operator != nil && !cur.IsChips() && cur != PlayMoney
}

// checkWallet settles a new table's wallet: the one its spec names, or the deployment's
// for its currency (which Create has checked, baccarat.CheckCurrency).
func (h *Host) checkWallet(spec *Spec) error {
	switch spec.Wallet {
	case "":
		spec.Wallet = WalletInternal
		if h.seamlessCurrency(spec.Currency) {
			spec.Wallet = WalletSeamless
		}
	case WalletInternal:
	case WalletSeamless:
		if spec.Currency.IsChips() {
			return baccarat.Errorf(baccarat.CodeBadRequest, "table %s: tournament chips are not the operator's money: its wallet is internal", spec.ID)
		}
		if h.opt.Operator == nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "table %s: a seamless table needs the operator's wallet (serve --wallet seamless)", spec.ID)
		}
	default:
		if _, ok := h.opt.Wallets[spec.Wallet]; ok {
			return nil
		}
		names := []string{WalletInternal, WalletSeamless}
		for _, n := range slices.Sorted(maps.Keys(h.opt.Wallets)) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		return baccarat.Errorf(baccarat.CodeBadRequest, "table %s: wallet %q: want %s", spec.ID, spec.Wallet, strings.Join(names, ", "))
	}
	return nil
}

// calls is the store's side of the operator's wallet.
func (h *Host) calls() (journal.WalletCalls, error) {
	if c, ok := h.opt.Store.(journal.WalletCalls); ok {
		return c, nil
	}
	return nil, baccarat.Errorf(baccarat.CodeInternal, "this store keeps no wallet calls: a seamless wallet needs the SQLite or PostgreSQL store")
}

// Transaction ids. A debit's is derived from the player's request id, so a retried request
// retries the same debit (the store adds "-<attempt>"); a credit's or rollback's from the
// wager it settles, or from the debit it gives back: the same decision always has the same id.

func txID(prefix string, parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return prefix + hex.EncodeToString(h.Sum(nil)[:16])
}

// DebitTx is the id (before "-<attempt>") of the debit for a player's request id.
func DebitTx(player, requestID string) string { return txID("d", "debit", player, requestID) }

// CloseTx is the id of the credit or rollback that settles a table's wager.
func CloseTx(kind journal.CallKind, table string, wager uint64) string {
	return txID(string(kind[:1]), string(kind), table, uintString(wager))
}

// CancelTx is the id of the rollback that gives back a debit whose wager was not placed.
func CancelTx(debitTx string) string { return txID("r", "cancel", debitTx) }

func uintString(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// hostWallet is Host.Wallet.
type hostWallet struct {
	h        *Host
	cur      ledger.Currency
	seamless bool
}

func (w *hostWallet) Currency() ledger.Currency { return w.cur }
func (w *hostWallet) Seamless() bool            { return w.seamless }

func (w *hostWallet) Balance(ctx context.Context, player string) (baccarat.Money, error) {
	return w.h.Balance(ctx, player, w.cur)
}

func (w *hostWallet) Debit(ctx context.Context, o DebitOrder) (Debited, error) {
	if !w.seamless {
		return Debited{}, baccarat.Errorf(baccarat.CodeBadState, "%s is kept in the platform's books: post it in the commit", w.cur)
	}
	digest := sha256.Sum256([]byte("payment/v1|" + o.Table + "|" + o.Ref + "|" + uintString(uint64(o.Amount))))
	c := journal.WalletCall{Tx: DebitTx(o.Player, o.Ref), Player: o.Player, Currency: string(w.cur), Amount: o.Amount,
		Table: o.Table, Round: max(o.Round, 1), RequestID: o.Ref, Digest: hex.EncodeToString(digest[:])}
	what := o.What
	if what == "" {
		what = "the payment"
	}
	d, err := w.h.debit(ctx, c, what)
	if err != nil {
		return Debited{}, err
	}
	return Debited{Tx: d.tx, Balance: d.balance}, nil
}

func (w *hostWallet) Release(ctx context.Context, d Debited) error {
	return w.h.cancelDebit(ctx, d.Tx)
}

func (w *hostWallet) Credit(debitTx string, amount baccarat.Money, at time.Time) journal.WalletCall {
	return journal.WalletCall{Tx: txID("c", "credit", debitTx), Kind: journal.CallCredit, DebitTx: debitTx, Amount: amount, Created: at}
}

func (w *hostWallet) Rollback(debitTx string, at time.Time) journal.WalletCall {
	return journal.WalletCall{Tx: txID("r", "rollback", debitTx), Kind: journal.CallRollback, DebitTx: debitTx, Created: at}
}

// walletError turns an operator's answer to a debit into the platform's error: what the
// player is told, with a code. Every one of them took nothing. what names the payment
// ("the stake", "the entry fee").
func walletError(err error, what string, amount baccarat.Money, cur string) error {
	var ie *seamless.InsufficientFundsError
	var re *seamless.RefusedError
	switch {
	case errors.As(err, &ie):
		return baccarat.Errorf(baccarat.CodeInsufficientFunds, "%s is %s and your balance is %s",
			what, baccarat.FormatMoney(amount, cur), baccarat.FormatMoney(ie.Balance, cur))
	case errors.As(err, &re) && re.Code == seamless.CodeUnknownPlayer:
		return baccarat.Errorf(baccarat.CodeNotFound, "the operator has no %s wallet for you", cur)
	case errors.As(err, &re) && re.Code == seamless.CodeRolledBack:
		return givenBack(what)
	case errors.As(err, &re) && re.Status != 0:
		return baccarat.Errorf(baccarat.CodeConflict, "the operator's wallet refused %s (%s): nothing was taken", what, re.Code)
	}
	return givenBack(what)
}

// givenBack is the refusal of a debit without an answer, which has been given back.
func givenBack(what string) error {
	if what == stakeName {
		return errGivenBack
	}
	return baccarat.Errorf(baccarat.CodeWalletUnavailable,
		"the operator's wallet did not answer in time: nothing was taken (any part of %s is given back); try again", what)
}

// stakeName is what a table's debit pays for.
const stakeName = "the stake"

var errGivenBack = baccarat.Errorf(baccarat.CodeWalletUnavailable,
	"the operator's wallet did not answer in time: nothing was taken (any part of it is given back); place the wager again")
