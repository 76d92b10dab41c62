package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// The back office's tournaments: a spec checked before it is made (as the creation checks
// it), templates kept under a name, and the audit trail's view of the rest.

// TournamentCheck is POST /api/admin/tournaments/check's answer: what creating the
// tournament would say (Problem, nothing being made) and its configuration as the server
// completes it (defaults filled in).
type TournamentCheck struct {
	OK      bool              `json:"ok"`
	Problem *baccarat.Error   `json:"problem,omitempty"`
	Config  tournament.Config `json:"config"`
}

// handleCheckTournament is POST /api/admin/tournaments/check.
func (s *Server) handleCheckTournament(w http.ResponseWriter, r *http.Request, id Identity) {
	var spec live.TournamentSpec
	if err := readJSON(w, r, &spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	out := TournamentCheck{OK: true, Config: spec.Config}
	cfg, err := s.checkTournament(spec)
	if err != nil {
		out.OK, out.Problem = false, asError(err)
	} else {
		out.Config = cfg
	}
	writeJSON(w, 200, out)
}

// checkTournament is what creating a tournament checks before it writes anything
// (live.Host.CreateTournament): the configuration and its ranges, the id, the schedule, the
// bots, the wallet, and the tables its sessions will be.
func (s *Server) checkTournament(spec live.TournamentSpec) (tournament.Config, error) {
	cfg, _, err := spec.Config.Normalize()
	if err != nil {
		return spec.Config, err
	}
	if err := tabletop.CheckID(cfg.ID); err != nil {
		return cfg, err
	}
	if err := spec.Schedule.Check(); err != nil {
		return cfg, err
	}
	if len(spec.Bots) > cfg.MaxEntrants {
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "%d bots for at most %d entrants", len(spec.Bots), cfg.MaxEntrants)
	}
	cur := ledger.Currency(cfg.Currency)
	switch spec.Wallet {
	case "", live.WalletInternal:
	case live.WalletSeamless:
		switch {
		case cur == live.PlayMoney:
			return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: play money is not the operator's: its wallet is internal", cfg.ID)
		case !s.wallets.Wallet(cur).Seamless():
			return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: a seamless tournament needs the operator's wallet in %s", cfg.ID, cur)
		case cfg.EntryFee < 1:
			return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: on the operator's wallet a tournament needs an entry fee", cfg.ID)
		}
	default:
		return cfg, baccarat.Errorf(baccarat.CodeBadRequest, "tournament %s: wallet %q: want internal or seamless", cfg.ID, spec.Wallet)
	}
	if _, err := table.New(tabletop.TableConfig(cfg, tabletop.Session{Stakes: cfg.Stakes}, spec.Decks)); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// handleTemplates is GET /api/admin/tournament-templates: the templates by name.
func (s *Server) handleTemplates(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, err := o.Templates(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, list)
}

// handleSaveTemplate is PUT /api/admin/tournament-templates/{name}: a POST
// /api/admin/tournaments body kept under the name (replacing one of that name). It is
// stored as it reads: it is checked as a spec when a tournament is made from it, not now (a
// template's times are meant to be changed).
func (s *Server) handleSaveTemplate(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var spec live.TournamentSpec
	if err := readJSON(w, r, &spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	body, _ := json.Marshal(spec)
	t := backoffice.Template{Name: r.PathValue("name"), Spec: body, By: id.ID, Updated: s.now().UTC()}
	e := s.entry(id, backoffice.ActTemplateSave, t.Name, "", map[string]any{"game": spec.Config.Game, "name": spec.Config.Name})
	if err := o.SaveTemplate(r.Context(), t, e); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, t)
}

// handleDeleteTemplate is DELETE /api/admin/tournament-templates/{name}.
func (s *Server) handleDeleteTemplate(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	name := r.PathValue("name")
	if err := baccarat.CheckID("template", name); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := o.DeleteTemplate(r.Context(), name, s.entry(id, backoffice.ActTemplateDelete, name, "", nil)); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleAudit is GET /api/admin/audit?actor=&target=&action=&q=&from=&to=&before=&limit=:
// the audit trail, newest first (action: one, or every action of a kind with a trailing
// dot, "table."; q: text in the reason, the detail or the ref; from and to: RFC 3339 times
// or days; before: the seq to page back from).
func (s *Server) handleAudit(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := r.URL.Query()
	f := backoffice.Filter{Actor: v.Get("actor"), Target: v.Get("target"), Action: v.Get("action"), Text: v.Get("q")}
	var bad error
	num := func(name string) int64 {
		if v.Get(name) == "" {
			return 0
		}
		n, err := strconv.ParseInt(v.Get(name), 10, 64)
		if err != nil || n < 0 {
			bad = baccarat.Errorf(baccarat.CodeBadRequest, "%s: a whole number", name)
		}
		return n
	}
	f.Before, f.Limit = num("before"), int(min(num("limit"), backoffice.MaxAuditLimit))
	when := func(name string, end bool) time.Time {
		x := v.Get(name)
		if x == "" {
			return time.Time{}
		}
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return t
		}
		t, err := time.Parse(time.DateOnly, x)
		if err != nil {
			bad = baccarat.Errorf(baccarat.CodeBadRequest, "%s: an RFC 3339 time or a day", name)
		}
		if end {
			t = t.AddDate(0, 0, 1)
		}
		return t
	}
	f.From, f.To = when("from", false), when("to", true)
	if bad != nil {
		s.writeError(w, r, bad)
		return
	}
	list, err := o.AuditLog(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, list)
}
