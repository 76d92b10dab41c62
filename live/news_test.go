package live

import (
	"testing"

	"github.com/tablehouse/baccarat/table"
)

// TestEventTypesHoldEveryType: the set has a bit for each event type the table has; a type
// beyond the 64th would fall out of it unseen.
func TestEventTypesHoldEveryType(t *testing.T) {
	for et := table.EventType(1); et.String() != "?"; et++ {
		if s := typesOf(et); !s.any(typesOf(et)) || et >= 64 {
			t.Errorf("event type %s (%d) does not fit the set", et, et)
		}
	}
}

// TestTournamentHearsItsTableMove: the news that wakes a tournament, and the news it sleeps
// through.
func TestTournamentHearsItsTableMove(t *testing.T) {
	commit := func(ts ...table.EventType) tableNews {
		var s eventTypes
		for _, et := range ts {
			s.add([]table.Event{{Type: et}})
		}
		return tableNews{committed: s}
	}
	for _, c := range []struct {
		name string
		news tableNews
		want bool
	}{
		{"betting opened wakes it: its bots bet", commit(table.EvBettingOpened), true},
		{"betting closed wakes it", commit(table.EvWagerPlaced, table.EvBettingClosed), true},
		{"a round settled wakes it: a hand to report", commit(table.EvCardDealt, table.EvRoundSettled), true},
		{"a round voided wakes it: a void hand to report", commit(table.EvRoundVoided), true},
		{"a Dragon session settled wakes it", commit(table.EvSessionSettled), true},
		{"a table that stopped wakes it: it looks for the next runner", tableNews{stopped: true}, true},
		{"wagers alone do not", commit(table.EvWagerPlaced, table.EvWagerRaised, table.EvWagerWithdrawn), false},
		{"cards alone do not", commit(table.EvCardDealt, table.EvSqueezeStarted), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := moves(c.news); got != c.want {
				t.Errorf("moves = %v, want %v", got, c.want)
			}
		})
	}
}

// TestListenerReplaced: a table has one listener; the one it replaced cannot remove it.
func TestListenerReplaced(t *testing.T) {
	var r runner
	var first, second int
	old := r.listen(func(tableNews) { first++ })
	r.tell(tableNews{})
	cur := r.listen(func(tableNews) { second++ })
	r.unlisten(old) // the first listener leaves late: the second stays
	r.tell(tableNews{})
	r.unlisten(cur)
	r.tell(tableNews{}) // nobody listens: told to nobody
	if first != 1 || second != 1 {
		t.Errorf("first heard %d, second %d: want 1 each", first, second)
	}
}
