package live

import (
	"context"
	"errors"
	"sort"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/tournament"
)

// A tournament on the operator's seamless wallet (TournamentSpec.Wallet; in a seamless
// deployment, every tournament in a real currency) moves its money through the wallet port
// (wallet.go), as a seamless table does its stakes:
//
//	registered     a debit of the entry fee, taken before the registration reaches the
//	               tournament (outside its goroutine) and marked placed in the commit that
//	               records it: its item is the registered event's number in the journal
//	rebought       a debit of the rebuy price, the same way
//	unregistered   a rollback of the player's debits, in the commit that records the refund
//	cancelled      a rollback of every debit, in the cancellation's commit
//	finished       a credit closing every debit, in the finishing commit: the winner's prize
//	               on their entry's debit, 0 on every other entry's and rebuy's
//
// Every debit is so closed exactly once, by the commit that decides how; the deliverer
// sends the credits and rollbacks as it sends a table's. Our books hold no money for such
// a tournament: no pool account, no house top-up, no prize postings. The pool is the
// tournament's own record (its journal: the fees and rebuys collected, the top-up to the
// guarantee, the prizes), and the money is the operator's: it keeps the players' fees and
// rebuys until the prizes credit them back, and pays the difference where the prizes are
// more than the players paid (the top-up to a guarantee; the bots' fees, the house's,
// which nobody pays). Bots make no calls: their fees count in the pool, their prizes go to
// nobody. So that every prize can close a debit, such a tournament has an entry fee.
// Its chips stay internal, as every tournament's.
//
// A debit whose registration or rebuy is refused, or whose commit fails, is given back (its
// rollback queued); one the operator did not answer is given back before the player is
// told (wallet_unavailable); one left pending by a crash between the debit and the commit
// is given back by the deliverer once it is stale (Outbox.StaleDebit), as a table's is.
// Package verify checks the calls against the journal (Database and Reconcile).

// seamless reports whether the tournament's money is the operator's.
func (tr *tourney) seamless() bool { return tr.spec.Wallet == WalletSeamless }

// walletName is a tournament's wallet as its view names it: a journal written before
// tournaments had a wallet is internal.
func walletName(w string) string {
	if w == "" {
		return WalletInternal
	}
	return w
}

// checkTournamentWallet settles a new tournament's wallet: the one its spec names, or the
// deployment's for its currency.
func (h *Host) checkTournamentWallet(spec *TournamentSpec) error {
	cfg := &spec.Config
	cur := ledger.Currency(cfg.Currency)
	switch spec.Wallet {
	case "":
		spec.Wallet = WalletInternal
		if h.seamlessCurrency(cur) {
			spec.Wallet = WalletSeamless
		}
	case WalletInternal:
	case WalletSeamless:
		if cur == PlayMoney {
			return baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: play money is not the operator's: its wallet is internal", cfg.ID)
		}
		if h.opt.Operator == nil {
			return baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: a seamless tournament needs the operator's wallet (serve --wallet seamless)", cfg.ID)
		}
	default:
		return baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: wallet %q: want internal or seamless", cfg.ID, spec.Wallet)
	}
	if spec.Wallet != WalletSeamless {
		return nil
	}
	if cfg.EntryFee < 1 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: on the operator's wallet a tournament needs an entry fee: "+
			"a prize is paid by crediting an entry's debit (a freeroll plays for play money, XXX)", cfg.ID)
	}
	_, err := h.calls()
	return err
}

// charges reports whether a player's command is paid for at the operator before the
// tournament takes it: a registration or a rebuy of a seamless tournament, not a bot's.
func (tr *tourney) charges(c tournament.Command) bool {
	return tr.seamless() && (c.Type == tournament.CmdRegister || c.Type == tournament.CmdRebuy) && !tr.isBot(c.Player)
}

// payThenAsk takes a registration's or a rebuy's price at the operator, then hands the
// command with its debit to the tournament: priced first by the tournament (a command it
// would refuse costs no call), debited outside its goroutine (a slow operator never holds
// the tournament up), acknowledged only once committed with the debit placed.
func (tr *tourney) payThenAsk(ctx context.Context, c tournament.Command) error {
	q, err := tr.ask(ctx, tourneyQuote{cmd: c})
	if err != nil {
		return err
	}
	if q.charge.Amount <= 0 {
		_, err := tr.ask(ctx, tourneyCommand{cmd: c})
		return err
	}
	w := tr.h.Wallet(ledger.Currency(tr.spec.Config.Currency)) // (tr.t is the goroutine's)
	if !w.Seamless() {
		return baccarat.Errorf(baccarat.CodeWalletUnavailable, "this server is not connected to the operator's wallet, which takes %s", chargeName(c.Type))
	}
	d, err := w.Debit(ctx, DebitOrder{Player: c.Player, Amount: q.charge.Amount, Table: tr.stream, Round: uint64(q.round),
		Ref: "tournament/" + tr.id + "/" + q.charge.Ref, What: chargeName(c.Type)})
	if err != nil {
		return err
	}
	_, err = tr.ask(ctx, tourneyCommand{cmd: c, paid: &d})
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil || errors.Is(err, errTourneyStopping):
		// The command may yet be committed: the debit stays pending; if it is not placed
		// within Outbox.StaleDebit, it is given back.
		return err
	}
	if rerr := w.Release(context.WithoutCancel(ctx), d); rerr != nil {
		tr.h.opt.Logger.Error("giving back a tournament's debit", "tournament", tr.id, "tx", d.Tx, "err", rerr)
	}
	return err
}

func chargeName(ct tournament.CommandType) string {
	if ct == tournament.CmdRebuy {
		return "the rebuy"
	}
	return "the entry fee"
}

// checkPaid refuses a registration or a rebuy of a seamless tournament that comes without
// the debit of its price, and journals the debit of one that comes with it.
func (tr *tourney) checkPaid(c *tournament.Command, paid *Debited) error {
	if !tr.charges(*c) {
		return nil
	}
	if paid != nil {
		c.Debit = paid.Tx
		return nil
	}
	cfg := tr.t.Config()
	price := cfg.EntryFee
	if c.Type == tournament.CmdRebuy {
		price = 0
		if cfg.Rebuy != nil {
			price = cfg.Rebuy.Price
		}
	}
	if price > 0 {
		return baccarat.Errorf(baccarat.CodeWalletUnavailable, "%s is taken by the operator's wallet, and this one was not: try again", chargeName(c.Type))
	}
	return nil
}

// deliverNow sends a commit's credits and rollbacks at once (a player's refund), so the
// operator's next answer shows them; the deliverer retries any that fail.
func (tr *tourney) deliverNow(ctx context.Context, calls []journal.WalletCall) {
	for _, c := range calls {
		tr.h.deliverNow(ctx, c.Tx)
	}
}

// openDebit is a debit that paid for an entry or a rebuy and is not yet closed.
type openDebit struct {
	tx     string
	seq    uint64 // the registered or rebought event
	amount baccarat.Money
	entry  bool
}

// openDebits are a seamless tournament's open debits by player, in the order taken (the
// entry's first).
type openDebits map[string][]openDebit

// openDebitsOf reads the open debits from a tournament's journal.
func openDebitsOf(events []tournament.Event) openDebits {
	open := openDebits{}
	for i := range events {
		open.follow(&events[i], nil)
	}
	return open
}

// closing is how an event closes a debit: a rollback, or a credit of amount.
type closing struct {
	openDebit
	rollback bool
	credit   baccarat.Money
}

// follow takes one event into the open debits, and returns the debits it closes.
func (open openDebits) follow(e *tournament.Event, out []closing) []closing {
	switch e.Type {
	case tournament.EvRegistered, tournament.EvRebought:
		if e.Debit != "" {
			open[e.Player] = append(open[e.Player], openDebit{tx: e.Debit, seq: e.Seq, amount: e.Amount, entry: e.Type == tournament.EvRegistered})
		}
	case tournament.EvUnregistered:
		for _, d := range open[e.Player] {
			out = append(out, closing{openDebit: d, rollback: true})
		}
		delete(open, e.Player)
	case tournament.EvCancelled, tournament.EvFinished:
		prizes := map[string]baccarat.Money{}
		if e.Type == tournament.EvFinished {
			for _, p := range e.Payments {
				prizes[p.Player] += p.Amount
			}
		}
		for _, p := range open.players() {
			for _, d := range open[p] {
				c := closing{openDebit: d, rollback: e.Type == tournament.EvCancelled}
				if d.entry {
					c.credit = prizes[p]
				}
				out = append(out, c)
			}
			delete(open, p)
		}
	}
	return out
}

func (open openDebits) players() []string {
	ps := make([]string, 0, len(open))
	for p := range open {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func (open openDebits) clone() openDebits {
	out := make(openDebits, len(open))
	for p, ds := range open {
		out[p] = append([]openDebit(nil), ds...)
	}
	return out
}

// tourneyWallet is what a commit of a seamless tournament writes for the operator's wallet.
type tourneyWallet struct {
	placed []journal.PlacedDebit
	calls  []journal.WalletCall
	open   openDebits // after the commit
}

// walletBatch is what the events write for the operator's wallet: the debit that paid for a
// registration or a rebuy placed, and the credits and rollbacks of the debits they close.
func (tr *tourney) walletBatch(evs []tournament.Event, paid *Debited) (tourneyWallet, error) {
	if !tr.seamless() {
		return tourneyWallet{}, nil
	}
	w := tr.h.Wallet(tr.money())
	wb := tourneyWallet{open: tr.paid.clone()}
	var closings []closing
	for i := range evs {
		e := &evs[i]
		if (e.Type == tournament.EvRegistered || e.Type == tournament.EvRebought) && e.Debit != "" {
			if paid == nil || paid.Tx != e.Debit {
				return wb, baccarat.Errorf(baccarat.CodeIntegrity, "%s of %s names debit %s, which is not the one it came with", e.Type, e.Player, e.Debit)
			}
			wb.placed = append(wb.placed, paid.Placed(e.Seq, e.At))
		}
		if e.Type == tournament.EvFinished {
			tr.checkPrizes(e, wb.open)
		}
		closings = wb.open.follow(e, closings[:0])
		for _, c := range closings {
			if c.rollback {
				wb.calls = append(wb.calls, w.Rollback(c.tx, e.At))
			} else {
				wb.calls = append(wb.calls, w.Credit(c.tx, c.credit, e.At))
			}
		}
	}
	return wb, nil
}

// checkPrizes logs a prize that closes no debit: one won by a player who paid nothing at
// the operator (a bot's goes to nobody, as its fee came from nobody).
func (tr *tourney) checkPrizes(e *tournament.Event, open openDebits) {
	for _, p := range e.Payments {
		if p.Amount > 0 && len(open[p.Player]) == 0 && !tr.isBot(p.Player) {
			tr.h.opt.Logger.Error("a prize with no debit to close: the operator pays it to nobody", "tournament", tr.id,
				"player", p.Player, "prize", p.Amount)
		}
	}
}
