package web

import (
	"net/http"

	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// The squeeze on the web: the player who squeezes a hand peels its cards on the page, each
// peel shown to everyone watching as a "peel" message (how far, never the card), and reveals
// the hand when done. A dealer or the pit reveals it from the console (the "reveal"
// command); an automatic table reveals it when its window ends.

// handleReveal shows the hand the player squeezes to everyone.
func (s *Server) handleReveal(w http.ResponseWriter, r *http.Request, id Identity) {
	if r.ContentLength != 0 {
		var empty struct{}
		if err := readJSON(w, r, &empty); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	res, err := s.tables.Submit(r.Context(), r.PathValue("id"), &table.Reveal{Header: table.Header{Actor: id.ID, Role: table.RolePlayer}})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The events as the stream shows them to everyone: the next hand's squeezer, when the
	// reveal starts another squeeze, by handle and name (names.go).
	events := make([]table.Event, 0, len(res.Events))
	var names live.Names
	for _, e := range res.Events {
		p := e.Public()
		pe, shown := live.PublicEvent(r.Context(), s.names.People(), &p)
		events = append(events, *pe)
		for h, n := range shown {
			if names == nil {
				names = live.Names{}
			}
			names[h] = n
		}
	}
	writeJSON(w, 200, map[string]any{"events": events, "names": names})
}

// handlePeel passes the squeezer's peel to everyone watching the table.
func (s *Server) handlePeel(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Card int `json:"card"`
		Lift int `json:"lift"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	cmd := &table.Peel{Header: table.Header{Actor: id.ID, Role: table.RolePlayer}, Card: req.Card, Lift: req.Lift}
	if _, err := s.tables.Submit(r.Context(), r.PathValue("id"), cmd); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
