package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
)

// The back office (README, "The back office"; web/API.md, "Back office"): the pages under
// /admin and the routes they use. Its store is the server's books when they keep the back
// office's tables too (sqlite.DB and postgres.DB do: backoffice.Journals); a server on other
// books answers its routes 503 and writes no audit entries.

// office is the back office's store.
func (s *Server) office() (backoffice.Journals, error) {
	if o, ok := s.books.(backoffice.Journals); ok {
		return o, nil
	}
	return nil, baccarat.Errorf(baccarat.CodeUnavailable, "this server's store keeps no back office")
}

// officeState is what the back office keeps per server between requests: when it last saw
// each table it runs move (the pit view's stalled tables).
type officeState struct {
	mu    sync.Mutex
	moved map[string]tableMove
}

type tableMove struct {
	seq   uint64
	since time.Time
}

var offices sync.Map // *Server → *officeState

func (s *Server) officeState() *officeState {
	st, _ := offices.LoadOrStore(s, &officeState{moved: map[string]tableMove{}})
	return st.(*officeState)
}

// adminPage serves the back office's one page for every path under /admin: it reads its
// section (and a table's id) from the path.
func (s *Server) adminPage() http.HandlerFunc { return s.page("admin.html") }

// entry is an audit entry of the back office's own, by the caller, now.
func (s *Server) entry(id Identity, act backoffice.Action, target, reason string, detail any) backoffice.Entry {
	e := backoffice.Entry{At: s.now().UTC(), Actor: id.ID, Role: string(id.Role), Action: act, Target: target,
		Reason: clipText(reason, backoffice.MaxReason), Source: backoffice.SourceOffice}
	if detail != nil {
		if b, err := json.Marshal(detail); err == nil && len(b) <= backoffice.MaxDetail && len(b) > 0 && b[0] == '{' {
			e.Detail = b
		}
	}
	return e
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// record writes an entry right after the action it records (a table command, a tournament's
// creation: actions the host commits, not the back office's store). A failure is logged:
// the action stands, and the journal keeps its own record of it.
func (s *Server) record(r *http.Request, e backoffice.Entry) {
	o, err := s.office()
	if err != nil {
		return
	}
	if _, err := o.RecordAudit(r.Context(), e); err != nil {
		s.log.Error("back office: an action done was not recorded in the audit trail", "action", e.Action, "target", e.Target, "by", e.Actor, "err", err)
	}
}

// audited wraps a route whose action the host commits (a table or a tournament created or
// cancelled, a wallet call resolved): once it has answered 2xx, the action is recorded with
// who did it, the path's id (or the body's) as the target, the body's reason and the body
// itself as the detail.
func (s *Server) audited(act backoffice.Action, h func(http.ResponseWriter, *http.Request, Identity)) func(http.ResponseWriter, *http.Request, Identity) {
	return func(w http.ResponseWriter, r *http.Request, id Identity) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		if err != nil {
			s.writeError(w, r, baccarat.Errorf(baccarat.CodeTooLarge, "the body is over %d bytes: this endpoint takes one small JSON object", maxBody))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &statusOnly{ResponseWriter: w, status: http.StatusOK}
		h(rec, r, id)
		if rec.status < 200 || rec.status > 299 {
			return
		}
		var b struct {
			ID     string `json:"id"`
			Reason string `json:"reason"`
			Config struct {
				ID string `json:"id"`
			} `json:"config"`
		}
		_ = json.Unmarshal(body, &b)
		target := firstOf(r.PathValue("id"), r.PathValue("tx"), b.ID, b.Config.ID)
		e := s.entry(id, act, target, b.Reason, nil)
		if len(body) <= backoffice.MaxDetail && json.Valid(body) && bytes.HasPrefix(bytes.TrimSpace(body), []byte("{")) {
			e.Detail = json.RawMessage(bytes.TrimSpace(body))
		}
		s.record(r, e)
	}
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// statusOnly notes the status a handler answered with.
type statusOnly struct {
	http.ResponseWriter
	status int
}

func (w *statusOnly) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}
