package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
)

// TableView is a table as the lobby and a table page describe it.
type TableView struct {
	ID             string                 `json:"id"`
	Name           string                 `json:"name"`
	Game           string                 `json:"game"`
	Mode           string                 `json:"mode"`
	Phase          table.Phase            `json:"phase"`
	Round          uint64                 `json:"round"`
	Until          time.Time              `json:"until,omitzero"`
	Shoe           table.ShoeView         `json:"shoe"`
	BigRoad        roads.ViewBigRoad      `json:"big_road"`
	Limits         map[string]table.Limit `json:"limits"`
	BettingSeconds float64                `json:"betting_seconds"`
	Currency       ledger.Currency        `json:"currency"`
	Warnings       []string               `json:"warnings,omitempty"`
}

func tableView(spec live.Spec, st *table.State) TableView {
	var board roads.Board
	for _, sr := range st.ShoeResults {
		_ = board.Append(live.RoadRound(sr))
	}
	return TableView{ID: spec.ID, Name: spec.Name, Game: spec.Config.Game, Mode: spec.Mode, Phase: st.Phase,
		Round: st.Round, Until: st.Until, Shoe: st.Shoe, BigRoad: board.View(roads.Settings{}, -1).BigRoad, Limits: st.Limits,
		BettingSeconds: spec.Schedule.Betting.Seconds(), Currency: spec.Currency}
}

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	out := []games.Description{}
	for _, g := range games.All() {
		out = append(out, games.Describe(g))
	}
	writeJSON(w, 200, out)
}

func (s *Server) handleTables(w http.ResponseWriter, r *http.Request) {
	out := []TableView{}
	for _, t := range s.host.Tables(r.Context()) {
		out = append(out, tableView(t.Spec, &t.State))
	}
	writeJSON(w, 200, out)
}

// SnapshotView is what GET /api/tables/{id} and a stream's first message carry.
type SnapshotView struct {
	Type       string            `json:"type,omitempty"`
	Table      TableView         `json:"table"`
	State      table.State       `json:"state"`
	Roads      roads.View        `json:"roads"`
	Game       games.Description `json:"game"`
	ServerTime time.Time         `json:"server_time"`
}

// viewer is whose view a request gets: a player sees their own wagers, others see all.
func (s *Server) viewer(r *http.Request) string {
	id, ok := s.identify(r)
	switch {
	case !ok:
		return "\x00nobody" // watches the table, owns nothing
	case id.Role == RolePlayer:
		return id.ID
	}
	return ""
}

func (s *Server) snapshotView(snap *live.Snapshot) SnapshotView {
	g, _ := games.ByID(snap.Spec.Config.Game)
	return SnapshotView{Table: tableView(snap.Spec, &snap.State), State: snap.State, Roads: snap.Roads,
		Game: games.Describe(g), ServerTime: snap.At}
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	snap, err := s.host.Snapshot(r.PathValue("id"), s.viewer(r))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, s.snapshotView(snap))
}

func (s *Server) handleRounds(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	rounds, err := s.host.Rounds(r.PathValue("id"), s.viewer(r), n)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, rounds)
}

// Me is the caller's account.
type Me struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Role     Role            `json:"role"`
	Balance  int64           `json:"balance"`
	Currency ledger.Currency `json:"currency"`
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, id Identity) {
	me := Me{ID: id.ID, Name: id.ID, Role: id.Role, Currency: s.currency}
	if id.Role == RolePlayer {
		b, err := s.host.Balance(r.Context(), id.ID, s.currency)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		me.Balance = b
	}
	writeJSON(w, 200, me)
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request, id Identity) {
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	wallet := ledger.Wallet(id.ID, s.currency)
	if err := s.books.OpenAccount(r.Context(), wallet); err != nil {
		s.writeError(w, r, err)
		return
	}
	entries, err := s.books.Statement(r.Context(), wallet, ledger.Page{After: after, Limit: n})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if entries == nil {
		entries = []ledger.Entry{}
	}
	writeJSON(w, 200, entries)
}

type wagerRequest struct {
	Bet       string         `json:"bet"`
	Stake     int64          `json:"stake"`
	Seat      string         `json:"seat"`
	Odds      *baccarat.Odds `json:"odds"`
	RequestID string         `json:"request_id"`
}

func (s *Server) handleWager(w http.ResponseWriter, r *http.Request, id Identity) {
	var req wagerRequest
	if err := readJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.RequestID == "" {
		req.RequestID = uuid.NewString()
	}
	cmd := table.Command{Type: table.CmdPlace, Actor: id.ID, Role: table.RolePlayer, Player: id.ID, Bet: req.Bet,
		Stake: req.Stake, Seat: req.Seat, RequestID: req.RequestID}
	if req.Odds != nil {
		cmd.Odds = *req.Odds
	}
	start := time.Now()
	res, err := s.host.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.metrics.ackLatency.observe(time.Since(start))
	s.metrics.wagers.Add(1)
	bal, _ := s.host.Balance(r.Context(), id.ID, s.currency)
	writeJSON(w, 200, map[string]any{"wager": res.Wager, "balance": bal})
}

func (s *Server) handleWithdraw(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Wager uint64 `json:"wager"`
	}
	if r.ContentLength != 0 {
		if err := readJSON(r, &req); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	cmd := table.Command{Type: table.CmdWithdraw, Actor: id.ID, Role: table.RolePlayer, Player: id.ID, Wager: req.Wager}
	res, err := s.host.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	withdrawn := []table.Wager{}
	for _, e := range res.Events {
		withdrawn = append(withdrawn, e.Withdrawn...)
	}
	bal, _ := s.host.Balance(r.Context(), id.ID, s.currency)
	writeJSON(w, 200, map[string]any{"withdrawn": withdrawn, "balance": bal})
}

// dealerCommands are the commands the dealer console and the pit send.
var dealerCommands = map[table.CommandType]bool{
	table.CmdOpen: true, table.CmdClose: true, table.CmdCard: true, table.CmdDeal: true, table.CmdCorrect: true,
	table.CmdSimultaneous: true, table.CmdInterrupt: true, table.CmdResume: true, table.CmdDeviceReset: true,
	table.CmdVoid: true, table.CmdNewShoe: true, table.CmdEndShoe: true, table.CmdEndSession: true,
	table.CmdSetLimit: true, table.CmdSetAreaLimit: true, table.CmdSetDifferential: true,
}

func (s *Server) handleCommand(w http.ResponseWriter, r *http.Request, id Identity) {
	var cmd table.Command
	if err := readJSON(r, &cmd); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !dealerCommands[cmd.Type] {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a dealer command", cmd.Type))
		return
	}
	cmd.Actor, cmd.Role, cmd.Order, cmd.Salt, cmd.Available = id.ID, id.tableRole(), nil, "", nil
	res, err := s.host.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	events := make([]table.Event, 0, len(res.Events))
	for _, e := range res.Events {
		events = append(events, e.Public())
	}
	writeJSON(w, 200, map[string]any{"events": events})
}

func (s *Server) handleLimits(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Bet    string `json:"bet"`
		Min    int64  `json:"min"`
		Max    int64  `json:"max"`
		Reason string `json:"reason"`
	}
	if err := readJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	cmd := table.Command{Type: table.CmdSetLimit, Actor: id.ID, Role: table.RolePit, Bet: req.Bet, Min: req.Min, Max: req.Max, Reason: req.Reason}
	res, err := s.host.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, map[string]any{"events": res.Events})
}

func (s *Server) handleCreateTable(w http.ResponseWriter, r *http.Request, id Identity) {
	var spec live.Spec
	if err := readJSON(r, &spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.host.Create(r.Context(), spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	snap, err := s.host.Snapshot(spec.ID, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 201, tableView(snap.Spec, &snap.State))
}

func (s *Server) handleCreateAccount(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		ID   string `json:"id"`
		Name string `json:"name"`
		Role Role   `json:"role"`
	}
	if err := readJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Role == "" {
		req.Role = RolePlayer
	}
	tok, err := s.tokens.Issue(req.ID, req.Role)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Role == RolePlayer {
		if err := s.books.OpenAccount(r.Context(), ledger.Wallet(req.ID, s.currency)); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	writeJSON(w, 201, map[string]any{"id": req.ID, "role": req.Role, "token": tok})
}

func (s *Server) handleCredit(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Amount int64  `json:"amount"`
		Key    string `json:"key"`
	}
	if err := readJSON(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Amount <= 0 {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "a credit is a positive amount in minor units"))
		return
	}
	if req.Key == "" {
		req.Key = "credit/" + uuid.NewString()
	}
	player := r.PathValue("id")
	if err := s.host.Credit(r.Context(), req.Key, player, s.currency, req.Amount); err != nil {
		s.writeError(w, r, err)
		return
	}
	bal, _ := s.host.Balance(r.Context(), player, s.currency)
	writeJSON(w, 200, map[string]any{"id": player, "balance": bal})
}

func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request, id Identity) {
	player := r.PathValue("id")
	bal, err := s.host.Balance(r.Context(), player, s.currency)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, map[string]any{"id": player, "balance": bal, "currency": s.currency})
}
