package web

import (
	"net/http"

	"github.com/tablehouse/baccarat"
)

// cancelRequest is the body of POST /api/admin/tournaments/{id}/cancel.
type cancelRequest struct {
	Reason string `json:"reason"`
}

// handleCancelTournament is an admin calling a tournament off, with a reason for the record:
// before its start every fee goes back at once; running (one that cannot go on), play stops
// at its tables and every entrant gets back all they paid (live.Host.CancelTournament). The
// answer is the tournament's view: cancelled, or cancelling while its tables stop (202).
func (s *Server) handleCancelTournament(w http.ResponseWriter, r *http.Request, _ Identity) {
	tid := r.PathValue("id")
	if err := baccarat.CheckID("tournament id", tid); err != nil {
		s.writeError(w, r, err)
		return
	}
	var req cancelRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Reason) > 500 {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "reason: at most 500 bytes"))
		return
	}
	if err := s.desk.CancelTournament(r.Context(), tid, req.Reason); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.tournaments.Tournament(r.Context(), tid, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusOK
	if v.Cancelling != "" {
		status = http.StatusAccepted
	}
	writeJSON(w, status, v)
}
