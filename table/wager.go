package table

import (
	"math/bits"
	"slices"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

func refuse(code, format string, args ...any) error { return baccarat.Errorf(code, format, args...) }

// placement is a wager being checked: everything resolved once, then read by every rule.
type placement struct {
	c       *Place
	b       *games.Bet
	bi      int
	party   PartyID // 0: a participant the table has never seen
	player  string
	seat    seatID // -1: a seat the table has never seen
	own     bool   // the party's own seat
	betting int
	have    baccarat.Money // what the party already has on this spot
}

// Prepare resolves a wager's names against this table once: the player to their party, the
// seat, the bet. A host prepares each Place at the edge; Apply then keys everything by
// small integers. A Place that is not prepared is resolved by name as it is applied.
func (t *Table) Prepare(c *Place) {
	player := c.Player
	if player == "" {
		player = c.Actor
	}
	c.prep = prepared{table: t, party: t.Party(player), bi: int8(t.betIndex(c.Bet)), seat: -1}
	if c.Seat == "" || c.Seat == player {
		c.prep.seat = t.parties[c.prep.party].seat
	} else {
		c.prep.seat = t.seatOf(c.Seat)
	}
}

// prepared is a Place resolved by Table.Prepare.
type prepared struct {
	table *Table
	party PartyID
	seat  seatID
	bi    int8
}

// resolve fills in the placement's party, bet and seat: from Prepare, or by name.
func (t *Table) resolve(p *placement) {
	c := p.c
	if c.prep.table == t {
		p.party, p.bi, p.seat = c.prep.party, int(c.prep.bi), c.prep.seat
		p.own = p.seat == t.parties[p.party].seat
	} else {
		p.party = t.lookupParty(p.player)
		p.bi = t.betIndex(c.Bet)
		t.resolveSeat(p)
	}
	if p.bi >= 0 {
		p.b = t.game.Bets[p.bi]
	}
}

// place validates a wager against every rule of SPEC §3–§4, then places it. The checks run
// in a fixed order so a wager breaking several rules always gets the same code.
func (t *Table) place(c *Place, actor string, role Role) error {
	p := &t.scratch // the table's own: a placement on the stack would escape through t.placing
	*p = placement{c: c, player: c.Player}
	if p.player == "" {
		p.player = actor
	}
	t.resolve(p)
	if c.RequestID != "" && p.party != 0 {
		if id, ok := t.reqs[reqKey{p.party, c.RequestID}]; ok {
			return t.duplicate(id, c, p.player)
		}
		if id, ok := t.prevReqs[reqKey{p.party, c.RequestID}]; ok {
			return t.duplicate(id, c, p.player)
		}
	}
	if err := t.checkOpenFor(p.b, c); err != nil {
		return err
	}
	if c.Stake <= 0 {
		return refuse(baccarat.CodeBadRequest, "a stake must be a positive amount in minor units")
	}
	if !p.own && role == RolePlayer {
		return refuse(baccarat.CodeNotAuthorized, "you bet on your own playing area: leave seat out (only the dealer or the pit places a wager for you at another seat, Tiger 3.7)")
	}
	if p.b.Kind != games.Dragon {
		p.betting = t.betting
	}
	p.have = t.have(p)
	if err := t.checkLimits(p); err != nil {
		return err
	}
	if err := t.checkLayout(p); err != nil {
		return err
	}
	if c.Stake > c.Available {
		return refuse(baccarat.CodeInsufficientFunds, "a stake of %s is more than the %s available", t.money(c.Stake), t.money(c.Available))
	}
	e := t.event(EvWagerPlaced, &c.Header, actor, role)
	t.placed = Wager{}
	w := &t.placed
	e.Wager = w
	w.ID, w.Round, w.Player, w.Bet, w.Stake, w.Betting, w.RequestID = t.nextWager+1, t.round, p.player, p.b.ID, c.Stake, p.betting, c.RequestID
	w.Seat = c.Seat
	if w.Seat == "" {
		w.Seat = p.player
	}
	if p.b.Decimal {
		w.Odds = c.Odds
	}
	if p.b.Kind == games.Dragon {
		w.Session = t.session
	}
	if role != RolePlayer && role != RoleSystem {
		w.PlacedBy = actor
	}
	if p.party != 0 && p.seat >= 0 {
		t.placing = p // onWagerPlaced takes the ids from here rather than the names
	}
	t.emit(e)
	t.placing, p.c = nil, nil
	return nil
}

// resolveSeat decides the playing area by name: a player bets on their own; the dealer or
// the pit may place for a player at any seat (Tiger 3.7).
func (t *Table) resolveSeat(p *placement) {
	name := p.c.Seat
	if name == "" || name == p.player {
		p.own = true
		if p.party != 0 {
			p.seat = t.parties[p.party].seat
		} else if id, ok := t.seatIdx[p.player]; ok {
			p.seat = id
		} else {
			p.seat = -1
		}
		return
	}
	if id, ok := t.seatIdx[name]; ok {
		p.seat = id
	} else {
		p.seat = -1
	}
}

// duplicate answers a request id seen before: the same wager again is no change and no
// error; a different wager under the same id is refused (idempotency_conflict).
func (t *Table) duplicate(id uint64, c *Place, player string) error {
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
func (t *Table) checkOpenFor(b *games.Bet, c *Place) error {
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

// have is what the party already has on the wager's spot (bet, seat, betting round).
func (t *Table) have(p *placement) baccarat.Money {
	switch {
	case p.party == 0 || p.seat < 0:
		return 0
	case p.b.Kind == games.Dragon:
		return t.dragonTotal(p.party, p.seat, p.bi)
	case p.own:
		return t.parties[p.party].own[p.bi][p.betting]
	}
	return t.spots[spotOf(p.party, p.seat, p.bi, p.betting)]
}

func (t *Table) checkLimits(p *placement) error {
	l := &t.limits[p.bi]
	stake := p.c.Stake
	if stake < l.Min {
		return refuse(baccarat.CodeBelowMinimum, "the minimum on %s is %s", p.b.Name, t.money(l.Min))
	}
	// l.Max is never above what the books can post (setLimits), so have+stake cannot overflow.
	if have := p.have; stake > l.Max || have+stake > l.Max {
		if have == 0 {
			return refuse(baccarat.CodeAboveMaximum, "the maximum on %s is %s", p.b.Name, t.money(l.Max))
		}
		return refuse(baccarat.CodeAboveMaximum, "the maximum on %s is %s; you have %s on it", p.b.Name, t.money(l.Max), t.money(have))
	}
	return nil
}

// money writes an amount for a message, in the table's currency as the pages show it.
func (t *Table) money(m baccarat.Money) string { return baccarat.FormatMoney(m, t.cfg.Currency) }

func (t *Table) dragonTotal(p PartyID, s seatID, bi int) baccarat.Money {
	var sum baccarat.Money
	for _, w := range t.dragon {
		if w.party == p && w.seat == s && int(w.bet) == bi {
			sum += w.Stake
		}
	}
	return sum
}

// checkLayout enforces the placement rules of the game: one side only and side bets beside
// a main bet (RWS 3.3, 3.4), wagers per area (Tiger 3.6) and the table differential
// (Tiger 5.18). The rules ask the bet which side it backs, never its id.
func (t *Table) checkLayout(p *placement) error {
	r, b := t.game.Rules, p.b
	if b.Kind == games.Dragon {
		return nil
	}
	if r.OneSide && b.Kind == games.Main && t.holds(p.party, other(b.Side)) {
		return refuse(baccarat.CodeBothSides, "you hold %s this round: Player or Banker, never both (RWS 3.3)", other(b.Side))
	}
	if r.SideNeedsMain && b.Kind == games.Side && !t.holds(p.party, baccarat.PlayerWins) && !t.holds(p.party, baccarat.BankerWins) {
		return refuse(baccarat.CodeSideBetNeedsMain, "place Player or Banker first: %s only goes beside a main wager (RWS 3.4)", b.Name)
	}
	if t.maxArea > 0 && p.seat >= 0 && p.have == 0 && int(t.seats[p.seat].areas[p.bi]) >= t.maxArea {
		return refuse(baccarat.CodeAreaFull, "this playing area already holds %d wagers (Tiger 3.6)", t.maxArea)
	}
	if t.differential > 0 && b.Kind == games.Main {
		sides := t.sides
		sides[b.Side] += p.c.Stake
		after := abs(sides[baccarat.PlayerWins] - sides[baccarat.BankerWins])
		if before := abs(t.sides[baccarat.PlayerWins] - t.sides[baccarat.BankerWins]); after > t.differential && after > before {
			return refuse(baccarat.CodeTableDifferential, "it would take the table differential to %s, over the limit of %s (Tiger 5.18)", t.money(after), t.money(t.differential))
		}
	}
	return nil
}

// other is the opposite main side.
func other(side baccarat.Winner) baccarat.Winner {
	if side == baccarat.PlayerWins {
		return baccarat.BankerWins
	}
	return baccarat.PlayerWins
}

func abs(x baccarat.Money) baccarat.Money {
	if x < 0 {
		return -x
	}
	return x
}

// holds reports whether the party has a wager on a main side in this round.
func (t *Table) holds(p PartyID, side baccarat.Winner) bool {
	return p != 0 && t.parties[p].sides&(1<<side) != 0
}

// onWagerPlaced puts a placed wager on the layout. A wager placed at this table comes with
// its party, seat and bet resolved (t.placing); one read from a journal is resolved by name.
func (t *Table) onWagerPlaced(w *Wager) {
	if p := t.placing; p != nil {
		w.party, w.seat, w.bet = p.party, p.seat, uint8(p.bi)
	} else {
		w.party = t.Party(w.Player)
		w.bet = uint8(t.betIndex(w.Bet))
		w.seat = t.parties[w.party].seat
		if w.Seat != w.Player {
			w.seat = t.seatOf(w.Seat)
		}
	}
	pid := w.party
	t.parties[pid].held += w.Stake
	t.nextWager = max(t.nextWager, w.ID)
	if w.RequestID != "" {
		t.reqs[reqKey{pid, w.RequestID}] = w.ID
	}
	if w.Session != 0 {
		t.dragon = append(t.dragon, *w)
		return
	}
	t.addWager(w)
}

// addWager puts a wager on this round's layout and counts it in the tallies.
func (t *Table) addWager(w *Wager) {
	t.wagers = append(t.wagers, *w)
	p := &t.parties[w.party]
	bi, betting := int(w.bet), w.Betting
	var had baccarat.Money
	if w.seat == p.seat {
		had = p.own[bi][betting]
		p.own[bi][betting] = had + w.Stake
		p.bets |= 1 << bi
	} else {
		sp := spotOf(w.party, w.seat, bi, betting)
		had = t.spots[sp]
		t.spots[sp] = had + w.Stake
	}
	if !p.touched {
		p.touched = true
		t.touched = append(t.touched, w.party)
	}
	if had == 0 {
		s := &t.seats[w.seat]
		s.areas[bi]++
		if !s.touched {
			s.touched = true
			t.touchedSeats = append(t.touchedSeats, w.seat)
		}
	}
	t.totals[bi] += w.Stake
	if side := t.game.Bets[bi].Side; side != baccarat.NoWinner {
		t.sides[side] += w.Stake
		p.sides |= 1 << side
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
	e := t.event(EvWagerWithdrawn, &c.Header, actor, role)
	d := e.more()
	d.Player, d.Withdrawn = player, take
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

// clearTallies forgets this round's tallies, touching only what the round touched.
func (t *Table) clearTallies() {
	if len(t.spots) > 0 {
		clear(t.spots)
	}
	for _, id := range t.touched {
		p := &t.parties[id]
		for b := p.bets; b != 0; b &= b - 1 {
			p.own[bits.TrailingZeros16(b)] = [maxBetting]baccarat.Money{}
		}
		p.bets, p.sides, p.touched = 0, 0, false
	}
	for _, id := range t.touchedSeats {
		s := &t.seats[id]
		s.areas, s.touched = [maxBets]uint16{}, false
	}
	t.touched, t.touchedSeats = t.touched[:0], t.touchedSeats[:0]
	t.totals, t.sides = [maxBets]baccarat.Money{}, [4]baccarat.Money{}
}
