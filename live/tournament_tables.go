package live

import (
	"encoding/json"
	"math"

	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// sessionTable is the table of one of the tournament's sessions, as the tournament follows
// it: through its journal, which it reads from the start after a restart (the hands the
// tournament has already heard of are skipped by number).
type sessionTable struct {
	id     string
	s      tabletop.Session
	runner *runner   // nil until created or adopted here
	heard  *listener // how its runner tells the tournament it moved (news.go)

	rec     uint64 // the last record of its journal read
	ends    int    // rounds read that ended (settled or voided): hand numbers 1, 2, …
	voids   int
	open    uint64 // the last round whose (first) betting opened, and closed
	closed  uint64
	betOn   uint64    // the last round the bots bet on
	pending []handEnd // read, not yet reported
	dragon  []tournament.ChipChange
	settled bool   // a timed Dragon session's bets are settled (dragon holds the changes)
	closing bool   // the session's time is up: no new rounds
	last    uint64 // when closing: the last round of the session (the one in play)
	ended   bool   // the session has ended: the table retires once idle
	// foreign: a table of the session's id exists that its own record does not link to the
	// session (not created by this tournament): it is never adopted or played.
	foreign bool
}

// handEnd is a round that ended at a session's table: hand number n of the session.
type handEnd struct {
	n       int
	round   uint64 // the table's round
	void    bool
	changes []tournament.ChipChange
}

// unlisten stops hearing the table's news.
func (st *sessionTable) unlisten() {
	if st.heard != nil {
		st.runner.unlisten(st.heard)
		st.heard = nil
	}
}

// session is the session a table of the current round plays now (or last played).
func (tr *tourney) session(tv tournament.TableView) tabletop.Session {
	cfg := tr.t.Config()
	s := tabletop.Session{Tournament: tr.id, Round: tr.t.Round(), Table: tv.Table, Session: tv.Session,
		Stakes: tr.t.Stakes(), Dragon: cfg.Dragon}
	if tv.Session > 0 {
		s.Hands = cfg.Rounds[s.Round-1].Sessions[tv.Session-1].Hands
	}
	for _, rec := range tr.t.Sessions() {
		if rec.Round == s.Round && rec.Table == s.Table && rec.Session == s.Session {
			for _, seat := range rec.Seats {
				s.Players = append(s.Players, seat.Player)
			}
		}
	}
	return s
}

// claimTables marks every table the tournament has played at as its own, so the host's
// adoption leaves them to it: a live session's table the tournament adopts itself, an
// ended one stays retired.
func (tr *tourney) claimTables() {
	var ids []string
	for _, rec := range tr.t.Sessions() {
		ids = append(ids, tabletop.TableID(tr.id, rec.Round, rec.Table, rec.Session))
	}
	tr.h.tourneys.own(tr.id, ids...)
}

// resume takes up the live sessions after a restart: their tables are adopted (or created,
// if the host stopped before it could) and their journals read.
func (tr *tourney) resume() {
	if tr.t.Phase() != tournament.PhaseRunning {
		return
	}
	for _, tv := range tr.t.State().Tables {
		if tv.Live {
			tr.followSession(tr.session(tv))
		}
	}
}

// afterCommit starts the table of a session that started and closes the gate of one that
// ended.
func (tr *tourney) afterCommit(evs []tournament.Event) {
	for i := range evs {
		e := &evs[i]
		switch e.Type {
		case tournament.EvStarted:
			tr.seatBots()
		case tournament.EvSessionStarted:
			for _, tv := range tr.t.State().Tables {
				if tv.Table == e.Table {
					tr.followSession(tr.session(tv))
				}
			}
		case tournament.EvSessionEnded:
			id := tabletop.TableID(tr.id, e.Round, e.Table, e.Session)
			if st := tr.tables[id]; st != nil {
				st.ended, st.pending = true, nil
				tr.h.tourneys.setGate(id, 0)
			}
		}
	}
}

// followSession starts following a session's table, opening it.
func (tr *tourney) followSession(s tabletop.Session) {
	id := tabletop.TableID(tr.id, s.Round, s.Table, s.Session)
	st := &sessionTable{id: id, s: s}
	tr.tables[id] = st
	tr.h.tourneys.own(tr.id, id)
	tr.openTable(st)
}

// gate is the last round a session's table may open: as many as the session has hands and
// voided rounds; a timed session's, any until its time is up.
func (st *sessionTable) gate() uint64 {
	switch {
	case st.ended:
		return 0
	case st.closing:
		return st.last
	case st.s.Hands > 0:
		return uint64(st.s.Hands + st.voids)
	}
	return math.MaxUint64
}

// openTable creates the session's table, or adopts it when it exists (a restart), then
// follows it. A table it cannot lease yet (its last host's lease has not lapsed) is tried
// again later.
func (tr *tourney) openTable(st *sessionTable) {
	h := tr.h
	if st.foreign {
		return
	}
	head, err := h.opt.Store.Head(h.ctx, st.id)
	if err != nil {
		h.opt.Logger.Warn("tournament table", "table", st.id, "err", err)
		return
	}
	if head.Seq == 0 {
		h.tourneys.setGate(st.id, st.gate())
		cfg := tr.t.Config()
		spec := Spec{ID: st.id, Name: sessionName(cfg, st.s), Mode: ModeAuto, Currency: tr.t.Chips(),
			Config: tabletop.TableConfig(cfg, st.s, tr.spec.Decks), Schedule: tr.spec.Schedule, Tournament: &st.s}
		if err := h.Create(h.ctx, spec); err != nil {
			tr.trouble("table "+st.id, "creating the table of round %d table %d session %d (%s): %v", st.s.Round, st.s.Table, st.s.Session, st.id, err)
			return
		}
	} else {
		tr.read(st)
		if st.foreign {
			tr.trouble("table "+st.id, "table %s, where round %d table %d session %d is to be played, was not created by this tournament: it is not played; cancel the tournament",
				st.id, st.s.Round, st.s.Table, st.s.Session)
			return
		}
		h.tourneys.setGate(st.id, st.gate())
		if r, _ := h.runner(st.id); r == nil {
			if err := h.adopt(h.ctx, st.id); err != nil {
				h.opt.Logger.Warn("adopting a tournament table", "table", st.id, "err", err)
			}
		}
	}
	st.runner, _ = h.runner(st.id)
	if st.runner != nil {
		tr.untroubled("table " + st.id)
		tr.listen(st)
		tr.follow(st)
	}
}

// listen wakes the tournament whenever its table opens or closes betting or ends a round,
// or stops; the journal says what happened. The table's runner tells it (news.go) on the
// table's goroutine, which a poke never keeps waiting (signal).
func (tr *tourney) listen(st *sessionTable) {
	st.heard = st.runner.listen(func(n tableNews) {
		if moves(n) {
			tr.signal()
		}
	})
}

// moving is what a tournament follows at its tables: betting opening (its bots bet) and
// closing, and the ends of rounds and of Dragon sessions (hands to report).
var moving = typesOf(table.EvBettingOpened, table.EvBettingClosed, table.EvRoundSettled, table.EvRoundVoided, table.EvSessionSettled)

// moves reports whether a table's news wakes its tournament.
func moves(n tableNews) bool { return n.stopped || n.committed.any(moving) }

func (tr *tourney) followAll() {
	for _, st := range tr.tables {
		tr.follow(st)
	}
}

// follow reads what is new in a table's journal, reports the hands that ended and lets the
// bots bet on a round that opened.
func (tr *tourney) follow(st *sessionTable) {
	if st.runner == nil {
		if !st.ended {
			tr.openTable(st)
		}
		return
	}
	if isClosed(st.runner.done) && !st.ended {
		if r, _ := tr.h.runner(st.id); r != nil && r != st.runner { // its runner stopped and another took the table up
			st.unlisten()
			st.runner = r
			tr.listen(st)
		}
	}
	before := st.voids
	tr.read(st)
	if st.voids != before {
		tr.h.tourneys.setGate(st.id, st.gate())
		tr.pokeTable(st)
	}
	tr.report(st)
	tr.botsBet(st)
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// pokeTable makes a table look at its schedule again (its gate moved).
func (tr *tourney) pokeTable(st *sessionTable) {
	if st.runner != nil {
		_, _ = st.runner.ask(tr.h.ctx, &request{kind: reqSnapshot})
	}
}

// read takes in the table's new journal records. A Dragon session of hands settles its
// bets with its last hand, in the same commit: the settlement joins that hand's changes.
func (tr *tourney) read(st *sessionTable) {
	recs, err := tr.h.opt.Store.Load(tr.h.ctx, st.id, st.rec+1)
	if err != nil {
		tr.h.opt.Logger.Warn("reading a tournament table's journal", "table", st.id, "err", err)
		return
	}
	for i, rec := range recs {
		if rec.Seq == 1 {
			// The table's spec: the durable link to the session, journalled by the
			// tournament that created it. A table of the session's id without it is not ours.
			var spec Spec
			if json.Unmarshal(rec.Data, &spec) != nil || !spec.Tournament.Links(tr.id, st.s.Round, st.s.Table, st.s.Session) {
				st.foreign = true
				return
			}
			st.rec = rec.Seq
			continue
		}
		st.rec = rec.Seq
		var e table.Event
		if err := json.Unmarshal(rec.Data, &e); err != nil {
			tr.h.opt.Logger.Error("a tournament table's journal", "table", st.id, "seq", rec.Seq, "err", err)
			return
		}
		switch e.Type {
		case table.EvBettingOpened:
			if e.Betting <= 1 {
				st.open = e.Round
			}
		case table.EvBettingClosed:
			if e.Betting <= 1 {
				st.closed = e.Round
			}
		case table.EvRoundVoided:
			st.ends++
			st.voids++
			st.pending = append(st.pending, handEnd{n: st.ends, round: e.Round, void: true})
		case table.EvRoundSettled:
			st.ends++
			h := handEnd{n: st.ends, round: e.Round, changes: tabletop.Nets(e.Settlements)}
			if st.s.Hands > 0 && i+1 < len(recs) && recs[i+1].Type == table.EvSessionSettled.String() {
				var d table.Event
				if json.Unmarshal(recs[i+1].Data, &d) == nil {
					h.changes = tabletop.Merge(h.changes, tabletop.Nets(d.Settlements))
				}
			}
			st.pending = append(st.pending, h)
		case table.EvSessionSettled:
			if st.s.Hands == 0 && !st.settled { // a timed session, settled when its time was up
				st.settled, st.dragon = true, tabletop.Nets(e.Settlements)
			}
		}
	}
}

// tableView is the current round's table n as the tournament sees it.
func (tr *tourney) tableView(n int) (tournament.TableView, bool) {
	for _, tv := range tr.t.State().Tables {
		if tv.Table == n {
			return tv, true
		}
	}
	return tournament.TableView{}, false
}

// report sends the tournament the hands that ended, in order, each once: a hand already
// reported (by number) is skipped; one that would end the session first gets its riding
// wagers back to their owners (tabletop's package doc).
func (tr *tourney) report(st *sessionTable) {
	for len(st.pending) > 0 && !st.ended {
		hd := st.pending[0]
		tv, ok := tr.tableView(st.s.Table)
		if !ok || !tv.Live || tv.Session != st.s.Session || tr.t.Round() != st.s.Round {
			st.pending = nil
			return
		}
		if hd.n <= tv.Reports || (st.closing && hd.round > st.last) {
			st.pending = st.pending[1:] // reported already, or dealt after the time was up, without wagers
			continue
		}
		c := tournament.Command{Type: tournament.CmdReportHand, Table: st.s.Table, Hand: hd.n, Void: hd.void, Changes: hd.changes}
		if !hd.void && st.s.Hands > 0 && tv.Hands+1 >= st.s.Hands {
			if err := tr.returnRiders(st); err != nil {
				tr.h.opt.Logger.Warn("giving riding wagers back", "table", st.id, "err", err)
				return
			}
		}
		if _, err := tr.apply(c, nil); err != nil {
			tr.trouble("report "+st.id, "reporting hand %d of table %s: %v", hd.n, st.id, err)
			return
		}
		tr.untroubled("report " + st.id)
		if len(st.pending) > 0 { // (apply may have ended the session and cleared them)
			st.pending = st.pending[1:]
		}
		for _, p := range st.s.Players {
			tr.net[p] = 0
		}
		for _, ch := range hd.changes {
			tr.net[ch.Player] = ch.Net
		}
		tr.rebuyBots()
	}
}

// botsBet has the seated bots bet on a round whose betting just opened.
func (tr *tourney) botsBet(st *sessionTable) {
	if st.ended || st.open <= st.closed || st.open <= st.betOn || !tr.h.tourneys.mayOpen(st.id, st.open) {
		return
	}
	st.betOn = st.open
	var bots []string
	for _, p := range st.s.Players {
		if en, ok := tr.t.Entrant(p); ok && tr.isBot(p) && !en.Eliminated {
			bots = append(bots, p)
		}
	}
	if len(bots) == 0 {
		return
	}
	snap, err := tr.h.Snapshot(st.id, "")
	if err != nil || !snap.State.BetOpen || snap.State.Round != st.open {
		return
	}
	for _, id := range bots {
		chips, err := tr.h.bank.available(tr.h.ctx, ledger.Wallet(id, tr.t.Chips()))
		if err != nil {
			continue
		}
		hand := st.s.BotHand(tr.t.Game(), &snap.State, id, chips, tr.net[id])
		bot := tr.bots[id]
		if bot == nil {
			continue
		}
		for _, w := range bot.Wagers(hand) {
			_, _ = tr.h.Submit(tr.h.ctx, st.id, tabletop.BotWager(id, w)) // a refused wager changes nothing
		}
	}
}

// rebuyBots rebuys for busted bots that may (the house pays).
func (tr *tourney) rebuyBots() {
	for _, s := range tr.t.Leaderboard() {
		if s.CanRebuy && tr.isBot(s.Player) {
			if _, err := tr.apply(tournament.Command{Type: tournament.CmdRebuy, Player: s.Player}, nil); err != nil {
				tr.h.opt.Logger.Warn("a bot's rebuy", "tournament", tr.id, "bot", s.Player, "err", err)
			}
		}
	}
}
