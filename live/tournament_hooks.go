package live

import (
	"strings"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// tourneys is the host's register of the tournaments it runs and of their tables: which
// tables belong to a tournament here (their tournament adopts and retires them, the host's
// adoption leaves them alone), and up to which round each may open (its gate).
type tourneys struct {
	mu    sync.RWMutex
	byID  map[string]*tourney
	gates map[string]uint64 // table id → the last round the table may open
	owned map[string]string // table id → the tournament it plays for
}

func newTourneys() *tourneys {
	return &tourneys{byID: map[string]*tourney{}, gates: map[string]uint64{}, owned: map[string]string{}}
}

// mayOpen reports whether a tournament's table may open round n: never, unless its
// tournament, running here, has opened the gate that far.
func (ts *tourneys) mayOpen(tableID string, n uint64) bool {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	return n <= ts.gates[tableID]
}

// setGate sets how far a table may go.
func (ts *tourneys) setGate(tableID string, last uint64) {
	ts.mu.Lock()
	ts.gates[tableID] = last
	ts.mu.Unlock()
}

// expects reports whether a tournament running here is about to create the table.
func (ts *tourneys) expects(tableID string) bool {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	_, ok := ts.gates[tableID]
	return ok
}

// own marks tables as a tournament's.
func (ts *tourneys) own(tournamentID string, tableIDs ...string) {
	ts.mu.Lock()
	for _, id := range tableIDs {
		ts.owned[id] = tournamentID
	}
	ts.mu.Unlock()
}

func (ts *tourneys) get(id string) *tourney {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	return ts.byID[id]
}

func (ts *tourneys) all() []*tourney {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	out := make([]*tourney, 0, len(ts.byID))
	for _, t := range ts.byID {
		out = append(out, t)
	}
	return out
}

// leftForTables is what the host's adoption does after the tournaments: every id of the
// store that is neither a tournament's journal nor a table of a tournament running here.
func (ts *tourneys) leftForTables(ids []string) []string {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	out := ids[:0:0]
	for _, id := range ids {
		if _, owned := ts.owned[id]; !owned && !isTournamentStream(id) && !isSessionTable(id) {
			out = append(out, id)
		}
	}
	return out
}

func isTournamentStream(id string) bool { return strings.HasPrefix(id, tabletop.StreamPrefix) }

// isSessionTable reports whether id is a tournament's session table's: only its tournament
// adopts it (by the link in its record), never the host as a plain table, so a retired
// session table stays retired.
func isSessionTable(id string) bool {
	_, _, _, _, ok := tabletop.ParseTableID(id)
	return ok
}

// checkTableID refuses, for Create, what only a tournament may create: an id in its
// journals' namespace, an id of a session's table (tabletop.TableID: reserved, whether or
// not the tournament exists yet), a table that plays a session without its tournament
// here, or a table that plays for a tournament's chips (only its own session tables do).
func (h *Host) checkTableID(spec *Spec) error {
	if isTournamentStream(spec.ID) {
		return baccarat.Errorf(baccarat.CodeReserved, "table id %q: ids starting with %q are the tournaments' journals", spec.ID, tabletop.StreamPrefix)
	}
	t, round, tableNo, session, sessionID := tabletop.ParseTableID(spec.ID)
	if spec.Tournament == nil {
		if sessionID {
			return baccarat.Errorf(baccarat.CodeReserved, "table id %q: ids of the form <tournament>-r<round>t<table>s<session> are the tournaments' session tables: choose another", spec.ID)
		}
		if spec.Currency.IsChips() {
			return baccarat.Errorf(baccarat.CodeReserved, "%s are a tournament's chips: only its own session tables play for them", spec.Currency)
		}
		return nil
	}
	if !sessionID || !spec.Tournament.Links(t, round, tableNo, session) || !h.tourneys.expects(spec.ID) ||
		spec.Currency != ledger.Chips(spec.Tournament.Tournament) {
		return baccarat.Errorf(baccarat.CodeReserved, "table %s plays a tournament's session: its tournament creates it", spec.ID)
	}
	return nil
}

// checkChips refuses a wager for a tournament's chips anywhere but at one of that
// tournament's session tables: a table that plays for chips without being one (made before
// such tables were refused) takes no wager, so no chips leave a tournament.
func (r *runner) checkChips() error {
	if !r.spec.Currency.IsChips() {
		return nil
	}
	if s := r.spec.Tournament; s == nil || r.spec.Currency != ledger.Chips(s.Tournament) {
		return baccarat.Errorf(baccarat.CodeReserved, "%s are a tournament's chips: this table is not one of its session tables and takes no wager", r.spec.Currency)
	}
	return nil
}

// sessionGate is a tournament's gate at one of its session tables (Gate): the session's
// rules (tabletop.Session) and how far its tournament, running here, lets the table go.
type sessionGate struct {
	session  *tabletop.Session
	tourneys *tourneys
	tableID  string
}

// gateFor is the gate of a table by its spec: its tournament's at a session table, none at
// a plain one.
func (h *Host) gateFor(spec *Spec) Gate {
	if spec.Tournament == nil {
		return nil
	}
	return &sessionGate{session: spec.Tournament, tourneys: h.tourneys, tableID: spec.ID}
}

// MayOpen: never, unless the tournament, running here, has opened the gate that far.
func (g *sessionGate) MayOpen(n uint64) bool { return g.tourneys.mayOpen(g.tableID, n) }

// CheckCommand refuses at a tournament's table what would change its stakes: the limits, an
// area's limit and the differential are the tournament's (its round's stakes), set when its
// tournament created the table; no pit or admin changes them. Nor does the pit pause or close
// it: its tournament paces its sessions and retires it, and a paused session would hold every
// table of the round back.
func (g *sessionGate) CheckCommand(_ *table.Table, cmd table.Command) error {
	switch c := cmd.(type) {
	case *table.SetLimit, *table.SetAreaLimit, *table.SetDifferential:
		return baccarat.Errorf(baccarat.CodeNotAuthorized, "table %s plays a session of tournament %s: its stakes are the tournament's and cannot be changed", g.tableID, g.session.Tournament)
	case *table.Pause, *table.Reopen, *table.CloseTable:
		return baccarat.Errorf(baccarat.CodeNotAuthorized, "table %s plays a session of tournament %s, which paces and retires it: cancel the tournament to stop its tables", g.tableID, g.session.Tournament)
	case *table.Withdraw:
		return g.session.CheckWithdraw(c)
	}
	return nil
}

// CheckWager applies a tournament's rules to a wager at one of its tables: seated players
// only, the per-hand maximum, Dragon bets where allowed (tabletop.Session.Check); and no
// wager at all in a round beyond the session's (the round that gives riding wagers back, or
// one opened as the session ended).
func (g *sessionGate) CheckWager(t *table.Table, p *table.Place) error {
	if !g.MayOpen(t.Round()) {
		return baccarat.Errorf(baccarat.CodeBettingClosed, "the session is over: this round is not part of it")
	}
	return g.session.Check(t, p)
}

// Required is the tournament's required wagers as betting closes (tabletop.Session.Required),
// in a round the session plays.
func (g *sessionGate) Required(t *table.Table) []*table.Place {
	if !g.MayOpen(t.Round()) {
		return nil
	}
	return g.session.Required(t)
}

// checkCommand asks the table's gate about a command (Gate.CheckCommand).
func (r *runner) checkCommand(cmd table.Command) error {
	if r.gate == nil {
		return nil
	}
	return r.gate.CheckCommand(r.t, cmd)
}

// checkWager asks the table's gate about a wager (Gate.CheckWager).
func (r *runner) checkWager(p *table.Place) error {
	if r.gate == nil {
		return nil
	}
	return r.gate.CheckWager(r.t, p)
}

// next is an automatic table's next step by its schedule, held back where its gate wants no
// more rounds: the table opens no round beyond the gate (it waits, idle, until the gate opens
// or its owner retires it), and does not close the betting of a round beyond it, which only
// its owner opens, to give riding wagers back, and closes (tabletop's package doc).
func (r *runner) next(now time.Time) (table.Command, time.Time) {
	st := r.t.Status()
	cmd, at := r.spec.Schedule.next(st, r.last, now)
	if r.gate == nil {
		return cmd, at
	}
	switch cmd.(type) {
	case *table.Open:
		if !r.gate.MayOpen(st.Round + 1) {
			return nil, time.Time{}
		}
	case *table.Close:
		if !r.gate.MayOpen(st.Round) {
			return nil, time.Time{}
		}
	}
	return cmd, at
}

// stepBatch is what a tick sends the table: the step, and as betting closes, the wagers its
// gate requires first (Gate.Required).
func (r *runner) stepBatch(cmd table.Command) []request {
	var batch []request
	if _, ok := cmd.(*table.Close); ok && r.gate != nil {
		for _, p := range r.gate.Required(r.t) {
			batch = append(batch, &commandReq{cmd: p})
		}
	}
	return append(batch, &commandReq{cmd: cmd})
}
