package web

import (
	"context"
	"net/http"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Display names: other players see a player by name, never by account id (for a player an
// operator launched, that is the operator's own id of them). The host's People (live.People)
// decides how: the public table stream and the tournament pages name players by a public
// handle, with a names map; a page learns its own player's handle from GET /api/me
// ("public"). Staff (dealer, pit, admin) see account ids.

// PublicMe is how other people see the caller: their handle, and their name or the number
// of their neutral name ("Player 4821": the page words it).
type PublicMe struct {
	Handle string `json:"handle"`
	access.Person
}

// publicMe is how others see a player, nil for staff or a host that shows ids.
func (s *Server) publicMe(r *http.Request, id Identity) *PublicMe {
	p := s.names.People()
	if p == nil || id.Role != RolePlayer {
		return nil
	}
	return &PublicMe{Handle: p.Handle(id.ID), Person: p.Person(r.Context(), id.ID)}
}

// handleSetName is PUT /api/me/name: the player chooses the name others see. A refused name
// (access.CheckName) is 400 invalid_name and changes nothing; the change is audited like
// every change to an account.
func (s *Server) handleSetName(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Name string `json:"name"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	name, err := access.CheckName(req.Name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.updateAccount(r, id, id.ID, backoffice.ActAccountUpdate, "the player chose their display name", func(a *access.Account) error {
		if a.Role != RolePlayer {
			return baccarat.Errorf(baccarat.CodeNotAuthorized, "only players choose a display name")
		}
		a.Name = name
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if f, ok := s.names.People().(interface{ Forget(string) }); ok {
		f.Forget(a.ID) // this server's pages show the new name at once, the others' within access.NameTTL
	}
	id.Account = a
	writeJSON(w, 200, s.publicMe(r, id))
}

// seesIDs reports whether the request is staff's (a dealer, the pit, an admin), who see
// players by account id.
func (s *Server) seesIDs(r *http.Request) bool {
	tok := bearer(r)
	if tok == "" {
		return false
	}
	id, err := s.identify(r.Context(), tok)
	return err == nil && id.Role != RolePlayer
}

// publicTournament is a tournament as the caller may see it: players by handle and name,
// unless the caller is staff.
func (s *Server) publicTournament(r *http.Request, v live.TournamentView) live.TournamentView {
	if s.seesIDs(r) {
		return v
	}
	return v.Public(r.Context(), s.names.People())
}

// RoundView is a round's recall as a player or a watcher reads it: its events name players
// by handle, as the stream did, with the names of those shown.
type RoundView struct {
	live.Round
	Names live.Names `json:"names,omitempty"`
}

// publicRounds is the recall of rounds as viewer sees it: staff's (viewer "") as it is, a
// player's or a watcher's with the events' players by handle (their own wagers and
// settlements, which the host already kept to them, keep their account id).
func (s *Server) publicRounds(ctx context.Context, rounds []live.Round, viewer string) any {
	p := s.names.People()
	if viewer == "" || p == nil {
		return rounds
	}
	out := make([]RoundView, len(rounds))
	for i, r := range rounds {
		out[i].Round = r
		out[i].Round.Events = make([]table.Event, len(r.Events))
		for j := range r.Events {
			if r.Events[j].Owner() != "" { // the viewer's own wager: theirs as the journal has it
				out[i].Round.Events[j] = r.Events[j]
				continue
			}
			e, names := live.PublicEvent(ctx, p, &r.Events[j])
			out[i].Round.Events[j] = *e
			for h, n := range names {
				if out[i].Names == nil {
					out[i].Names = live.Names{}
				}
				out[i].Names[h] = n
			}
		}
	}
	return out
}

// publicSnapshot names the squeezer and whose face-down cards by handle in a view of a
// table, with their names, as the stream that follows it does: the stream is the same for
// every watcher, staff included (a dealer's squeeze banner shows the name; the wagers in
// staff's view keep their account ids).
func (s *Server) publicSnapshot(v *SnapshotView, viewer string) {
	v.Names = live.PublicState(context.Background(), s.names.People(), &v.State)
	if viewer != "" {
		s.publicSession(&v.Table)
	}
}

// publicSession names a tournament table's seated players by handle, as the tournament's
// public view does (its page matches the two).
func (s *Server) publicSession(v *TableView) {
	p := s.names.People()
	if p == nil || v.Tournament == nil {
		return
	}
	ts := *v.Tournament
	ts.Players = make([]string, len(v.Tournament.Players))
	for i, id := range v.Tournament.Players {
		ts.Players[i] = p.Handle(id)
	}
	v.Tournament = &ts
}
