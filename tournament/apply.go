package tournament

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// Apply validates a command and, if it is allowed, changes the tournament and returns the
// events that record the change, in order. An error (a *baccarat.Error with a stable
// code) means nothing changed. One command may cascade: the report of a round's last hand
// also ends the session, finishes the table, ends the round and seats the next one (or
// finishes the tournament).
func (t *Tournament) Apply(c *Command) ([]Event, error) {
	h := handlerFor(c.Type)
	if h == nil {
		return nil, badRequest("unknown command %q", c.Type)
	}
	t.out = nil
	if err := h(t, c); err != nil {
		t.out = nil
		return nil, err
	}
	out := t.out
	t.out = nil
	return out, nil
}

type handler func(t *Tournament, c *Command) error

func handlerFor(ct CommandType) handler {
	switch ct {
	case CmdOpenRegistration:
		return (*Tournament).openRegistration
	case CmdRegister:
		return (*Tournament).register
	case CmdUnregister:
		return (*Tournament).unregister
	case CmdCloseRegistration:
		return (*Tournament).closeRegistration
	case CmdStart:
		return (*Tournament).start
	case CmdCancel:
		return (*Tournament).cancel
	case CmdStartSession:
		return (*Tournament).startSession
	case CmdReportHand:
		return (*Tournament).reportHand
	case CmdEndSession:
		return (*Tournament).endSession
	case CmdRebuy:
		return (*Tournament).rebuy
	}
	return nil
}

// emit numbers an event, applies it to the state and adds it to the output. Every change
// of state goes through here, so Replay (which calls on) rebuilds the same tournament.
func (t *Tournament) emit(at time.Time, e Event) {
	e.Seq, e.At = t.seq+1, at
	t.on(&e)
	t.out = append(t.out, e)
}

// on applies one event to the state. It trusts the event: validation happened in Apply.
func (t *Tournament) on(e *Event) {
	t.seq = e.Seq
	switch e.Type {
	case EvRegistrationOpened:
		t.phase = PhaseRegistering
	case EvRegistered:
		t.onRegistered(e)
	case EvUnregistered:
		t.onUnregistered(e)
	case EvRegistrationClosed:
		t.phase = PhaseClosed
	case EvCancelled:
		t.phase, t.collected = PhaseCancelled, 0
		if r := t.current(); r != nil {
			for _, tb := range r.tables {
				tb.live = false // play stopped: the host handed every chip back
			}
		}
	case EvStarted:
		t.phase, t.seed, t.secret, t.commitment = PhaseRunning, e.Seed, e.Secret, e.Commitment
	case EvRoundSeated:
		t.onSeated(e)
	case EvSessionStarted:
		t.onSessionStarted(e)
	case EvHandReported, EvDragonSettled:
		t.onChanges(e)
	case EvRebought:
		t.onRebought(e)
	case EvEliminated:
		t.lookup(e.Player).eliminated = true
	case EvSessionEnded:
		t.onSessionEnded(e)
	case EvTableFinished:
		t.tableOf(e.Table).finished = true
	case EvRoundEnded:
		t.onRoundEnded(e)
	case EvFinished:
		t.onFinished(e)
	}
}

// Replay rebuilds a tournament from its history: recovery after a crash and audit use this
// one path. It checks that the events are numbered consecutively.
func Replay(cfg Config, events []Event) (*Tournament, error) {
	t, err := newTournament(cfg, true) // a history is not held to ranges set since
	if err != nil {
		return nil, err
	}
	for i := range events {
		if err := t.Restore(&events[i]); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Restore applies one event of the tournament's own history (as Replay does, one at a time).
func (t *Tournament) Restore(e *Event) error {
	if e.Seq != t.seq+1 {
		return baccarat.Errorf(baccarat.CodeConflict, "event %d follows event %d: the history has a gap or is out of order", e.Seq, t.seq)
	}
	t.on(e)
	return nil
}
