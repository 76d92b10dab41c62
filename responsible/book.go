package responsible

import (
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
)

// Play is a wager placed or settled, as a commit carries it for the tallies: a table's
// events turned into what a loss limit counts (live.Plays).
type Play struct {
	Player   string
	Currency string
	Table    string
	Round    uint64 // the round the wager was placed in
	Wager    uint64 // the wager's id at its table
	// Settles: the wager leaves play (settled, voided, withdrawn) and Returned went back to
	// the player; otherwise it was placed.
	Settles  bool
	Stake    baccarat.Money
	Returned baccarat.Money
	At       time.Time
}

// WagerKey names a wager: its table and its id there.
type WagerKey struct {
	Table string
	Wager uint64
}

// Open is a wager in play as the store keeps it: whose, and the session and day its stake
// was counted in, so that its return counts there too.
type Open struct {
	Player   string
	Currency string
	Round    uint64
	Session  int64
	Day      string
	Stake    baccarat.Money
}

// Period names a tally: a player's in a currency over a session ("s:42") or a day
// ("d:2026-11-28").
type Period struct {
	Player   string
	Currency string
	Name     string
}

// SessionPeriod and DayPeriod name the tallies a session's and a day's plays count in.
func SessionPeriod(id int64) string { return "s:" + strconv.FormatInt(id, 10) }
func DayPeriod(day string) string   { return "d:" + day }

// Changes are what Book decided: tallies to add to, wagers that came into play and wagers
// that left it.
type Changes struct {
	Tallies map[Period]Tally
	Opened  map[WagerKey]Open
	Closed  []WagerKey
}

// Book applies a commit's plays in order to the standings of their players (read inside the
// commit's transaction, locked against every other writer) and the open wagers the
// settlements close. A placement is checked first (Standing.Check at its time): the first
// refusal is returned and nothing is to be written. A settlement of a wager the store does
// not hold in play (placed before tallies were kept) changes nothing. standings are updated
// as the plays go, so two wagers of one commit are checked together.
func Book(standings map[string]*Standing, open map[WagerKey]Open, plays []Play) (Changes, error) {
	ch := Changes{Tallies: map[Period]Tally{}, Opened: map[WagerKey]Open{}}
	for i := range plays {
		p := &plays[i]
		key := WagerKey{p.Table, p.Wager}
		st := standings[p.Player]
		if st == nil {
			st = &Standing{Player: p.Player, Currency: p.Currency}
			standings[p.Player] = st
		}
		if !p.Settles {
			if r := st.Check(Wager{Currency: p.Currency, Table: p.Table, Round: p.Round, Stake: p.Stake}, Held{}, p.At); r != nil {
				return Changes{}, r
			}
			o := Open{Player: p.Player, Currency: p.Currency, Round: p.Round, Session: st.Session.ID, Day: Day(p.At), Stake: p.Stake}
			ch.Opened[key] = o
			ch.count(st, o, Tally{Staked: p.Stake})
			if st.Rounds == nil {
				st.Rounds = map[RoundKey]baccarat.Money{}
			}
			st.Rounds[RoundKey{p.Table, p.Round}] += p.Stake
			continue
		}
		o, ok := ch.Opened[key]
		if ok {
			delete(ch.Opened, key)
		} else if o, ok = open[key]; ok {
			delete(open, key)
			ch.Closed = append(ch.Closed, key)
		} else {
			continue
		}
		ch.count(st, o, Tally{Settled: p.Stake, Returned: p.Returned})
		if st.Rounds != nil {
			st.Rounds[RoundKey{p.Table, o.Round}] -= o.Stake
		}
	}
	return ch, nil
}

// count adds d to the tallies of o's session and day, and to the standing's where they are
// the same periods.
func (ch *Changes) count(st *Standing, o Open, d Tally) {
	if o.Session != 0 {
		k := Period{o.Player, o.Currency, SessionPeriod(o.Session)}
		t := ch.Tallies[k]
		t.add(d)
		ch.Tallies[k] = t
		if o.Session == st.Session.ID && o.Currency == st.Currency {
			st.SessionTally.add(d)
		}
	}
	k := Period{o.Player, o.Currency, DayPeriod(o.Day)}
	t := ch.Tallies[k]
	t.add(d)
	ch.Tallies[k] = t
	if o.Currency == st.Currency {
		switch {
		case st.Day == o.Day:
			st.DayTally.add(d)
		case st.Day < o.Day: // the commit runs into a new day: its tally starts from nothing
			st.Day, st.DayTally = o.Day, d
		}
	}
}
