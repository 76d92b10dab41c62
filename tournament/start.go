package tournament

import (
	"fmt"
	"time"
)

// start begins the tournament at its start time: registration closes if still open; with
// fewer than MinEntrants the tournament is cancelled and every fee refunded; otherwise the
// first round is seated from the command's seed.
func (t *Tournament) start(c *Command) error {
	if t.phase != PhaseRegistering && t.phase != PhaseClosed {
		return badState("the tournament cannot start: it is %s", t.phase)
	}
	if c.At.Before(t.cfg.Start) {
		return badState("the tournament starts at %s", stamp(t.cfg.Start))
	}
	if t.phase == PhaseRegistering {
		t.emit(c.At, Event{Type: EvRegistrationClosed})
	}
	if n := len(t.players); n < t.cfg.MinEntrants {
		t.emitCancelled(c, fmt.Sprintf("%d entrants, fewer than the %d the tournament needs", n, t.cfg.MinEntrants))
		return nil
	}
	t.emit(c.At, Event{Type: EvStarted, Seed: c.Seed, Secret: c.Secret, Commitment: Commitment(c.Seed, c.Secret), Count: len(t.players)})
	t.seatRound(c.At, 1, t.Entrants())
	return nil
}

// seatRound seats round n's players (round 1: every entrant in registration order; later:
// the advancing players in ranking order) with the seed's draw for that round.
func (t *Tournament) seatRound(at time.Time, n int, ids []string) {
	rc := t.roundConfig(n)
	chips := t.cfg.StartingChips
	if rc.CarryChips {
		chips = 0
	}
	tables := Seat(ids, t.cfg.TableSize, seatingSource(t.seed, n))
	t.emit(at, Event{Type: EvRoundSeated, Round: n, Tables: tables, Chips: chips})
	// Chips carried into a round of a higher minimum may not make it.
	for _, tb := range t.current().tables {
		t.eliminateBusted(at, tb, &Point{Round: n, Session: 1})
	}
	t.finishEmptyTables(at)
}

func (t *Tournament) onSeated(e *Event) {
	for _, p := range t.players {
		p.table = 0
	}
	r := &round{number: e.Round, seatedAt: e.At}
	for i, ids := range e.Tables {
		tb := &table{number: i + 1, players: append([]string(nil), ids...), lastAt: e.At}
		r.tables = append(r.tables, tb)
		for _, id := range ids {
			p := t.lookup(id)
			p.table, p.reached = i+1, e.Round
			if e.Chips > 0 {
				p.chips = e.Chips
			}
		}
	}
	t.rounds = append(t.rounds, r)
}

// finishEmptyTables finishes the tables of the current round where nobody is left in play,
// then ends the round if every table has finished.
func (t *Tournament) finishEmptyTables(at time.Time) {
	for _, tb := range t.current().tables {
		if !tb.finished && !tb.live && t.active(tb) == 0 {
			t.emit(at, Event{Type: EvTableFinished, Round: t.Round(), Table: tb.number})
		}
	}
	t.maybeEndRound(at)
}

// active counts the table's players still in play.
func (t *Tournament) active(tb *table) int {
	n := 0
	for _, id := range tb.players {
		if !t.lookup(id).eliminated {
			n++
		}
	}
	return n
}
