package web

import (
	"context"
	"net/http"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// Health is how a table is doing, for the back office: HealthOK, HealthStalled (an
// automatic table this server runs has not moved for longer than its schedule allows: the
// rule of the baccarat_table_stalled metric and of verify), HealthPaced (a dealer's or a
// tournament's session table, which no schedule paces, so it is never judged),
// HealthStopped (the pit paused or closed it: it stays still on purpose) or HealthElsewhere
// (another server runs it: that server judges it).
type Health struct {
	Status string    `json:"status"`
	Since  time.Time `json:"since,omitzero"` // when it last moved, as this server saw it
}

// The health statuses.
const (
	HealthOK        = "ok"
	HealthStalled   = "stalled"
	HealthPaced     = "paced"
	HealthStopped   = "stopped"
	HealthElsewhere = "elsewhere"
)

// AdminTable is a table as the back office lists it.
type AdminTable struct {
	TableView
	Differential baccarat.Money `json:"differential,omitempty"` // the limit (0: none)
	Health       Health         `json:"health"`
}

// health judges the tables this server runs by the last event it saw each move with.
func (s *Server) health(now time.Time) map[string]Health {
	st := s.officeState()
	st.mu.Lock()
	defer st.mu.Unlock()
	out := map[string]Health{}
	seen := map[string]tableMove{}
	for _, p := range s.floor.Progress() {
		m, ok := st.moved[p.ID]
		if !ok || m.seq != p.Seq {
			m = tableMove{seq: p.Seq, since: now}
		}
		seen[p.ID] = m
		h := Health{Status: HealthOK, Since: m.since}
		switch {
		case p.Stopped:
			h.Status = HealthStopped
		case p.StuckAfter <= 0:
			h.Status = HealthPaced
		case now.Sub(m.since) > p.StuckAfter:
			h.Status = HealthStalled
		}
		out[p.ID] = h
	}
	st.moved = seen
	return out
}

// staffTables is every table the caller may act on: all for an admin, their own for a
// dealer or pit account.
func (s *Server) staffTables(ctx context.Context, id Identity) []live.TableInfo {
	var out []live.TableInfo
	for _, t := range s.tables.Tables(ctx) {
		if id.Account.MayActOn(t.Spec.ID) {
			out = append(out, t)
		}
	}
	return out
}

// handleAdminTables is GET /api/admin/tables: the tables the caller may act on, with their
// owner and health.
func (s *Server) handleAdminTables(w http.ResponseWriter, r *http.Request, id Identity) {
	health := s.health(s.now())
	out := []AdminTable{}
	for _, t := range s.staffTables(r.Context(), id) {
		v := tableView(t.Spec, &t.State, t.Owner)
		v.Players = t.Players
		h, ok := health[t.Spec.ID]
		if !ok {
			h = Health{Status: HealthElsewhere}
		}
		out = append(out, AdminTable{TableView: v, Differential: t.State.Differential, Health: h})
	}
	writeJSON(w, 200, out)
}

// Range is a setting's range: From to To, Default when left out (0).
type Range struct {
	From    int64 `json:"from"`
	To      int64 `json:"to"`
	Default int64 `json:"default,omitempty"`
}

// TableCheck is POST /api/admin/tables/check's answer: what POST /api/admin/tables would
// say of the spec (Problem, nothing being made), each setting's range for the game, and
// for a tournament game played for money the exact player edge of each bet.
type TableCheck struct {
	OK         bool                      `json:"ok"`
	Problem    *baccarat.Error           `json:"problem,omitempty"`
	Ranges     map[string]Range          `json:"ranges,omitempty"`
	MaxStakes  map[string]baccarat.Money `json:"max_stakes,omitempty"` // each bet's largest stake the books can pay
	PlayerEdge []cash.BetEdge            `json:"player_edge,omitempty"`
	Tournament bool                      `json:"tournament_game,omitempty"` // the game's pay table is a tournament's
	MinorUnits int                       `json:"minor_units"`               // the currency's decimals: the spec's amounts are in its minor units
}

// handleCheckTable is POST /api/admin/tables/check: a table spec checked as its creation
// checks it, and nothing made.
func (s *Server) handleCheckTable(w http.ResponseWriter, r *http.Request, id Identity) {
	var spec live.Spec
	if err := readJSON(w, r, &spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	out := TableCheck{OK: true}
	if err := checkSpec(spec); err != nil {
		out.OK, out.Problem = false, asError(err)
	}
	cur := spec.Currency
	if cur == "" {
		cur = live.PlayMoney
	}
	out.MinorUnits = baccarat.MinorUnits(string(cur))
	if g, err := games.ByID(spec.Config.Game); err == nil {
		out.Ranges, out.MaxStakes = settingRanges(g, spec.Config)
		out.Tournament = g.Rules.Tournament
		if cash.ForMoney(g, cur) {
			// shown before the table is made a cash table: so cash is taken as said
			cfg := spec.Config
			cfg.Cash = true
			out.PlayerEdge = playerEdges(r.Context(), cfg, string(cur), false)
		}
	}
	writeJSON(w, 200, out)
}

func asError(err error) *baccarat.Error {
	if e, ok := err.(*baccarat.Error); ok {
		return e
	}
	return baccarat.Errorf(baccarat.CodeBadRequest, "%v", err)
}

// checkSpec is what creating a table checks before it writes anything (handleCreateTable,
// live.Host.Create): the name, a tournament game's cash flag, the settings' ranges, the
// schedule's, the currency, and the table's own configuration check.
func checkSpec(spec live.Spec) error {
	if err := baccarat.CheckID("table id", spec.ID); err != nil {
		return err
	}
	if len(spec.Name) > 200 || !printable(spec.Name) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "name: at most 200 bytes of printable text")
	}
	if err := baccarat.CheckNames("names", spec.Names); err != nil {
		return err
	}
	if err := checkCash(spec); err != nil {
		return err
	}
	if err := spec.Config.Check(); err != nil {
		return err
	}
	if err := spec.Schedule.Check(); err != nil {
		return err
	}
	if spec.Currency != "" {
		if err := baccarat.CheckCurrency(string(spec.Currency)); err != nil {
			return err
		}
	}
	if spec.Mode != "" && spec.Mode != live.ModeAuto && spec.Mode != live.ModeDealer {
		return baccarat.Errorf(baccarat.CodeBadRequest, "mode %q: auto or dealer", spec.Mode)
	}
	if err := spec.Mirror(); err != nil { // spec is a copy: the mode and currency as the table will have them
		return err
	}
	cfg := spec.Config
	if cfg.ShoeToPlayer && cfg.Mode != "" {
		if err := cfg.Check(); err != nil { // Method C at a dealer's table, now its mode is known
			return err
		}
	}
	_, err := table.New(cfg)
	return err
}

// settingRanges are the ranges of a table's settings for game g (README, "Settings and their
// ranges") and each bet's largest stake.
func settingRanges(g *games.Game, cfg table.Config) (map[string]Range, map[string]baccarat.Money) {
	decks := int64(g.Decks.Default)
	if cfg.Decks >= g.Decks.Min && cfg.Decks <= g.Decks.Max && cfg.Decks > 0 {
		decks = int64(cfg.Decks)
	}
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	r := map[string]Range{
		"decks":               {int64(g.Decks.Min), int64(g.Decks.Max), int64(g.Decks.Default)},
		"cut_card":            {1, decks*baccarat.NumCards - 6, table.DefaultCutCard},
		"squeeze_seconds":     {1, table.MaxSqueezeSeconds, table.DefaultSqueezeSeconds},
		"draw_seconds":        {1, table.MaxDrawSeconds, table.DefaultDrawSeconds},
		"differential":        {0, int64(baccarat.MaxAmount), 0},
		"schedule.betting_ms": {ms(live.MinScheduleTime), ms(live.MaxScheduleTime), ms(live.DefaultSchedule.Betting)},
		"schedule.card_ms":    {ms(live.MinScheduleTime), ms(live.MaxScheduleTime), ms(live.DefaultSchedule.Card)},
		"schedule.result_ms":  {ms(live.MinScheduleTime), ms(live.MaxScheduleTime), ms(live.DefaultSchedule.Result)},
		"schedule.window_ms":  {ms(live.MinScheduleTime), ms(live.MaxScheduleTime), ms(live.DefaultSchedule.Window)},
	}
	if len(g.DragonBets()) > 0 {
		r["session_hands"] = Range{1, table.MaxSessionHands, table.DefaultSessionHands}
	}
	if a := g.Rules.MaxWagersPerArea; a > 0 {
		r["max_wagers_per_area"] = Range{1, int64(a), int64(a)}
	}
	stakes := map[string]baccarat.Money{}
	for _, b := range g.Bets {
		stakes[b.ID] = table.MaxStake(b)
		if b.Decimal {
			r["margins."+b.ID] = Range{0, 9999, 0}
			r["schedule.bob_round_ms"] = Range{ms(live.MinScheduleTime), ms(live.MaxScheduleTime), ms(live.DefaultSchedule.BoBRound)}
		}
	}
	return r, stakes
}

// voidRequest is the body of POST /api/admin/tables/{id}/void.
type voidRequest struct {
	Reason string `json:"reason"`
	Note   string `json:"note"`
}

// handleAdminVoid voids the round under way as the pit, with one of the table's void
// reasons and a note of why for the audit trail (the journal keeps the reason, the audit
// trail both).
func (s *Server) handleAdminVoid(w http.ResponseWriter, r *http.Request, id Identity) {
	var req voidRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(req.Note) > backoffice.MaxReason || !printable(req.Note) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "note: at most %d bytes of printable text", backoffice.MaxReason))
		return
	}
	c := dealerCommand{Type: table.CmdVoid, Reason: req.Reason}
	if err := c.check(); err != nil {
		s.writeError(w, r, err)
		return
	}
	cmd := c.command(id)
	cmd.Head().Role = table.RolePit
	tid := r.PathValue("id")
	res, err := s.tables.Submit(r.Context(), tid, cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	events := make([]table.Event, 0, len(res.Events))
	e := s.entry(id, backoffice.ActTableVoid, tid, req.Reason, map[string]any{"note": req.Note})
	for _, ev := range res.Events {
		events = append(events, ev.Public())
		if ev.Type == table.EvRoundVoided {
			e.Ref = backoffice.EventRef(tid, ev.Seq)
			e.Detail = mustJSON(map[string]any{"note": req.Note, "round": ev.Round, "wagers": len(ev.Settlements)})
		}
	}
	if req.Note != "" {
		e.Reason = clipText(req.Reason+": "+req.Note, backoffice.MaxReason)
	}
	s.record(r, e)
	writeJSON(w, 200, map[string]any{"events": events})
}
