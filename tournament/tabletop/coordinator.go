package tabletop

// The coordinator: what a tournament says to a session's table and what it tells the
// tournament of it, written once for both drivers, the simulator (Run) and the live host.

import (
	"math"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// HandEnd is a round that ended at a session's table: hand N of the session, counting voided
// rounds, as the tournament numbers its hand reports.
type HandEnd struct {
	N       int
	Round   uint64 // the table's round
	Void    bool
	Changes []tournament.ChipChange // the hand's, with a session of hands' Dragon settlement on its last
}

// Coordinator follows one session's table for its tournament: the table's committed events
// go in, in order; out come the tournament's commands (each hand's report with its chip
// changes, a timed session's Dragon settlement) and the table's (the bots' wagers, the
// withdrawals of riding wagers). It is pure, like the table and the tournament: no I/O, no
// goroutines, no clock (times come in as parameters), so the simulator and the live host,
// which reads the table's journal, drive the same code and cannot drift apart.
type Coordinator struct {
	Session Session

	ends, voids  int    // rounds ended (settled or voided), and voided, so far
	open, closed uint64 // the last round whose first betting opened, and closed
	betOn        uint64 // the last round the bots bet on
	pending      []HandEnd
	dragon       []tournament.ChipChange // a timed Dragon session's settlement
	settled      bool
}

// NewCoordinator follows the table of session s from its first event.
func NewCoordinator(s Session) *Coordinator { return &Coordinator{Session: s} }

// On takes in the table's committed events, in order, a commit's events together: a Dragon
// session of hands settles its bets with its last hand, in the same commit, and that
// settlement joins the hand's chip changes (Dragon 3.12). A timed session's settlement, made
// when its time is up, is kept for the end_session (Dragon).
func (c *Coordinator) On(evs []table.Event) {
	for i := range evs {
		e := &evs[i]
		switch e.Type {
		case table.EvBettingOpened:
			if e.Betting <= 1 {
				c.open = e.Round
			}
		case table.EvBettingClosed:
			if e.Betting <= 1 {
				c.closed = e.Round
			}
		case table.EvRoundVoided:
			c.ends++
			c.voids++
			c.pending = append(c.pending, HandEnd{N: c.ends, Round: e.Round, Void: true})
		case table.EvRoundSettled:
			c.ends++
			h := HandEnd{N: c.ends, Round: e.Round, Changes: Nets(e.Settlements)}
			if c.Session.Hands > 0 && i+1 < len(evs) && evs[i+1].Type == table.EvSessionSettled {
				h.Changes = Merge(h.Changes, Nets(evs[i+1].Settlements))
			}
			c.pending = append(c.pending, h)
		case table.EvSessionSettled:
			if c.Session.Hands == 0 && !c.settled { // a timed session, settled when its time was up
				c.settled, c.dragon = true, Nets(e.Settlements)
			}
		}
	}
}

// Voids is how many of the table's rounds were voided: each adds a round to the session's.
func (c *Coordinator) Voids() int { return c.voids }

// Opened is the last round whose betting opened.
func (c *Coordinator) Opened() uint64 { return c.open }

// Pending is how many ended hands wait to be reported.
func (c *Coordinator) Pending() int { return len(c.pending) }

// Drop forgets the hands not reported: the session has ended, and nothing more counts.
func (c *Coordinator) Drop() { c.pending = nil }

// Dragon is a timed Dragon session's settlement, the chip changes its end_session carries;
// false until the table has settled the session.
func (c *Coordinator) Dragon() ([]tournament.ChipChange, bool) { return c.dragon, c.settled }

// Gate is the last round the session's table may open: as many as the session has hands and
// voided rounds; for a timed session, any (the driver closes it when the time is up).
func (c *Coordinator) Gate() uint64 {
	if c.Session.Hands > 0 {
		return uint64(c.Session.Hands + c.voids)
	}
	return math.MaxUint64
}

// Report is a hand's report to the tournament.
type Report struct {
	Hand    HandEnd
	Command tournament.Command // report_hand: the hand's number, and void or its chip changes
	// RidersFirst: the hand ends a session of hands, so the wagers riding on a Tie go back to
	// their owners before it is reported (the package doc, Riders).
	RidersFirst bool
}

// NextReport is the next hand to report, in order, each once, given the tournament as it
// stands: a hand it has heard of already (by number), or dealt in a round after beyond (a
// timed session's last round once its time is up, without wagers; 0: no such bound), is
// dropped. False when no hand is left to report, or the tournament no longer plays the
// session at its table, whose hands are then all dropped.
func (c *Coordinator) NextReport(t *tournament.Tournament, beyond uint64) (Report, bool) {
	s := &c.Session
	tv, ok := tableView(t, s.Table)
	if !ok || !tv.Live || tv.Session != s.Session || t.Round() != s.Round {
		c.pending = nil
		return Report{}, false
	}
	for len(c.pending) > 0 {
		h := c.pending[0]
		if h.N <= tv.Reports || (beyond > 0 && h.Round > beyond) {
			c.pending = c.pending[1:]
			continue
		}
		cmd := tournament.Command{Type: tournament.CmdReportHand, Table: s.Table, Hand: h.N, Void: h.Void, Changes: h.Changes}
		return Report{Hand: h, Command: cmd, RidersFirst: !h.Void && s.Hands > 0 && tv.Hands+1 >= s.Hands}, true
	}
	return Report{}, false
}

// Reported takes a report the tournament accepted off the hands to report (unless its
// session ended with it, which dropped them all) and records each seated player's net on
// the hand in last, where the bots' strategies read it (Hand.LastNet): 0 for a player the
// hand left even, or a void one.
func (c *Coordinator) Reported(r Report, last map[string]baccarat.Money) {
	if len(c.pending) > 0 && c.pending[0].N == r.Hand.N {
		c.pending = c.pending[1:]
	}
	for _, p := range c.Session.Players {
		last[p] = 0
	}
	for _, ch := range r.Hand.Changes {
		last[ch.Player] = ch.Net
	}
}

func tableView(t *tournament.Tournament, n int) (tournament.TableView, bool) {
	for _, tv := range t.State().Tables {
		if tv.Table == n {
			return tv, true
		}
	}
	return tournament.TableView{}, false
}

// Betting is the round the bots are to bet on: its betting opened and has not closed, and
// they have not bet on it yet; 0 when there is none.
func (c *Coordinator) Betting() uint64 {
	if c.open <= c.closed || c.open <= c.betOn {
		return 0
	}
	return c.open
}

// Bots marks the round open for betting as bet on, once, and returns the seated bots that
// bet on it: those the house plays (bots) that are still in, in seat order.
func (c *Coordinator) Bots(t *tournament.Tournament, bots map[string]*Player) []string {
	c.betOn = c.open
	var out []string
	for _, p := range c.Session.Players {
		if en, ok := t.Entrant(p); ok && bots[p] != nil && !en.Eliminated {
			out = append(out, p)
		}
	}
	return out
}

// BotSeat is a seated bot as betting opens: who plays it, its chips and its net on its last
// hand.
type BotSeat struct {
	ID      string
	Player  *Player
	Chips   baccarat.Money
	LastNet baccarat.Money
}

// BotWagers are the bots' wagers on the round whose betting st shows open (round), in seat
// order, each placed by the house (BotWager) as its strategy decides; nil when betting is
// not open on that round.
func (c *Coordinator) BotWagers(g *games.Game, st *table.State, round uint64, seats []BotSeat) []*table.Place {
	if !st.BetOpen || st.Round != round {
		return nil
	}
	var out []*table.Place
	for _, b := range seats {
		for _, w := range b.Player.Wagers(c.Session.BotHand(g, st, b.ID, b.Chips, b.LastNet)) {
			out = append(out, BotWager(b.ID, w))
		}
	}
	return out
}

// BotRebuys are the rebuys the house makes for its busted bots that may rebuy (the house
// pays): one for each bot it plays (bots) that can.
func BotRebuys(t *tournament.Tournament, bots map[string]*Player) []tournament.Command {
	var out []tournament.Command
	for _, s := range t.Leaderboard() {
		if s.CanRebuy && bots[s.Player] != nil {
			out = append(out, tournament.Command{Type: tournament.CmdRebuy, Player: s.Player})
		}
	}
	return out
}

// sessionEnded is the header of what the house does at a table because its session ended.
func sessionEnded(at time.Time) table.Header {
	return table.Header{Actor: RequiredActor, Role: table.RoleSystem, Reason: "session ended", At: at}
}

// Riding reports whether wagers ride on the table into its next round (RWS 3.9), which
// must go back to their owners when the session ends.
func Riding(st *table.State) bool {
	if len(st.Riding) > 0 {
		return true
	}
	for _, w := range st.Wagers {
		if w.Riding {
			return true
		}
	}
	return false
}

// RidersOpen opens the betting round in which riding wagers go back (see the package doc),
// betting until until; nil when betting is open already.
func RidersOpen(st *table.State, at, until time.Time) *table.Open {
	if st.BetOpen {
		return nil
	}
	return &table.Open{Header: sessionEnded(at), Until: until}
}

// Riders are the withdrawals that give riding wagers back to their owners at the end of a
// session (see the package doc): one per owner, for the betting round RidersOpen opened.
func Riders(st *table.State, at time.Time) []*table.Withdraw {
	var out []*table.Withdraw
	seen := map[string]bool{}
	for _, w := range st.Wagers {
		if w.Riding && !seen[w.Player] {
			seen[w.Player] = true
			out = append(out, &table.Withdraw{Header: sessionEnded(at), Player: w.Player})
		}
	}
	return out
}

// SessionEnd settles a timed Dragon session's bets when its time is up: its settlement is
// the end_session's chip changes (Dragon).
func SessionEnd(at time.Time) *table.EndSession {
	return &table.EndSession{Header: table.Header{Actor: RequiredActor, Role: table.RoleSystem, Reason: "the session's time is up", At: at}}
}
