package web

import (
	"net/http"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
)

// An admin's two actions on a credit or rollback the operator refused for good (listed as
// "failed" by GET /api/admin/reconciliation), each recorded with the call: who (the admin's
// account), when and why, shown by the reconciliation and by verify.
//
//	POST /api/admin/reconciliation/calls/{tx}/resend  {"reason":"…"} (the body is optional)
//	POST /api/admin/reconciliation/calls/{tx}/settle  {"reason":"…"} (required)
//
// Both answer {"call":CALL,"resent":CALL}: the call as resolved and, for a resend, the call
// that carries it on (pending, sent at once). A call that is not a refused credit or
// rollback is 409 bad_state, an unknown one 404; nothing changes.

// resolveRequest is the body of an admin's action on a refused call.
type resolveRequest struct {
	Reason string `json:"reason"`
}

// handleResendCall sends a refused call again under a new tx id (live.ResolveCall).
func (s *Server) handleResendCall(w http.ResponseWriter, r *http.Request, id Identity) {
	s.resolveCall(w, r, id, journal.ActionResend)
}

// handleSettleCall closes a refused call as settled by hand, with the admin's reason.
func (s *Server) handleSettleCall(w http.ResponseWriter, r *http.Request, id Identity) {
	s.resolveCall(w, r, id, journal.ActionSettle)
}

func (s *Server) resolveCall(w http.ResponseWriter, r *http.Request, id Identity, action journal.CallAction) {
	tx := r.PathValue("tx")
	if !baccarat.ValidID(tx) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "a wallet call's tx: 1 to %d letters, digits, _ and -", baccarat.MaxIDLen))
		return
	}
	var req resolveRequest
	if action == journal.ActionSettle || r.ContentLength != 0 {
		if err := readJSON(w, r, &req); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	out, err := s.calls.ResolveCall(r.Context(), tx, journal.Resolution{Action: action, By: id.ID, At: s.now(), Reason: req.Reason})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
