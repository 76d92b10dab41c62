package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/roads"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament/tabletop"
	"github.com/tablehouse/baccarat/wire"
)

// TableView is a table as the lobby and a table page describe it.
type TableView struct {
	ID             string                 `json:"id"`
	Name           string                 `json:"name"`
	Names          baccarat.Names         `json:"names,omitempty"` // the name in other languages (live.Spec)
	Game           string                 `json:"game"`
	Mode           table.Mode             `json:"mode"`
	Phase          table.Phase            `json:"phase"`
	Paused         bool                   `json:"paused,omitempty"` // by the pit: no round opens until it reopens
	Closed         bool                   `json:"closed,omitempty"` // for good: left out of the players' lobby
	Round          uint64                 `json:"round"`
	Until          time.Time              `json:"until,omitzero"`
	Shoe           table.ShoeView         `json:"shoe"`
	BigRoad        roads.ViewBigRoad      `json:"big_road"`
	Limits         map[string]table.Limit `json:"limits"`
	BettingSeconds float64                `json:"betting_seconds"`
	Currency       ledger.Currency        `json:"currency"`
	MinorUnits     int                    `json:"minor_units"` // the currency's decimals: every amount is in its minor units
	Warnings       []string               `json:"warnings,omitempty"`
	Owner          string                 `json:"owner,omitempty"` // the server that runs the table
	// Tournament: the session of a tournament the table plays (web/tournaments.go).
	Tournament *tabletop.Session `json:"tournament,omitempty"`
	// PlayerEdge: a tournament game's cash table shows its bets' exact player edge (package cash; the counts: cash.go).
	PlayerEdge []cash.BetEdge `json:"player_edge,omitempty"`
	// Players, in the lobby: the players with a stake on the table now (this round's
	// wagers, riding ones and a Dragon session's), the table's seats as the lobby counts them.
	Players int `json:"players,omitempty"`
	// Video: the table's live video, which its page plays in step with the game.
	Video *live.Video `json:"video,omitempty"`
}

func tableView(spec live.Spec, st *table.State, owner string) TableView {
	var board roads.Board
	for _, sr := range st.ShoeResults {
		_ = board.Append(live.RoadRound(sr))
	}
	return TableView{ID: spec.ID, Name: spec.Name, Names: spec.Names, Game: spec.Config.Game, Mode: spec.Mode, Phase: st.Phase,
		Paused: st.Paused, Closed: st.Closed, Round: st.Round, Until: st.Until, Shoe: st.Shoe, BigRoad: board.View(roads.Settings{}, -1).BigRoad, Limits: st.Limits,
		BettingSeconds: spec.Schedule.Betting.Seconds(), Currency: spec.Currency, Owner: owner,
		MinorUnits: baccarat.MinorUnits(string(spec.Currency)), Tournament: spec.Tournament, PlayerEdge: tableEdges(spec),
		Video: spec.Video}
}

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	out := []games.Description{}
	for _, g := range games.All() {
		out = append(out, games.Describe(g))
	}
	writeJSON(w, 200, out)
}

// handleTables is GET /api/tables, the lobby: every table but the closed ones, which no
// player can join any more (staff still list them: GET /api/admin/tables).
func (s *Server) handleTables(w http.ResponseWriter, r *http.Request) {
	out := []TableView{}
	ids := s.seesIDs(r)
	for _, t := range s.tables.Tables(r.Context()) {
		if t.State.Closed {
			continue
		}
		v := tableView(t.Spec, &t.State, t.Owner)
		v.Players = t.Players
		if !ids {
			s.publicSession(&v)
		}
		out = append(out, v)
	}
	writeJSON(w, 200, out)
}

// SnapshotView is what GET /api/tables/{id} and a stream's first message carry: the
// stream's snapshot message (package wire), the table described as the lobby describes it.
// Its Names name the players the state shows (the squeezer) by handle (names.go).
type SnapshotView = wire.Snapshot[TableView]

// viewer is whose view a read gets: a player sees their own wagers; a dealer or pit on a
// table assigned to them, and an admin, see all; anyone else watches and owns nothing.
func (s *Server) viewer(r *http.Request) string {
	tok := bearer(r)
	if tok == "" {
		return watcher
	}
	id, err := s.identify(r.Context(), tok)
	if err != nil {
		return watcher
	}
	return s.viewerOf(id, r.PathValue("id"))
}

// watcher is the view of someone who owns nothing at the table: a viewer the host cannot
// confuse with a player (no id has a NUL). It is a name for the host alone: a watcher's
// snapshot holds no funds entry for it (snapshotView).
const watcher = "\x00nobody"

func (s *Server) viewerOf(id Identity, tableID string) string {
	switch {
	case id.Role == RolePlayer:
		return id.ID
	case id.Account.MayActOn(tableID):
		return ""
	}
	return watcher
}

// snapshotView is a snapshot as viewer sees it. The host gives a player's view an entry in
// funds for the player even when they hold nothing; a watcher's would be keyed by the
// watcher sentinel, so its funds are empty instead: a watcher owns nothing here.
func (s *Server) snapshotView(snap *live.Snapshot, viewer string) SnapshotView {
	g, _ := games.ByID(snap.Spec.Config.Game)
	st := snap.State
	if viewer == watcher {
		st.Funds = map[string]table.Funds{}
	}
	v := SnapshotView{Table: tableView(snap.Spec, &st, ""), State: st, Roads: snap.Roads,
		Game: games.Describe(g), ServerTime: snap.At}
	s.publicSnapshot(&v, viewer)
	return v
}

func (s *Server) handleTable(w http.ResponseWriter, r *http.Request) {
	viewer := s.viewer(r)
	snap, err := s.tables.Snapshot(r.PathValue("id"), viewer)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, s.snapshotView(snap, viewer))
}

func (s *Server) handleRounds(w http.ResponseWriter, r *http.Request) {
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	viewer := s.viewer(r)
	rounds, err := s.tables.Rounds(r.PathValue("id"), viewer, n)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, s.publicRounds(r.Context(), rounds, viewer))
}

// page reads ?after= and ?limit= of a listing.
func page(r *http.Request) (int64, int) {
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
	return after, n
}

// wagerRequest is everything a player may send with a wager.
type wagerRequest struct {
	Bet       string         `json:"bet"`
	Stake     baccarat.Money `json:"stake"`
	Seat      string         `json:"seat"`
	Odds      *baccarat.Odds `json:"odds"`
	RequestID string         `json:"request_id"`
}

func (q *wagerRequest) check() error {
	if err := checkBet(q.Bet); err != nil {
		return err
	}
	if q.Seat != "" {
		if err := baccarat.CheckID("seat", q.Seat); err != nil {
			return err
		}
	}
	if q.RequestID != "" {
		return baccarat.CheckID("request_id", q.RequestID)
	}
	return nil
}

// checkBet refuses a bet id no game could have, before it reaches a table or a log.
func checkBet(bet string) error {
	if !baccarat.ValidID(bet) {
		return baccarat.Errorf(baccarat.CodeUnknownBet, "%q is not a bet: see /api/games for each game's bets", baccarat.Truncate(bet, 40))
	}
	return nil
}

func (s *Server) handleWager(w http.ResponseWriter, r *http.Request, id Identity) {
	var req wagerRequest
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := req.check(); err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.RequestID == "" {
		req.RequestID = uuid.NewString()
	}
	cmd := &table.Place{Header: table.Header{Actor: id.ID, Role: table.RolePlayer}, Player: id.ID, Bet: req.Bet,
		Stake: req.Stake, Seat: req.Seat, RequestID: req.RequestID}
	if req.Odds != nil {
		cmd.Odds = *req.Odds
	}
	start := time.Now()
	res, err := s.tables.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.metrics.ackLatency.observe(time.Since(start))
	s.metrics.wagers.Add(1)
	writeJSON(w, 200, map[string]any{"wager": res.Wager, "balance": s.balanceOf(r, id.ID, res)})
}

func (s *Server) handleWithdraw(w http.ResponseWriter, r *http.Request, id Identity) {
	var req struct {
		Wager uint64         `json:"wager"`
		Stake baccarat.Money `json:"stake"` // with wager: take that much back (a chip undone)
	}
	if r.ContentLength != 0 {
		if err := readJSON(w, r, &req); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	cmd := &table.Withdraw{Header: table.Header{Actor: id.ID, Role: table.RolePlayer}, Player: id.ID, Wager: req.Wager, Stake: req.Stake}
	res, err := s.tables.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	withdrawn := []table.Wager{}
	var lowered *table.Wager // a chip taken back: the wager at the total left
	for _, e := range res.Events {
		withdrawn = append(withdrawn, e.Withdrawn()...)
		if e.Type == table.EvWagerLowered {
			lowered = e.Wager
		}
	}
	body := map[string]any{"withdrawn": withdrawn, "balance": s.balanceOf(r, id.ID, res)}
	if lowered != nil {
		body["wager"] = lowered
	}
	writeJSON(w, 200, body)
}

// balanceOf is the player's balance after a command: the one the host returned with it, or
// (rarely: the wallet could not be read then) a fresh read, logged if that fails too.
func (s *Server) balanceOf(r *http.Request, player string, res *live.Result) *baccarat.Money {
	if res.HasBalance {
		return &res.Balance
	}
	bal, err := s.wallets.Balance(r.Context(), player, s.currency)
	if err != nil {
		s.log.Warn("balance after a command", "player", player, "err", err)
		return nil
	}
	return &bal
}

// dealerCommand is everything a dealer console or the pit may send: the table decides
// which commands each role may give at which table (an automatic table takes none of the
// dealing commands; only the pit, or an admin as the pit, pauses, reopens and closes a
// table). A shoe's order and salt are the server's own and cannot be sent.
type dealerCommand struct {
	Type       table.CommandType    `json:"cmd"`
	Reason     string               `json:"reason,omitempty"`
	Card       *baccarat.Card       `json:"card,omitempty"`
	Cards      []baccarat.Card      `json:"cards,omitempty"`
	Known      bool                 `json:"known,omitempty"`
	Cut        bool                 `json:"cut,omitempty"`
	Decks      int                  `json:"decks,omitempty"`
	Commitment *baccarat.Commitment `json:"commitment,omitempty"`
	Bet        string               `json:"bet,omitempty"`
	Min        baccarat.Money       `json:"min,omitempty"`
	Max        baccarat.Money       `json:"max,omitempty"`
	Limit      int                  `json:"limit,omitempty"`
	Amount     baccarat.Money       `json:"amount,omitempty"`
}

// dealerCommands are the commands the dealer console and the pit send.
var dealerCommands = map[table.CommandType]bool{
	table.CmdOpen: true, table.CmdClose: true, table.CmdCard: true, table.CmdDeal: true, table.CmdCorrect: true,
	table.CmdSimultaneous: true, table.CmdInterrupt: true, table.CmdResume: true, table.CmdDeviceReset: true,
	table.CmdVoid: true, table.CmdNewShoe: true, table.CmdEndShoe: true, table.CmdEndSession: true,
	table.CmdSetLimit: true, table.CmdSetAreaLimit: true, table.CmdSetDifferential: true, table.CmdReveal: true,
	table.CmdPause: true, table.CmdReopen: true, table.CmdCloseTable: true,
}

// maxReason is the longest reason a dealer or pit action may carry, in bytes.
const maxReason = 200

func (c *dealerCommand) check() error {
	if !dealerCommands[c.Type] {
		return baccarat.Errorf(baccarat.CodeBadRequest, "%q is not a dealer command", baccarat.Truncate(c.Type.String(), 40))
	}
	if len(c.Reason) > maxReason || !printable(c.Reason) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "reason: at most %d bytes of printable text", maxReason)
	}
	if len(c.Cards) > 6 {
		return baccarat.Errorf(baccarat.CodeBadRequest, "a coup has at most 6 cards")
	}
	if c.Bet != "" {
		return checkBet(c.Bet)
	}
	return nil
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return false
		}
	}
	return true
}

// command is the typed table command: each takes only its own fields.
func (c *dealerCommand) command(id Identity) table.Command {
	h := table.Header{Actor: id.ID, Role: id.tableRole(), Reason: c.Reason}
	switch c.Type {
	case table.CmdCard:
		return &table.Card{Header: h, Card: c.Card, Cut: c.Cut}
	case table.CmdCorrect:
		return &table.Correct{Header: h, Cards: c.Cards}
	case table.CmdSimultaneous:
		return &table.Simultaneous{Header: h, Cards: c.Cards, Known: c.Known}
	case table.CmdResume:
		return &table.Resume{Header: h, Cards: c.Cards}
	case table.CmdNewShoe:
		return &table.NewShoe{Header: h, Decks: c.Decks, Commitment: c.Commitment}
	case table.CmdSetLimit:
		return &table.SetLimit{Header: h, Bet: c.Bet, Min: c.Min, Max: c.Max}
	case table.CmdSetAreaLimit:
		return &table.SetAreaLimit{Header: h, Limit: c.Limit}
	case table.CmdSetDifferential:
		return &table.SetDifferential{Header: h, Amount: c.Amount}
	}
	cmd := table.NewCommand(c.Type) // the rest carry nothing but who, when and why
	*cmd.Head() = h
	return cmd
}

func (s *Server) handleCommand(w http.ResponseWriter, r *http.Request, id Identity) {
	var req dealerCommand
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := req.check(); err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.tables.Submit(r.Context(), r.PathValue("id"), req.command(id))
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
		Bet    string         `json:"bet"`
		Min    baccarat.Money `json:"min"`
		Max    baccarat.Money `json:"max"`
		Reason string         `json:"reason"`
	}
	if err := readJSON(w, r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := dealerCommand{Type: table.CmdSetLimit, Bet: req.Bet, Min: req.Min, Max: req.Max, Reason: req.Reason}
	if err := c.check(); err != nil {
		s.writeError(w, r, err)
		return
	}
	cmd := c.command(id)
	cmd.Head().Role = table.RolePit
	res, err := s.tables.Submit(r.Context(), r.PathValue("id"), cmd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 200, map[string]any{"events": res.Events})
}

func (s *Server) handleCreateTable(w http.ResponseWriter, r *http.Request, id Identity) {
	var spec live.Spec
	if err := readJSON(w, r, &spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(spec.Name) > 200 || !printable(spec.Name) {
		s.writeError(w, r, baccarat.Errorf(baccarat.CodeBadRequest, "name: at most 200 bytes of printable text"))
		return
	}
	if err := checkCash(spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.floor.Create(r.Context(), spec); err != nil {
		s.writeError(w, r, err)
		return
	}
	snap, err := s.tables.Snapshot(spec.ID, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, 201, tableView(snap.Spec, &snap.State, s.floor.Owner()))
}
