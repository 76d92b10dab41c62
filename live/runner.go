package live

import (
	"context"
	"encoding/hex"
	"sync/atomic"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tablejson"
	"github.com/tablehouse/baccarat/tournament"
)

// Snapshot is a table as one participant may see it.
type Snapshot struct {
	Spec  Spec        `json:"table"`
	State table.State `json:"state"`
	Roads roads.View  `json:"roads"`
	At    time.Time   `json:"server_time"`
}

// runner is one table's goroutine: the only code that touches its table.
type runner struct {
	h         *Host
	spec      Spec
	t         *table.Table
	head      journal.Head
	inbox     chan request
	quit      chan struct{}
	done      chan struct{}
	hub       *hub
	board     roads.Board
	last      time.Time // when the table's last event happened
	recovered bool
	wakeAt    time.Time
	wake      <-chan time.Time
	recent    []Round // the last rounds, newest last, for recall
	// totals are published at most every totalsEvery: totalsDue is when the next may go,
	// totalsWake fires then if wagers moved in between.
	totalsDue  time.Time
	totalsWake <-chan time.Time
	roadsWake  <-chan time.Time
	out        []Delivery // deliveries being built, handed to the hub by flush
	money      runnerMoney
	lease      tenure
	// gate is what the table asks, beyond its game, of what it plays for: nil for a plain
	// table, its tournament's at a session table (gate.go).
	gate Gate
	// stakes is where the table's wagers take and give back money (stakes.go).
	stakes Stakes
	// listener hears what the table commits (news.go): nil, or its tournament's.
	listener atomic.Pointer[listener]
	// stale: a commit failed and the table could not be rebuilt from its journal (the store
	// is out of reach): it takes no command until it can be, so it never runs ahead of what
	// is durable.
	stale bool
	// snapRound is the round of the table's last snapshot (snapshots.go).
	snapRound uint64
}

// totalsEvery paces the "totals" messages: every wager changes the totals, and sending
// each change to every player would cost the square of the players.
const totalsEvery = time.Second

var errStopped = baccarat.Errorf(baccarat.CodeBusy, "the table is stopping: try again")

func newRunner(h *Host, spec Spec, t *table.Table, head journal.Head) *runner {
	r := &runner{h: h, spec: spec, t: t, head: head, inbox: make(chan request, h.opt.Inbox),
		quit: make(chan struct{}), done: make(chan struct{}), hub: newHub(), last: h.opt.Clock.Now(),
		gate: h.gateFor(&spec), stakes: h.stakesFor(&spec)}
	r.rebuildBoard()
	r.money.note(t)
	return r
}

// observe keeps the runner's view of time in step with recovered events.
func (r *runner) observe(e *table.Event) {
	if !e.At.IsZero() {
		r.last = e.At
	}
}

func (r *runner) stop() {
	select {
	case <-r.quit:
	default:
		close(r.quit)
	}
	<-r.done
}

func (r *runner) run() {
	defer r.tell(tableNews{stopped: true}) // once done is closed: its listener finds it stopped
	defer close(r.done)
	defer r.hub.closeAll()
	loop := newLeased(r.h, r.spec.ID, &r.lease, r.inbox, r.h.opt.MaxBatch, r.quit)
	if r.recovered {
		r.interruptIfUnderWay()
	}
	loop.run(r)
}

// The table's work in its leased loop: its commands are committed a batch at a time; it
// wakes for its schedule's next step and to publish totals and roads.

// The table's timers, by their place in its wakes.
const (
	scheduleTimer = iota
	totalsTimer
	roadsTimer
)

func (r *runner) due() bool {
	r.plan()
	return true
}

func (r *runner) take(batch []request) { r.process(batch) }

func (r *runner) wakes() wakes {
	return wakes{timer: [3]<-chan time.Time{scheduleTimer: r.wake, totalsTimer: r.totalsWake, roadsTimer: r.roadsWake}}
}

func (r *runner) woke(i int) {
	switch i {
	case scheduleTimer:
		r.wake, r.wakeAt = nil, time.Time{}
		r.tick()
	case totalsTimer:
		r.totalsWake = nil
		r.publishTotals()
	case roadsTimer:
		r.roadsWake = nil
		r.publishRoads()
	}
}

// stopped refuses what waits in the inbox. A table told to stop gives its lease up; one that
// lost it has nothing to give (another server holds the table now).
func (r *runner) stopped(lost bool) {
	r.failInbox()
	if !lost {
		r.lease.release(r.h, r.spec.ID)
	}
}

// failInbox answers every queued request: the table is stopping.
func (r *runner) failInbox() {
	for {
		select {
		case req := <-r.inbox:
			req.refuse(errStopped)
		default:
			return
		}
	}
}

// interruptIfUnderWay: a round that was under way when the host stopped resumes from the
// durable record with its original cards; first it is interrupted, which opens a
// withdrawal window when no wager's result is certain (SPEC §4, Tiger 5.17).
func (r *runner) interruptIfUnderWay() {
	st := r.t.State()
	if st.Interrupted || (st.Phase != table.PhaseBetting && st.Phase != table.PhaseClosed && st.Phase != table.PhaseDealing) {
		return
	}
	cmd := &table.Interrupt{Header: table.Header{Role: table.RoleSystem, Actor: "recovery", Reason: "server_restart"}}
	r.process([]request{&commandReq{cmd: cmd}})
}

// plan sets the wake-up timer of an automatic table from its schedule.
func (r *runner) plan() {
	if r.spec.Mode != ModeAuto {
		return
	}
	now := r.h.opt.Clock.Now()
	cmd, at := r.next(now)
	switch {
	case cmd != nil:
		at = now
	case at.IsZero():
		r.wake, r.wakeAt = nil, time.Time{}
		return
	}
	if r.stale && at.Before(now.Add(time.Second)) {
		at = now.Add(time.Second) // the store is out of reach: look again in a second, not at once
	}
	if r.wake != nil && r.wakeAt.Equal(at) {
		return
	}
	r.wake, r.wakeAt = r.h.opt.Clock.After(at.Sub(now)), at
}

// tick runs the automatic table's next step, if one is due.
func (r *runner) tick() {
	now := r.h.opt.Clock.Now()
	cmd, _ := r.next(now)
	if cmd == nil {
		return
	}
	if shoe, ok := cmd.(*table.NewShoe); ok {
		order, salt := r.h.opt.Shuffle(r.spec.Config.Decks)
		shoe.Order, shoe.Salt = order, hex.EncodeToString(salt)
	}
	r.process(r.stepBatch(cmd))
}

type staged struct {
	req    request
	events []table.Event
	data   [][]byte // each event's JSON, as journalled (and published where it is public as is)
	err    error
	hold   *Held
	care   *careHold
}

// process applies a batch of requests to the table and commits every event and posting they
// made in one transaction, then answers and publishes. If the commit fails the table is
// rebuilt from its journal and the commands are retried one by one, so one bad wager cannot
// sink the others.
func (r *runner) process(batch []request) {
	ctx := r.h.ctx
	now := r.h.opt.Clock.Now()
	staged := make([]staged, len(batch))
	var recs []journal.Record
	var mv Moves
	var reqs []journal.Request
	var holds []Held
	var cares []careHold
	var plays []responsible.Play
	var balances map[string]baccarat.Money
	var committed eventTypes
	if r.stale && !r.reload() {
		answerAll(batch, errUnavailable)
		return
	}
	head := r.head
	for i, req := range batch {
		staged[i].req = req
		c, ok := req.(*commandReq)
		if !ok {
			continue // a question: answered once the batch is committed
		}
		evs, h, ch, err := r.apply(ctx, c.cmd, now)
		staged[i].events, staged[i].hold, staged[i].care, staged[i].err = evs, h, ch, err
		if ch != nil {
			cares = append(cares, *ch)
		}
		if p, ok := c.cmd.(*table.Peel); ok && err == nil {
			r.peeled(p) // shown, never journalled: a peel changes nothing
		}
		if h != nil {
			holds = append(holds, *h)
		}
		for j := range evs {
			data, err := tablejson.AppendEvent(nil, &evs[j]) // encoding/json's bytes, without reflection
			if err != nil {
				panic(err) // events are plain data: this cannot happen
			}
			staged[i].data = append(staged[i].data, data)
			if p, ok := c.cmd.(*table.Place); ok && (evs[j].Type == table.EvWagerPlaced || evs[j].Type == table.EvWagerRaised) && evs[j].Wager.RequestID != "" {
				reqs = append(reqs, r.requestOf(p, &evs[j], data))
			}
			rec := journal.Seal(head, journal.Record{Table: r.spec.ID, Seq: head.Seq + 1, Type: evs[j].Type.String(), Data: data, At: now})
			head = rec.Head()
			recs = append(recs, rec)
		}
		r.stakes.Settle(r, c.cmd, evs, &mv, now)
		if r.h.care != nil {
			plays = Plays(r.spec.ID, r.spec.Currency, evs, plays, r.t)
		}
	}
	if len(recs) > 0 {
		var err error
		b := journal.Batch{Records: recs, Transactions: mv.Transactions, Requests: reqs, Placed: mv.Placed, Calls: mv.Calls, Plays: plays}
		if r.snapshotDue(staged) {
			b.Snapshot = r.snapshotAt(head.Seq)
		}
		balances, err = r.commit(ctx, b)
		if err != nil {
			r.h.care.failed(plays, cares)
			r.recoverFrom(batch, staged, holds, mv.Transactions, err)
			return
		}
		r.h.care.committed(plays, cares)
		r.head = head
		r.last = now
		r.money.note(r.t) // the round and betting, for wallets that call out before the table
		if b.Snapshot != nil {
			r.snapRound = r.t.Round()
		}
		for i := range staged {
			if len(staged[i].events) > 0 {
				r.h.opt.Observer.TableCommitted(&r.spec, staged[i].events)
				committed.add(staged[i].events)
			}
		}
	}
	changed := r.stakes.Committed(r, &mv, holds, balances)
	for i := range staged {
		for j := range staged[i].events {
			r.remember(&staged[i].events[j])
		}
	}
	r.publish(staged, changed)
	if committed != 0 {
		r.tell(tableNews{committed: committed})
	}
	if len(changed) > 0 {
		// Every other server hears which wallets moved before a command is answered (in a
		// cluster this waits for NATS to have the news): after the table's messages, so a
		// settlement's results are not kept waiting for it.
		wallets := make([]string, 0, len(changed))
		for w := range changed {
			wallets = append(wallets, w)
		}
		r.h.walletsChanged(wallets)
	}
	for i := range staged {
		staged[i].req.answer(r, &staged[i])
	}
}

// apply runs one command against the table. A wager first holds its stake in the bank,
// so no two tables spend the same money while their batches are being committed.
func (r *runner) apply(ctx context.Context, cmd table.Command, now time.Time) ([]table.Event, *Held, *careHold, error) {
	cmd.Head().At = now
	var hd *Held
	var ch *careHold
	if err := r.checkCommand(cmd); err != nil {
		return nil, nil, nil, err
	}
	if w, ok := cmd.(*table.Withdraw); ok {
		if err := r.stakes.CheckWithdraw(r, w); err != nil {
			return nil, nil, nil, err
		}
	}
	if p, ok := cmd.(*table.Place); ok {
		cp := *p // the caller's command stays as it was sent
		p = &cp
		cmd = p
		if err := r.checkChips(); err != nil {
			return nil, nil, nil, err
		}
		if err := r.checkWager(p); err != nil {
			return nil, nil, nil, err
		}
		if player := placer(p); r.h.care != nil && !tournament.IsBot(player) {
			w := responsible.Wager{Currency: string(r.spec.Currency), Table: r.spec.ID, Round: r.t.Round(), Stake: p.Stake}
			if err := r.h.care.hold(player, w, now); err != nil {
				return nil, nil, nil, err
			}
			ch = &careHold{player: player, w: w}
		}
		wallet := ledger.Wallet(placer(p), r.spec.Currency)
		avail, ok, err := r.stakes.Hold(ctx, r, wallet, p)
		if err != nil {
			r.h.care.releaseHold(ch)
			return nil, nil, nil, err
		}
		p.Available = avail // the wallet is the one record of what a player may stake
		if ok {
			hd = &Held{Wallet: wallet, Stake: p.Stake}
		}
		r.t.Prepare(p) // names interned once, here at the edge
	}
	evs, err := r.t.Apply(cmd)
	placed := err == nil && len(evs) > 0
	if hd != nil && !placed {
		r.stakes.Void(hd.Wallet, hd.Stake)
		hd = nil
	}
	if ch != nil && !placed {
		r.h.care.releaseHold(ch)
		ch = nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	out := make([]table.Event, len(evs))
	for i := range evs {
		out[i] = evs[i].Clone() // the table reuses its events at the next Apply
	}
	return out, hd, ch, nil
}

// commit writes a batch, and returns the wallets' balances after it when the store can tell
// them (journal.BalanceCommitter).
func (r *runner) commit(ctx context.Context, b journal.Batch) (map[string]baccarat.Money, error) {
	b.Fence = r.lease.fence(r.h, r.spec.ID)
	if bc, ok := r.h.opt.Store.(journal.BalanceCommitter); ok {
		return bc.CommitBalances(ctx, b)
	}
	return nil, r.h.opt.Store.Commit(ctx, b)
}
