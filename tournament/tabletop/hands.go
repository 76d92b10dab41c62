package tabletop

// The simulator's tables: each hand played through a real table (a shoe, the bots' bets, the
// deal), its chips booked and reported to the tournament, riders returned and the table closed.

import (
	"context"
	"encoding/hex"
	"slices"

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
	evs, err := r.dealRound(tb)
	if err != nil {
		return err
	}
	return r.report(tb, evs)
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

// table applies a command to a session's table and books its events in the chip wallets.
func (r *runner) table(tb *simTable, c table.Command) error {
	if c == nil {
		return nil
	}
	evs, err := tb.t.Apply(c)
	if err != nil {
		return err
	}
	r.book(evs)
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

func (r *runner) botsBet(tb *simTable) {
	st := tb.t.State()
	for _, id := range tb.s.Players {
		bot := r.players[id]
		if bot == nil {
			continue
		}
		if en, _ := r.t.Entrant(id); en.Eliminated {
			continue
		}
		for _, w := range bot.Wagers(tb.s.BotHand(r.g, &st, id, r.wallets[id], r.last[id])) {
			r.place(tb, &table.Place{Header: table.Header{Actor: id, Role: table.RolePlayer}, Player: id, Bet: w.Bet, Stake: w.Stake})
		}
	}
}

// dealRound closes betting and deals until the round is settled or void; it returns the
// events from the close on.
func (r *runner) dealRound(tb *simTable) ([]table.Event, error) {
	var all []table.Event
	collect := func(c table.Command) (bool, error) {
		evs, err := tb.t.Apply(c)
		if err != nil {
			return false, err
		}
		r.book(evs)
		done := false
		for i := range evs {
			all = append(all, evs[i].Clone())
			done = done || evs[i].Type == table.EvRoundSettled || evs[i].Type == table.EvRoundVoided
		}
		return done, nil
	}
	if _, err := collect(&table.Close{Header: r.system()}); err != nil {
		return nil, err
	}
	for range 10 {
		done, err := collect(&table.Deal{Header: r.system()})
		if err != nil {
			return nil, err
		}
		if done {
			return all, nil
		}
	}
	return nil, baccarat.Errorf(baccarat.CodeInternal, "a round took more than 10 cards")
}

// report sends the tournament the hand's chip changes: a session of hands' last hand
// carries the table's Dragon settlement; riding wagers go back to their owners first when
// the hand ends the session.
func (r *runner) report(tb *simTable, evs []table.Event) error {
	var changes, dragon []tournament.ChipChange
	void := false
	for i := range evs {
		switch evs[i].Type {
		case table.EvRoundSettled:
			changes = Nets(evs[i].Settlements)
		case table.EvRoundVoided:
			void = true
		case table.EvSessionSettled:
			dragon = Nets(evs[i].Settlements)
		}
	}
	if void {
		tb.voids++
		_, err := r.apply(tournament.Command{Type: tournament.CmdReportHand, Table: tb.n, Void: true})
		return err
	}
	for _, c := range changes {
		r.last[c.Player] = c.Net
	}
	if r.lastHand(tb) {
		if err := r.returnRiders(tb); err != nil {
			return err
		}
	}
	_, err := r.apply(tournament.Command{Type: tournament.CmdReportHand, Table: tb.n, Changes: Merge(changes, dragon)})
	if err != nil {
		return err
	}
	r.rebuyBots()
	return nil
}

// lastHand reports whether the hand being reported is the session's last counted one.
func (r *runner) lastHand(tb *simTable) bool {
	for _, v := range r.t.State().Tables {
		if v.Table == tb.n {
			return tb.s.Hands > 0 && v.Hands+1 >= tb.s.Hands
		}
	}
	return false
}

// returnRiders gives riding wagers back to their owners (see the package doc).
func (r *runner) returnRiders(tb *simTable) error {
	if !HasRiders(tb.t) {
		return nil
	}
	if err := r.table(tb, r.newShoe(tb)); err != nil {
		return err
	}
	if err := r.table(tb, &table.Open{Header: r.system()}); err != nil {
		return err
	}
	for _, w := range Riders(tb.t) {
		w.At = r.now
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
	evs, err := tb.t.Apply(&table.EndSession{Header: r.system()})
	if err != nil {
		return nil, err
	}
	r.book(evs)
	for i := range evs {
		if evs[i].Type == table.EvSessionSettled {
			return Nets(evs[i].Settlements), nil
		}
	}
	return nil, nil
}
