package table

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// A wager is the command a table takes most, dozens per round, so its path is kept short:
// its names are resolved once (Prepare), each rule's common case is a compare or two read
// from small per-bet tables made when the table is set up, and what a rule says when it
// refuses is worked out apart, off that path. The rules and their order are SPEC §3–§4's
// whichever way a wager goes.

// placement is a wager being checked: everything resolved once, then read by every rule.
type placement struct {
	prepared
	c       *Place
	player  string
	betting int
	have    baccarat.Money // what the party already has on this spot
	// raise is 1 + the index of the wager this Place adds to (in t.wagers, or t.dragon for a
	// Dragon bet), found only where have is not 0 (raise.go); 0 for a new wager.
	raise int
}

// prepared is a Place resolved against a table (Table.Prepare), or a placement's names
// resolved as it is applied.
type prepared struct {
	table *Table
	b     *games.Bet // nil: the game has no such bet
	bi    int        // b's index in the game's list, -1 for none
	party PartyID    // 0: a participant the table has never seen
	seat  seatID     // -1: a seat the table has never seen
	own   bool       // the party's own seat
	// plain: a known party's single-coup, fixed-odds bet at their own seat, the wager
	// Apply's short way may take.
	plain bool
}

// Prepare resolves a wager's names against this table once: the player to their party, the
// seat, the bet. A host prepares each Place at the edge; Apply then keys everything by
// small integers. A Place that is not prepared is resolved by name as it is applied.
func (t *Table) Prepare(c *Place) {
	player := c.Player
	if player == "" {
		player = c.Actor
	}
	p := prepared{table: t, party: t.Party(player), bi: t.betIndex(c.Bet)}
	if c.Seat == "" || c.Seat == player {
		p.seat = t.parties[p.party].seat
	} else {
		p.seat = t.seatOf(c.Seat)
	}
	p.own = p.seat == t.parties[p.party].seat
	if p.bi >= 0 {
		p.b = t.game.Bets[p.bi]
		p.plain = p.party != 0 && p.own && p.seat >= 0 && p.b.Kind != games.Dragon && !p.b.Decimal
	}
	c.prep = p
}

// resolve fills in the party, bet and seat of a wager that was not prepared, by name.
func (t *Table) resolve(p *placement) {
	p.party = t.lookupParty(p.player)
	p.bi = t.betIndex(p.c.Bet)
	t.resolveSeat(p)
	if p.bi >= 0 {
		p.b = t.game.Bets[p.bi]
	}
}

// place validates a wager against every rule of SPEC §3–§4, then records it. The rules run
// in a fixed order so a wager breaking several always gets the same code. Where a rule
// needs more than a compare (a Dragon bet, Bet on Baccarat's odds, the layout rules of
// t.bets), it is asked only of the bets it concerns; what a rule says when it refuses is
// worked out apart. It is one function on purpose: split into a check and a record, the
// placement goes through memory between them and a wager costs a fifth more.
func (t *Table) place(c *Place, actor string, role Role) error {
	p := placement{c: c, player: c.Player}
	if p.player == "" {
		p.player = actor
	}
	if c.prep.table == t {
		p.prepared = c.prep
	} else {
		t.resolve(&p)
	}
	if c.RequestID != "" && p.party != 0 {
		if r, ok := t.reqs[reqKey{p.party, c.RequestID}]; ok {
			return t.duplicate(r, c, p.player)
		}
		if r, ok := t.prevReqs[reqKey{p.party, c.RequestID}]; ok {
			return t.duplicate(r, c, p.player)
		}
	}

	// The rules.
	b := p.b
	if b == nil || !t.betOpen || t.interrupted || b.Kind == games.Dragon || b.Decimal {
		if err := t.checkOpenFor(b, c); err != nil {
			return err
		}
	}
	if c.Stake <= 0 {
		return refuse(baccarat.CodeBadRequest, "a stake must be a positive amount in minor units")
	}
	if (len(t.wagers) >= MaxWagersPerRound || b.Kind == games.Dragon && len(t.dragon) >= MaxWagersPerRound) && t.raising(&p) == 0 {
		return roundFull() // a raise adds no wager: the round's record is no longer for it
	}
	if !p.own && role == RolePlayer {
		return refuse(baccarat.CodeNotAuthorized, "you bet on your own playing area: leave seat out (only the dealer or the pit places a wager for you at another seat, Tiger 3.7)")
	}
	if b.Kind != games.Dragon {
		p.betting = t.betting
	}
	if p.own && p.party != 0 && b.Kind != games.Dragon { // a party's own seat is always interned
		p.have = t.parties[p.party].own[p.bi][p.betting].in(t.epoch)
	} else {
		p.have = t.haveElsewhere(&p)
	}
	if p.have != 0 { // the party has a stake on the spot: a chip may raise their wager there
		p.raise = t.raising(&p)
	}
	// l.Max is never above what the books can post (setLimits), so have+stake cannot overflow.
	if l := &t.limits[p.bi]; c.Stake < l.Min || c.Stake > l.Max || p.have+c.Stake > l.Max {
		if err := t.outsideLimits(&p); err != nil {
			return err
		}
	}
	if t.bets[p.bi].layout != 0 {
		if err := t.checkLayout(&p); err != nil {
			return err
		}
	}
	if c.Stake > c.Available {
		return t.insufficientFunds(c)
	}

	if p.raise != 0 {
		t.raise(&p, actor, role)
		return nil
	}

	// The record. Every field of t.placed is written (TestPlacedWagerIsWholeEachTime), so it
	// is not cleared first. A wager whose party and seat the table knows is laid with them
	// (emitWager); one by a participant or at a seat it has never seen goes through on,
	// which interns the names.
	e := t.event(EvWagerPlaced, &c.Header, actor, role)
	seat, odds, session, placedBy := c.Seat, baccarat.Odds(0), uint64(0), ""
	if seat == "" {
		seat = p.player
	}
	if b.Decimal {
		odds = c.Odds
	}
	if b.Kind == games.Dragon {
		session = t.session
	}
	if role != RolePlayer && role != RoleSystem {
		placedBy = actor
	}
	w := &t.placed
	w.ID, w.Round, w.Player, w.Seat, w.Bet, w.Stake = t.nextWager+1, t.round, p.player, seat, b.ID, c.Stake
	w.Odds, w.Betting, w.RequestID, w.PlacedBy, w.Riding, w.Session = odds, p.betting, c.RequestID, placedBy, false, session
	w.party, w.seat, w.bet = p.party, p.seat, uint8(p.bi)
	e.Wager = w
	if p.party == 0 || p.seat < 0 {
		t.emit(e)
	} else {
		t.emitWager(e)
	}
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
// error; a different wager under the same id is refused (idempotency_conflict). The stake
// compared is the one the request sent (a chip that raised the wager, or the wager as first
// placed), not the wager's total, which later chips change.
func (t *Table) duplicate(r reqOf, c *Place, player string) error {
	seat, id, stake := c.Seat, r.wager, r.stake
	if seat == "" {
		seat = player
	}
	for _, w := range t.Wagers() {
		if w.ID != id {
			continue
		}
		if stake == 0 { // a snapshot written before raises keeps no stake: the wager's
			stake = w.Stake
		}
		if w.Bet != c.Bet || stake != c.Stake || w.Seat != seat || (w.Odds != 0 && w.Odds != c.Odds) {
			return refuse(baccarat.CodeIdempotencyConflict, "request id %q already placed wager %d (%s, %s): a new wager needs a new request id",
				c.RequestID, id, w.Bet, t.money(w.Stake))
		}
	}
	return nil
}

// checkOpenFor: is betting open for this bet now?
func (t *Table) checkOpenFor(b *games.Bet, c *Place) error {
	if b == nil {
		return t.unknownBet(c)
	}
	if !t.betOpen || t.interrupted {
		return refuse(baccarat.CodeBettingClosed, "no more bets: betting is closed")
	}
	if b.Kind == games.Dragon && (t.phase != PhaseBetting || len(t.sessionResults) > 0) {
		return notOffered(b, "Dragon bets are placed only before the first hand of a session (Dragon 1.1.1, 3.12)")
	}
	if !b.Decimal {
		return nil
	}
	for _, p := range t.prices {
		if p.Bet != b.ID {
			continue
		}
		if !p.Offered {
			return notOffered(b, "%s is not offered in this betting round", b.Name)
		}
		if c.Odds != p.Odds {
			return oddsChanged(b, p.Odds, c.Odds)
		}
		return nil
	}
	return notOffered(b, "%s is not offered in this betting round", b.Name)
}

// haveElsewhere is what the party already has on the wager's spot when it is not a
// single-coup bet at their own seat: a Dragon bet, or a seat they were placed at.
func (t *Table) haveElsewhere(p *placement) baccarat.Money {
	switch {
	case p.party == 0 || p.seat < 0:
		return 0
	case p.b.Kind == games.Dragon:
		return t.dragonTotal(p.party, p.seat, p.bi)
	case p.own:
		return t.parties[p.party].own[p.bi][p.betting].in(t.epoch)
	}
	return t.spots[spotOf(p.party, p.seat, p.bi, p.betting)]
}

// outsideLimits refuses a stake outside the bet's limits (below the minimum, or taking what
// the party has on the spot above the maximum).
func (t *Table) outsideLimits(p *placement) error {
	l := &t.limits[p.bi]
	if p.c.Stake < l.Min && (p.raise == 0 || t.raised(p).Stake+p.c.Stake < l.Min) { // a raise: its new total
		return t.belowMinimum(p, l.Min)
	}
	if p.have+p.c.Stake <= l.Max { // a raise by a chip under the minimum, its new total within the limits
		return nil
	}
	if p.have == 0 {
		return t.aboveMaximum(p, l.Max)
	}
	return t.aboveMaximum(p, l.Max)
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

// layoutRule is one of the game's placement rules that reads the layout (checkLayout).
type layoutRule uint8

const (
	ruleOneSide      layoutRule = 1 << iota // a main bet where a party holds one side only (RWS 3.3)
	ruleNeedsMain                           // a side bet that goes beside a main bet (RWS 3.4)
	ruleArea                                // a single-coup bet, with wagers per area limited (Tiger 3.6)
	ruleDifferential                        // a main bet, with a table differential set (Tiger 5.18)
)

// betInfo is what the hot paths ask of a bet, copied out of the game into one small array
// when the table is set up (setLayout), so that they need not follow the game's pointers.
type betInfo struct {
	side   baccarat.Winner // the side a main bet backs; NoWinner for every other bet
	layout layoutRule      // the layout rules the bet is subject to at this table
}

// setLayout works out which layout rules each bet is subject to at this table, from the
// game's rules and the pit's settings: at New and whenever the pit changes a setting.
func (t *Table) setLayout() {
	r := &t.game.Rules
	for i, b := range t.game.Bets {
		var rules layoutRule
		if b.Kind != games.Dragon {
			if r.OneSide && b.Kind == games.Main {
				rules |= ruleOneSide
			}
			if r.SideNeedsMain && b.Kind == games.Side {
				rules |= ruleNeedsMain
			}
			if t.maxArea > 0 {
				rules |= ruleArea
			}
			if t.differential > 0 && b.Kind == games.Main {
				rules |= ruleDifferential
			}
		}
		t.bets[i] = betInfo{side: b.Side, layout: rules}
	}
}

// checkLayout enforces the placement rules of the game: one side only and side bets beside
// a main bet (RWS 3.3, 3.4), wagers per area (Tiger 3.6) and the table differential
// (Tiger 5.18). The rules ask the bet which side it backs, never its id.
func (t *Table) checkLayout(p *placement) error {
	rules, b := t.bets[p.bi].layout, p.b
	if rules&ruleOneSide != 0 && t.holds(p.party, other(b.Side)) {
		return bothSides(other(b.Side))
	}
	if rules&ruleNeedsMain != 0 && !t.holds(p.party, baccarat.PlayerWins) && !t.holds(p.party, baccarat.BankerWins) {
		return needsMain(b)
	}
	if rules&ruleArea != 0 && p.seat >= 0 && p.have == 0 && int(t.seats[p.seat].areas[p.bi]) >= t.maxArea {
		return t.areaFull()
	}
	if rules&ruleDifferential != 0 {
		sides := t.sides
		sides[b.Side] += p.c.Stake
		after := abs(sides[baccarat.PlayerWins] - sides[baccarat.BankerWins])
		if before := abs(t.sides[baccarat.PlayerWins] - t.sides[baccarat.BankerWins]); after > t.differential && after > before {
			return t.overDifferential(after)
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
	return p != 0 && t.parties[p].holds(side, t.epoch)
}

// MaxWagersPerRound is the most wagers a round holds (and a Dragon session): its settlement,
// or its void, lists every one in one journal record, which must stay within what a store
// takes (journal.MaxDataLen) whatever the players' names and stakes. A round that could not
// be recorded could be neither settled nor voided.
const MaxWagersPerRound = 20_000

func roundFull() error {
	return refuseWith(baccarat.CodeRoundFull, baccarat.Params{"max": MaxWagersPerRound}, "this round already holds %d wagers, the most one round takes: bet in the next round", MaxWagersPerRound)
}
