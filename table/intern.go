package table

import (
	"github.com/tablehouse/baccarat"
)

// PartyID is a participant interned at one table: names from outside are hashed once, at
// the edge (Table.Party), and the hot path of a wager keys everything by small integers.
type PartyID int32

// seatID is a playing area's seat, interned likewise.
type seatID int32

// party is one participant at the table.
type party struct {
	name string
	seat seatID         // their own playing area
	held baccarat.Money // in play at this table
	// heldIn is, for each main side (by baccarat.Winner), the tally (Table.epoch) in which
	// the party last held it: they hold it this round when that is the table's.
	heldIn [4]uint64
	// own are the stakes on each bet and betting round at their own seat this round.
	own [maxBets][maxBetting]ownStake
}

// ownStake is a party's stake on one bet in one betting round at their own seat, counted in
// the tally of the table numbered of (Table.epoch). A stake counted in an earlier tally is
// read as none: a round's end forgets every stake at once (clearTallies), touching no party.
type ownStake struct {
	of     uint64
	amount baccarat.Money
}

// in is the stake as counted in the tally epoch.
func (s *ownStake) in(epoch uint64) baccarat.Money {
	if s.of != epoch {
		return 0
	}
	return s.amount
}

// holds reports whether the party holds a main side in the tally epoch.
func (p *party) holds(side baccarat.Winner, epoch uint64) bool { return p.heldIn[side] == epoch }

// seat is one playing area: per bet, how many (participant, betting round) places hold a
// stake in it this round (Tiger 3.6).
type seat struct {
	name    string
	areas   [maxBets]uint16
	touched bool
}

// Party interns a participant's name and returns its id at this table. A host calls it
// once per request, at the edge, and passes the id in Place.Party.
func (t *Table) Party(name string) PartyID {
	if id, ok := t.partyIdx[name]; ok {
		return id
	}
	id := PartyID(len(t.parties))
	t.parties = append(t.parties, party{name: name, seat: t.seatOf(name)})
	t.partyIdx[name] = id
	return id
}

// lookupParty finds a participant's id without interning it (0: never seen).
func (t *Table) lookupParty(name string) PartyID { return t.partyIdx[name] }

func (t *Table) seatOf(name string) seatID {
	if id, ok := t.seatIdx[name]; ok {
		return id
	}
	id := seatID(len(t.seats))
	t.seats = append(t.seats, seat{name: name})
	t.seatIdx[name] = id
	return id
}

// spot is one participant's stake on one bet at a seat not their own, in one betting
// round, as a map key: party, seat, bet index and betting round packed into 64 bits.
type spot uint64

func spotOf(p PartyID, s seatID, bet, betting int) spot {
	return spot(uint64(uint32(p))<<32 | uint64(uint32(s)&0xffffff)<<8 | uint64(bet&0x3f)<<2 | uint64(betting&3))
}

// betIndex is the position of a bet in the game's list, or -1.
func (t *Table) betIndex(id string) int {
	for i, b := range t.game.Bets {
		if b.ID == id {
			return i
		}
	}
	return -1
}
