package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/live"
	"github.com/tablehouse/baccarat/table"
)

// The pit view (GET /api/admin/floor): every table the caller may act on, live, and the
// alerts a pit boss watches for.

// FloorTable is one table on the floor.
type FloorTable struct {
	ID         string                    `json:"id"`
	Name       string                    `json:"name"`
	Game       string                    `json:"game"`
	Mode       table.Mode                `json:"mode"`
	Currency   string                    `json:"currency"`
	MinorUnits int                       `json:"minor_units"`
	Phase      table.Phase               `json:"phase"`
	Round      uint64                    `json:"round"`
	Until      time.Time                 `json:"until,omitzero"`
	Owner      string                    `json:"owner,omitempty"`
	Players    int                       `json:"players"`
	Totals     map[string]baccarat.Money `json:"totals"`
	Staked     baccarat.Money            `json:"staked"` // the stakes in play this round
	// Differential is |Player − Banker| of this round's stakes now, against the table's limit
	// (0: none; Tiger 5.18).
	Differential      baccarat.Money `json:"differential"`
	DifferentialLimit baccarat.Money `json:"differential_limit,omitempty"`
	Interrupted       bool           `json:"interrupted,omitempty"`
	Tournament        bool           `json:"tournament,omitempty"`
	Health            Health         `json:"health"`
	Last              *FloorRound    `json:"last,omitempty"` // the last finished round
	LargestWins       []FloorWin     `json:"largest_wins"`   // the largest of the last rounds', largest first
}

// FloorRound is a finished round as the floor shows it.
type FloorRound struct {
	Round   uint64         `json:"round"`
	Result  string         `json:"result,omitempty"` // the coup
	Winner  string         `json:"winner,omitempty"`
	Void    string         `json:"void,omitempty"` // a void's reason
	Takings baccarat.Money `json:"takings"`        // stakes settled less returned
}

// FloorWin is a winning wager.
type FloorWin struct {
	Round  uint64         `json:"round"`
	Player string         `json:"player"`
	Bet    string         `json:"bet"`
	Stake  baccarat.Money `json:"stake"`
	Net    baccarat.Money `json:"net"`
}

// Alert is something on the floor that wants a look.
type Alert struct {
	Kind   string    `json:"kind"` // AlertStalled, AlertLargeWin, AlertDifferential, AlertVoided, AlertOutbox
	Table  string    `json:"table,omitempty"`
	Round  uint64    `json:"round,omitempty"`
	Player string    `json:"player,omitempty"`
	Amount int64     `json:"amount,omitempty"` // the win, the differential, the calls waiting
	Limit  int64     `json:"limit,omitempty"`  // the threshold it passed
	Reason string    `json:"reason,omitempty"`
	Since  time.Time `json:"since,omitzero"`
}

// The kinds of alert.
const (
	AlertStalled      = "stalled"
	AlertLargeWin     = "large_win"
	AlertDifferential = "differential"
	AlertVoided       = "voided"
	AlertOutbox       = "outbox"
)

// FloorView is GET /api/admin/floor.
type FloorView struct {
	At     time.Time    `json:"at"`
	Tables []FloorTable `json:"tables"`
	Alerts []Alert      `json:"alerts"`
	Outbox struct {
		Calls         int     `json:"calls"`
		OldestSeconds float64 `json:"oldest_seconds"`
	} `json:"outbox"`
}

// floorRules are the alerts' thresholds, from the query.
type floorRules struct {
	largeWinX   int64   // a win of this many times the table's smallest main-bet minimum
	diffShare   int64   // a differential at this percentage of its limit
	outboxCalls int     // calls waiting for the operator's wallet
	outboxAge   float64 // seconds the oldest has waited
}

func floorRulesOf(r *http.Request) (floorRules, error) {
	f := floorRules{largeWinX: 100, diffShare: 80, outboxCalls: 100, outboxAge: 60}
	q := r.URL.Query()
	for _, p := range []struct {
		name     string
		dst      *int64
		min, max int64
	}{{"large_win_x", &f.largeWinX, 1, 1_000_000}, {"differential_pct", &f.diffShare, 1, 100}} {
		if v := q.Get(p.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < p.min || n > p.max {
				return f, baccarat.Errorf(baccarat.CodeBadRequest, "%s: a whole number from %d to %d", p.name, p.min, p.max)
			}
			*p.dst = n
		}
	}
	return f, nil
}

// handleFloor is GET /api/admin/floor.
func (s *Server) handleFloor(w http.ResponseWriter, r *http.Request, id Identity) {
	rules, err := floorRulesOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.now()
	health := s.health(now)
	v := FloorView{At: now.UTC(), Tables: []FloorTable{}, Alerts: []Alert{}}
	for _, t := range s.staffTables(r.Context(), id) {
		ft := floorTable(t, health)
		if rounds, err := s.tables.Rounds(t.Spec.ID, "", live.RecallRounds); err == nil {
			v.Alerts = ft.recent(rounds, rules, minMainStake(t), v.Alerts)
		}
		v.Alerts = ft.alerts(rules, v.Alerts)
		v.Tables = append(v.Tables, ft)
	}
	if id.Role == RoleAdmin {
		if o, err := s.calls.Outbox(r.Context()); err == nil {
			v.Outbox.Calls = o.Calls
			if !o.Oldest.IsZero() {
				v.Outbox.OldestSeconds = max(0, now.Sub(o.Oldest).Seconds())
			}
			if o.Calls >= rules.outboxCalls || (o.Calls > 0 && v.Outbox.OldestSeconds >= rules.outboxAge) {
				v.Alerts = append(v.Alerts, Alert{Kind: AlertOutbox, Amount: int64(o.Calls), Limit: int64(rules.outboxCalls), Since: o.Oldest})
			}
		}
	}
	writeJSON(w, 200, v)
}

func floorTable(t live.TableInfo, health map[string]Health) FloorTable {
	st := &t.State
	ft := FloorTable{ID: t.Spec.ID, Name: t.Spec.Name, Game: t.Spec.Config.Game, Mode: t.Spec.Mode, Currency: string(t.Spec.Currency),
		MinorUnits: baccarat.MinorUnits(string(t.Spec.Currency)), Phase: st.Phase, Round: st.Round, Until: st.Until, Owner: t.Owner,
		Players: t.Players, Totals: st.Totals, DifferentialLimit: st.Differential, Interrupted: st.Interrupted,
		Tournament: t.Spec.Tournament != nil, LargestWins: []FloorWin{}}
	if ft.Totals == nil {
		ft.Totals = map[string]baccarat.Money{}
	}
	for _, v := range ft.Totals {
		ft.Staked += v
	}
	ft.Differential = absMoney(ft.Totals["player"] - ft.Totals["banker"])
	if h, ok := health[t.Spec.ID]; ok {
		ft.Health = h
	} else {
		ft.Health = Health{Status: HealthElsewhere}
	}
	return ft
}

// minMainStake is the smallest minimum of the table's main bets (1 if none is set).
func minMainStake(t live.TableInfo) baccarat.Money {
	g, err := games.ByID(t.Spec.Config.Game)
	least := baccarat.Money(0)
	if err == nil {
		for _, b := range g.Bets {
			if l, ok := t.State.Limits[b.ID]; ok && b.Kind == games.Main && (least == 0 || l.Min < least) {
				least = l.Min
			}
		}
	}
	return max(least, 1)
}

// recent reads the last rounds: the last result, the largest wins, and their alerts.
func (ft *FloorTable) recent(rounds []live.Round, rules floorRules, minStake baccarat.Money, alerts []Alert) []Alert {
	for i, rd := range rounds { // newest first
		if i == 0 {
			ft.Last = &FloorRound{Round: rd.Round, Void: rd.Void}
			if rd.Result != nil {
				ft.Last.Result, ft.Last.Winner = rd.Result.String(), rd.Result.Winner.String()
			}
			for _, st := range rd.Settlements {
				if !st.Rides && rd.Void == "" {
					ft.Last.Takings += st.Stake - st.Returned
				}
			}
		}
		if rd.Void != "" {
			alerts = append(alerts, Alert{Kind: AlertVoided, Table: ft.ID, Round: rd.Round, Reason: rd.Void})
		}
		for _, st := range rd.Settlements {
			if st.Net <= 0 {
				continue
			}
			ft.LargestWins = append(ft.LargestWins, FloorWin{Round: rd.Round, Player: st.Player, Bet: st.Bet, Stake: st.Stake, Net: st.Net})
			if large := baccarat.Money(rules.largeWinX) * minStake; st.Net >= large {
				alerts = append(alerts, Alert{Kind: AlertLargeWin, Table: ft.ID, Round: rd.Round, Player: st.Player, Amount: int64(st.Net),
					Limit: int64(large), Reason: st.Bet})
			}
		}
	}
	sortWins(ft.LargestWins)
	if len(ft.LargestWins) > 3 {
		ft.LargestWins = ft.LargestWins[:3]
	}
	return alerts
}

func sortWins(ws []FloorWin) {
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && ws[j].Net > ws[j-1].Net; j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
}

// alerts adds the table's own: stalled, and a differential near its limit.
func (ft *FloorTable) alerts(rules floorRules, alerts []Alert) []Alert {
	if ft.Health.Status == HealthStalled {
		alerts = append(alerts, Alert{Kind: AlertStalled, Table: ft.ID, Round: ft.Round, Since: ft.Health.Since})
	}
	if lim := ft.DifferentialLimit; lim > 0 && ft.Differential*100 >= lim*baccarat.Money(rules.diffShare) {
		alerts = append(alerts, Alert{Kind: AlertDifferential, Table: ft.ID, Round: ft.Round, Amount: int64(ft.Differential), Limit: int64(lim)})
	}
	return alerts
}
