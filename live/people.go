package live

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/wire"
)

// People shows players to one another: the public table stream names a player by their
// handle (a keyed hash of the account id, the same on every server sharing the secret) and
// carries, beside an event that shows a player (whose squeeze, whose face-down card), their
// display name. access.People implements it. An operator's player ids are the operator's
// own: other players never see them.
//
// The public copy of an event is still made once and its bytes shared by every watcher
// (README, "Speed"): the handle is the same for everyone, and a page learns its own player's
// handle from GET /api/me, so it still recognises its own squeeze.
type People interface {
	Handle(player string) string
	Person(ctx context.Context, player string) access.Person
}

// personWait bounds reading a player's name for the stream: the table's goroutine asks
// (once per squeezed card, from the account cache as a rule) and must not wait on a slow
// database; a name not read in time shows as the player's number.
const personWait = 500 * time.Millisecond

// Names maps players' handles to how they are shown: the stream's (package wire).
type Names = wire.Names

// PublicEvent returns the copy of a public event others see: a player who acted (revealed
// a squeeze) or is named (the squeezer, whose face-down card) by their handle, with the
// names of those shown. e is left as it is; without People, it is returned unchanged.
func PublicEvent(ctx context.Context, p People, e *table.Event) (*table.Event, Names) {
	if p == nil {
		return e, nil
	}
	shown := e.Type == table.EvCardDealt && e.Card.For != "" || e.Detail != nil && e.Detail.Player != ""
	actor := e.Role == table.RolePlayer && e.Actor != ""
	if !shown && !actor {
		return e, nil
	}
	c := *e
	if actor {
		c.Actor = p.Handle(e.Actor)
	}
	if !shown {
		return &c, nil
	}
	names := Names{}
	name := func(id string) string {
		h := p.Handle(id)
		if _, ok := names[h]; !ok {
			ctx, cancel := context.WithTimeout(ctx, personWait)
			names[h] = p.Person(ctx, id)
			cancel()
		}
		return h
	}
	if c.Card.For != "" {
		c.Card.For = name(c.Card.For)
	}
	if e.Detail != nil && e.Detail.Player != "" {
		d := *e.Detail
		d.Player = name(d.Player)
		c.Detail = &d
	}
	return &c, names
}

// PublicState rewrites a player's or a watcher's view of a table (a copy the caller owns)
// the same way: the squeezer, whose face-down cards and who holds the shoe by handle. It
// returns the names of those shown.
func PublicState(ctx context.Context, p People, st *table.State) Names {
	if p == nil {
		return nil
	}
	var names Names
	name := func(id string) string {
		if id == "" {
			return ""
		}
		h := p.Handle(id)
		if names == nil {
			names = Names{}
		}
		if _, ok := names[h]; !ok {
			ctx, cancel := context.WithTimeout(ctx, personWait)
			names[h] = p.Person(ctx, id)
			cancel()
		}
		return h
	}
	if st.Squeeze != nil {
		sq := *st.Squeeze
		sq.Squeezer = name(sq.Squeezer)
		st.Squeeze = &sq
	}
	if st.MethodC != nil && st.MethodC.Holder != "" {
		mc := *st.MethodC
		mc.Holder = name(mc.Holder) // who holds the shoe (Method C)
		st.MethodC = &mc
	}
	if len(st.Cards) > 0 {
		cards := make([]table.DealtCard, len(st.Cards))
		copy(cards, st.Cards)
		for i := range cards {
			cards[i].For = name(cards[i].For)
		}
		st.Cards = cards
	}
	return names
}

// People is how this host shows players to one another (nil: by their ids).
func (h *Host) People() People { return h.opt.People }
