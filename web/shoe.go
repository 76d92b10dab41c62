package web

import (
	"maps"
	"net/http"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Method C on the web (Tiger 3.11): the player holding the shoe draws each card from the
// table page, or gives the shoe up; the pit (or an admin as the pit) hands it to a player
// from the dealer console. An automatic table draws a card itself when its holder waits
// past the table's draw window. Everyone sees who holds it: the shoe_passed events on the
// stream, and method_c in the table's state.

// handleDraw draws the next card for the player holding the shoe.
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request, id Identity) {
	s.shoeCommand(w, r, id, &table.Draw{Header: table.Header{Actor: id.ID, Role: table.RolePlayer}})
}

// handleGiveUpShoe gives the shoe up (Tiger 3.11.8.1).
func (s *Server) handleGiveUpShoe(w http.ResponseWriter, r *http.Request, id Identity) {
	s.shoeCommand(w, r, id, &table.GiveUpShoe{Header: table.Header{Actor: id.ID, Role: table.RolePlayer}})
}

// shoeCommand submits a player's Method C command, whose body is empty (or {}).
func (s *Server) shoeCommand(w http.ResponseWriter, r *http.Request, id Identity, cmd table.Command) {
	if r.ContentLength != 0 {
		var empty struct{}
		if err := readJSON(w, r, &empty); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	s.submitPublic(w, r, id, cmd)
}

// handleHandShoe hands the shoe to a player (Tiger 3.9.4.1: the pit's discretion).
func (s *Server) handleHandShoe(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct { // no reason: the shoe_passed event's reason is "handed"
		Player string `json:"player"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := baccarat.CheckID("player", req.Player); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.submitPublic(w, r, id, &table.HandShoe{Header: table.Header{Actor: id.ID, Role: id.tableRole()}, Player: req.Player})
}

// submitPublic submits a command to the table in the path and answers with its events as
// everyone sees them: to a player, with the players they show by handle, and their names
// (live.PublicEvent), as the stream shows them; staff see account ids.
func (s *Server) submitPublic(w http.ResponseWriter, r *http.Request, id Identity, cmd table.Command) {
	res, err := s.tables.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	events := make([]table.Event, 0, len(res.Events))
	names := live.Names{}
	for _, e := range res.Events {
		p := e.Public()
		if id.Role == RolePlayer {
			pe, shown := live.PublicEvent(r.Context(), s.names.People(), &p)
			p = *pe
			maps.Copy(names, shown)
		}
		events = append(events, p)
	}
	writeJSON(w, 200, map[string]any{"events": events, "names": names})
}
