package table

import "github.com/tablehouse/baccarat"

// The pit stops a table in two steps. A pause takes effect between rounds: a round under way
// when it comes goes on to its end (dealt, settled or voided) as any round does, and then no
// round opens until the pit reopens the table; nothing else changes, so between rounds the pit
// may still change the shoe, the limits or end a Dragon session. Closing is final and is
// taken only from a paused table with nothing in play, so that no stake is left on a table
// nobody will deal again: wagers riding on a Tie (RWS 3.9) are settled by the round they ride
// into, and a Dragon session's bets by its end. Closing ends the shoe in play, which reveals
// an RNG shoe's order and salt (SPEC §2): every round dealt from it can be checked. Each step
// is an event of the journal, with who and why, and Replay and snapshots restore it.

// errClosed is every command's answer once the table is closed.
var errClosed = badState("the table is closed: it takes no command")

// pause stops the table after the round under way, if any.
func (t *Table) pause(h *Header, actor string, role Role) error {
	if t.paused {
		return badState("the table is already paused by the pit: reopen it (reopen) or close it (close_table)")
	}
	if h.Reason == "" {
		return refuse(baccarat.CodeBadRequest, "pause needs a reason: why the pit stops the table")
	}
	t.emit(t.event(EvTablePaused, h, actor, role))
	return nil
}

// reopen lifts a pause: the next round may open (an automatic table opens it at once).
func (t *Table) reopen(h *Header, actor string, role Role) error {
	if !t.paused {
		return badState("the table is not paused")
	}
	t.emit(t.event(EvTableReopened, h, actor, role))
	return nil
}

// closeTable closes a paused table with nothing in play, ending its shoe first.
func (t *Table) closeTable(h *Header, actor string, role Role) error {
	if !t.paused {
		return badState("only a paused table closes: pause it first (pause), so that no new round opens")
	}
	if err := t.inPlay(); err != nil {
		return err
	}
	if h.Reason == "" {
		return refuse(baccarat.CodeBadRequest, "close_table needs a reason: why the pit closes the table")
	}
	if t.shoe.active {
		t.emitShoeEnded(h, actor, role)
	}
	t.emit(t.event(EvTableClosed, h, actor, role))
	return nil
}

// inPlay refuses to close while any stake is still in play at the table, saying what holds
// it and what the pit can do.
func (t *Table) inPlay() error {
	switch {
	case t.roundOpen():
		return badState("round %d is still %s: the table closes once it has ended", t.round, t.phase)
	case len(t.riding) > 0:
		return badState("wagers that pushed on the last Tie ride into the next round (RWS 3.9; %d in play): reopen the table and play that round "+
			"(their owners may withdraw them while it takes bets; voiding it returns every stake), then pause it again", len(t.riding))
	case len(t.dragon) > 0:
		return badState("Dragon session %d has Dragon bets in play (%d): reopen the table and play the session to its end, or end it now "+
			"(end_session settles them on the streaks so far; end_session with a void reason returns every stake)", t.session, len(t.dragon))
	}
	return nil
}

// onPause applies a pause, a reopening or a closing.
func (t *Table) onPause(typ EventType) {
	switch typ {
	case EvTablePaused:
		t.paused = true
	case EvTableReopened:
		t.paused, t.reopened = false, !t.roundOpen()
	case EvTableClosed:
		t.closed = true
	}
}

// Paused reports whether the pit has paused the table (a closed table stays paused).
func (t *Table) Paused() bool { return t.paused }

// Closed reports whether the table is closed for good.
func (t *Table) Closed() bool { return t.closed }
