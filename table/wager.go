package table

import (
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func refuse(code baccarat.Code, format string, args ...any) error {
	return baccarat.Errorf(code, format, args...)
}

// onWagerPlaced puts a wager read from the history on the layout: its party, seat and bet
// are resolved by name, then it is laid as place lays the wager it checks (layWager).
func (t *Table) onWagerPlaced(w *Wager) {
	w.party = t.Party(w.Player)
	w.bet = uint8(t.betIndex(w.Bet))
	w.seat = t.parties[w.party].seat
	if w.Seat != w.Player {
		w.seat = t.seatOf(w.Seat)
	}
	t.layWager(w)
}

// emitWager is emit for the wager_placed event of a wager place has checked, its party,
// seat and bet resolved: the event is numbered and its wager laid as on would lay it
// (onWagerPlaced would resolve the same names again, then call layWager), without going
// through on. Replay rebuilds the same table from the event.
func (t *Table) emitWager(e *Event) {
	e.Seq = t.seq + 1
	t.seq = e.Seq
	t.layWager(e.Wager)
}

// layWager is the change a placed wager makes, its party, seat and bet resolved: the money
// the party has in play, the request id, and the wager on the layout (or with the session's
// Dragon bets).
func (t *Table) layWager(w *Wager) {
	t.parties[w.party].held += w.Stake
	t.nextWager = max(t.nextWager, w.ID)
	if w.RequestID != "" {
		t.reqs[reqKey{w.party, w.RequestID}] = reqOf{w.ID, w.Stake}
	}
	if w.Session != 0 {
		t.dragon = append(t.dragon, *w)
		return
	}
	t.addWager(w)
}

// addWager puts a wager on this round's layout and counts it in the round's tallies.
func (t *Table) addWager(w *Wager) {
	n := len(t.wagers)
	if n == cap(t.wagers) {
		t.wagers = slices.Grow(t.wagers, 1)
	}
	t.wagers = t.wagers[:n+1]
	t.wagers[n] = *w // copied once (append would copy it twice: it cannot tell w is not in t.wagers)
	if w.Odds != 0 || w.RequestID != "" || w.PlacedBy != "" || w.Riding || w.Session != 0 {
		t.optional = max(t.optional, n+1)
	}
	t.tally(&t.wagers[n])
}

// tally counts a wager just put on this round's layout in the round's tallies: what each
// party has on each spot, the stakes on each bet and side, and, where a limit reads them
// (ruleArea), the places taken in each playing area.
func (t *Table) tally(w *Wager) {
	p := &t.parties[w.party]
	bi, betting := int(w.bet), w.Betting
	var had baccarat.Money
	if w.seat == p.seat {
		own := &p.own[bi][betting]
		had = own.in(t.epoch)
		own.of, own.amount = t.epoch, had+w.Stake
	} else {
		sp := spotOf(w.party, w.seat, bi, betting)
		had = t.spots[sp]
		t.spots[sp] = had + w.Stake
	}
	if had == 0 && t.maxArea > 0 {
		s := &t.seats[w.seat]
		s.areas[bi]++
		if !s.touched {
			s.touched = true
			t.touchedSeats = append(t.touchedSeats, w.seat)
		}
	}
	t.totals[bi] += w.Stake
	t.staked |= 1 << bi
	if side := t.bets[bi].side; side != baccarat.NoWinner {
		t.sides[side] += w.Stake
		p.heldIn[side] = t.epoch
	}
}

// withdraw takes wagers back where the rules allow it: during a withdrawal window (an
// interruption, Tiger 5.17; a simultaneous draw, Tiger 5.8; a device reset, Tiger 5.9)
// every wager of the player's; during betting, wagers of the current betting round (in RWS
// only a riding Tie push, RWS 3.9). After "No more bets" nothing else may be withdrawn
// (MBS 5.7).
func (t *Table) withdraw(c *Withdraw, actor string, role Role) error {
	player := c.Player
	if player == "" {
		player = actor
	}
	if c.Stake < 0 || c.Stake != 0 && c.Wager == 0 {
		return refuse(baccarat.CodeBadRequest, "a stake to take back is a positive amount from one wager: name the wager")
	}
	var take []Wager
	switch {
	case t.window && t.SeenPrivately():
		// A window opened before the first private card stays shut once one is out.
		return refuse(baccarat.CodeNotWithdrawable, "a card of this round was shown to its squeezer alone: nobody may withdraw now (SPEC §4)")
	case t.window:
		// After a device reset betting is open again and wagers go one by one (Tiger 5.9);
		// otherwise a player taking the option withdraws all of them (Tiger 5.17.1).
		one := t.phase == PhaseBetting && c.Wager != 0
		for _, w := range t.wagers {
			if w.Player == player && (!one || w.ID == c.Wager) {
				take = append(take, w)
			}
		}
	case t.betOpen && !t.interrupted:
		take = t.withdrawable(player, c.Wager)
	default:
		return refuse(baccarat.CodeBettingClosed, "no more bets: wagers can no longer be withdrawn (MBS 5.7)")
	}
	if len(take) == 0 {
		if !t.hasWager(player) {
			return refuse(baccarat.CodeNotFound, "%s has no wager to withdraw", player)
		}
		if t.game.Rules.TieRides {
			return refuse(baccarat.CodeNotWithdrawable, "only a Player or Banker wager riding on a Tie may be withdrawn (RWS 3.9)")
		}
		return refuse(baccarat.CodeNotWithdrawable, "that wager was placed in an earlier betting round and stays (BoB 3.2)")
	}
	if c.Stake != 0 { // a chip taken back: less than the whole wager lowers it (raise.go)
		i := slices.IndexFunc(take, func(w Wager) bool { return w.ID == c.Wager })
		switch {
		case i < 0:
			return refuse(baccarat.CodeNotFound, "%s has no wager %d to take a stake back from now", player, c.Wager)
		case c.Stake > take[i].Stake:
			return refuse(baccarat.CodeBadRequest, "wager %d is %s: no more than that can be taken back", c.Wager, t.money(take[i].Stake))
		case c.Stake < take[i].Stake:
			return t.lower(c, &take[i], actor, role)
		}
	}
	if err := t.checkWithdrawLeavesMain(player, take); err != nil {
		return err
	}
	e := t.event(EvWagerWithdrawn, &c.Header, actor, role)
	d := e.more()
	d.Player, d.Withdrawn = player, take
	t.emit(e)
	return nil
}

func (t *Table) hasWager(player string) bool {
	for _, w := range t.Wagers() {
		if w.Player == player {
			return true
		}
	}
	return false
}

func (t *Table) withdrawable(player string, id uint64) []Wager {
	var take []Wager
	ok := func(w Wager) bool {
		if w.Player != player || (id != 0 && w.ID != id) {
			return false
		}
		if t.game.Rules.TieRides {
			return w.Riding
		}
		return !w.Riding && w.Betting == t.betting
	}
	for _, w := range t.wagers {
		if ok(w) {
			take = append(take, w)
		}
	}
	if t.phase == PhaseBetting && len(t.sessionResults) == 0 && !t.game.Rules.TieRides {
		for _, w := range t.dragon {
			if w.Player == player && (id == 0 || w.ID == id) {
				take = append(take, w)
			}
		}
	}
	return take
}

// checkWithdrawLeavesMain refuses to take away the main wager side bets stand beside (RWS 3.4).
func (t *Table) checkWithdrawLeavesMain(player string, take []Wager) error {
	if !t.game.Rules.SideNeedsMain || t.window {
		return nil
	}
	mains, sides := 0, 0
	for _, w := range t.wagers {
		if w.Player != player || slices.ContainsFunc(take, func(x Wager) bool { return x.ID == w.ID }) {
			continue
		}
		if t.game.Bets[w.bet].Kind == games.Main {
			mains++
		} else {
			sides++
		}
	}
	if sides > 0 && mains == 0 {
		return refuse(baccarat.CodeSideBetNeedsMain, "your side bets stand beside this wager: withdraw them first (RWS 3.4)")
	}
	return nil
}

func (t *Table) onWithdrawn(ws []Wager) {
	for _, w := range ws {
		t.parties[t.Party(w.Player)].held -= w.Stake
		if w.Session != 0 {
			t.dragon = slices.DeleteFunc(t.dragon, func(x Wager) bool { return x.ID == w.ID })
			continue
		}
		t.wagers = slices.DeleteFunc(t.wagers, func(x Wager) bool { return x.ID == w.ID })
	}
	t.retally()
}

// retally recounts the tallies from the layout after wagers leave it.
func (t *Table) retally() {
	ws := t.wagers
	t.wagers = nil
	t.clearTallies()
	for i := range ws {
		t.addWager(&ws[i])
	}
}

// clearTallies forgets this round's tallies, touching only what the round touched: what
// each party holds at their own seat is forgotten by starting a new tally (epoch).
func (t *Table) clearTallies() {
	t.epoch++
	if len(t.spots) > 0 {
		clear(t.spots)
	}
	for _, id := range t.touchedSeats {
		s := &t.seats[id]
		s.areas, s.touched = [maxBets]uint16{}, false
	}
	t.touchedSeats = t.touchedSeats[:0]
	if t.staked != 0 { // else no bet has a stake, nor any side
		t.totals, t.sides, t.staked = [maxBets]baccarat.Money{}, [4]baccarat.Money{}, 0
	}
}
