package live

import (
	"encoding/json"

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

	rec     uint64                // the last record of its journal read
	co      *tabletop.Coordinator // the journal's events, read: hands to report, rounds to bet on
	closing bool                  // the session's time is up: no new rounds
	last    uint64                // when closing: the last round of the session (the one in play)
	ended   bool                  // the session has ended: the table retires once idle
	// foreign: a table of the session's id exists that its own record does not link to the
	// session (not created by this tournament): it is never adopted or played.
	foreign bool
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
				st.ended = true
				st.co.Drop()
				tr.h.tourneys.setGate(id, 0)
			}
		}
	}
}

// followSession starts following a session's table, opening it.
func (tr *tourney) followSession(s tabletop.Session) {
	id := tabletop.TableID(tr.id, s.Round, s.Table, s.Session)
	st := &sessionTable{id: id, s: s, co: tabletop.NewCoordinator(s)}
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
	}
	return st.co.Gate()
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
		if r := h.local(st.id); r == nil {
			if err := h.adopt(h.ctx, st.id); err != nil {
				h.opt.Logger.Warn("adopting a tournament table", "table", st.id, "err", err)
			}
		}
	}
	st.runner = h.local(st.id)
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
		if r := tr.h.local(st.id); r != nil && r != st.runner { // its runner stopped and another took the table up
			st.unlisten()
			st.runner = r
			tr.listen(st)
		}
	}
	before := st.co.Voids()
	tr.read(st)
	if st.co.Voids() != before {
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
		_, _ = st.runner.snapshotOf(tr.h.ctx, "")
	}
}

// read takes in the table's new journal records, its events for the coordinator (a commit's
// together, as a Dragon session of hands settles its bets in its last hand's commit).
func (tr *tourney) read(st *sessionTable) {
	recs, err := tr.h.opt.Store.Load(tr.h.ctx, st.id, st.rec+1)
	if err != nil {
		tr.h.opt.Logger.Warn("reading a tournament table's journal", "table", st.id, "err", err)
		return
	}
	evs := make([]table.Event, 0, len(recs))
	for _, rec := range recs {
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
			break
		}
		evs = append(evs, e)
	}
	st.co.On(evs)
}

// report sends the tournament the hands that ended, in order, each once (the coordinator's
// reports): one that would end the session first gets its riding wagers back to their
// owners (tabletop's package doc).
func (tr *tourney) report(st *sessionTable) {
	for !st.ended {
		var beyond uint64 // dealt after the time was up, without wagers
		if st.closing {
			beyond = st.last
		}
		rp, ok := st.co.NextReport(tr.t, beyond)
		if !ok {
			return
		}
		if rp.RidersFirst {
			if err := tr.returnRiders(st); err != nil {
				tr.h.opt.Logger.Warn("giving riding wagers back", "table", st.id, "err", err)
				return
			}
		}
		if _, err := tr.apply(rp.Command, nil); err != nil {
			tr.trouble("report "+st.id, "reporting hand %d of table %s: %v", rp.Hand.N, st.id, err)
			return
		}
		tr.untroubled("report " + st.id)
		st.co.Reported(rp, tr.net)
		tr.rebuyBots()
	}
}

// botsBet has the seated bots bet on a round whose betting just opened.
func (tr *tourney) botsBet(st *sessionTable) {
	round := st.co.Betting()
	if st.ended || round == 0 || !tr.h.tourneys.mayOpen(st.id, round) {
		return
	}
	bots := st.co.Bots(tr.t, tr.bots)
	if len(bots) == 0 {
		return
	}
	snap, err := tr.h.Snapshot(st.id, "")
	if err != nil || !snap.State.BetOpen || snap.State.Round != round { // (no chips looked up for nothing)
		return
	}
	seats := make([]tabletop.BotSeat, 0, len(bots))
	for _, id := range bots {
		chips, err := tr.h.bank.available(tr.h.ctx, ledger.Wallet(id, tr.t.Chips()))
		if err != nil {
			continue
		}
		seats = append(seats, tabletop.BotSeat{ID: id, Player: tr.bots[id], Chips: chips, LastNet: tr.net[id]})
	}
	for _, p := range st.co.BotWagers(tr.t.Game(), &snap.State, round, seats) {
		_, _ = tr.h.Submit(tr.h.ctx, st.id, p) // a refused wager changes nothing
	}
}

// rebuyBots rebuys for busted bots that may (the house pays).
func (tr *tourney) rebuyBots() {
	for _, c := range tabletop.BotRebuys(tr.t, tr.bots) {
		if _, err := tr.apply(c, nil); err != nil {
			tr.h.opt.Logger.Warn("a bot's rebuy", "tournament", tr.id, "bot", c.Player, "err", err)
		}
	}
}
