package tabletop

// The simulator's tables: each hand played through a real table (a shoe, the bots' bets, the
// deal), its chips booked and reported to the tournament, riders returned and the table closed.

import (
	"context"
	"encoding/hex"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// handRound deals one hand at every table playing a session, in table order.
func (r *runner) handRound(ctx context.Context) error {
	ns := make([]int, 0, len(r.tables))
	for n := range r.tables {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	for _, n := range ns {
		if err := ctx.Err(); err != nil {
			return err
		}
		if tb := r.tables[n]; tb != nil {
			if err := r.hand(tb); err != nil {
				return err
			}
		}
	}
	return nil
}

// hand plays one round at a session's table and reports it.
func (r *runner) hand(tb *simTable) error {
	if err := r.table(tb, r.newShoe(tb)); err != nil {
		return err
	}
	if err := r.table(tb, &table.Open{Header: r.system()}); err != nil {
		return err
	}
	r.botsBet(tb)
	for _, p := range tb.s.Required(tb.t) {
		r.place(tb, p)
	}
	if err := r.dealRound(tb); err != nil {
		return err
	}
	return r.report(tb)
}

func (r *runner) system() table.Header {
	return table.Header{Actor: "auto", Role: table.RoleSystem, At: r.now}
}

// newShoe is a seeded shoe for the table when it needs one.
func (r *runner) newShoe(tb *simTable) table.Command {
	if tb.t.ShoeActive() {
		return nil
	}
	s := baccarat.NewShoe(tb.t.Config().Decks)
	s.Shuffle(tb.src)
	return &table.NewShoe{Header: r.system(), Order: s.Order(), Salt: hex.EncodeToString(baccarat.NewSalt(tb.src))}
}

// table applies a command to a session's table, books its events in the chip wallets and
// tells the table's coordinator.
func (r *runner) table(tb *simTable, c table.Command) error {
	if c == nil {
		return nil
	}
	evs, err := tb.t.Apply(c)
	if err != nil {
		return err
	}
	r.book(evs)
	tb.co.On(evs)
	return nil
}

func (r *runner) book(evs []table.Event) {
	for i := range evs {
		e := &evs[i]
		switch e.Type {
		case table.EvWagerPlaced:
			r.wallets[e.Wager.Player] -= e.Wager.Stake
		case table.EvWagerRaised: // the chip added, never the total
			r.wallets[e.Wager.Player] -= e.Amount()
		case table.EvWagerLowered:
			r.wallets[e.Wager.Player] += e.Amount()
		case table.EvWagerWithdrawn:
			for _, w := range e.Withdrawn() {
				r.wallets[w.Player] += w.Stake
			}
		case table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled:
			for _, s := range e.Settlements {
				if !s.Rides {
					r.wallets[s.Player] += s.Returned
				}
			}
		}
	}
}

// place offers a wager to the tournament's rules and the table; a refused wager changes
// nothing, as at a live table.
func (r *runner) place(tb *simTable, p *table.Place) {
	p.At = r.now
	p.Available = r.wallets[p.Player]
	if tb.s.Check(tb.t, p) != nil {
		return
	}
	_ = r.table(tb, p)
}

// botsBet has the seated bots bet on the round whose betting just opened, as the live host's
// do: placed by the house (BotWager), each offered to the rules and the table.
func (r *runner) botsBet(tb *simTable) {
	round := tb.co.Betting()
	if round == 0 {
		return
	}
	var seats []BotSeat
	for _, id := range tb.co.Bots(r.t, r.players) {
		seats = append(seats, BotSeat{ID: id, Player: r.players[id], Chips: r.wallets[id], LastNet: r.last[id]})
	}
	st := tb.t.State()
	for _, p := range tb.co.BotWagers(r.g, &st, round, seats) {
		r.place(tb, p)
	}
}

// dealRound closes betting and deals until the round is settled or void.
func (r *runner) dealRound(tb *simTable) error {
	deal := func(c table.Command) (bool, error) {
		evs, err := tb.t.Apply(c)
		if err != nil {
			return false, err
		}
		r.book(evs)
		tb.co.On(evs)
		for i := range evs {
			if evs[i].Type == table.EvRoundSettled || evs[i].Type == table.EvRoundVoided {
				return true, nil
			}
		}
		return false, nil
	}
	if _, err := deal(&table.Close{Header: r.system()}); err != nil {
		return err
	}
	for range 10 {
		done, err := deal(&table.Deal{Header: r.system()})
		if err != nil || done {
			return err
		}
	}
	return baccarat.Errorf(baccarat.CodeInternal, "a round took more than 10 cards")
}

// report sends the tournament the hands that ended (the coordinator's reports): a session of
// hands' last hand carries the table's Dragon settlement; riding wagers go back to their
// owners first when the hand ends the session.
func (r *runner) report(tb *simTable) error {
	for {
		rp, ok := tb.co.NextReport(r.t, 0)
		if !ok {
			return nil
		}
		if rp.RidersFirst {
			if err := r.returnRiders(tb); err != nil {
				return err
			}
		}
		if _, err := r.apply(rp.Command); err != nil {
			return err
		}
		tb.co.Reported(rp, r.last)
		r.rebuyBots()
	}
}

// returnRiders gives riding wagers back to their owners (see the package doc).
func (r *runner) returnRiders(tb *simTable) error {
	if st := tb.t.State(); !Riding(&st) {
		return nil
	}
	if err := r.table(tb, r.newShoe(tb)); err != nil {
		return err
	}
	st := tb.t.State()
	if open := RidersOpen(&st, r.now, time.Time{}); open != nil {
		if err := r.table(tb, open); err != nil {
			return err
		}
		st = tb.t.State()
	}
	for _, w := range Riders(&st, r.now) {
		if err := r.table(tb, w); err != nil {
			return err
		}
	}
	return nil
}

// closeTable ends a timed session at its table: riding wagers go back, and a Dragon
// session is settled; its settlement is the end_session's chip changes.
func (r *runner) closeTable(tb *simTable) ([]tournament.ChipChange, error) {
	if tb == nil {
		return nil, nil
	}
	if err := r.returnRiders(tb); err != nil {
		return nil, err
	}
	if !r.g.Rules.DragonSessions { // (RWS, the one game with riders, has no Dragon bets)
		return nil, nil
	}
	if err := r.table(tb, SessionEnd(r.now)); err != nil {
		return nil, err
	}
	changes, _ := tb.co.Dragon()
	return changes, nil
}
