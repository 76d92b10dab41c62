package table

import (
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func refuse(code, format string, args ...any) error { return baccarat.Errorf(code, format, args...) }

// place validates a wager against every rule of SPEC §3–§4, then places it. The checks run
// in a fixed order so a wager breaking several rules always gets the same code.
func (t *Table) place(c *Command, actor string, role Role) error {
	player := c.Player
	if player == "" {
		player = actor
	}
	if c.RequestID != "" {
		if id, ok := t.reqs[reqKey{player, c.RequestID}]; ok {
			return t.duplicate(id, c, player)
		}
		if id, ok := t.prevReqs[reqKey{player, c.RequestID}]; ok {
			return t.duplicate(id, c, player)
		}
	}
	b := t.game.Bet(c.Bet)
	if err := t.checkOpenFor(b, c); err != nil {
		return err
	}
	if c.Stake <= 0 {
		return refuse(baccarat.CodeBadRequest, "a stake must be a positive amount in minor units")
	}
	seat := c.Seat
	if seat == "" {
		seat = player
	}
	if role == RolePlayer && seat != player {
		return refuse(baccarat.CodeNotAuthorized, "you bet on your own playing area: leave seat out (only the dealer or the pit places a wager for you at another seat, Tiger 3.7)")
	}
	betting := t.betting
	if b.Kind == games.Dragon {
		betting = 0
	}
	pid := t.lookupParty(player)
	sp := spotOf(pid, t.lookupSeat(seat), t.betIndex(b.ID), betting)
	if err := t.checkLimits(b, sp, player, seat, c.Stake); err != nil {
		return err
	}
	if err := t.checkLayout(b, sp, pid, c.Stake); err != nil {
		return err
	}
	var available baccarat.Money
	if pid >= 0 {
		available = t.parties[pid].balance
	}
	if c.Available != nil {
		available = *c.Available
	}
	if c.Stake > available {
		return refuse(baccarat.CodeInsufficientFunds, "a stake of %s is more than the %s available", t.money(c.Stake), t.money(available))
	}
	w := Wager{ID: t.nextWager + 1, Round: t.round, Player: player, Seat: seat, Bet: b.ID, Stake: c.Stake,
		Betting: betting, RequestID: c.RequestID}
	if c.Available != nil {
		w.Available = *c.Available
	}
	if b.Decimal {
		w.Odds = c.Odds
	}
	if b.Kind == games.Dragon {
		w.Session = t.session
	}
	if role != RolePlayer && role != RoleSystem {
		w.PlacedBy = actor
	}
	e := t.event(EvWagerPlaced, c, actor, role)
	e.Wager = w
	t.emit(e)
	return nil
}

// duplicate answers a request id seen before: the same wager again is no change and no
// error; a different wager under the same id is refused (idempotency_conflict).
func (t *Table) duplicate(id uint64, c *Command, player string) error {
	seat := c.Seat
	if seat == "" {
		seat = player
	}
	for _, w := range t.Wagers() {
		if w.ID == id && (w.Bet != c.Bet || w.Stake != c.Stake || w.Seat != seat || (w.Odds != 0 && w.Odds != c.Odds)) {
			return refuse(baccarat.CodeIdempotencyConflict, "request id %q already placed wager %d (%s, %s): a new wager needs a new request id",
				c.RequestID, id, w.Bet, t.money(w.Stake))
		}
	}
	return nil
}

// checkOpenFor: is betting open for this bet now?
func (t *Table) checkOpenFor(b *games.Bet, c *Command) error {
	if b == nil {
		return refuse(baccarat.CodeUnknownBet, "%s has no bet %q", t.game.Name, c.Bet)
	}
	if !t.betOpen || t.interrupted {
		return refuse(baccarat.CodeBettingClosed, "no more bets: betting is closed")
	}
	if b.Kind == games.Dragon && (t.phase != PhaseBetting || len(t.sessionResults) > 0) {
		return refuse(baccarat.CodeBetNotOffered, "Dragon bets are placed only before the first hand of a session (Dragon 1.1.1, 3.12)")
	}
	if !b.Decimal {
		return nil
	}
	for _, p := range t.prices {
		if p.Bet != b.ID {
			continue
		}
		if !p.Offered {
			return refuse(baccarat.CodeBetNotOffered, "%s is not offered in this betting round", b.Name)
		}
		if c.Odds != p.Odds {
			return refuse(baccarat.CodeOddsChanged, "the odds of %s are now %s (you sent %s)", b.Name, p.Odds, c.Odds)
		}
		return nil
	}
	return refuse(baccarat.CodeBetNotOffered, "%s is not offered in this betting round", b.Name)
}

func (t *Table) checkLimits(b *games.Bet, sp spot, player, seat string, stake baccarat.Money) error {
	l := t.cfg.LimitFor(b.ID)
	if stake < l.Min {
		return refuse(baccarat.CodeBelowMinimum, "the minimum on %s is %s", b.Name, t.money(l.Min))
	}
	have := t.spots[sp]
	if b.Kind == games.Dragon {
		have = t.dragonTotal(player, seat, b.ID)
	}
	most := MaxStake(b) // a limit without a maximum still stops where the books do
	if l.Max > 0 && l.Max < most {
		most = l.Max
	}
	if stake > most || have+stake > most {
		if have == 0 {
			return refuse(baccarat.CodeAboveMaximum, "the maximum on %s is %s", b.Name, t.money(most))
		}
		return refuse(baccarat.CodeAboveMaximum, "the maximum on %s is %s; you have %s on it", b.Name, t.money(most), t.money(have))
	}
	return nil
}

// money writes an amount for a message, in the table's currency as the pages show it.
func (t *Table) money(m baccarat.Money) string { return baccarat.FormatMoney(m, t.cfg.Currency) }

func (t *Table) dragonTotal(player, seat, bet string) baccarat.Money {
	var s baccarat.Money
	for _, w := range t.dragon {
		if w.Player == player && w.Seat == seat && w.Bet == bet {
			s += w.Stake
		}
	}
	return s
}

// checkLayout enforces the placement rules of the game: one side only and side bets beside
// a main bet (RWS 3.3, 3.4), wagers per area (Tiger 3.6) and the table differential
// (Tiger 5.18).
func (t *Table) checkLayout(b *games.Bet, sp spot, pid int32, stake baccarat.Money) error {
	r := t.game.Rules
	if b.Kind == games.Dragon {
		return nil
	}
	if r.OneSide && b.Kind == games.Main {
		other := "banker"
		if b.ID == "banker" {
			other = "player"
		}
		if t.holds(pid, other) {
			return refuse(baccarat.CodeBothSides, "you hold %s this round: Player or Banker, never both (RWS 3.3)", other)
		}
	}
	if r.SideNeedsMain && b.Kind == games.Side && !t.holds(pid, "player") && !t.holds(pid, "banker") {
		return refuse(baccarat.CodeSideBetNeedsMain, "place Player or Banker first: %s only goes beside a main wager (RWS 3.4)", b.Name)
	}
	if t.maxArea > 0 && t.spots[sp] == 0 && t.areas[sp.area()] >= t.maxArea {
		return refuse(baccarat.CodeAreaFull, "this playing area already holds %d wagers (Tiger 3.6)", t.maxArea)
	}
	if t.differential > 0 && b.Kind == games.Main {
		p, bk := t.sumPlayer, t.sumBanker
		if b.ID == "player" {
			p += stake
		} else {
			bk += stake
		}
		if after, before := abs(p-bk), abs(t.sumPlayer-t.sumBanker); after > t.differential && after > before {
			return refuse(baccarat.CodeTableDifferential, "it would take the table differential to %s, over the limit of %s (Tiger 5.18)", t.money(after), t.money(t.differential))
		}
	}
	return nil
}

func abs(x baccarat.Money) baccarat.Money {
	if x < 0 {
		return -x
	}
	return x
}

// holds reports whether the player has a wager on the main bet ("player" or "banker") in
// this round.
func (t *Table) holds(pid int32, bet string) bool {
	return pid >= 0 && t.parties[pid].mains&mainBit(bet) != 0
}

func mainBit(bet string) uint8 {
	switch bet {
	case "player":
		return 1
	case "banker":
		return 2
	}
	return 0
}

func (t *Table) onWagerPlaced(w *Wager) {
	pid := t.partyID(w.Player)
	f := &t.parties[pid]
	if w.Available > 0 {
		f.balance = w.Available
	}
	f.balance -= w.Stake
	f.held += w.Stake
	t.nextWager = max(t.nextWager, w.ID)
	if w.RequestID != "" {
		t.reqs[reqKey{w.Player, w.RequestID}] = w.ID
	}
	if w.Session != 0 {
		t.dragon = append(t.dragon, *w)
		return
	}
	t.addWager(w, pid)
}

// addWager puts a wager on this round's layout and counts it in the tallies.
func (t *Table) addWager(w *Wager, pid int32) {
	w.pid, w.bet = pid, t.betIndex(w.Bet)
	t.wagers = append(t.wagers, *w)
	sp := spotOf(pid, t.seatOf(w.Seat), w.bet, w.Betting)
	if t.spots[sp] == 0 {
		t.areas[sp.area()]++
	}
	t.spots[sp] += w.Stake
	t.totals[w.bet] += w.Stake
	switch w.Bet {
	case "player":
		t.sumPlayer += w.Stake
	case "banker":
		t.sumBanker += w.Stake
	}
	t.parties[pid].mains |= mainBit(w.Bet)
}

// withdraw takes wagers back where the rules allow it: during a withdrawal window (an
// interruption, Tiger 5.17; a simultaneous draw, Tiger 5.8; a device reset, Tiger 5.9)
// every wager of the player's; during betting, wagers of the current betting round (in RWS
// only a riding Tie push, RWS 3.9). After "No more bets" nothing else may be withdrawn
// (MBS 5.7).
func (t *Table) withdraw(c *Command, actor string, role Role) error {
	player := c.Player
	if player == "" {
		player = actor
	}
	var take []Wager
	switch {
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
			return refuse(CodeNotWithdrawable, "only a Player or Banker wager riding on a Tie may be withdrawn (RWS 3.9)")
		}
		return refuse(CodeNotWithdrawable, "that wager was placed in an earlier betting round and stays (BoB 3.2)")
	}
	if err := t.checkWithdrawLeavesMain(player, take); err != nil {
		return err
	}
	e := t.event(EvWagerWithdrawn, c, actor, role)
	e.Player, e.Withdrawn = player, take
	t.emit(e)
	return nil
}

// CodeNotWithdrawable refuses a withdrawal the game's rules do not allow now.
const CodeNotWithdrawable = baccarat.CodeNotWithdrawable

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
		if t.game.Bet(w.Bet).Kind == games.Main {
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
		f := t.partyOf(w.Player)
		f.held -= w.Stake
		f.balance += w.Stake
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
		t.addWager(&ws[i], t.partyID(ws[i].Player))
	}
}
