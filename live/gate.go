package live

import "github.com/tablehouse/baccarat/table"

// Gate is what a table asks, beyond its game's rules, of whatever it plays for: a port the
// runner owns, so that the runner knows no tournament by name. A plain table has none (the
// runner's gate is nil) and answers every question by its schedule and its game alone; a
// tournament's session table has its tournament's (sessionGate, tournament_hooks.go).
//
// The runner calls a gate on the table's goroutine, with the table as it stands: its methods
// must be quick, read the table and never change it.
type Gate interface {
	// MayOpen reports whether the table may open round n (and close its betting): a session
	// opens no round beyond the ones it wants, and waits, idle, for its tournament.
	MayOpen(n uint64) bool
	// CheckCommand refuses a command the table's game allows but its owner does not (the pit
	// changing a tournament's stakes, pausing a session).
	CheckCommand(t *table.Table, cmd table.Command) error
	// CheckWager refuses a wager the game allows but the owner does not (an unseated player,
	// over the per-hand maximum, a round beyond the session).
	CheckWager(t *table.Table, p *table.Place) error
	// Required is the wagers the owner places as betting closes (a tournament's required
	// bet), nil for none.
	Required(t *table.Table) []*table.Place
}
