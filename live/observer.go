package live

import (
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// Observer hears what the host has made durable, for the figures an operator runs the
// business on (metrics). Its methods are called on the table's or tournament's goroutine
// right after each commit, so they must be quick and never block; the events are the
// committed ones, which the observer must not keep or change.
type Observer interface {
	// TableCommitted: a table's batch is durable.
	TableCommitted(spec *Spec, events []table.Event)
	// TournamentCommitted: a tournament's batch is durable (currency is its money's).
	TournamentCommitted(id, game, currency string, events []tournament.Event)
	// LeaseChanged: this host took up (held) or let go of (not held) a table's or a
	// tournament's lease.
	LeaseChanged(stream string, held bool)
}

// nopObserver hears nothing.
type nopObserver struct{}

func (nopObserver) TableCommitted(*Spec, []table.Event)                            {}
func (nopObserver) TournamentCommitted(string, string, string, []tournament.Event) {}
func (nopObserver) LeaseChanged(string, bool)                                      {}
