package table

import (
	"fmt"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// AuditReport is what Audit checked and what it found wrong.
type AuditReport struct {
	Rounds   int      // settled rounds recomputed
	Voids    int      // void rounds checked
	Sessions int      // Dragon sessions recomputed
	Wagers   int      // settlements recomputed
	Problems []string // every disagreement, in history order
}

// Audit recomputes every settlement of a table's history from the cards dealt and the
// wagers placed, with the game's rules, independently of the state machine that wrote it:
// the coup must be what the Table of Play deals from those cards, every wager open at the
// result must be settled exactly once, and each settlement must be what the pay table says.
func Audit(cfg Config, events []Event) (AuditReport, error) {
	g, _, err := cfg.Normalize()
	if err != nil {
		return AuditReport{}, err
	}
	a := auditor{g: g, open: map[uint64]Wager{}, dragon: map[uint64]Wager{}}
	for i := range events {
		a.step(&events[i])
	}
	return a.rep, nil
}

type auditor struct {
	g       *games.Game
	rep     AuditReport
	open    map[uint64]Wager // wagers on the layout this round (riding ones included)
	dragon  map[uint64]Wager
	cards   []baccarat.Card
	session []baccarat.Winner
}

func (a *auditor) problem(e *Event, format string, args ...any) {
	a.rep.Problems = append(a.rep.Problems, fmt.Sprintf("event %d (round %d): ", e.Seq, e.Round)+fmt.Sprintf(format, args...))
}

func (a *auditor) step(e *Event) {
	switch e.Type {
	case EvBettingOpened:
		if e.Betting <= 1 {
			a.cards = a.cards[:0]
		}
	case EvWagerPlaced:
		if e.Wager.Session != 0 {
			a.dragon[e.Wager.ID] = e.Wager
		} else {
			a.open[e.Wager.ID] = e.Wager
		}
	case EvWagerWithdrawn:
		for _, w := range e.Withdrawn {
			delete(a.open, w.ID)
			delete(a.dragon, w.ID)
		}
	case EvCardDealt:
		a.cards = append(a.cards, e.Card.Card)
	case EvCardsCorrected:
		a.cards = append(a.cards[:0], e.Cards...)
	case EvRoundSettled:
		a.settled(e)
	case EvRoundVoided:
		a.voided(e)
	case EvSessionSettled:
		a.sessionSettled(e)
	}
}

func (a *auditor) settled(e *Event) {
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
	for _, s := range e.Settlements {
		w, ok := a.open[s.Wager]
		if !ok || seen[s.Wager] {
			a.problem(e, "wager %d is settled but was not open, or is settled twice", s.Wager)
			continue
		}
		seen[s.Wager] = true
		a.rep.Wagers++
		want := a.recompute(&w, &r)
		if want != s {
			a.problem(e, "wager %d (%s %d): recorded %+v, the rules give %+v", w.ID, w.Bet, w.Stake, s, want)
		}
	}
	for id := range a.open {
		if !seen[id] {
			a.problem(e, "wager %d was open at the result but not settled", id)
		}
	}
	next := map[uint64]Wager{}
	for _, s := range e.Settlements {
		if s.Rides {
			w := a.open[s.Wager]
			w.Riding = true
			next[w.ID] = w
		}
	}
	a.open = next
	if a.g.Rules.DragonSessions {
		a.session = append(a.session, r.Winner)
	}
}

// recompute is the settlement the pay table gives, written out independently of settle.go.
func (a *auditor) recompute(w *Wager, r *baccarat.Result) Settlement {
	b := a.g.Bet(w.Bet)
	var s games.Settlement
	if b.Decimal {
		s = games.SettleAtOdds(b, w.Stake, w.Odds, r)
	} else {
		s = games.Settle(b, w.Stake, r)
	}
	out := Settlement{Wager: w.ID, Player: w.Player, Bet: w.Bet, Stake: w.Stake, Outcome: s.Outcome.String(),
		Odds: w.Odds, Net: s.Net, Returned: w.Stake + s.Net}
	if s.Outcome == games.Win && !b.Decimal {
		out.Pays = s.Pays.String()
	}
	if s.Outcome == games.Push && b.Kind == games.Main && a.g.Rules.TieRides {
		out.Rides, out.Returned = true, 0
	}
	return out
}

func (a *auditor) voided(e *Event) {
	a.rep.Voids++
	for _, s := range e.Settlements {
		w, ok := a.open[s.Wager]
		if !ok || s.Outcome != "void" || s.Returned != w.Stake || s.Net != 0 {
			a.problem(e, "void: wager %d must get its stake back exactly", s.Wager)
		}
		delete(a.open, s.Wager)
	}
	if len(a.open) > 0 {
		a.problem(e, "void: %d wagers were not returned", len(a.open))
	}
	a.open = map[uint64]Wager{}
}

func (a *auditor) sessionSettled(e *Event) {
	a.rep.Sessions++
	for _, s := range e.Settlements {
		w, ok := a.dragon[s.Wager]
		if !ok {
			a.problem(e, "Dragon wager %d is settled but was not placed in this session", s.Wager)
			continue
		}
		a.rep.Wagers++
		got := games.SettleDragon(a.g.Bet(w.Bet), w.Stake, a.session)
		if got.Outcome.String() != s.Outcome || got.Net != s.Net || w.Stake+got.Net != s.Returned {
			a.problem(e, "Dragon wager %d: recorded %s %d, the session's streaks give %s %d", w.ID, s.Outcome, s.Net, got.Outcome, got.Net)
		}
		delete(a.dragon, s.Wager)
	}
	if len(a.dragon) > 0 {
		a.problem(e, "%d Dragon wagers of the session were not settled", len(a.dragon))
	}
	a.dragon = map[uint64]Wager{}
	a.session = a.session[:0]
}
