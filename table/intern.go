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
	// sides are the main sides held this round (bit 1<<baccarat.PlayerWins, 1<<BankerWins).
	sides   uint8
	touched bool
	// own are the stakes on each bet and betting round at their own seat this round; bets
	// marks the rows in use, so that a round's end clears only those.
	own  [maxBets][maxBetting]baccarat.Money
	bets uint16
}

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
