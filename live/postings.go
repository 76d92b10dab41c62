package live

import (
	"fmt"
	"sort"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

// Postings turns a table's events into the ledger transactions they imply. It is the one
// place money follows the table's decisions:
//
//	wager_placed      wallet → in-play: the stake is held while in play
//	wager_raised      wallet → in-play: the chip added (the wager's total settles as one)
//	wager_lowered     in-play → wallet: the chip taken back
//	wager_withdrawn   in-play → wallet
//	round_settled     in-play → wallet (stakes and winnings back); the house keeps losses, pays winnings
//	round_voided      in-play → wallet (every stake back)
//	session_settled   the same for Dragon bets
//
// A wager or a withdrawal is one transaction; a settlement books its players in groups, one
// transaction per group (settlementTxs). Each is keyed by table, event and first player, so
// posting the same event twice (a retry, a recovery) changes nothing, and a round with
// thousands of wagers never makes an oversized transaction. Pushes that ride into the next round
// (RWS 3.9) stay in play. Events carry their time, which the transactions take.
func Postings(tableID string, cur ledger.Currency, events []table.Event) []ledger.Transaction {
	var txs []ledger.Transaction
	inplay, house := ledger.InPlay(tableID, cur), ledger.House(cur)
	for i := range events {
		e := &events[i]
		switch e.Type {
		case table.EvWagerPlaced:
			w := e.Wager
			txs = append(txs, ledger.Transaction{Key: fmt.Sprintf("%s/%d", tableID, e.Seq), Table: tableID,
				Round: int(e.Round), At: e.At, Memo: fmt.Sprintf("wager %d %s", w.ID, w.Bet),
				Postings: []ledger.Posting{{Account: ledger.Wallet(w.Player, cur), Amount: -w.Stake}, {Account: inplay, Amount: w.Stake}}})
		case table.EvWagerRaised, table.EvWagerLowered:
			w, amount, memo := e.Wager, e.Amount(), "raised"
			if e.Type == table.EvWagerLowered {
				amount, memo = -amount, "lowered"
			}
			txs = append(txs, ledger.Transaction{Key: fmt.Sprintf("%s/%d", tableID, e.Seq), Table: tableID,
				Round: int(e.Round), At: e.At, Memo: fmt.Sprintf("wager %d %s %s", w.ID, w.Bet, memo),
				Postings: []ledger.Posting{{Account: ledger.Wallet(w.Player, cur), Amount: -amount}, {Account: inplay, Amount: amount}}})
		case table.EvWagerWithdrawn:
			var stake baccarat.Money
			for _, w := range e.Withdrawn() {
				stake += w.Stake
			}
			txs = appendTx(txs, tableID, e, e.Player(), "withdrawn", map[string]baccarat.Money{
				ledger.Wallet(e.Player(), cur): stake, inplay: -stake})
		case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
			txs = settlementTxs(txs, tableID, cur, e, inplay, house)
		}
	}
	return txs
}

func settlementTxs(txs []ledger.Transaction, tableID string, cur ledger.Currency, e *table.Event, inplay, house string) []ledger.Transaction {
	type sums struct{ stake, returned baccarat.Money }
	byPlayer := map[string]*sums{}
	var order []string
	for _, s := range e.Settlements {
		if s.Rides {
			continue // the stake stays on the layout (RWS 3.9)
		}
		p := byPlayer[s.Player]
		if p == nil {
			p = &sums{}
			byPlayer[s.Player] = p
			order = append(order, s.Player)
		}
		p.stake += s.Stake
		p.returned += s.Returned
	}
	// Players are booked in groups, one transaction per group (its wallets, the in-play
	// account and the house), so a round settling thousands of players writes a few dozen
	// transactions rather than thousands; each group's key names the event and its first player.
	// A group also closes before its in-play or house posting would pass what one posting
	// may move (ledger.MaxAmount), so a round of large wagers still commits.
	for start := 0; start < len(order); {
		amounts := map[string]baccarat.Money{}
		end := start
		for end < len(order) && end-start < settleGroup {
			p := byPlayer[order[end]]
			in, h := amounts[inplay]-p.stake, amounts[house]+p.stake-p.returned
			if end > start && (abs(in) > ledger.MaxAmount || abs(h) > ledger.MaxAmount) {
				break
			}
			amounts[inplay], amounts[house] = in, h
			amounts[ledger.Wallet(order[end], cur)] += p.returned
			end++
		}
		txs = appendTx(txs, tableID, e, order[start], e.Type.String(), amounts)
		start = end
	}
	return txs
}

// settleGroup is how many players one settlement transaction books (the in-play account and
// the house take the other two postings).
const settleGroup = ledger.MaxPostings - 2

// appendTx adds a transaction of the non-zero amounts, sorted by account.
func appendTx(txs []ledger.Transaction, tableID string, e *table.Event, player, memo string, amounts map[string]baccarat.Money) []ledger.Transaction {
	var ps []ledger.Posting
	for a, v := range amounts {
		if v != 0 {
			ps = append(ps, ledger.Posting{Account: a, Amount: v})
		}
	}
	if len(ps) == 0 {
		return txs
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Account < ps[j].Account })
	return append(txs, ledger.Transaction{Key: fmt.Sprintf("%s/%d/%s", tableID, e.Seq, player), Postings: ps,
		Memo: memo, Table: tableID, Round: int(e.Round), At: e.At})
}

func abs(x baccarat.Money) baccarat.Money {
	if x < 0 {
		return -x
	}
	return x
}
