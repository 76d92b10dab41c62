package tournament

import (
	"slices"
	"time"
)

// finishSession ends the table's live session: the busted who cannot rebuy before the next
// session are eliminated, the chips are journalled, and after the round's last session (or
// when nobody is left) the table finishes, which may end the round.
func (t *Tournament) finishSession(at time.Time, tb *table, reason string) {
	next := len(t.roundConfig(t.Round()).Sessions) > tb.session
	pt := &Point{Round: t.Round(), Session: tb.session + 1}
	if !next {
		pt = nil // no rebuy can save a bust at the round's end
	}
	t.eliminateBusted(at, tb, pt)
	rec := &t.sessions[tb.record]
	counts := make([]ChipCount, len(rec.Seats))
	for i, s := range rec.Seats {
		counts[i] = ChipCount{Player: s.Player, Chips: t.lookup(s.Player).chips}
	}
	t.emit(at, Event{Type: EvSessionEnded, Round: t.Round(), Table: tb.number, Session: tb.session,
		Hand: tb.hands, Reason: reason, Standings: counts})
	if !next || t.active(tb) == 0 {
		t.emit(at, Event{Type: EvTableFinished, Round: t.Round(), Table: tb.number})
		t.maybeEndRound(at)
	}
}

func (t *Tournament) onSessionEnded(e *Event) {
	tb := t.tableOf(e.Table)
	tb.live, tb.lastAt = false, e.At
	rec := &t.sessions[tb.record]
	rec.Ended, rec.EndedAt, rec.Reason = true, e.At, e.Reason
	for _, c := range e.Standings {
		rec.seat(c.Player).End = c.Chips
	}
}

func (t *Tournament) maybeEndRound(at time.Time) {
	r := t.current()
	if t.phase != PhaseRunning || len(r.tables) == 0 {
		return
	}
	for _, tb := range r.tables {
		if !tb.finished {
			return
		}
	}
	t.endRound(at)
}

// endRound ends the current round when every table has finished it: the advancing players
// go on to the next round, or, after the final or when fewer than two would go on, the
// tournament finishes.
func (t *Tournament) endRound(at time.Time) {
	n := t.Round()
	final := n == len(t.cfg.Rounds)
	var adv []string
	if !final {
		adv = t.advancers()
	}
	t.emit(at, Event{Type: EvRoundEnded, Round: n, Advancing: adv})
	if final || len(adv) < 2 {
		t.finish(at)
		return
	}
	t.seatRound(at, n+1, adv)
}

func (t *Tournament) onRoundEnded(e *Event) {
	for _, id := range e.Advancing {
		t.lookup(id).reached = e.Round + 1
	}
}

// advancers are the players who go on from the current round as it stands: the top
// Advance of each table (or of the round, AdvanceOverall) among those still in play, by
// chips, equal chips going to the earlier registration. They are listed in that order.
func (t *Tournament) advancers() []string {
	rc := t.roundConfig(t.Round())
	var adv []*player
	if rc.AdvanceOverall {
		adv = topN(t.inPlay(t.current().tables...), rc.Advance)
	} else {
		for _, tb := range t.current().tables {
			adv = append(adv, topN(t.inPlay(tb), rc.Advance)...)
		}
		slices.SortStableFunc(adv, byChips)
	}
	ids := make([]string, len(adv))
	for i, p := range adv {
		ids[i] = p.id
	}
	return ids
}

// inPlay lists the tables' players who are not eliminated.
func (t *Tournament) inPlay(tables ...*table) []*player {
	var ps []*player
	for _, tb := range tables {
		for _, id := range tb.players {
			if p := t.lookup(id); !p.eliminated {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func topN(ps []*player, n int) []*player {
	slices.SortStableFunc(ps, byChips)
	return ps[:min(n, len(ps))]
}

// finish ranks every entrant and divides the pool (see Prizes).
func (t *Tournament) finish(at time.Time) {
	ranked := t.finalOrder()
	ranks := finalRanks(ranked)
	pool := t.Pool()
	prizes := Prizes(pool.Total, t.cfg.Prizes, ranks)
	results := make([]Result, len(ranked))
	var pay []Payment
	for i, p := range ranked {
		results[i] = Result{Player: p.id, Rank: ranks[i], Round: p.reached, Chips: p.chips,
			Eliminated: p.eliminated, Rebuys: p.rebuys, Prize: prizes[i]}
		if prizes[i] > 0 {
			pay = append(pay, Payment{Player: p.id, Amount: prizes[i]})
		}
	}
	t.emit(at, Event{Type: EvFinished, Results: results, Pool: &pool, Payments: pay})
}

func (t *Tournament) onFinished(e *Event) {
	t.phase = PhaseFinished
	t.results = append([]Result(nil), e.Results...)
	pool := *e.Pool
	t.pool = &pool
}
