package table

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// The squeeze (SPEC §4, Tiger 3.8–3.11 Method A, online): the player with the highest
// stake on a hand sees its first two cards alone, face down to everyone else, and peels
// them for a few seconds while the others watch; then they are shown to all. The cards
// are dealt and journalled as they come out: the squeeze stages only when each player sees
// them, and can never change a card. Third cards are exposed as they are dealt.
//
// The Player's hand is squeezed first, then the Banker's, once all four cards are out and
// before the result; a hand nobody backs is not squeezed.

// DefaultSqueezeSeconds is how long a squeezer has for a hand unless configured.
const DefaultSqueezeSeconds = 8

// squeeze is the squeeze under way.
type squeeze struct {
	side     baccarat.Winner
	squeezer string
	until    time.Time
}

// SqueezeView is the squeeze under way as a page shows it.
type SqueezeView struct {
	Side     string    `json:"side"` // player or banker
	Squeezer string    `json:"squeezer"`
	Until    time.Time `json:"until,omitzero"`
}

// Reveal ends a hand's squeeze: its two cards are shown to everyone. The squeezer sends it
// when done peeling; the host at the end of the squeeze window; a dealer at any time.
type Reveal struct{ Header }

// Kind is the command's name.
func (*Reveal) Kind() CommandType { return CmdReveal }

// Peel is the squeezer lifting a corner of one of the hand's two cards (Card 0 or 1, in
// deal order), Lift percent of the way (0–100), for everyone watching to follow. It changes
// nothing and records nothing: Apply checks it and returns no events, and a host shows it.
type Peel struct {
	Header
	Card int `json:"card"`
	Lift int `json:"lift"`
}

// Kind is the command's name.
func (*Peel) Kind() CommandType { return CmdPeel }

// PeelView is a peel as the watchers see it: whose hand, which card, how far. It never
// carries the card.
type PeelView struct {
	Side     string `json:"side"`
	Squeezer string `json:"squeezer"`
	Card     int    `json:"card"`
	Lift     int    `json:"lift"`
}

// MaxLift is a peel's Lift when the card is turned all the way.
const MaxLift = 100

// peel checks a peel: only the hand's squeezer peels, only while squeezing it.
func (t *Table) peel(c *Peel, actor string, _ Role) error {
	if t.sq == nil {
		return badState("no hand is being squeezed")
	}
	if actor != t.sq.squeezer {
		return refuse(baccarat.CodeNotAuthorized, "only the player who squeezes the %s hand may peel it", t.sq.side) // no account id to another player
	}
	if c.Card < 0 || c.Card > 1 || c.Lift < 0 || c.Lift > MaxLift {
		return baccarat.Errorf(baccarat.CodeBadRequest, "a peel names card 0 or 1 of the hand and a lift from 0 to %d", MaxLift)
	}
	return nil
}

// PeelOf is how watchers see a peel the table accepted.
func (t *Table) PeelOf(c *Peel) PeelView {
	v := PeelView{Card: c.Card, Lift: c.Lift}
	if t.sq != nil {
		v.Side, v.Squeezer = t.sq.side.String(), t.sq.squeezer
	}
	return v
}

// squeezer is who squeezes a side's hand this round: the highest stake on it, the earliest
// wager among equals (Tiger 3.8.2); "" when the table does not squeeze or nobody backs it.
func (t *Table) squeezer(side baccarat.Winner) string {
	if !t.cfg.Squeeze {
		return ""
	}
	stakes := map[string]baccarat.Money{}
	first := map[string]uint64{}
	best := ""
	for _, w := range t.wagers {
		if b := t.game.Bets[w.bet]; b.Kind != games.Main || b.Side != side {
			continue
		}
		stakes[w.Player] += w.Stake
		if _, ok := first[w.Player]; !ok {
			first[w.Player] = w.ID
		}
	}
	for p, s := range stakes {
		if best == "" || s > stakes[best] || s == stakes[best] && first[p] < first[best] {
			best = p
		}
	}
	return best
}

// sideOf is the hand a position belongs to.
func sideOf(p baccarat.Position) baccarat.Winner {
	if p.Player() {
		return baccarat.PlayerWins
	}
	return baccarat.BankerWins
}

// hiddenFrom says whether the card at position i of the coup (deal order) is still face down
// to everyone but its hand's squeezer, and who that is.
func (t *Table) hiddenFrom(i int) (string, bool) {
	if !t.cfg.Squeeze || i >= 4 {
		return "", false
	}
	side := sideOf(baccarat.Position(i))
	if t.revealed&(1<<side) != 0 {
		return "", false
	}
	who := t.squeezer(side)
	return who, who != ""
}

// SeenPrivately reports whether a card of the round under way has been shown to some players
// and not others: one of the first four cards was dealt face down to its hand's squeezer,
// whether or not it has been revealed since (SPEC §4). That card is information the house
// and the other players lacked when they could still act on it, and the squeezer could act on
// it before them, so from the first such card nobody may withdraw in that round: an
// interruption or a simultaneous draw opens no withdrawal window, and the round goes on to its
// end on resume (or the pit voids it, every stake returned). The seeds let players withdraw
// only when no outcome is established (Tiger 5.17), a rule written for cards everyone sees;
// one player seeing a card is the first step towards an outcome that only they know.
func (t *Table) SeenPrivately() bool {
	if !t.cfg.Squeeze {
		return false
	}
	for i := range min(t.coup.Len(), 4) {
		if t.squeezer(sideOf(baccarat.Position(i))) != "" {
			return true
		}
	}
	return false
}

// startSqueeze begins the next hand's squeeze once the four first cards are out; it
// reports false when no hand is left to squeeze.
func (t *Table) startSqueeze(h *Header, actor string, role Role) bool {
	if !t.cfg.Squeeze || t.coup.Len() < 4 {
		return false
	}
	for _, side := range []baccarat.Winner{baccarat.PlayerWins, baccarat.BankerWins} {
		if t.revealed&(1<<side) != 0 {
			continue
		}
		who := t.squeezer(side)
		if who == "" {
			continue
		}
		e := t.event(EvSqueezeStarted, h, actor, role)
		d := e.more()
		d.Side, d.Player = side.String(), who
		if !h.At.IsZero() {
			e.Until = h.At.Add(time.Duration(t.cfg.SqueezeSeconds) * time.Second)
		}
		t.emit(e)
		return true
	}
	return false
}

// reveal ends the squeeze under way, then starts the next hand's or goes on with the coup.
func (t *Table) reveal(c *Reveal, actor string, role Role) error {
	if t.sq == nil {
		return badState("no hand is being squeezed")
	}
	if role == RolePlayer && actor != t.sq.squeezer {
		return refuse(baccarat.CodeNotAuthorized, "only the player who squeezes the %s hand may reveal it", t.sq.side) // no account id to another player
	}
	e := t.event(EvSqueezeEnded, &c.Header, actor, role)
	d := e.more()
	d.Side, d.Player = t.sq.side.String(), t.sq.squeezer
	d.Cards = t.handCards(t.sq.side)
	t.emit(e)
	if t.startSqueeze(&c.Header, actor, role) {
		return nil
	}
	if t.coup.Done() {
		t.settle(&c.Header, actor, role)
	}
	return nil
}

// handCards are a hand's first two cards.
func (t *Table) handCards(side baccarat.Winner) []baccarat.Card {
	dealt, _ := t.coup.Dealt()
	if side == baccarat.PlayerWins {
		return []baccarat.Card{dealt[0], dealt[2]}
	}
	return []baccarat.Card{dealt[1], dealt[3]}
}

func (t *Table) onSqueezeStarted(e *Event) {
	side, _ := baccarat.ParseWinner(e.detail().Side)
	t.sq = &squeeze{side: side, squeezer: e.Player(), until: e.Until}
}

func (t *Table) onSqueezeEnded(e *Event) {
	side, _ := baccarat.ParseWinner(e.detail().Side)
	t.revealed |= 1 << side
	t.sq = nil
}

// squeezeView is the squeeze under way for State.
func (t *Table) squeezeView() *SqueezeView {
	if t.sq == nil {
		return nil
	}
	return &SqueezeView{Side: t.sq.side.String(), Squeezer: t.sq.squeezer, Until: t.sq.until}
}

// Squeezer is who squeezes the hand being squeezed now ("" when none is).
func (t *Table) Squeezer() string {
	if t.sq == nil {
		return ""
	}
	return t.sq.squeezer
}
