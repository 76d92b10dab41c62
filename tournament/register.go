package tournament

import "slices"

func (t *Tournament) openRegistration(c *Command) error {
	if t.phase != PhaseScheduled {
		return badState("registration cannot open: the tournament is %s", t.phase)
	}
	if c.At.Before(t.cfg.RegistrationOpens) {
		return badState("registration opens at %s", stamp(t.cfg.RegistrationOpens))
	}
	t.emit(c.At, Event{Type: EvRegistrationOpened})
	return nil
}

func (t *Tournament) closeRegistration(c *Command) error {
	if t.phase != PhaseRegistering {
		return badState("registration is not open: the tournament is %s", t.phase)
	}
	if c.At.Before(t.cfg.RegistrationCloses) {
		return badState("registration closes at %s", stamp(t.cfg.RegistrationCloses))
	}
	t.emit(c.At, Event{Type: EvRegistrationClosed})
	return nil
}

// register takes a player's entry. The host charges the fee (Event.Amount) to the player's
// wallet in the same transaction that journals the event.
func (t *Tournament) register(c *Command) error {
	if err := t.mayRegister(c); err != nil {
		return err
	}
	t.emit(c.At, Event{Type: EvRegistered, Player: c.Player, Entry: t.entries + 1, Amount: t.cfg.EntryFee, Debit: c.Debit, Bot: c.Bot})
	return nil
}

// mayRegister is register's validation.
func (t *Tournament) mayRegister(c *Command) error {
	if err := checkEntrant(c); err != nil {
		return err
	}
	switch {
	case t.phase == PhaseScheduled || (t.phase == PhaseRegistering && c.At.Before(t.cfg.RegistrationOpens)):
		return refuseWith(CodeRegistrationClosed, params{"opens": stamp(t.cfg.RegistrationOpens)}, "registration opens at %s", stamp(t.cfg.RegistrationOpens))
	case t.phase != PhaseRegistering || !c.At.Before(t.cfg.RegistrationCloses):
		return refuseWith(CodeRegistrationClosed, params{"closed": stamp(t.cfg.RegistrationCloses)}, "registration closed at %s", stamp(t.cfg.RegistrationCloses))
	case t.lookup(c.Player) != nil:
		return refuse(CodeAlreadyRegistered, "%s is already registered", c.Player)
	case len(t.players) >= t.cfg.MaxEntrants:
		return refuseWith(CodeTournamentFull, params{"max": t.cfg.MaxEntrants}, "the tournament is full: %d entrants", t.cfg.MaxEntrants)
	}
	return nil
}

// unregister withdraws an entry before the start; the host refunds Event.Amount.
func (t *Tournament) unregister(c *Command) error {
	if t.phase != PhaseRegistering && t.phase != PhaseClosed {
		return badState("entries can be withdrawn only before the start: the tournament is %s", t.phase)
	}
	p := t.lookup(c.Player)
	if p == nil {
		return refuse(CodeNotRegistered, "%s is not registered", c.Player)
	}
	t.emit(c.At, Event{Type: EvUnregistered, Player: p.id, Amount: p.fee})
	return nil
}

// cancel calls the tournament off before its start and refunds every fee.
// cancel calls the tournament off: before the start as the organiser decides, or once running
// when it cannot go on (a fault its host cannot mend). Every entrant gets back all they paid:
// the entry fee and every rebuy. Running, the host first ends play at its tables (a round in
// play is voided, every stake back) and then hands every chip back to the chip house.
func (t *Tournament) cancel(c *Command) error {
	if t.phase == PhaseFinished || t.phase == PhaseCancelled {
		return badState("the tournament is %s: it can no longer be cancelled", t.phase)
	}
	reason := c.Reason
	if reason == "" {
		reason = "cancelled by the organiser"
	}
	t.emitCancelled(c, reason)
	return nil
}

func (t *Tournament) emitCancelled(c *Command, reason string) {
	refunds := make([]Payment, 0, len(t.players))
	for _, p := range t.players {
		refunds = append(refunds, Payment{Player: p.id, Amount: p.paid})
	}
	t.emit(c.At, Event{Type: EvCancelled, Reason: reason, Payments: refunds})
}

func (t *Tournament) onRegistered(e *Event) {
	t.index[e.Player] = len(t.players)
	t.players = append(t.players, &player{id: e.Player, entry: e.Entry, fee: e.Amount, paid: e.Amount, bot: e.Bot})
	t.entries = e.Entry
	t.collected += e.Amount
}

func (t *Tournament) onUnregistered(e *Event) {
	i := t.index[e.Player]
	t.players = slices.Delete(t.players, i, i+1)
	delete(t.index, e.Player)
	for j := i; j < len(t.players); j++ {
		t.index[t.players[j].id] = j
	}
	t.collected -= e.Amount
}
