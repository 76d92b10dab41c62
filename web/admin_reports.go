package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/table"
)

// Reports (GET /api/admin/reports): the business of the tables per day, table, game and
// currency over any range of days, read from the summaries the aggregator keeps (never by
// scanning the books or the journals on a request). Hold is the house's takings per unit of
// stakes settled; theory is the house edge of the bets actually settled, each weighed by its
// stakes, from the odds engine (the same figures as GET /api/tables/{id}/rules).

// ReportBet is one bet's figures in a report row.
type ReportBet struct {
	Bet      string         `json:"bet"`
	Wagers   int64          `json:"wagers"`
	Staked   baccarat.Money `json:"staked"`
	Settled  baccarat.Money `json:"settled"`
	Returned baccarat.Money `json:"returned"`
	Takings  baccarat.Money `json:"takings"`
	Hold     *Figure        `json:"hold,omitempty"`
	Edge     *Figure        `json:"edge,omitempty"` // the bet's house edge (a Dragon bet's over its session)
}

// ReportRow is a report's row: the keys it groups by, the figures, takings, hold and theory.
type ReportRow struct {
	Day        string `json:"day,omitempty"`
	Table      string `json:"table,omitempty"`
	Game       string `json:"game,omitempty"`
	Currency   string `json:"currency"`
	MinorUnits int    `json:"minor_units"`
	backoffice.Figures
	Takings baccarat.Money `json:"takings"`
	Hold    *Figure        `json:"hold,omitempty"`   // takings ÷ settled
	Theory  *Figure        `json:"theory,omitempty"` // Σ settled × edge ÷ Σ settled, over the bets priced
	// Expected is the takings the theory expects of the stakes priced (rounded to the minor
	// unit); Priced the stakes settled on bets with a known edge.
	Expected baccarat.Money `json:"expected"`
	Priced   baccarat.Money `json:"priced"`
	Bets     []ReportBet    `json:"bets,omitempty"` // a row's only with ?bets=rows; the totals' always

	theory    *big.Rat // Σ settled × edge, exact
	theoryNum *big.Int // the same over the report's common denominator, as it is summed
	scratch   big.Int
}

// ReportView is GET /api/admin/reports's answer.
type ReportView struct {
	From   string      `json:"from"`
	To     string      `json:"to"`
	Group  []string    `json:"group"`
	Rows   []ReportRow `json:"rows"`
	Totals []ReportRow `json:"totals"` // one a currency
	// Behind is how many journals have records the aggregator has not folded yet (it folds
	// every couple of seconds): 0 when the figures are up to date.
	Behind int `json:"behind"`
}

// reportQuery reads a report's query: from and to (days; default the last 7 up to today),
// group (day, table, game, comma-separated; default table), table, game, currency.
func (s *Server) reportQuery(r *http.Request) (backoffice.Query, []string, error) {
	v := r.URL.Query()
	today := s.now().UTC()
	q := backoffice.Query{From: v.Get("from"), To: v.Get("to"), Table: v.Get("table"), Game: v.Get("game"), Currency: v.Get("currency")}
	if q.To == "" {
		q.To = backoffice.Day(today)
	}
	if q.From == "" {
		q.From = backoffice.Day(today.AddDate(0, 0, -6))
	}
	group := []string{"table"}
	if g := v.Get("group"); g != "" {
		group = strings.Split(g, ",")
	}
	for _, g := range group {
		switch g {
		case "day":
			q.ByDay = true
		case "table":
			q.ByTable = true
		case "game":
			q.ByGame = true
		case "currency":
		default:
			return q, nil, baccarat.Errorf(baccarat.CodeBadRequest, "group: day, table, game or currency, comma-separated")
		}
	}
	return q, group, q.Check()
}

// handleReport is GET /api/admin/reports (?format=csv: the rows as CSV; ?bets=rows: each row
// with its bets, as the totals always are).
func (s *Server) handleReport(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q, group, err := s.reportQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sum, err := o.Report(r.Context(), q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rowBets := r.URL.Query().Get("bets") == "rows"
	v := buildReport(r.Context(), q, sum, rowBets)
	v.Group = group
	if lags, err := o.Lagging(r.Context(), 1000); err == nil {
		v.Behind = len(lags)
	}
	if r.URL.Query().Get("format") == "csv" {
		writeReportCSV(w, v)
		return
	}
	writeJSON(w, 200, v)
}

// rowKey is a row's keys.
type rowKey struct{ day, table, game, currency string }

func buildReport(ctx context.Context, q backoffice.Query, sum backoffice.Summary, rowBets bool) ReportView {
	v := ReportView{From: q.From, To: q.To, Rows: []ReportRow{}, Totals: []ReportRow{}}
	index := map[rowKey]int{}
	totals := map[string]int{}
	for _, d := range sum.Rows {
		v.Rows = append(v.Rows, ReportRow{Day: d.Day, Table: d.Table, Game: d.Game, Currency: d.Currency, Figures: d.Figures})
		index[rowKey{d.Day, d.Table, d.Game, d.Currency}] = len(v.Rows) - 1
		i, ok := totals[d.Currency]
		if !ok {
			v.Totals = append(v.Totals, ReportRow{Currency: d.Currency})
			i = len(v.Totals) - 1
			totals[d.Currency] = i
		}
		v.Totals[i].Figures.Add(d.Figures)
	}
	edges := edgeBook{}
	for _, b := range sum.Bets {
		edges.of(ctx, b.Variant, b.Bet)
	}
	th := newTheory(edges)
	for _, b := range sum.Bets {
		edge := edges.of(ctx, b.Variant, b.Bet)
		if i, ok := index[rowKey{b.Day, b.Table, b.Game, b.Currency}]; ok {
			v.Rows[i].addBet(b, edge, th, rowBets)
		}
		if i, ok := totals[b.Currency]; ok {
			v.Totals[i].addBet(b, edge, th, true)
		}
	}
	for i := range v.Rows {
		v.Rows[i].finish(th)
		if !rowBets {
			v.Rows[i].Bets = nil
		}
	}
	for i := range v.Totals {
		v.Totals[i].finish(th)
	}
	return v
}

// theory sums Σ settled × edge exactly without a fraction's normalisation at each step: every
// edge of the report is written over one common denominator (the least common multiple of
// theirs), so a row's sum is an integer numerator over it, reduced once when the row is done.
// A year by day and table adds some 180,000 of these.
type theory struct {
	den    *big.Int
	scaled map[*big.Rat]*big.Int // each edge's numerator over den
}

func newTheory(edges edgeBook) *theory {
	t := &theory{den: big.NewInt(1), scaled: map[*big.Rat]*big.Int{}}
	var g big.Int
	for _, bets := range edges {
		for _, e := range bets {
			if e == nil {
				continue
			}
			// den = lcm(den, e.Denom()) = den / gcd × e.Denom()
			g.GCD(nil, nil, t.den, e.Denom())
			t.den.Mul(new(big.Int).Quo(t.den, &g), e.Denom())
		}
	}
	for _, bets := range edges {
		for _, e := range bets {
			if e != nil {
				t.scaled[e] = new(big.Int).Mul(e.Num(), new(big.Int).Quo(t.den, e.Denom()))
			}
		}
	}
	return t
}

func (row *ReportRow) addBet(b backoffice.BetRow, edge *big.Rat, th *theory, keepBets bool) {
	if keepBets {
		i := slices.IndexFunc(row.Bets, func(x ReportBet) bool { return x.Bet == b.Bet })
		if i < 0 {
			row.Bets = append(row.Bets, ReportBet{Bet: b.Bet})
			i = len(row.Bets) - 1
			if edge != nil {
				f := figure(edge, false)
				row.Bets[i].Edge = &f
			}
		}
		rb := &row.Bets[i]
		rb.Wagers, rb.Staked, rb.Settled, rb.Returned = rb.Wagers+b.Wagers, rb.Staked+b.Staked, rb.Settled+b.Settled, rb.Returned+b.Returned
	}
	if edge != nil && b.Settled != 0 {
		if row.theoryNum == nil {
			row.theoryNum = new(big.Int)
		}
		row.theoryNum.Add(row.theoryNum, row.scratch.Mul(th.scaled[edge], row.scratch.SetInt64(int64(b.Settled))))
		row.Priced += b.Settled
	}
}

// finish works out the takings, hold and theory of a row and its bets.
func (row *ReportRow) finish(th *theory) {
	row.MinorUnits = baccarat.MinorUnits(row.Currency)
	row.Takings = row.Figures.Takings()
	row.Hold = ratio(row.Takings, row.Settled)
	if row.theoryNum != nil && row.Priced > 0 {
		row.theory = new(big.Rat).SetFrac(row.theoryNum, th.den)
		f := figure(new(big.Rat).Quo(row.theory, big.NewRat(int64(row.Priced), 1)), false)
		row.Theory = &f
		e, _ := new(big.Float).SetRat(row.theory).Int64()
		row.Expected = baccarat.Money(e)
		if x := new(big.Rat).Sub(row.theory, new(big.Rat).SetInt64(e)); x.Cmp(big.NewRat(1, 2)) >= 0 {
			row.Expected++
		} else if x.Cmp(big.NewRat(-1, 2)) <= 0 {
			row.Expected--
		}
	}
	if row.Bets == nil {
		row.Bets = []ReportBet{}
	}
	slices.SortFunc(row.Bets, func(a, b ReportBet) int { return strings.Compare(a.Bet, b.Bet) })
	for i := range row.Bets {
		b := &row.Bets[i]
		b.Takings = b.Settled - b.Returned
		b.Hold = ratio(b.Takings, b.Settled)
	}
}

// ratio is num/den as a Figure, nil when den is 0.
func ratio(num, den baccarat.Money) *Figure {
	if den == 0 {
		return nil
	}
	f := figure(big.NewRat(int64(num), int64(den)), true)
	return &f
}

// edgeBook keeps the house edge of each variant's bets for one report (the odds engine
// keeps the counts themselves, once per game, decks and margins).
type edgeBook map[string]map[string]*big.Rat

func (e edgeBook) of(ctx context.Context, variant, bet string) *big.Rat {
	bets, ok := e[variant]
	if !ok {
		bets = variantEdges(ctx, variant)
		e[variant] = bets
	}
	return bets[bet]
}

// variantEdges is the house edge of every bet of a table variant (backoffice.Variant): exact
// for a single-coup bet, the four-decimal figure of a Dragon bet's session, none where the
// odds engine has no figure (yet).
func variantEdges(ctx context.Context, variant string) map[string]*big.Rat {
	out := map[string]*big.Rat{}
	var cfg table.Config
	if json.Unmarshal([]byte(variant), &cfg) != nil {
		return out
	}
	g, err := games.ByID(cfg.Game)
	if err != nil {
		return out
	}
	key := rulesKeyOf(g, cfg)
	bets, err := rulesCounts.start(key, func(ctx context.Context) ([]BetRules, error) { return betRules(ctx, g, key) }).wait(ctx)
	if err != nil {
		return out
	}
	for _, b := range withSessions(ctx, bets, sessionKeyOf(g, cfg)) {
		var r *big.Rat
		switch {
		case b.HouseEdge.Fraction != "":
			r, _ = new(big.Rat).SetString(b.HouseEdge.Fraction)
		case b.HouseEdge.Percent != "":
			if p, ok := new(big.Rat).SetString(b.HouseEdge.Percent); ok {
				r = p.Quo(p, big.NewRat(100, 1))
			}
		}
		if r != nil {
			out[b.ID] = r
		}
	}
	return out
}

// writeReportCSV writes a report's rows and totals as CSV: one line a row, amounts in the
// currency's major units written exactly ("1234.56"), percentages with four decimals.
func writeReportCSV(w http.ResponseWriter, v ReportView) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="report-`+v.From+`-`+v.To+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	c := csv.NewWriter(w)
	_ = c.Write([]string{"day", "table", "game", "currency", "rounds", "voids", "wagers", "staked", "withdrawn", "settled", "returned",
		"refunded", "takings", "hold_percent", "theory_percent", "expected_takings"})
	line := func(row ReportRow, total bool) {
		u := row.MinorUnits
		day := row.Day
		if total {
			day = "total"
		}
		_ = c.Write([]string{day, row.Table, row.Game, row.Currency, itoa(row.Rounds), itoa(row.Voids), itoa(row.Wagers),
			major(row.Staked, u), major(row.Withdrawn, u), major(row.Settled, u), major(row.Returned, u), major(row.Refunded, u),
			major(row.Takings, u), pct(row.Hold), pct(row.Theory), major(row.Expected, u)})
	}
	for _, row := range v.Rows {
		line(row, false)
	}
	for _, row := range v.Totals {
		line(row, true)
	}
	c.Flush()
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func pct(f *Figure) string {
	if f == nil {
		return ""
	}
	return f.Percent
}

// major writes minor units as the currency's major units, exactly: 123456 at 2 → "1234.56".
func major(minor baccarat.Money, units int) string {
	if units <= 0 {
		return itoa(int64(minor))
	}
	neg := minor < 0
	s := strconv.FormatUint(uint64(absMoney(minor)), 10)
	if len(s) <= units {
		s = strings.Repeat("0", units-len(s)+1) + s
	}
	s = s[:len(s)-units] + "." + s[len(s)-units:]
	if neg {
		s = "-" + s
	}
	return s
}

// TournamentReport is GET /api/admin/reports/tournaments's answer.
type TournamentReport struct {
	From        string                  `json:"from"`
	To          string                  `json:"to"`
	Tournaments []TournamentReportRow   `json:"tournaments"`
	Totals      []TournamentReportTotal `json:"totals"` // one a currency
}

// TournamentReportRow is a tournament with its money over the period and the house's net.
type TournamentReportRow struct {
	backoffice.TournamentRow
	MinorUnits int            `json:"minor_units"`
	Net        baccarat.Money `json:"net"`
}

// TournamentReportTotal is the tournaments' money in one currency.
type TournamentReportTotal struct {
	Currency   string `json:"currency"`
	MinorUnits int    `json:"minor_units"`
	backoffice.TournamentMoney
	Net baccarat.Money `json:"net"`
}

// handleTournamentReport is GET /api/admin/reports/tournaments?from=&to= (?format=csv).
func (s *Server) handleTournamentReport(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q, _, err := s.reportQuery(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rows, err := o.Tournaments(r.Context(), q.From, q.To)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := TournamentReport{From: q.From, To: q.To, Tournaments: []TournamentReportRow{}, Totals: []TournamentReportTotal{}}
	at := map[string]int{}
	for _, t := range rows {
		v.Tournaments = append(v.Tournaments, TournamentReportRow{TournamentRow: t, MinorUnits: baccarat.MinorUnits(t.Currency), Net: t.Net()})
		i, ok := at[t.Currency]
		if !ok {
			v.Totals = append(v.Totals, TournamentReportTotal{Currency: t.Currency, MinorUnits: baccarat.MinorUnits(t.Currency)})
			i = len(v.Totals) - 1
			at[t.Currency] = i
		}
		v.Totals[i].TournamentMoney.Add(t.TournamentMoney)
		v.Totals[i].Net = v.Totals[i].TournamentMoney.Net()
	}
	if r.URL.Query().Get("format") == "csv" {
		writeTournamentCSV(w, v)
		return
	}
	writeJSON(w, 200, v)
}

func writeTournamentCSV(w http.ResponseWriter, v TournamentReport) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="tournaments-`+v.From+`-`+v.To+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	c := csv.NewWriter(w)
	_ = c.Write([]string{"tournament", "name", "game", "currency", "phase", "entries", "fees", "rebuys", "refunds", "prizes",
		"bot_fees", "bot_prizes", "top_up", "net"})
	for _, t := range v.Tournaments {
		u := t.MinorUnits
		_ = c.Write([]string{t.Tournament, t.Name, t.Game, t.Currency, t.Phase, itoa(t.Entries), major(t.Fees, u), major(t.Rebuys, u),
			major(t.Refunds, u), major(t.Prizes, u), major(t.BotFees, u), major(t.BotPrizes, u), major(t.TopUp, u), major(t.Net, u)})
	}
	c.Flush()
}

// handleBooks is GET /api/admin/books: the books' totals by currency and kind of account
// (for the internal wallet, what reconciles with itself: each currency sums to zero).
func (s *Server) handleBooks(w http.ResponseWriter, r *http.Request, id Identity) {
	o, err := s.office()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	totals, err := o.BookTotals(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	type currencyBooks struct {
		Currency   string         `json:"currency"`
		MinorUnits int            `json:"minor_units"`
		House      baccarat.Money `json:"house"`
		Wallets    baccarat.Money `json:"wallets"`
		InPlay     baccarat.Money `json:"in_play"`
		Accounts   int64          `json:"accounts"`
		Balanced   bool           `json:"balanced"`
		Seamless   bool           `json:"seamless,omitempty"`
	}
	out := []currencyBooks{}
	at := map[string]int{}
	for _, b := range totals {
		i, ok := at[b.Currency]
		if !ok {
			out = append(out, currencyBooks{Currency: b.Currency, MinorUnits: baccarat.MinorUnits(b.Currency)})
			i = len(out) - 1
			at[b.Currency] = i
		}
		c := &out[i]
		c.Accounts += b.Accounts
		switch b.Kind {
		case "house":
			c.House += b.Balance
		case "wallet":
			c.Wallets += b.Balance
		case "inplay":
			c.InPlay += b.Balance
		}
	}
	for i := range out {
		c := &out[i]
		c.Balanced = c.House+c.Wallets+c.InPlay == 0
		c.Seamless = s.wallets.Wallet(ledger.Currency(c.Currency)).Seamless()
	}
	writeJSON(w, 200, out)
}
