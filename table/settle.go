package table

import (
	"math/bits"
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// settle settles every wager of the round on the finished coup, then ends the Dragon session
// and the shoe when they are due.
func (t *Table) settle(h *Header, actor string, role Role) {
	e := t.event(EvRoundSettled, h, actor, role)
	e.Phase = PhaseSettled
	e.Result = RoundResult{Result: t.coup.Result(), set: true}
	r := &e.Result.Result // in the event buffer: resolving bets through it allocates nothing
	if cap(t.settleBuf) < len(t.wagers) {
		t.settleBuf = make([]Settlement, len(t.wagers), 2*len(t.wagers))
	}
	e.Settlements = t.settleBuf[:len(t.wagers)]
	t.resolveBets(r)
	t.settleWagers(e.Settlements)
	t.emitSettled(e)
	t.passShoeIfLost(e.Settlements, h, actor, role) // before any event that moves t.out
	if t.game.Rules.DragonSessions && len(t.sessionResults) >= t.cfg.SessionHands {
		t.settleSession(h, actor, role)
	}
	if t.game.Rules.ShoeChangeBelow > 0 && t.shoe.counts.Total() < t.game.Rules.ShoeChangeBelow && !t.shoe.ending {
		t.emit(t.event(EvCutCard, h, actor, role)) // BoB 3.4.1: change the shoe under 40 cards
	}
	t.afterRound(h, actor, role)
}

// afterRound ends the shoe once its last round is over.
func (t *Table) afterRound(h *Header, actor string, role Role) {
	if t.shoe.ending || (t.shoe.order != nil && t.shoe.next >= len(t.shoe.order)) {
		t.emitShoeEnded(h, actor, role)
	}
}

// outcome is how one bet of the game ends on this coup: decided once per round, read by
// every wager on it. The ending (games.Ending) settles each wager's money; a fixed-odds win
// carries its ratio's text.
type outcome struct {
	games.Ending
	rides bool // a push that stays on the layout into the next round (RWS 3.9)
	text  string
}

// betEnds are the outcomes one bet can have, made once for the table (endsOf): what
// resolveBets picks from, coup after coup.
type betEnds struct {
	win   []outcome               // by tier; a Bet on Baccarat bet's one win, at each wager's odds
	other [games.Void + 1]outcome // by games.Outcome: a loss, a push, a void
}

// endsOf works out every outcome of a bet: a fixed-odds win carries its tier's ratio and the
// ratio's text; a push or void of a main bet rides where Ties ride (RWS 3.9).
func endsOf(b *games.Bet, tieRides bool) betEnds {
	var e betEnds
	if b.Decimal {
		e.win = []outcome{{Ending: b.Ending(games.Win, 0)}}
	} else {
		for i, tier := range b.Tiers {
			e.win = append(e.win, outcome{Ending: b.Ending(games.Win, i), text: tier.Pays.String()})
		}
	}
	for o := range e.other {
		if games.Outcome(o) == games.Win {
			continue // e.win
		}
		e.other[o] = outcome{Ending: b.Ending(games.Outcome(o), -1)}
		if games.Outcome(o) != games.Lose {
			e.other[o].rides = b.Kind == games.Main && tieRides
		}
	}
	return e
}

// resolveBets decides every single-coup bet with a stake on it this round on the coup, once.
func (t *Table) resolveBets(r *baccarat.Result) {
	t.rides = false
	for m := t.staked; m != 0; m &= m - 1 {
		i := bits.TrailingZeros16(m)
		b := t.game.Bets[i]
		if b.Resolve == nil {
			continue
		}
		o, tier := b.Resolve(r)
		var oc *outcome
		switch e := &t.ends[i]; {
		case o != games.Win:
			oc = &e.other[o]
		case b.Decimal:
			oc = &e.win[0]
		default:
			oc = &e.win[tier]
		}
		t.outcomes[i] = oc
		t.rides = t.rides || oc.rides
	}
}

// settleWagers fills out with the settlement of each wager of the layout, from its bet's
// outcome on the coup (games.Ending.Net, the rules of games.Settle and games.SettleAtOdds),
// and pays each out as it goes, as onSettled would (payOut). What a settlement takes from
// its bet's outcome (the outcome, the pay table's text, whether it rides) is the same for
// every wager on the bet; only the money is the wager's own.
func (t *Table) settleWagers(out []Settlement) {
	ws := t.wagers[:len(out)]
	for i := range ws {
		w, s := &ws[i], &out[i]
		stake := w.Stake
		s.Wager, s.Player, s.Bet, s.Stake, s.Odds = w.ID, w.Player, w.Bet, stake, w.Odds
		oc := t.outcomes[w.bet]
		var net baccarat.Money // 0 for a push or a void (games.Ending.Net, by outcome)
		switch oc.Outcome {
		case games.Win:
			net = oc.Won(stake, w.Odds)
		case games.Lose:
			net = -stake
		}
		returned := stake + net // winnings and the stake; nothing on a loss; the stake on a push
		if oc.rides {
			returned = 0 // RWS 3.9: the wager stays on into the next round
		}
		s.Outcome, s.Pays, s.Net, s.Returned, s.Rides = oc.Outcome, oc.text, net, returned, oc.rides
		if !oc.rides { // payOut; the wagers that ride are kept after the loop
			t.parties[w.party].held -= stake
			t.house -= net
		}
	}
	if t.rides {
		t.keepRiding()
	}
}

// keepRiding keeps the layout's wagers whose bets pushed and ride on the layout into the
// next round (RWS 3.9), as payOut does, in their order.
func (t *Table) keepRiding() {
	for i := range t.wagers {
		if w := &t.wagers[i]; t.outcomes[w.bet].rides {
			t.ride(w)
		}
	}
}

// emitSettled is emit for the round_settled event settle made, whose wagers settleWagers
// has already paid out: the event is numbered and the round ended as on would end it
// (onSettled would pay the wagers out again, then call settled), without going through on.
// Replay rebuilds the same table from the event.
func (t *Table) emitSettled(e *Event) {
	e.Seq = t.seq + 1
	t.seq = e.Seq
	t.settled(e)
}

// onSettled applies a round_settled event read from the history: every wager paid out, then
// the round ended.
func (t *Table) onSettled(e *Event) {
	ss := e.Settlements
	ws := t.wagers[:len(ss)]
	for i := range ss {
		t.payOut(&ws[i], &ss[i])
	}
	t.settled(e)
}

// payOut is the change one settlement makes: the wager leaves play, and what it won or lost
// goes to the house's result; or, riding on a push (RWS 3.9), it waits for the next round.
func (t *Table) payOut(w *Wager, s *Settlement) {
	if s.Rides {
		t.ride(w)
		return
	}
	t.parties[w.party].held -= s.Stake
	t.house -= s.Net
}

// ride keeps a wager that pushed on the layout for the next round (RWS 3.9).
func (t *Table) ride(w *Wager) {
	rw := *w
	rw.Riding = true
	t.riding = append(t.riding, rw)
}

// settled ends a settled round, its wagers paid out: the result goes on the shoe's record
// (and the Dragon session's).
func (t *Table) settled(e *Event) {
	res := &e.Result.Result
	t.shoeResults = append(t.shoeResults, ShoeResult{Winner: res.Winner, PlayerPair: res.PlayerPair,
		BankerPair: res.BankerPair, Natural: res.Natural})
	if t.game.Rules.DragonSessions {
		t.sessionResults = append(t.sessionResults, res.Winner)
	}
	t.endRound(PhaseSettled)
}

func (t *Table) endRound(p Phase) {
	t.phase, t.betOpen, t.prices = p, false, nil
	t.sq, t.revealed = nil, 0
	t.interrupted, t.window, t.pending = false, false, t.pending[:0]
	t.wagers = t.wagers[:0]
	t.clearTallies()
}

// endSession ends a Dragon session now, as for a session of a set length of time
// (Dragon 1.1.13), and settles its Dragon bets. Ended with one of VoidReasons (play called
// off, a tournament cancelled) the session is void instead: like a voided round (SPEC §4),
// every Dragon stake goes back, whatever the streaks so far.
func (t *Table) endSession(h *Header, actor string, role Role) error {
	if !t.game.Rules.DragonSessions {
		return refuse(baccarat.CodeBadRequest, "%s has no Dragon sessions", t.game.Name)
	}
	if t.roundOpen() {
		return badState("a session ends between rounds")
	}
	if slices.Contains(VoidReasons, h.Reason) {
		t.voidSession(h, actor, role)
		return nil
	}
	t.settleSession(h, actor, role)
	return nil
}

// voidSession returns every Dragon stake of the session.
func (t *Table) voidSession(h *Header, actor string, role Role) {
	e := t.event(EvSessionSettled, h, actor, role)
	d := e.more()
	d.Session, d.Count = t.session, len(t.sessionResults)
	for _, w := range t.dragon {
		e.Settlements = append(e.Settlements, Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake,
			Outcome: games.Void, Returned: w.Stake})
	}
	t.emit(e)
}

// settleSession settles the session's Dragon bets on its longest streaks (Dragon 3.12, 4.2).
func (t *Table) settleSession(h *Header, actor string, role Role) {
	e := t.event(EvSessionSettled, h, actor, role)
	d := e.more()
	d.Session, d.Count = t.session, len(t.sessionResults)
	for _, w := range t.dragon {
		s := games.SettleDragon(t.game.Bets[w.bet], w.Stake, t.sessionResults)
		out := Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake, Outcome: s.Outcome,
			Net: s.Net, Returned: s.Returned(w.Stake)}
		if s.Outcome == games.Win {
			out.Pays = s.Pays.String()
		}
		e.Settlements = append(e.Settlements, out)
	}
	t.emit(e)
}

func (t *Table) onSessionSettled(e *Event) {
	for _, s := range e.Settlements {
		t.parties[t.Party(s.Player)].held -= s.Stake
		t.house -= s.Net
	}
	t.dragon = t.dragon[:0]
	t.sessionResults = t.sessionResults[:0]
	t.session = e.Session() + 1
}

// price asks the odds engine for Bet on Baccarat's offers given the cards revealed. When the
// shoe cannot price (too few cards), nothing is offered.
func (t *Table) price(revealed []baccarat.Card) []odds.Price {
	p, err := odds.Prices(t.shoe.counts, revealed, t.game, t.cfg.Margins)
	if err != nil {
		p = make([]odds.Price, 0, len(t.game.Bets))
		for _, b := range t.game.Bets {
			p = append(p, odds.Price{Bet: b.ID})
		}
	}
	return p
}

func (t *Table) chances() ([]odds.BetChance, error) {
	return odds.Chances(t.shoe.counts, t.Revealed(), t.game)
}

func streaks(results []baccarat.Winner) (banker, player int) { return games.Streaks(results) }
