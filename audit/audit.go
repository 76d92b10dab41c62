// Package audit recomputes a table's settlements from its history, the way an auditor or a
// regulator would: the coup from the cards dealt (the Table of Play), each wager's outcome
// and payment from the audit's own pay tables (paytable.go), written from the rule
// documents apart from games/, so that a wrong ratio or rule there is caught here rather
// than repeated. Package verify runs it over every table of a database, beside the checks
// no single history can make (the books, the wallet calls).
package audit

import (
	"fmt"
	"math/big"
	"math/bits"
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/table"
)

// Report is what Audit checked and what it found wrong.
type Report struct {
	Rounds   int      // settled rounds recomputed
	Voids    int      // void rounds checked
	Sessions int      // Dragon sessions recomputed
	Wagers   int      // settlements recomputed
	Problems []string // every disagreement, in history order
}

// Table recomputes every settlement of a table's history: the coup must be what the Table
// of Play deals from the cards dealt, every wager open at the result must be settled
// exactly once, and each settlement must be what the pay table says.
func Table(gameID string, events []table.Event) (Report, error) {
	g, ok := gameRules[gameID]
	if !ok {
		return Report{}, baccarat.Errorf(baccarat.CodeUnknownGame, "the audit has no pay table for %q", gameID)
	}
	a := auditor{g: g, open: map[uint64]table.Wager{}, dragon: map[uint64]table.Wager{}}
	for i := range events {
		a.step(&events[i])
	}
	return a.rep, nil
}

type auditor struct {
	g       game
	rep     Report
	open    map[uint64]table.Wager // wagers on the layout this round (riding ones included)
	dragon  map[uint64]table.Wager
	cards   []baccarat.Card
	session []baccarat.Winner
}

func (a *auditor) problem(e *table.Event, format string, args ...any) {
	a.rep.Problems = append(a.rep.Problems, fmt.Sprintf("event %d (round %d): ", e.Seq, e.Round)+fmt.Sprintf(format, args...))
}

func (a *auditor) step(e *table.Event) {
	switch e.Type {
	case table.EvBettingOpened:
		if e.Betting <= 1 {
			a.cards = a.cards[:0]
		}
	case table.EvWagerPlaced:
		if e.Wager.Session != 0 {
			a.dragon[e.Wager.ID] = *e.Wager
		} else {
			a.open[e.Wager.ID] = *e.Wager
		}
	case table.EvWagerRaised, table.EvWagerLowered: // the wager at its new total
		if w, ok := a.open[e.Wager.ID]; ok {
			w.Stake = e.Wager.Stake
			a.open[w.ID] = w
		} else if w, ok := a.dragon[e.Wager.ID]; ok {
			w.Stake = e.Wager.Stake
			a.dragon[w.ID] = w
		}
	case table.EvWagerWithdrawn:
		for _, w := range e.Withdrawn() {
			delete(a.open, w.ID)
			delete(a.dragon, w.ID)
		}
	case table.EvCardDealt:
		a.cards = append(a.cards, e.Card.Card)
	case table.EvCardsCorrected:
		a.cards = append(a.cards[:0], e.Cards()...)
	case table.EvRoundSettled:
		a.settled(e)
	case table.EvRoundVoided:
		a.voided(e)
	case table.EvSessionSettled:
		a.sessionSettled(e)
	}
}

func (a *auditor) settled(e *table.Event) {
	a.rep.Rounds++
	r, used, err := baccarat.Deal(a.cards)
	if err != nil || used != len(a.cards) {
		a.problem(e, "the cards dealt (%s) are not a complete coup", baccarat.FormatCards(a.cards, " "))
		return
	}
	if r != e.Result.Result {
		a.problem(e, "the cards make %s, the record says %s", r, e.Result.Result)
	}
	seen := map[uint64]bool{}
	next := map[uint64]table.Wager{}
	for _, s := range e.Settlements {
		w, ok := a.open[s.Wager]
		if !ok || seen[s.Wager] {
			a.problem(e, "wager %d is settled but was not open, or is settled twice", s.Wager)
			continue
		}
		seen[s.Wager] = true
		a.rep.Wagers++
		want, err := a.settle(&w, &r)
		if err != nil {
			a.problem(e, "wager %d: %v", w.ID, err)
		} else if want != s {
			a.problem(e, "wager %d (%s %d): recorded %+v, the rules give %+v", w.ID, w.Bet, w.Stake, s, want)
		}
		if s.Rides {
			w.Riding = true
			next[w.ID] = w
		}
	}
	for id := range a.open {
		if !seen[id] {
			a.problem(e, "wager %d was open at the result but not settled", id)
		}
	}
	a.open = next
	if a.g.dragons != nil {
		a.session = append(a.session, r.Winner)
	}
}

// settle is the settlement the audit's pay table gives a wager on the coup.
func (a *auditor) settle(w *table.Wager, r *baccarat.Result) (table.Settlement, error) {
	b, ok := a.g.bets[w.Bet]
	if !ok {
		return table.Settlement{}, fmt.Errorf("the game has no bet %q", w.Bet)
	}
	s := table.Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake, Odds: w.Odds}
	win, push := b.decide(r)
	switch {
	case win >= 0 && b.decimal:
		s.Outcome, s.Net = games.Win, netAtOdds(w.Stake, w.Odds)
	case win >= 0:
		t := b.tiers[win]
		s.Outcome, s.Net, s.Pays = games.Win, netAt(w.Stake, t), fmt.Sprintf("%d:%d", t.num, t.den)
	case push:
		s.Outcome = games.Push
	default:
		s.Outcome, s.Net = games.Lose, -w.Stake
	}
	s.Returned = w.Stake + s.Net
	if push && b.main && a.g.tieRides {
		s.Rides, s.Returned = true, 0 // RWS 3.9
	}
	return s, nil
}

// netAt is stake·num/den rounded down to the minor unit (SPEC §4), exactly.
func netAt(stake baccarat.Money, t tier) baccarat.Money {
	hi, lo := bits.Mul64(uint64(stake), uint64(t.num))
	if hi >= uint64(t.den) { // beyond int64: the books never take such a stake
		n := new(big.Int).Mul(big.NewInt(int64(stake)), big.NewInt(t.num))
		return baccarat.Money(n.Quo(n, big.NewInt(t.den)).Int64())
	}
	q, _ := bits.Div64(hi, lo, uint64(t.den))
	return baccarat.Money(q)
}

// netAtOdds is floor(stake·odds) − stake with odds in hundredths (BoB 1.2).
func netAtOdds(stake baccarat.Money, o baccarat.Odds) baccarat.Money {
	if o <= 100 {
		return 0
	}
	return netAt(stake, tier{int64(o), 100}) - stake
}

func (a *auditor) voided(e *table.Event) {
	a.rep.Voids++
	for _, s := range e.Settlements {
		w, ok := a.open[s.Wager]
		if !ok || s.Outcome != games.Void || s.Returned != w.Stake || s.Net != 0 {
			a.problem(e, "void: wager %d must get its stake back exactly", s.Wager)
		}
		delete(a.open, s.Wager)
	}
	if len(a.open) > 0 {
		a.problem(e, "void: %d wagers were not returned", len(a.open))
	}
	a.open = map[uint64]table.Wager{}
}

func (a *auditor) sessionSettled(e *table.Event) {
	a.rep.Sessions++
	void := slices.Contains(table.VoidReasons, e.Reason) // the session called off: every stake back
	banker, player := longestStreaks(a.session)
	for _, s := range e.Settlements {
		w, ok := a.dragon[s.Wager]
		d, known := a.g.dragons[w.Bet]
		if !ok || !known {
			a.problem(e, "Dragon wager %d is settled but was not placed in this session", s.Wager)
			continue
		}
		a.rep.Wagers++
		longest := 0
		if d.banker {
			longest = banker
		}
		if d.player {
			longest = max(longest, player)
		}
		outcome, net := games.Lose, -w.Stake
		switch {
		case void:
			outcome, net = games.Void, 0
		case longest >= 7:
			outcome, net = games.Win, netAt(w.Stake, d.royal)
		case longest == 6:
			outcome, net = games.Win, netAt(w.Stake, d.golden)
		case longest == 5:
			outcome, net = games.Win, netAt(w.Stake, d.ruby)
		}
		if outcome != s.Outcome || net != s.Net || w.Stake+net != s.Returned {
			a.problem(e, "Dragon wager %d (%s): recorded %s %d, the session's streaks give %s %d", w.ID, w.Bet, s.Outcome, s.Net, outcome, net)
		}
		delete(a.dragon, s.Wager)
	}
	if len(a.dragon) > 0 {
		a.problem(e, "%d Dragon wagers of the session were not settled", len(a.dragon))
	}
	a.dragon = map[uint64]table.Wager{}
	a.session = a.session[:0]
}

// longestStreaks are the longest runs of Banker and of Player wins; a Tie neither breaks
// nor extends a run (Dragon 3.11).
func longestStreaks(results []baccarat.Winner) (banker, player int) {
	var side baccarat.Winner
	run := 0
	for _, w := range results {
		switch {
		case w == baccarat.Tie:
			continue
		case w == side:
			run++
		default:
			side, run = w, 1
		}
		if side == baccarat.BankerWins {
			banker = max(banker, run)
		} else {
			player = max(player, run)
		}
	}
	return banker, player
}
