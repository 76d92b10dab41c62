package live

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/tournament"
)

// holdFor takes a player's entry fee or rebuy price out of their available money before the
// command is applied, so that a wager at another table cannot spend it meanwhile; a bot's
// is paid by the house, so nothing is held; nor is anything in a seamless tournament, whose
// payments the operator took already.
func (tr *tourney) holdFor(c tournament.Command) ([]Held, error) {
	if tr.seamless() {
		return nil, nil
	}
	cfg := tr.t.Config()
	var price baccarat.Money
	switch c.Type {
	case tournament.CmdRegister:
		price = cfg.EntryFee
	case tournament.CmdRebuy:
		if cfg.Rebuy != nil {
			price = cfg.Rebuy.Price
		}
	}
	if price <= 0 || tr.isBot(c.Player) {
		return nil, nil
	}
	wallet := ledger.Wallet(c.Player, tr.money())
	avail, ok, err := tr.h.bank.hold(tr.h.ctx, wallet, price)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, baccarat.Errorf(baccarat.CodeInsufficientFunds, "%s costs %s and your balance is %s",
			c.Type, baccarat.FormatMoney(price, cfg.Currency), baccarat.FormatMoney(avail, cfg.Currency))
	}
	return []Held{{Wallet: wallet, Stake: price}}, nil
}

func (tr *tourney) release(holds []Held) {
	for _, h := range holds {
		tr.h.bank.release(h.Wallet, h.Stake)
	}
}

func (tr *tourney) money() ledger.Currency { return ledger.Currency(tr.t.Config().Currency) }

// isBot reports whether a participant is one of the tournament's house bots.
func (tr *tourney) isBot(player string) bool { return tr.botIDs[player] }

// commit journals the events and the postings they imply in one transaction, with, in a
// seamless tournament, the debit that paid for them marked placed and the credits and
// rollbacks they owe (which it returns). If it fails, nothing happened: the tournament goes
// back to its journal.
func (tr *tourney) commit(evs []tournament.Event, holds []Held, paid *Debited) ([]journal.WalletCall, error) {
	if len(evs) == 0 {
		tr.release(holds)
		return nil, nil
	}
	head := tr.head
	recs := make([]journal.Record, 0, len(evs))
	for i := range evs {
		data, err := json.Marshal(&evs[i])
		if err != nil {
			panic(err) // plain data
		}
		rec := journal.Seal(head, journal.Record{Table: tr.stream, Seq: head.Seq + 1, Type: string(evs[i].Type), Data: data, At: evs[i].At})
		head = rec.Head()
		recs = append(recs, rec)
	}
	txs := tr.postings(evs)
	wb, err := tr.walletBatch(evs, paid)
	if err == nil {
		err = tr.openAccounts(txs)
	}
	var balances map[string]baccarat.Money
	if err == nil {
		balances, err = tr.commitBatch(journal.Batch{Records: recs, Transactions: txs, Placed: wb.placed, Calls: wb.calls})
	}
	if err != nil {
		tr.release(holds)
		tr.forget(txs)
		if isCode(err, baccarat.CodeLeaseLost) {
			tr.h.opt.Logger.Error("lease lost: the tournament stops without writing", "tournament", tr.id, "err", err)
			tr.lease.lost = true
			return nil, err
		}
		tr.reload()
		return nil, err
	}
	tr.head = head
	cfg := tr.t.Config()
	tr.h.opt.Observer.TournamentCommitted(tr.id, cfg.Game, cfg.Currency, evs)
	if tr.seamless() {
		tr.paid = wb.open
		if len(wb.calls) > 0 {
			tr.h.kickDelivery()
		}
	}
	changed := tr.h.bank.committed(txs, holds, balances)
	var wallets []string
	for w := range changed {
		wallets = append(wallets, w)
	}
	tr.h.walletsChanged(wallets)
	tr.published()
	return wb.calls, nil
}

func (tr *tourney) commitBatch(b journal.Batch) (map[string]baccarat.Money, error) {
	b.Fence = tr.lease.fence(tr.h, tr.stream)
	if bc, ok := tr.h.opt.Store.(journal.BalanceCommitter); ok {
		return bc.CommitBalances(tr.h.ctx, b)
	}
	return nil, tr.h.opt.Store.Commit(tr.h.ctx, b)
}

func (tr *tourney) openAccounts(txs []ledger.Transaction) error {
	seen := map[string]bool{}
	for _, tx := range txs {
		for _, p := range tx.Postings {
			if !seen[p.Account] {
				seen[p.Account] = true
				if err := tr.h.opt.Store.OpenAccount(tr.h.ctx, p.Account); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (tr *tourney) forget(txs []ledger.Transaction) {
	var ws []string
	for _, tx := range txs {
		for _, p := range tx.Postings {
			ws = append(ws, p.Account)
		}
	}
	tr.h.bank.forget(ws...)
}

// reload rebuilds the tournament from its journal after a failed commit.
// While it cannot be (the store is out of reach) the tournament is stale: it applies no
// command until it has been, so it never runs ahead of its journal.
func (tr *tourney) reload() bool {
	fresh, err := tr.h.loadTourney(tr.h.ctx, tr.stream)
	if err != nil {
		tr.stale = true
		tr.h.opt.Logger.Error("reloading a tournament after a failed commit", "tournament", tr.id, "err", err)
		return false
	}
	tr.t, tr.head, tr.paid, tr.stale = fresh.t, fresh.head, fresh.paid, false
	return true
}

// published makes the committed state the one readers see, and wakes those who wait.
func (tr *tourney) published() {
	v := tr.buildView()
	tr.mu.Lock()
	tr.view = v
	close(tr.changed)
	tr.changed = make(chan struct{})
	tr.mu.Unlock()
}

// postings are the ledger transactions the events imply (see tournament_host.go): money in
// the tournament's currency, chips in its own, never both in one transaction. Keys name the
// stream, the event and a part, so a retried commit posts nothing twice. A seamless
// tournament's money is the operator's: only its chips are posted.
func (tr *tourney) postings(evs []tournament.Event) []ledger.Transaction {
	cur, chips := tr.money(), tr.t.Chips()
	pool, house, chipHouse := Pool(tr.id, cur), ledger.House(cur), ledger.House(chips)
	var txs []ledger.Transaction
	for i := range evs {
		e := &evs[i]
		b := booker{key: fmt.Sprintf("%s/%d", tr.stream, e.Seq), at: e.At}
		money := b.move
		if tr.seamless() {
			money = func(string, string, []transfer) {} // calls to the operator instead (tournament_wallet.go)
		}
		switch e.Type {
		case tournament.EvRegistered:
			if tr.isBot(e.Player) {
				money("bot's entry fee, paid by the house", pool, negate(transfer{house, e.Amount}))
			} else {
				money("entry fee", pool, negate(transfer{ledger.Wallet(e.Player, cur), e.Amount}))
			}
		case tournament.EvUnregistered:
			money("entry fee refunded", pool, []transfer{{ledger.Wallet(e.Player, cur), e.Amount}})
		case tournament.EvCancelled:
			money("entry fee refunded: cancelled", pool, tr.payments(e.Payments, cur))
			b.move("chips back: cancelled", chipHouse, tr.sweep) // a running tournament's (tournament_trouble.go)
		case tournament.EvRebought:
			if tr.isBot(e.Player) {
				money("bot's rebuy, paid by the house", pool, negate(transfer{house, e.Amount}))
			} else {
				money("rebuy", pool, negate(transfer{ledger.Wallet(e.Player, cur), e.Amount}))
			}
			if e.Session != 0 { // bought during a session: the chips go to the table at once
				b.move("rebuy chips", chipHouse, []transfer{{ledger.Wallet(e.Player, chips), e.Chips}})
			}
		case tournament.EvSessionStarted:
			b.move(fmt.Sprintf("chips for round %d table %d session %d", e.Round, e.Table, e.Session), chipHouse, tr.startChips(e))
		case tournament.EvSessionEnded:
			var back []transfer
			for _, c := range e.Standings {
				back = append(back, transfer{ledger.Wallet(c.Player, chips), -c.Chips})
			}
			b.move(fmt.Sprintf("chips back after round %d table %d session %d", e.Round, e.Table, e.Session), chipHouse, back)
		case tournament.EvFinished:
			if e.Pool != nil {
				money("the house's top-up to the guarantee", house, []transfer{{pool, e.Pool.TopUp}})
			}
			money("prize", pool, tr.payments(e.Payments, cur))
		}
		txs = append(txs, b.txs...)
	}
	return txs
}

// startChips are the chips each seated player takes to a session: its record's seats.
func (tr *tourney) startChips(e *tournament.Event) []transfer {
	var out []transfer
	for _, s := range tr.t.Sessions() {
		if s.Round == e.Round && s.Table == e.Table && s.Session == e.Session {
			for _, seat := range s.Seats {
				out = append(out, transfer{ledger.Wallet(seat.Player, tr.t.Chips()), seat.Start})
			}
		}
	}
	return out
}

type transfer struct {
	account string
	amount  baccarat.Money // credited to account (negative: debited)
}

func negate(t transfer) []transfer { return []transfer{{t.account, -t.amount}} }

// payments are refunds or prizes to their players' wallets; a house bot's go back to the
// house, which paid its fees: a bot holds no money of its own, so nobody can ever come into
// a bot's winnings.
func (tr *tourney) payments(ps []tournament.Payment, cur ledger.Currency) []transfer {
	out := make([]transfer, 0, len(ps))
	var house baccarat.Money
	for _, p := range ps {
		if tr.isBot(p.Player) {
			house += p.Amount // one posting for every bot's (a transaction names an account once)
			continue
		}
		out = append(out, transfer{ledger.Wallet(p.Player, cur), p.Amount})
	}
	return append(out, transfer{ledger.House(cur), house})
}

// booker writes an event's transactions.
type booker struct {
	key string
	at  time.Time
	n   int
	txs []ledger.Transaction
}

// move books transfers to (or from) accounts against one counter-account, in transactions of
// at most ledger.MaxPostings postings whose counter-posting stays within ledger.MaxAmount.
func (b *booker) move(memo, counter string, ts []transfer) {
	var ps []ledger.Posting
	var sum baccarat.Money
	flush := func() {
		if len(ps) > 0 {
			b.n++
			ps = append(ps, ledger.Posting{Account: counter, Amount: -sum})
			b.txs = append(b.txs, ledger.Transaction{Key: fmt.Sprintf("%s/%d", b.key, b.n), Memo: memo, At: b.at, Postings: ps})
		}
		ps, sum = nil, 0
	}
	for _, t := range ts {
		if t.amount == 0 {
			continue
		}
		if len(ps) == ledger.MaxPostings-1 || abs(sum+t.amount) > ledger.MaxAmount {
			flush()
		}
		ps = append(ps, ledger.Posting{Account: t.account, Amount: t.amount})
		sum += t.amount
	}
	flush()
}
