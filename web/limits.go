package web

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
	"github.com/tablehouse/baccarat/responsible"
)

// Responsible gaming on the web: the limits an operator's launch carries (operator.go) or an
// admin sets, the player's own view of them with the reality check to answer and a way to
// exclude themselves, and the record of every event for the back office. The table enforces
// them (live/care.go); these routes read and change them.

// LimitsView is a player's limits and session as the pages and the back office show them.
type LimitsView struct {
	Player     string                 `json:"player"`
	Currency   string                 `json:"currency"`
	MinorUnits int                    `json:"minor_units"`
	Limits     responsible.Limits     `json:"limits"`
	Self       *responsible.Exclusion `json:"self_exclusion,omitempty"`
	// Excluded is the exclusion in force now (the operator's or the player's), if any.
	Excluded *responsible.Exclusion `json:"excluded,omitempty"`
	Session  SessionView            `json:"session"`
	Day      string                 `json:"day"`
	DayTally TallyView              `json:"day_tally"`
	Now      time.Time              `json:"now"`
	Events   []responsible.Event    `json:"events"`
}

// SessionView is a play session: when it began, when its time limit ends it and the next
// reality check falls due (absent: none), whether one is due now, and its result so far.
type SessionView struct {
	ID        int64                 `json:"id"`
	Open      bool                  `json:"open"`
	Started   time.Time             `json:"started,omitzero"`
	Ends      time.Time             `json:"ends,omitzero"`
	CheckDue  time.Time             `json:"check_due,omitzero"`
	CheckNow  bool                  `json:"check_now"`
	Ended     time.Time             `json:"ended,omitzero"`
	EndReason responsible.EndReason `json:"end_reason,omitempty"`
	Played    int                   `json:"played_minutes"`
	Tally     TallyView             `json:"tally"`
}

// TallyView is a tally with its net result (returned minus the stakes settled) and the stake
// still in play.
type TallyView struct {
	responsible.Tally
	Net  baccarat.Money `json:"net"`
	Open baccarat.Money `json:"open"`
}

func tallyView(t responsible.Tally) TallyView {
	return TallyView{Tally: t, Net: t.Net(), Open: t.Open()}
}

// limitsView reads a player's standing and their latest events.
func (s *Server) limitsView(r *http.Request, a access.Account) (LimitsView, error) {
	cur := s.currencyOf(a)
	st, err := s.care.Standing(r.Context(), a.ID, cur)
	if err != nil {
		return LimitsView{}, err
	}
	now := s.limitsNow().UTC()
	v := LimitsView{Player: a.ID, Currency: st.Currency, MinorUnits: baccarat.MinorUnits(st.Currency), Limits: st.Limits, Self: st.Self,
		Excluded: st.Exclusion(now), Day: st.Day, DayTally: tallyView(st.DayAt(now)), Now: now}
	ss := st.Session
	v.Session = SessionView{ID: ss.ID, Open: ss.Open(st.Limits.SessionTime, now), Started: ss.Started, Ends: ss.Ends(st.Limits.SessionTime),
		Ended: ss.Ended, EndReason: ss.EndReason, Tally: tallyView(st.SessionTally)}
	if v.Session.Open {
		v.Session.CheckDue = ss.CheckDue(st.Limits.RealityCheck)
		v.Session.CheckNow = !v.Session.CheckDue.IsZero() && !now.Before(v.Session.CheckDue)
	}
	if ss.ID != 0 {
		end := now
		if !ss.Ended.IsZero() {
			end = ss.Ended
		}
		v.Session.Played = int(end.Sub(ss.Started) / time.Minute)
	}
	if v.Events, err = s.recentEvents(r, a.ID, 50); err != nil {
		return LimitsView{}, err
	}
	return v, nil
}

// recentEvents are a player's last n events, oldest first.
func (s *Server) recentEvents(r *http.Request, player string, n int) ([]responsible.Event, error) {
	evs, err := s.care.Limits().Recent(r.Context(), player, 0, n)
	if err != nil {
		return nil, err
	}
	slices.Reverse(evs)
	return evs, nil
}

// limitsStore is the store of limits, or the error that says this server keeps none.
func (s *Server) limitsStore() (responsible.Store, error) {
	if st := s.care.Limits(); st != nil {
		return st, nil
	}
	return nil, baccarat.Errorf(baccarat.CodeNotFound, "this server keeps no players' limits (its store does not)")
}

// handleMyLimits is GET /api/me/limits: the player's limits, session and record.
func (s *Server) handleMyLimits(w http.ResponseWriter, r *http.Request, id Identity) {
	if _, err := s.limitsStore(); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.limitsView(r, id.Account)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for i := range v.Events {
		v.Events[i].Delivery = "" // the operator's webhooks are the back office's business
	}
	writeJSON(w, 200, v)
}

// handleRealityCheck is POST /api/me/reality-check: the player's answer to a reality check,
// "continue" (the next falls due an interval from now) or "leave" (the session ends; open
// wagers still settle). session, when sent, must be the session running: a page left open
// from an earlier session answers nothing.
func (s *Server) handleRealityCheck(w http.ResponseWriter, r *http.Request, id Identity) {
	var q struct {
		Answer  string `json:"answer"`
		Session int64  `json:"session"`
	}
	if err := readJSON(w, r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	if q.Answer != "continue" && q.Answer != "leave" {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, `answer: "continue" or "leave"`))
		return
	}
	store, err := s.limitsStore()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st, err := s.care.Standing(r.Context(), id.ID, s.currencyOf(id.Account))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if q.Session != 0 && q.Session != st.Session.ID {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeSessionEnded, "session %d is not the one running: open the game again", q.Session))
		return
	}
	if !st.Session.Open(st.Limits.SessionTime, s.limitsNow()) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeSessionEnded, "this session has ended: open the game again to play"))
		return
	}
	if err := store.Answer(r.Context(), id.ID, st.Session.ID, q.Answer == "leave", s.limitsNow()); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.care.ForgetLimits(id.ID)
	s.log.Info("reality check", "player", id.ID, "answer", q.Answer, "session", st.Session.ID)
	s.writeLimits(w, r, id.Account)
}

// handleExclude is POST /api/me/exclude: the player excludes themselves, a cool-off for days
// or a self-exclusion for months or for good, from now. It cannot be undone here, and it
// never shortens an exclusion chosen before; the session ends and the operator is told.
func (s *Server) handleExclude(w http.ResponseWriter, r *http.Request, id Identity) {
	var q struct {
		Kind   responsible.ExclusionKind `json:"kind"`
		Days   int                       `json:"days"`
		Months int                       `json:"months"`
	}
	if err := readJSON(w, r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.limitsNow().UTC()
	var until time.Time
	switch {
	case q.Days > 0 && q.Months == 0 && q.Days <= 366:
		until = now.AddDate(0, 0, q.Days)
	case q.Months > 0 && q.Days == 0 && q.Months <= 1200:
		until = now.AddDate(0, q.Months, 0)
	default:
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "say for how long: days (1 to 366) or months (1 to 1200), one of them"))
		return
	}
	x := responsible.Exclusion{Kind: q.Kind, Until: until}
	if err := x.Validate(now); err != nil {
		s.writeError(w, r, err)
		return
	}
	store, err := s.limitsStore()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := store.Exclude(r.Context(), id.ID, x, now); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.care.ForgetLimits(id.ID)
	s.log.Info("player excluded themselves", "player", id.ID, "kind", x.Kind, "until", x.Until)
	s.writeLimits(w, r, id.Account)
}

func (s *Server) writeLimits(w http.ResponseWriter, r *http.Request, a access.Account) {
	v, err := s.limitsView(r, a)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, v)
}

// playerAccount reads the player account an admin route names.
func (s *Server) playerAccount(r *http.Request) (access.Account, error) {
	a, err := s.accounts.Account(r.Context(), r.PathValue("id"))
	if err != nil {
		return a, err
	}
	if a.Role != RolePlayer {
		return a, baccarat.Errorf(baccarat.CodeBadRequest, "account %s is not a player's: limits are players'", a.ID)
	}
	return a, nil
}

// handleAccountLimits is GET /api/admin/accounts/{id}/limits: a player's limits, session
// and record, as the player sees them.
func (s *Server) handleAccountLimits(w http.ResponseWriter, r *http.Request, id Identity) {
	if _, err := s.limitsStore(); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.playerAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeLimits(w, r, a)
}

// handleSetAccountLimits is PUT /api/admin/accounts/{id}/limits: an admin replaces the
// limits the operator's launch (or an admin) set, in the player's currency, with a reason
// for the audit trail. An exclusion the player chose on our pages stays as it is.
func (s *Server) handleSetAccountLimits(w http.ResponseWriter, r *http.Request, id Identity) {
	var q struct {
		responsible.Limits
		Reason string `json:"reason"` // for the audit trail (audited)
	}
	if err := readJSON(w, r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	l := q.Limits
	if err := l.Validate(s.limitsNow()); err != nil {
		s.writeError(w, r, err)
		return
	}
	store, err := s.limitsStore()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.playerAccount(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := store.SetLimits(r.Context(), a.ID, string(s.currencyOf(a)), l, id.ID, s.limitsNow()); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.care.ForgetLimits(a.ID)
	s.log.Info("limits set", "player", a.ID, "by", id.ID)
	s.writeLimits(w, r, a)
}

// handleLimitEvents is GET /api/admin/limit-events: every player's responsible-gaming
// events in order (?player= one player's; ?after= the last seq seen; ?limit= at most, 1000),
// or newest first with ?before= (0: from the newest), as the audit page pages back.
func (s *Server) handleLimitEvents(w http.ResponseWriter, r *http.Request, id Identity) {
	store, err := s.limitsStore()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	player := q.Get("player")
	if player != "" {
		if err := baccarat.CheckID("player", player); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	after, errA := strconv.ParseInt(cmp.Or(q.Get("after"), "0"), 10, 64)
	before, errB := strconv.ParseInt(cmp.Or(q.Get("before"), "0"), 10, 64)
	n, errN := strconv.Atoi(cmp.Or(q.Get("limit"), "0"))
	if errA != nil || errB != nil || errN != nil || after < 0 || before < 0 || n < 0 || n > 1000 || (after > 0 && before > 0) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "after or before: a seq (0 or more), not both; limit: 1 to 1000"))
		return
	}
	var evs []responsible.Event
	if q.Has("before") {
		evs, err = store.Recent(r.Context(), player, before, n) // newest first
	} else {
		evs, err = store.Events(r.Context(), player, after, n)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, evs)
}

// startSession begins a play session for a player just signed in (a launch exchanged, a
// token issued); a player excluded now is refused. Where the store keeps no limits there are
// no sessions either.
func (s *Server) startSession(r *http.Request, a access.Account) error {
	store := s.care.Limits()
	if store == nil || a.Role != RolePlayer {
		return nil
	}
	now := s.limitsNow()
	st, err := store.Standing(r.Context(), a.ID, string(s.currencyOf(a)), now)
	if err != nil {
		return err
	}
	if x := st.Exclusion(now); x != nil {
		return excludedError(x)
	}
	if _, err := store.StartSession(r.Context(), a.ID, now); err != nil {
		return err
	}
	s.care.ForgetLimits(a.ID)
	return nil
}

func excludedError(x *responsible.Exclusion) error {
	what := "a cool-off"
	if x.Kind == responsible.SelfExclusion {
		what = "a self-exclusion"
	}
	return baccarat.Errorf(baccarat.CodeExcluded, "this player is in %s until %s: the game cannot be opened until then", what, x.Until.UTC().Format("2 January 2006 15:04 MST"))
}

// mayPlay refuses what a player pays to play outside a table (a tournament's entry, a
// rebuy) while they are excluded or their session has ended.
func (s *Server) mayPlay(r *http.Request, a access.Account) error {
	if s.care.Limits() == nil {
		return nil
	}
	now := s.limitsNow()
	st, err := s.care.Standing(r.Context(), a.ID, s.currencyOf(a))
	if err != nil {
		return err
	}
	if x := st.Exclusion(now); x != nil {
		return excludedError(x)
	}
	if st.Session.ID != 0 && !st.Session.Open(st.Limits.SessionTime, now) {
		return baccarat.Errorf(baccarat.CodeSessionEnded, "this session has ended: open the game again to play")
	}
	return nil
}
