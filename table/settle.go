package table

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
)

// settle settles every wager of the round on the finished coup, then ends the Dragon session
// and the shoe when they are due.
func (t *Table) settle(c *Command, actor string, role Role) {
	r := t.coup.Result()
	e := t.event(EvRoundSettled, c, actor, role)
	e.Phase = PhaseSettled
	e.Result = RoundResult{Result: r, set: true}
	e.Settlements = make([]Settlement, len(t.wagers))
	for i := range t.wagers {
		t.settleWager(&e.Settlements[i], &t.wagers[i], &r)
	}
	t.emit(e)
	if t.game.Rules.DragonSessions && len(t.sessionResults) >= t.cfg.SessionHands {
		t.settleSession(c, actor, role)
	}
	if t.game.Rules.ShoeChangeBelow > 0 && t.shoe.counts.Total() < t.game.Rules.ShoeChangeBelow && !t.shoe.ending {
		t.emit(t.event(EvCutCard, c, actor, role)) // BoB 3.4.1: change the shoe under 40 cards
	}
	t.afterRound(c, actor, role)
}

// afterRound ends the shoe once its last round is over.
func (t *Table) afterRound(c *Command, actor string, role Role) {
	if t.shoe.ending || (t.shoe.order != nil && t.shoe.next >= len(t.shoe.order)) {
		t.emitShoeEnded(c, actor, role)
	}
}

// settleWager fills out with the settlement of w on the coup r.
func (t *Table) settleWager(out *Settlement, w *Wager, r *baccarat.Result) {
	bi := w.bet
	b := t.game.Bets[bi]
	var s games.Settlement
	if b.Decimal {
		s = games.SettleAtOdds(b, w.Stake, w.Odds, r)
	} else {
		s = games.Settle(b, w.Stake, r)
	}
	*out = Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake, Outcome: s.Outcome.String(),
		Odds: w.Odds, Net: s.Net, Returned: s.Returned(w.Stake)}
	if s.Outcome == games.Win && !b.Decimal {
		out.Pays = t.pays[bi][s.Tier]
	}
	if s.Outcome == games.Push && b.Kind == games.Main && t.game.Rules.TieRides {
		out.Rides, out.Returned = true, 0 // RWS 3.9: the wager stays on into the next round
	}
}

func (t *Table) onSettled(e *Event) {
	for i, s := range e.Settlements {
		if s.Rides {
			w := t.wagers[i]
			w.Riding = true
			t.riding = append(t.riding, w)
			continue
		}
		f := &t.parties[t.wagers[i].pid]
		f.held -= s.Stake
		f.balance += s.Returned
		t.house -= s.Net
	}
	res := &e.Result.Result
	t.shoeResults = append(t.shoeResults, ShoeResult{Winner: res.Winner.Letter(), PlayerPair: res.PlayerPair,
		BankerPair: res.BankerPair, Natural: res.Natural})
	if t.game.Rules.DragonSessions {
		t.sessionResults = append(t.sessionResults, res.Winner)
	}
	t.endRound(PhaseSettled)
}

// endSession ends a Dragon session now, as for a session of a set length of time
// (Dragon 1.1.13), and settles its Dragon bets.
func (t *Table) endSession(c *Command, actor string, role Role) error {
	if !t.game.Rules.DragonSessions {
		return refuse(baccarat.CodeBadRequest, "%s has no Dragon sessions", t.game.Name)
	}
	if t.roundOpen() {
		return badState("a session ends between rounds")
	}
	t.settleSession(c, actor, role)
	return nil
}

// settleSession settles the session's Dragon bets on its longest streaks (Dragon 3.12, 4.2).
func (t *Table) settleSession(c *Command, actor string, role Role) {
	e := t.event(EvSessionSettled, c, actor, role)
	e.Session = t.session
	e.Count = len(t.sessionResults)
	for _, w := range t.dragon {
		s := games.SettleDragon(t.game.Bet(w.Bet), w.Stake, t.sessionResults)
		out := Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake, Outcome: s.Outcome.String(),
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
		f := t.partyOf(s.Player)
		f.held -= s.Stake
		f.balance += s.Returned
		t.house -= s.Net
	}
	t.dragon = t.dragon[:0]
	t.sessionResults = t.sessionResults[:0]
	t.session = e.Session + 1
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
