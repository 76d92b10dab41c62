package table

import (
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// A spot holds one wager per betting round. A player clicks chips onto a spot one at a
// time; each after the first raises the wager there rather than laying another beside it,
// so a round has one wager, one statement line and one settlement per spot, and Tiger 3.6's
// wagers per area counts wagers, not chips. SPEC §4 lets a wager be increased while betting
// is open ("After No more bets no wager may be placed, increased or withdrawn"), and every
// rule is checked against the raised total as it would be for a new wager of that total
// (place). A chip taken back (Withdraw with a Stake) lowers the wager, in exactly the windows
// a withdrawal is allowed, and never below the bet's minimum.

// raising finds the wager a Place raises: the party's wager on the same spot (seat and bet)
// placed in the betting round open now, at the same odds for a decimal bet, not one riding
// on a push from the last round (RWS 3.9); a Dragon bet's, the session's Dragon wager on the
// spot (Dragon bets are taken only while they may be placed: checkOpenFor). It returns 1 +
// its index in t.wagers (t.dragon for a Dragon bet), 0 when there is none. The latest such
// wager is raised: a history written before wagers were raised may hold several.
func (t *Table) raising(p *placement) int {
	if p.party == 0 || p.seat < 0 || p.b == nil {
		return 0
	}
	ws, betting := t.wagers, t.betting
	if p.b.Kind == games.Dragon {
		ws, betting = t.dragon, 0
	}
	for i := len(ws) - 1; i >= 0; i-- {
		w := &ws[i]
		if w.party == p.party && w.seat == p.seat && int(w.bet) == p.bi && w.Betting == betting && !w.Riding &&
			(!p.b.Decimal || w.Odds == p.c.Odds) {
			return i + 1
		}
	}
	return 0
}

// raised is the wager a raise adds to (p.raise is not 0).
func (t *Table) raised(p *placement) *Wager {
	if p.b.Kind == games.Dragon {
		return &t.dragon[p.raise-1]
	}
	return &t.wagers[p.raise-1]
}

// raise records a Place that passed every rule as a raise of the wager it adds to: a
// wager_raised event carrying the wager as it will stand (its stake the new total, its
// request id this Place's, so that the same request id twice raises once), and what was
// added. Its Detail is the table's, as t.placed is: the event is the table's until the next
// Apply.
func (t *Table) raise(p *placement, actor string, role Role) {
	c := p.c
	e := t.event(EvWagerRaised, &c.Header, actor, role)
	w := &t.chip
	*w = *t.raised(p)
	w.Stake += c.Stake
	w.RequestID = c.RequestID
	t.chipDetail = Detail{Player: w.Player, Amount: c.Stake}
	e.Wager, e.Detail = w, &t.chipDetail
	t.emit(e)
}

// onRestaked applies a wager_raised or wager_lowered event: the wager takes its new total,
// and what the party holds and the round's tallies move by the difference. A raise's request
// id is kept with the chip it sent.
func (t *Table) onRestaked(e *Event) {
	w := t.wagerByID(e.Wager.ID)
	if w == nil {
		return // not on this table's layout: a history that does not hold together
	}
	delta := e.Wager.Stake - w.Stake
	w.Stake = e.Wager.Stake
	t.countChip(e, w, delta)
	p := &t.parties[w.party]
	p.held += delta
	if e.Type == EvWagerRaised && e.Wager.RequestID != "" {
		t.reqs[reqKey{w.party, e.Wager.RequestID}] = reqOf{w.ID, delta}
	}
	if w.Session != 0 { // a Dragon bet: its session's wagers are summed where asked (dragonTotal)
		return
	}
	bi := int(w.bet)
	if w.seat == p.seat {
		own := &p.own[bi][w.Betting]
		own.of, own.amount = t.epoch, own.in(t.epoch)+delta
	} else {
		t.spots[spotOf(w.party, w.seat, bi, w.Betting)] += delta
	}
	t.totals[bi] += delta
	if side := t.bets[bi].side; side != baccarat.NoWinner {
		t.sides[side] += delta
	}
}

// wagerByID finds a wager of this round's layout or of the Dragon session by its id.
func (t *Table) wagerByID(id uint64) *Wager {
	for i := len(t.wagers) - 1; i >= 0; i-- {
		if t.wagers[i].ID == id {
			return &t.wagers[i]
		}
	}
	for i := range t.dragon {
		if t.dragon[i].ID == id {
			return &t.dragon[i]
		}
	}
	return nil
}

// lower takes a chip back from one wager (Withdraw with a Stake less than the wager's
// total), the wager found withdrawable now by withdraw's rules: only while betting is open
// (after "No more bets" a window lets a player take back all their wagers or none, Tiger
// 5.17.1, and no wager may be decreased, SPEC §4), never from a wager riding on a push (RWS
// 3.9: it stays whole or is withdrawn whole), and what stays must be at least the bet's
// minimum. A main wager lowered is still there, so the side bets beside it stand (RWS 3.4).
func (t *Table) lower(c *Withdraw, w *Wager, actor string, role Role) error {
	switch {
	case t.phase != PhaseBetting:
		return refuse(baccarat.CodeNotWithdrawable, "after no more bets a wager is withdrawn whole or stays: nobody may decrease one (SPEC §4)")
	case w.Riding:
		return refuse(baccarat.CodeNotWithdrawable, "a wager riding on a Tie is withdrawn whole or stays (RWS 3.9)")
	}
	left := w.Stake - c.Stake
	if min := t.limits[w.bet].Min; left < min {
		return refuseWith(baccarat.CodeBelowMinimum, t.amounts(baccarat.Params{"bet": w.Bet, "min": min, "stake": left}),
			"what stays on %s must be at least its minimum of %s: withdraw the whole wager instead", t.game.Bets[w.bet].Name, t.money(min))
	}
	e := t.event(EvWagerLowered, &c.Header, actor, role)
	l := &t.chip
	*l = *w
	l.Stake = left
	t.chipDetail = Detail{Player: w.Player, Amount: c.Stake}
	e.Wager, e.Detail = l, &t.chipDetail
	t.emit(e)
	return nil
}

// Chip is a stake a wager_raised event added to a wager, numbered by the event's Seq. A
// wager's chips are what downstream books that key money by wager need apart: the operator's
// wallet took each chip with a debit of its own, which the wager's settlement closes with
// the wager's first debit (live/walletbooks.go), and responsible gaming counted each as it
// was staked.
type Chip struct {
	Seq   uint64         `json:"seq"`
	Stake baccarat.Money `json:"stake"`
}

// Chips are the chips raised onto a wager still in play, or taken out of play by the last
// Apply (settled, voided, withdrawn: they are kept until the next round opens), oldest
// first; a chip taken back (Undone) is no longer among them. The slice is the table's.
func (t *Table) Chips(wager uint64) []Chip { return t.chips[wager] }

// Undone is the chip the last wager_lowered event took back whole (a chip undone), if it
// took back exactly the wager's last chip.
func (t *Table) Undone() (Chip, bool) { return t.undone, t.undone.Seq != 0 }

// countChip keeps a chip raised onto a wager, or takes back its last when a wager_lowered
// takes back exactly its stake.
func (t *Table) countChip(e *Event, w *Wager, delta baccarat.Money) {
	if t.chips == nil {
		t.chips = map[uint64][]Chip{}
	}
	cs := t.chips[w.ID]
	if delta > 0 {
		t.chips[w.ID] = append(cs, Chip{Seq: e.Seq, Stake: delta})
		return
	}
	t.undone = Chip{}
	if n := len(cs); n > 0 && cs[n-1].Stake == -delta {
		t.undone = cs[n-1]
		t.chips[w.ID] = cs[:n-1]
	}
}

// pruneChips forgets the chips of wagers no longer in play, as a round opens.
func (t *Table) pruneChips() {
	for id := range t.chips {
		if t.wagerByID(id) == nil && !t.isRiding(id) {
			delete(t.chips, id)
		}
	}
}

func (t *Table) isRiding(id uint64) bool {
	for i := range t.riding {
		if t.riding[i].ID == id {
			return true
		}
	}
	return false
}

// chipsInPlay are the chips of the wagers in play between rounds, for a snapshot, by wager.
func (t *Table) chipsInPlay() []WagerChips {
	var out []WagerChips
	for _, ws := range [][]Wager{t.riding, t.dragon} {
		for _, w := range ws {
			if cs := t.chips[w.ID]; len(cs) > 0 {
				out = append(out, WagerChips{Wager: w.ID, Chips: append([]Chip(nil), cs...)})
			}
		}
	}
	return out
}

// WagerChips are a wager's chips in a snapshot.
type WagerChips struct {
	Wager uint64 `json:"wager"`
	Chips []Chip `json:"chips"`
}
