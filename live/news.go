package live

import "github.com/tablehouse/baccarat/table"

// A table's runner tells a listener what it committed: the types of the events each batch
// held, typed, so that a listener (a tournament following its session's table) learns that
// the table moved without reading the players' messages for it; it then reads what it needs
// from the journal. The runner knows no listener by name.

// eventTypes is a set of table event types, a bit each (table.EventType is a small number).
type eventTypes uint64

// typesOf is the set of ts.
func typesOf(ts ...table.EventType) eventTypes {
	var s eventTypes
	for _, t := range ts {
		s |= 1 << t
	}
	return s
}

// add puts the types of evs in the set.
func (s *eventTypes) add(evs []table.Event) {
	for i := range evs {
		*s |= 1 << evs[i].Type
	}
}

// any reports whether the set holds any type of of.
func (s eventTypes) any(of eventTypes) bool { return s&of != 0 }

// tableNews is what a table's runner tells its listener: after a commit, the types of the
// events it held; as the runner stops, that it stopped (the listener looks for the table's
// next runner).
type tableNews struct {
	committed eventTypes
	stopped   bool
}

// listener hears a table's news on the table's goroutine, which waits for it: hear must
// return at once (a poke on a buffered channel of one, dropped when one is already there).
// Its address tells one listener from another: one replaced cannot remove its successor.
type listener struct {
	hear func(tableNews)
}

// listen makes hear the table's listener, in place of any other, and returns it for
// unlisten. Any goroutine may call it.
func (r *runner) listen(hear func(tableNews)) *listener {
	l := &listener{hear: hear}
	r.listener.Store(l)
	return l
}

// unlisten removes l, if it is still the table's listener.
func (r *runner) unlisten(l *listener) { r.listener.CompareAndSwap(l, nil) }

// tell hands the table's news to its listener, if it has one.
func (r *runner) tell(n tableNews) {
	if l := r.listener.Load(); l != nil {
		l.hear(n)
	}
}
