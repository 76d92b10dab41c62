package live

import (
	"context"

	"github.com/tablehouse/baccarat/table"
)

// What a table's goroutine is asked, one type per question, each with the reply it gives:
// a field exists only where it means something (a recall's count is not a stream's seq), and
// the runner cannot answer a snapshot with rounds. Commands are applied, and committed
// together, in the batch they arrive in; the questions are answered after that commit, from
// the table as it then stands.

// request is one thing the table's goroutine is asked.
type request interface {
	// answer replies from the table once the request's batch is committed: s is what the
	// request staged in it (a command's events and error; nothing for a question).
	answer(r *runner, s *staged)
	// refuse replies err, untried: the table is stopping, or the batch could not be committed.
	refuse(err error)
}

// reply is what a request is answered: a value, or why not. A command's answer may carry
// both (its result is the table's word on it even when the command failed).
type reply[T any] struct {
	v   T
	err error
}

// asked is the reply channel a request is answered on: nil for a command the runner sends
// itself (a tick's step, recovery's interrupt or void), which nobody waits for.
type asked[T any] struct{ reply chan reply[T] }

func (a *asked[T]) give(v T, err error) {
	if a.reply != nil {
		a.reply <- reply[T]{v: v, err: err}
	}
}

func (a *asked[T]) refuse(err error) {
	var zero T
	a.give(zero, err)
}

// ask sends req to the table's goroutine and waits for the answer on a, which belongs to req.
// A full inbox is refused at once (errBusy): the overload policy is not to queue without
// bound. A question the table could not answer (it was stopping) returns the error, never an
// empty answer for the caller to dereference.
func ask[T any](ctx context.Context, r *runner, req request, a *asked[T]) (T, error) {
	var zero T
	a.reply = make(chan reply[T], 1)
	select {
	case r.inbox <- req:
	default:
		return zero, errBusy
	}
	select {
	case rep := <-a.reply:
		return rep.v, rep.err
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-r.done:
		return zero, errStopped
	}
}

// commandReq is a command to apply to the table.
type commandReq struct {
	asked[*Result]
	cmd table.Command
}

// submit applies cmd at the table and returns its result; a refused command may return
// both a result and its error.
func (r *runner) submit(ctx context.Context, cmd table.Command) (*Result, error) {
	req := &commandReq{cmd: cmd}
	return ask(ctx, r, req, &req.asked)
}

func (q *commandReq) answer(r *runner, s *staged) {
	if q.reply == nil {
		return
	}
	res := &Result{Events: s.events}
	for i := range s.events {
		if t := s.events[i].Type; t == table.EvWagerPlaced || t == table.EvWagerRaised || t == table.EvWagerLowered {
			res.Wager = s.events[i].Wager // a clone: the table's events are not shared; a raise's is the wager at its new total
		}
	}
	if p, ok := q.cmd.(*table.Place); ok && res.Wager == nil && s.err == nil {
		if w, ok := r.t.WagerByRequest(placer(p), p.RequestID); ok {
			res.Wager = &w // the same request id again: the wager placed the first time
		}
	}
	if player := playerOf(q.cmd); player != "" && s.err == nil && r.stakes.Answers() {
		bal, err := r.stakes.Balance(r.h.ctx, r, player)
		res.Balance, res.HasBalance = bal, err == nil
	}
	q.give(res, s.err)
}

// snapshotReq asks for the table as player sees it ("" for the full view). Like every
// request it also makes the table look at its schedule again, which is how a tournament
// wakes one of its tables (pokeTable).
type snapshotReq struct {
	asked[*Snapshot]
	player string
}

func (r *runner) snapshotOf(ctx context.Context, player string) (*Snapshot, error) {
	req := &snapshotReq{player: player}
	return ask(ctx, r, req, &req.asked)
}

func (q *snapshotReq) answer(r *runner, _ *staged) {
	snap := r.snapshot(q.player)
	q.give(&snap, nil)
}

// roundsReq asks for the player's last n rounds at the table (recall.go).
type roundsReq struct {
	asked[[]Round]
	player string
	n      int
}

func (r *runner) rounds(ctx context.Context, player string, n int) ([]Round, error) {
	req := &roundsReq{player: player, n: n}
	return ask(ctx, r, req, &req.asked)
}

func (q *roundsReq) answer(r *runner, _ *staged) {
	q.give(r.recall(q.player, q.n), nil)
}

// subscribeReq opens a stream of the table's messages for player from seq since; one that
// resumes and finds every message it missed still at hand starts without a snapshot.
type subscribeReq struct {
	asked[*Subscription]
	player string
	since  uint64
	resume bool
}

func (r *runner) subscribe(ctx context.Context, player string, since uint64, resume bool) (*Subscription, error) {
	req := &subscribeReq{player: player, since: since, resume: resume}
	return ask(ctx, r, req, &req.asked)
}

func (q *subscribeReq) answer(r *runner, _ *staged) {
	sub, ok := r.hub.add(q.player, q.since, q.resume)
	if !ok {
		snap := r.snapshot(q.player)
		sub.Snapshot = &snap
	}
	q.give(sub, nil)
}
