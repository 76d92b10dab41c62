package live

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// tourney is one tournament's goroutine: the only code that touches its tournament.
type tourney struct {
	h      *Host
	id     string
	stream string
	spec   TournamentSpec
	t      *tournament.Tournament
	head   journal.Head
	inbox  chan tourneyAsk
	poke   chan struct{} // one of its tables moved
	done   chan struct{}

	tables map[string]*sessionTable    // the tables of its live (and just ended) sessions
	botIDs map[string]bool             // its house bots (TournamentSpec.Bots)
	bots   map[string]*tabletop.Player // how each plays: drawn from the house's secret, from the start
	net    map[string]baccarat.Money   // each player's net on their last hand
	filled bool                        // the bots have filled the entries
	paid   openDebits                  // a seamless tournament's debits not yet closed

	problems   map[string]*TournamentProblem // what keeps it from going on, by what failed (tournament_trouble.go)
	cancelling string                        // an admin's reason, while play stops before the cancellation
	sweep      []transfer                    // the chips the cancellation hands back to the chip house
	lease      tenure                        // its hold on its journal's lease (lease.go)
	stale      bool                          // a commit failed and the journal could not be read again (reload)

	wake   <-chan time.Time
	wakeAt time.Time

	// archived: the tournament is over and its goroutine gone; its view stays for its page.
	archived atomic.Bool

	mu      sync.Mutex
	view    TournamentView // as of the last commit
	changed chan struct{}  // closed at every commit
}

// tourneyReq is a request for the tournament's goroutine; each kind answers itself there.
type tourneyReq interface {
	answer(tr *tourney) tourneyReply
}

// tourneyCommand is a player's command to apply (register, unregister, rebuy), with the
// operator's debit that paid for it, if any (tournament_wallet.go).
type tourneyCommand struct {
	cmd  tournament.Command
	paid *Debited
}

// tourneyQuote prices a player's command without applying it.
type tourneyQuote struct{ cmd tournament.Command }

// tourneyCancel is an admin's cancellation (CancelTournament), with its reason.
type tourneyCancel struct{ reason string }

// tourneyAsk is a request in the inbox, with where its answer goes.
type tourneyAsk struct {
	req   tourneyReq
	reply chan tourneyReply
}

// tourneyReply is the goroutine's answer: the command's charge (a quote), or the credits
// and rollbacks its commit wrote for the operator's wallet.
type tourneyReply struct {
	err    error
	charge tournament.Charge
	round  int
	calls  []journal.WalletCall
}

// newTourney makes a tournament's goroutine state; events are its journal's (nil for a new
// one), from which it learns the operator's debits still open.
func newTourney(h *Host, spec TournamentSpec, t *tournament.Tournament, head journal.Head, events []tournament.Event) *tourney {
	tr := &tourney{h: h, id: spec.Config.ID, stream: tabletop.Stream(spec.Config.ID), spec: spec, t: t, head: head,
		inbox: make(chan tourneyAsk, 256), poke: make(chan struct{}, 1), done: make(chan struct{}),
		tables: map[string]*sessionTable{}, botIDs: map[string]bool{}, net: map[string]baccarat.Money{},
		paid: openDebitsOf(events), changed: make(chan struct{})}
	for _, b := range spec.Bots {
		tr.botIDs[b.ID] = true
	}
	if t.Phase() != tournament.PhaseScheduled && t.Phase() != tournament.PhaseRegistering && t.Phase() != tournament.PhaseClosed {
		tr.seatBots()
	}
	tr.filled = t.Phase() != tournament.PhaseScheduled && t.Phase() != tournament.PhaseRegistering
	tr.view = tr.buildView()
	return tr
}

// seatBots readies the bots to play, each drawing from the house's secret, which the
// tournament drew at its start (tournament's house.go): nothing a player can read while it
// runs predicts a bot's wager.
func (tr *tourney) seatBots() {
	tr.bots = map[string]*tabletop.Player{}
	for _, b := range tr.spec.Bots {
		p, _ := tabletop.NewPlayer(b, tabletop.BotSeed(tr.t.Secret(), b.ID))
		tr.bots[b.ID] = p
	}
}

// newSecret draws the house's secret for a tournament's start: 32 bytes from crypto/rand, in
// hex.
func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read does not fail (it crashes the program instead)
	return hex.EncodeToString(b)
}

// signal wakes the tournament: one of its tables moved.
func (tr *tourney) signal() {
	select {
	case tr.poke <- struct{}{}:
	default:
	}
}

func (tr *tourney) run() {
	defer close(tr.done)
	loop := newLeased(tr.h, tr.stream, &tr.lease, tr.inbox, 1, tr.h.ctx.Done())
	tr.resume()
	loop.run(tr)
}

// The tournament's work in its leased loop: its requests are taken one at a time; it wakes
// when one of its tables moves (poked), and on its timer for its schedule or a retry.

// due does everything due and plans the next wake; false once the tournament is over.
func (tr *tourney) due() bool {
	tr.step()
	if tr.over() {
		tr.archived.Store(true) // kept for its page; nothing more will happen to it
		return false
	}
	tr.plan()
	return true
}

func (tr *tourney) take(batch []tourneyAsk) {
	for _, a := range batch {
		a.reply <- a.req.answer(tr)
	}
}

func (tr *tourney) wakes() wakes {
	return wakes{timer: [3]<-chan time.Time{tr.wake}, poke: tr.poke}
}

func (tr *tourney) woke(i int) {
	if i == poked {
		tr.followAll()
		return
	}
	tr.wake, tr.wakeAt = nil, time.Time{}
	if tr.waiting() {
		tr.followAll() // a table not yet adopted sends no news: try it again
	}
}

// over reports whether the tournament has ended and its last tables have retired.
func (tr *tourney) over() bool {
	ph := tr.t.Phase()
	return (ph == tournament.PhaseFinished || ph == tournament.PhaseCancelled) && len(tr.tables) == 0
}

// stopped ends the goroutine's work, whether its lease was lost, the host stops or the
// tournament is over: its streams close and, unless the host is abandoned as in a crash, its
// lease is released (the store gives up only a lease this host still holds). Its tables stop
// with the host.
func (tr *tourney) stopped(bool) {
	for _, st := range tr.tables {
		st.unlisten()
	}
	tr.lease.release(tr.h, tr.stream)
}

// playerCommand refuses what a player may not send: a command other than a registration, a
// withdrawal of one or a rebuy, or one without a valid player id.
func playerCommand(c tournament.Command) error {
	switch c.Type {
	case tournament.CmdRegister, tournament.CmdUnregister, tournament.CmdRebuy:
	default:
		return baccarat.Errorf(baccarat.CodeBadRequest, "a player cannot send a tournament %q command", c.Type)
	}
	return baccarat.CheckID("player", c.Player)
}

func (q tourneyCommand) answer(tr *tourney) tourneyReply {
	if err := playerCommand(q.cmd); err != nil {
		return tourneyReply{err: err}
	}
	calls, err := tr.apply(q.cmd, q.paid)
	return tourneyReply{calls: calls, err: err}
}

func (q tourneyQuote) answer(tr *tourney) tourneyReply {
	if err := playerCommand(q.cmd); err != nil {
		return tourneyReply{err: err}
	}
	c := q.cmd
	c.At = tr.h.opt.Clock.Now()
	ch, err := tr.t.Charge(&c)
	return tourneyReply{charge: ch, round: tr.t.Round(), err: err}
}

func (q tourneyCancel) answer(tr *tourney) tourneyReply {
	return tr.cancel(tournament.Command{Type: tournament.CmdCancel, Reason: q.reason})
}

// retryEvery is how soon the tournament looks again at what it waits for: a table to
// finish its hand in play, a lease to lapse, the store to answer.
const retryEvery = time.Second

// step does everything due: the bots fill the entries, the schedule's commands run (the
// start, each session's start, a timed session's end), ended sessions' tables retire.
func (tr *tourney) step() {
	if tr.stale && !tr.reload() {
		return // the store is out of reach: tried again at the next wake
	}
	if tr.cancelling != "" {
		tr.windDown()
		tr.retireEnded()
		return
	}
	for range 1000 {
		now := tr.h.opt.Clock.Now()
		if tr.fillDue(now) {
			tr.fill()
			continue
		}
		cmd, _ := tournament.Next(tr.t, now)
		if cmd == nil || !tr.scheduled(*cmd) {
			break
		}
	}
	tr.retireEnded()
}

// plan sets the timer for the next thing due: the schedule's next command, the bots' fill,
// or a retry while something waits.
func (tr *tourney) plan() {
	now := tr.h.opt.Clock.Now()
	_, at := tournament.Next(tr.t, now)
	if !tr.filled && tr.t.Phase() == tournament.PhaseRegistering {
		if f := tr.fillAt(); at.IsZero() || f.Before(at) {
			at = f
		}
	}
	if tr.waiting() && (at.IsZero() || now.Add(retryEvery).Before(at)) {
		at = now.Add(retryEvery)
	}
	if at.IsZero() {
		tr.wake, tr.wakeAt = nil, time.Time{}
		return
	}
	if tr.wake != nil && !tr.wakeAt.After(at) {
		// A wake already due no later stays: the loop plans again after every request and
		// lease renewal, several times a second, and must not put a retry off for ever.
		return
	}
	tr.wake, tr.wakeAt = tr.h.opt.Clock.After(at.Sub(now)), at
}

// scheduled runs one command of the schedule; false when it has to wait (a session whose
// time is up ends after the hand in play) or failed (it is tried again).
func (tr *tourney) scheduled(c tournament.Command) bool {
	switch c.Type {
	case tournament.CmdStart:
		c.Seed, c.Secret = baccarat.CryptoSource().Uint64(), newSecret()
	case tournament.CmdEndSession:
		return tr.endTimedSession(c)
	}
	if _, err := tr.apply(c, nil); err != nil {
		tr.trouble("schedule", "the schedule's %s: %v", c.Type, err)
		return false
	}
	tr.untroubled("schedule")
	return true
}

// fillDue reports whether the bots fill the entries now: registration is open and it is
// time (fillAt).
func (tr *tourney) fillDue(now time.Time) bool {
	return !tr.filled && len(tr.spec.Bots) > 0 && tr.t.Phase() == tournament.PhaseRegistering && !now.Before(tr.fillAt())
}

// fillAt is when the bots fill the entries: BotLead before registration closes, or as it
// opens if that is later.
func (tr *tourney) fillAt() time.Time {
	cfg := tr.t.Config()
	at := cfg.RegistrationCloses.Add(-BotLead)
	if at.Before(cfg.RegistrationOpens) {
		at = cfg.RegistrationOpens
	}
	return at
}

// fill registers bots until the tournament has as many entrants as it has bots (at most its
// maximum), all in one commit; the house pays their fees (tournament_books.go).
func (tr *tourney) fill() {
	tr.filled = true
	at := tr.h.opt.Clock.Now()
	var evs []tournament.Event
	for _, b := range tr.spec.Bots {
		if len(tr.t.Entrants()) >= min(len(tr.spec.Bots), tr.t.Config().MaxEntrants) {
			break
		}
		if _, ok := tr.t.Entrant(b.ID); ok {
			continue
		}
		e, err := tr.t.Apply(&tournament.Command{Type: tournament.CmdRegister, Player: b.ID, Bot: true, At: at})
		if err != nil {
			tr.h.opt.Logger.Warn("a bot could not register", "tournament", tr.id, "bot", b.ID, "err", err)
			continue
		}
		evs = append(evs, e...)
	}
	if _, err := tr.commit(evs, nil, nil); err != nil {
		tr.h.opt.Logger.Error("the bots could not register", "tournament", tr.id, "err", err)
	}
}

// apply applies a command at the host's time and commits its events with their postings
// (and, in a seamless tournament, the debit paid, the credits and rollbacks they owe, which
// it returns); then it starts the tables of sessions that started.
func (tr *tourney) apply(c tournament.Command, paid *Debited) ([]journal.WalletCall, error) {
	if tr.lease.lost || tr.stale && !tr.reload() {
		return nil, baccarat.Errorf(baccarat.CodeUnavailable, "the tournament's storage is out of reach: nothing was done; try again in a moment")
	}
	c.At = tr.h.opt.Clock.Now()
	if err := tr.checkPaid(&c, paid); err != nil {
		return nil, err
	}
	holds, err := tr.holdFor(c)
	if err != nil {
		return nil, err
	}
	evs, err := tr.t.Apply(&c)
	if err != nil {
		tr.release(holds)
		return nil, err
	}
	calls, err := tr.commit(evs, holds, paid)
	if err != nil {
		return nil, err
	}
	tr.afterCommit(evs)
	return calls, nil
}

// waiting reports whether something waits for a retry: a session to close, a table to
// retire or to be adopted.
func (tr *tourney) waiting() bool {
	if tr.cancelling != "" || tr.stale {
		return true
	}
	for _, st := range tr.tables {
		if st.closing || st.ended || st.runner == nil {
			return true
		}
	}
	return false
}
