package tournament

import "time"

// Next says what the schedule wants done, as a pure function of the tournament and the
// time now: a command due now (nil if none), else when to look again (zero: nothing timed
// is pending; hands drive the tournament, or it is over). A host applies the command and
// calls Next again, so several things due at once come one at a time; a simulation jumps
// its virtual clock to the time returned.
//
//   - scheduled: open_registration at RegistrationOpens;
//   - registering: close_registration at RegistrationCloses (when before the start), else
//     start at Start;
//   - registration closed: start at Start (the caller fills the command's Seed);
//   - running: start_session for each table waiting for its next session, Break after its
//     seating or its last session's end; end_session for each timed session whose time is
//     up (the host lets the hand in play finish first). The earliest comes first, then the
//     lower table number. Sessions of hands end with their last hand, not on the clock.
func Next(t *Tournament, now time.Time) (*Command, time.Time) {
	at, cmd := t.nextDue()
	if cmd == nil {
		return nil, time.Time{}
	}
	if now.Before(at) {
		return nil, at
	}
	cmd.At = now
	return cmd, time.Time{}
}

// nextDue is the schedule's earliest pending command and when it is due.
func (t *Tournament) nextDue() (time.Time, *Command) {
	c := &t.cfg
	switch t.phase {
	case PhaseScheduled:
		return c.RegistrationOpens, &Command{Type: CmdOpenRegistration}
	case PhaseRegistering:
		if c.RegistrationCloses.Before(c.Start) {
			return c.RegistrationCloses, &Command{Type: CmdCloseRegistration}
		}
		return c.Start, &Command{Type: CmdStart}
	case PhaseClosed:
		return c.Start, &Command{Type: CmdStart}
	case PhaseRunning:
		return t.nextSessionDue()
	}
	return time.Time{}, nil
}

func (t *Tournament) nextSessionDue() (time.Time, *Command) {
	var best time.Time
	var cmd *Command
	for _, tb := range t.current().tables {
		at, ct := t.tableDue(tb)
		if ct != "" && (cmd == nil || at.Before(best)) {
			best, cmd = at, &Command{Type: ct, Table: tb.number}
		}
	}
	return best, cmd
}

// tableDue is the table's next timed command: the end of a timed session, or the start of
// its next session.
func (t *Tournament) tableDue(tb *table) (time.Time, CommandType) {
	switch {
	case tb.finished:
		return time.Time{}, ""
	case tb.live:
		if d := t.sessionConfig(tb).Duration; d > 0 {
			return tb.lastAt.Add(time.Duration(d)), CmdEndSession
		}
		return time.Time{}, ""
	}
	return tb.lastAt.Add(time.Duration(t.cfg.Break)), CmdStartSession
}
