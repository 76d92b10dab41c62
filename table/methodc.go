package table

import (
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// Method C online (Tiger 3.8–3.11, SPEC §4): a player holds the dealing device and draws the
// cards from it. Online the device is the server's RNG shoe: the player holding it chooses
// only when each card comes out (Draw), never which; when they wait longer than the table's
// draw window, the table draws the card itself (the host's timer sends a Deal). The cards
// are dealt face up: the squeeze is Method A's, not part of Method C (so a table plays one
// or the other), and a card "exposed during the movement of the dealing device" is played
// as if found face down (Tiger 5.12.1), which online is simply the card as dealt.
//
// Who holds the shoe. At "No more bets", if nobody holds it (or its holder no longer
// qualifies: no wager this round, unless the table lets a player without one hold it,
// Tiger 3.11.2), it passes to the player with the highest stake this round, the one who
// placed first among equals (as Method A passes the cards, Tiger 3.9.2–3.9.4); the pit may
// hand it to a player instead (Tiger 3.9.4.1). The holder keeps it round after round until
// they give it up (Tiger 3.11.8.1) or their wager loses (3.11.8.2): online, a round in which
// their wagers lose more than they win, their net negative, so that a winning Banker with a
// losing side bet keeps the shoe, and a push keeps it. Every change of hands is a
// shoe_passed event: its player is the new holder ("" for nobody), its reason why.

// DefaultDrawSeconds is how long the holder has to draw a card unless configured;
// MaxDrawSeconds the longest window (the holder holds up the round for everyone).
const (
	DefaultDrawSeconds = 10
	MaxDrawSeconds     = 60
)

// The reasons of a shoe_passed event.
const (
	PassHighestStake = "highest_stake" // at "No more bets", nobody held it (Tiger 3.9.2–3.9.4)
	PassNoWager      = "no_wager"      // its holder has no wager this round (Tiger 3.11.2)
	PassWagerLost    = "wager_lost"    // its holder's wager lost (Tiger 3.11.8.2)
	PassGivenUp      = "given_up"      // its holder gave it up (Tiger 3.11.8.1)
	PassHanded       = "handed"        // the pit handed it to a player (Tiger 3.9.4.1)
)

// methodCGames are the games whose rules have Method C: Tiger's seed alone (3.8.2, 3.11).
var methodCGames = map[string]bool{"mbs-tiger": true}

// Draw is the player holding the shoe drawing its next card (Tiger 3.11.1).
type Draw struct{ Header }

// GiveUpShoe is the holder giving the shoe up (Tiger 3.11.8.1).
type GiveUpShoe struct{ Header }

// HandShoe is the pit (or a dealer, at a dealer's table) handing the shoe to Player.
type HandShoe struct {
	Header
	Player string `json:"player"`
}

// Kind is the command's name.
func (*Draw) Kind() CommandType       { return CmdDraw }
func (*GiveUpShoe) Kind() CommandType { return CmdGiveUpShoe }
func (*HandShoe) Kind() CommandType   { return CmdHandShoe }

// methodC is who holds the shoe, and since when the table has waited (the last event's
// time): the holder's draw window runs from it.
type methodC struct {
	holder string
	// declined gave the shoe up: the next pass by the stakes passes them over, as a player
	// refusing the cards is passed over in Method A (Tiger 3.9.3).
	declined string
	since    time.Time
}

// MethodCView is Method C at a table as a page shows it and a host paces it.
type MethodCView struct {
	Holder      string `json:"holder,omitempty"` // "" while nobody holds the shoe
	DrawSeconds int    `json:"draw_seconds"`
	// Due: a card waits for the holder's draw; Until is when the table draws it instead.
	Due          bool      `json:"due,omitempty"`
	Until        time.Time `json:"until,omitzero"`
	WithoutWager bool      `json:"without_wager,omitempty"` // Tiger 3.11.2 allowed here
}

// normalizeMethodC checks Method C against the game and fills its default. The table itself
// needs no more than an RNG shoe to draw from; a new table (Config.Check) must also be an
// automatic one, whose host draws the cards the holder waits for.
func (c *Config) normalizeMethodC(g *games.Game) error {
	if !c.ShoeToPlayer {
		return nil
	}
	switch {
	case !methodCGames[g.ID]:
		return badSetting("shoe_to_player: Method C is a rule of Tiger Baccarat (Tiger 3.11); %s has none", g.Name)
	case c.Squeeze:
		return badSetting("shoe_to_player and squeeze: a table plays Method C or the squeeze (Method A), not both (Tiger 3.8)")
	}
	if c.DrawSeconds <= 0 {
		c.DrawSeconds = DefaultDrawSeconds
	}
	return nil
}

func notMethodC() error {
	return refuse(baccarat.CodeBadRequest, "this table does not play Method C: nobody holds its shoe (Tiger 3.11)")
}

// draw deals the next card for the holder, as the table's own Deal would deal it.
func (t *Table) draw(c *Draw, actor string, role Role) error {
	switch {
	case !t.cfg.ShoeToPlayer:
		return notMethodC()
	case t.mc.holder == "":
		return refuse(baccarat.CodeNotAuthorized, "nobody holds the shoe: the table draws the cards")
	case actor != t.mc.holder:
		return refuse(baccarat.CodeNotAuthorized, "only %s, who holds the shoe, draws from it (Tiger 3.11.1)", t.mc.holder)
	case !t.cardDue():
		return t.checkCardDue()
	}
	return t.deal(&Deal{Header: c.Header}, actor, role)
}

// giveUpShoe: the holder gives the shoe up. Once the round's stakes are in (after "No more
// bets") it passes at once to the highest of the others; before, at the next "No more bets",
// which passes the giver over (Tiger 3.9.3, as for cards refused).
func (t *Table) giveUpShoe(h *Header, actor string, role Role) error {
	switch {
	case !t.cfg.ShoeToPlayer:
		return notMethodC()
	case t.mc.holder == "" || actor != t.mc.holder:
		return refuse(baccarat.CodeNotAuthorized, "only the player holding the shoe gives it up (Tiger 3.11.8.1)")
	}
	next := ""
	if t.phase == PhaseClosed || t.phase == PhaseDealing {
		next = t.highestStake(actor)
	}
	t.passShoe(h, actor, role, next, PassGivenUp)
	return nil
}

// handShoe: the pit hands the shoe to a player with a wager in the round under way, or to
// anyone where a player without one may hold it (Tiger 3.11.2).
func (t *Table) handShoe(c *HandShoe, actor string, role Role) error {
	switch {
	case !t.cfg.ShoeToPlayer:
		return notMethodC()
	case c.Player == "":
		return refuse(baccarat.CodeBadRequest, "hand_shoe names the player to hand the shoe to")
	case c.Player == t.mc.holder:
		return badState("%s already holds the shoe", c.Player)
	case !t.cfg.ShoeWithoutWager && !t.staking(c.Player):
		return badState("%s has no wager in this round: only a player with a valid wager holds the shoe here (Tiger 3.11.2)", c.Player)
	}
	t.passShoe(&c.Header, actor, role, c.Player, PassHanded)
	return nil
}

// passShoeAtClose passes the shoe at "No more bets" when nobody holds it, or its holder no
// longer qualifies.
func (t *Table) passShoeAtClose(h *Header, actor string, role Role) {
	if !t.cfg.ShoeToPlayer || t.phase != PhaseClosed {
		return
	}
	holder := t.mc.holder
	if holder != "" && (t.cfg.ShoeWithoutWager || t.staking(holder)) {
		return
	}
	next, reason := t.highestStake(t.mc.declined), PassHighestStake
	if holder != "" {
		reason = PassNoWager
	}
	if next != holder {
		t.passShoe(h, actor, role, next, reason)
	}
}

// passShoeIfLost takes the shoe from a holder whose wagers lost this round (Tiger 3.11.8.2):
// nobody holds it until the next "No more bets" passes it by the stakes of that round.
func (t *Table) passShoeIfLost(settled []Settlement, h *Header, actor string, role Role) {
	if !t.cfg.ShoeToPlayer || t.mc.holder == "" {
		return
	}
	var net baccarat.Money
	for i := range settled {
		if settled[i].Player == t.mc.holder {
			net += settled[i].Net
		}
	}
	if net < 0 {
		t.passShoe(h, actor, role, "", PassWagerLost)
	}
}

func (t *Table) onShoePassed(e *Event) {
	t.mc.holder, t.mc.declined = e.Player(), ""
	if e.Reason == PassGivenUp {
		t.mc.declined = e.Actor
	}
}

func (t *Table) passShoe(h *Header, actor string, role Role, to, reason string) {
	e := t.event(EvShoePassed, h, actor, role)
	e.Reason = reason
	e.more().Player = to
	t.emit(e)
}

// staking reports whether player has a wager in this round.
func (t *Table) staking(player string) bool {
	for i := range t.wagers {
		if t.wagers[i].Player == player {
			return true
		}
	}
	return false
}

// highestStake is the player with the most staked this round, the earliest wager first
// among equals (Tiger 3.9.4), leaving out except; "" when nobody else has a wager.
func (t *Table) highestStake(except string) string {
	stakes := map[string]baccarat.Money{}
	first := map[string]uint64{}
	for i := range t.wagers {
		w := &t.wagers[i]
		if w.Player == except {
			continue
		}
		stakes[w.Player] += w.Stake
		if f, ok := first[w.Player]; !ok || w.ID < f {
			first[w.Player] = w.ID
		}
	}
	best := ""
	for p, s := range stakes {
		if best == "" || s > stakes[best] || s == stakes[best] && first[p] < first[best] {
			best = p
		}
	}
	return best
}

// methodCView is Method C for State and Status; nil at a table that does not play it.
func (t *Table) methodCView() *MethodCView {
	if !t.cfg.ShoeToPlayer {
		return nil
	}
	v := &MethodCView{Holder: t.mc.holder, DrawSeconds: t.cfg.DrawSeconds, WithoutWager: t.cfg.ShoeWithoutWager}
	if v.Holder != "" && t.shoe.order != nil && t.cardDue() {
		v.Due = true
		if !t.mc.since.IsZero() {
			v.Until = t.mc.since.Add(time.Duration(t.cfg.DrawSeconds) * time.Second)
		}
	}
	return v
}

// ShoeHolder is who holds the shoe at a Method C table ("" when nobody does).
func (t *Table) ShoeHolder() string { return t.mc.holder }
