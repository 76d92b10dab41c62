package table

import (
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
	t.emit(e)
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
// every wager on it. A fixed-odds win carries its ratio and the ratio's text.
type outcome struct {
	o       games.Outcome
	decimal bool // paid at each wager's own odds (Bet on Baccarat)
	rides   bool // a push that stays on the layout into the next round (RWS 3.9)
	pays    baccarat.Ratio
	text    string
}

// resolveBets decides every single-coup bet of the game on the coup, once.
func (t *Table) resolveBets(r *baccarat.Result) {
	for i, b := range t.game.Bets {
		if b.Resolve == nil {
			continue
		}
		o, tier := b.Resolve(r)
		oc := outcome{o: o, decimal: b.Decimal}
		switch {
		case o == games.Win && !b.Decimal:
			oc.pays, oc.text = b.Tiers[tier].Pays, t.pays[i][tier]
		case o != games.Win && o != games.Lose:
			oc.rides = b.Kind == games.Main && t.game.Rules.TieRides
		}
		t.outcomes[i] = oc
	}
}

// settleWagers fills out with the settlement of each wager of the layout, from its bet's
// outcome on the coup (the rules of games.Settle and games.SettleAtOdds: winnings rounded
// down to the minor unit).
func (t *Table) settleWagers(out []Settlement) {
	ws := t.wagers[:len(out)]
	for i := range ws {
		w, s := &ws[i], &out[i]
		oc := &t.outcomes[w.bet]
		s.Wager, s.Player, s.Bet, s.Stake, s.Outcome, s.Odds = w.ID, w.Player, w.Bet, w.Stake, oc.o, w.Odds
		switch oc.o {
		case games.Win:
			if oc.decimal {
				s.Net, s.Pays = w.Odds.Net(w.Stake), ""
			} else {
				s.Net, s.Pays = oc.pays.Net(w.Stake), oc.text
			}
			s.Returned, s.Rides = w.Stake+s.Net, false
		case games.Lose:
			s.Net, s.Returned, s.Pays, s.Rides = -w.Stake, 0, "", false
		default:
			s.Net, s.Returned, s.Pays, s.Rides = 0, w.Stake, "", oc.rides
			if oc.rides {
				s.Returned = 0 // RWS 3.9: the wager stays on into the next round
			}
		}
	}
}

func (t *Table) onSettled(e *Event) {
	ws := t.wagers[:len(e.Settlements)]
	for i := range ws {
		s, w := &e.Settlements[i], &ws[i]
		if s.Rides {
			rw := *w
			rw.Riding = true
			t.riding = append(t.riding, rw)
			continue
		}
		t.parties[w.party].held -= s.Stake
		t.house -= s.Net
	}
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
