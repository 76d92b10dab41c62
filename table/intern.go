package table

import (
	"github.com/tablehouse/baccarat"
)

// party is one participant at the table. Participants and seats are interned to small ids
// so the hot path of a wager hashes each name once and keys its tallies by integers.
type party struct {
	name    string
	balance baccarat.Money // available
	held    baccarat.Money // in play at this table
	// mains are the main sides held this round (bit 1 Player, 2 Banker).
	mains uint8
}

// lookupParty finds a participant's id without creating one (-1: never seen).
func (t *Table) lookupParty(name string) int32 {
	if id, ok := t.partyIdx[name]; ok {
		return id
	}
	return -1
}

// partyOf returns the participant, creating it. Only event handlers call it.
func (t *Table) partyOf(name string) *party { return &t.parties[t.partyID(name)] }

// partyID returns the participant's id, creating it.
func (t *Table) partyID(name string) int32 {
	id, ok := t.partyIdx[name]
	if !ok {
		id = int32(len(t.parties))
		t.parties = append(t.parties, party{name: name})
		t.partyIdx[name] = id
	}
	return id
}

func (t *Table) lookupSeat(name string) int32 {
	if id, ok := t.seatIdx[name]; ok {
		return id
	}
	return -1
}

func (t *Table) seatOf(name string) int32 {
	id, ok := t.seatIdx[name]
	if !ok {
		id = int32(len(t.seatIdx))
		t.seatIdx[name] = id
	}
	return id
}

// spot is one participant's stake on one bet in one playing area and betting round, as a
// map key: party, seat, bet index and betting round packed into 64 bits.
type spot uint64

func spotOf(party, seat int32, bet, betting int) spot {
	return spot(uint64(uint32(party))<<32 | uint64(uint32(seat)&0xffffff)<<8 | uint64(bet&0x3f)<<2 | uint64(betting&3))
}

// area is a playing area: a seat's spot for one bet (Tiger 3.6).
func (s spot) area() uint64 { return uint64(s) & 0xffffffff &^ 3 }

// betIndex is the position of a bet in the game's list, or -1.
func (t *Table) betIndex(id string) int {
	for i, b := range t.game.Bets {
		if b.ID == id {
			return i
		}
	}
	return -1
}
