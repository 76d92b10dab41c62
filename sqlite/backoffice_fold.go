package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
)

// The aggregator's marks and the summaries it folds (backoffice.Store).

// Lagging lists journals whose head is past their mark; see backoffice.Store.
func (db *DB) Lagging(ctx context.Context, limit int) ([]backoffice.Lag, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT h.table_id, h.seq, COALESCE(m.seq, 0), COALESCE(m.state, '')
		FROM journal_heads h LEFT JOIN bo_marks m ON m.table_id = h.table_id
		WHERE h.seq > COALESCE(m.seq, 0) ORDER BY h.table_id LIMIT ?`, limit)
	if err != nil {
		return nil, wrap("lagging", err)
	}
	defer rows.Close()
	var out []backoffice.Lag
	for rows.Next() {
		var l backoffice.Lag
		var state string
		if err := rows.Scan(&l.Table, &l.Head, &l.Seq, &state); err != nil {
			return nil, wrap("lagging", err)
		}
		if state != "" {
			if err := json.Unmarshal([]byte(state), &l.State); err != nil {
				return nil, wrap("lagging", err)
			}
		}
		out = append(out, l)
	}
	return out, wrap("lagging", rows.Err())
}

// The upserts of a fold. Days, bets and tournament days add up; a round widens and takes a
// settled or void status over an open one; wagers are written once; a shoe keeps each end
// once it is known.
const (
	upsertDay = `INSERT INTO bo_days (day, table_id, currency, game, rounds, voids, wagers, staked, withdrawn, settled, returned, refunded)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (day, table_id, currency) DO UPDATE SET rounds = rounds + excluded.rounds, voids = voids + excluded.voids,
			wagers = wagers + excluded.wagers, staked = staked + excluded.staked, withdrawn = withdrawn + excluded.withdrawn,
			settled = settled + excluded.settled, returned = returned + excluded.returned, refunded = refunded + excluded.refunded`
	upsertBet = `INSERT INTO bo_bets (day, table_id, currency, bet, game, variant, wagers, staked, settled, returned)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (day, table_id, currency, bet) DO UPDATE SET wagers = wagers + excluded.wagers, staked = staked + excluded.staked,
			settled = settled + excluded.settled, returned = returned + excluded.returned`
	upsertBetMonth = `INSERT INTO bo_bet_months (month, table_id, currency, bet, game, variant, wagers, staked, settled, returned)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (month, table_id, currency, bet) DO UPDATE SET wagers = wagers + excluded.wagers, staked = staked + excluded.staked,
			settled = settled + excluded.settled, returned = returned + excluded.returned`
	upsertRound = `INSERT INTO bo_rounds (table_id, round, first_seq, last_seq, shoe, at, status, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (table_id, round) DO UPDATE SET first_seq = min(first_seq, excluded.first_seq), last_seq = max(last_seq, excluded.last_seq),
			status = CASE WHEN excluded.status <> 'open' THEN excluded.status ELSE status END,
			result = CASE WHEN excluded.status <> 'open' THEN excluded.result ELSE result END`
	insertWager = `INSERT INTO bo_wagers (table_id, wager, round, player, bet, stake, at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (table_id, wager) DO NOTHING`
	upsertShoe = `INSERT INTO bo_shoes (table_id, shoe, started_seq, ended_seq) VALUES (?, ?, ?, ?)
		ON CONFLICT (table_id, shoe) DO UPDATE SET
			started_seq = CASE WHEN excluded.started_seq > 0 THEN excluded.started_seq ELSE started_seq END,
			ended_seq = CASE WHEN excluded.ended_seq > 0 THEN excluded.ended_seq ELSE ended_seq END`
	upsertTournamentDay = `INSERT INTO bo_tournament_days (tournament, day, fees, bot_fees, rebuys, refunds, prizes, bot_prizes, top_up, entries)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tournament, day) DO UPDATE SET fees = fees + excluded.fees, bot_fees = bot_fees + excluded.bot_fees,
			rebuys = rebuys + excluded.rebuys, refunds = refunds + excluded.refunds, prizes = prizes + excluded.prizes,
			bot_prizes = bot_prizes + excluded.bot_prizes, top_up = top_up + excluded.top_up, entries = entries + excluded.entries`
	insertJournalAudit = `INSERT INTO audit_log (at, actor, role, action, target, reason, detail, ref, source)
		SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE ref = ?)`
)

// ApplyFold applies a fold and moves its journal's mark, in one transaction; see
// backoffice.Store.
func (db *DB) ApplyFold(ctx context.Context, f backoffice.Fold) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("fold", err)
	}
	defer tx.Rollback()
	var seq int64
	err = tx.QueryRowContext(ctx, `SELECT seq FROM bo_marks WHERE table_id = ?`, f.Table).Scan(&seq)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return wrap("fold", err)
	}
	if uint64(seq) != f.From-1 {
		return baccarat.Errorf(baccarat.CodeConflict, "fold %s: its mark is %d, not %d: folded meanwhile", f.Table, seq, f.From-1)
	}
	if err := db.writeFold(ctx, tx, &f); err != nil {
		return wrap("fold", err)
	}
	state, _ := json.Marshal(f.State)
	if _, err := tx.ExecContext(ctx, `INSERT INTO bo_marks (table_id, seq, state) VALUES (?, ?, ?)
		ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, state = excluded.state`, f.Table, int64(f.To), string(state)); err != nil {
		return wrap("fold", err)
	}
	return wrap("fold", tx.Commit())
}

// rowsOf runs one prepared statement for each row args gives.
func rowsOf(ctx context.Context, tx *sql.Tx, query string, n int, args func(i int) []any) error {
	if n == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	defer st.Close()
	for i := range n {
		if _, err := st.ExecContext(ctx, args(i)...); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) writeFold(ctx context.Context, tx *sql.Tx, f *backoffice.Fold) error {
	if i := f.Info; i != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO bo_tables (table_id, name, game, mode, currency, tournament, config, created)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO NOTHING`,
			i.Table, i.Name, i.Game, i.Mode, i.Currency, i.Tournament, string(i.Config), i.Created.UnixNano()); err != nil {
			return err
		}
	}
	if t := f.Tournament; t != nil {
		info, _ := json.Marshal(t)
		if _, err := tx.ExecContext(ctx, `INSERT INTO bo_tournaments (tournament, info) VALUES (?, ?)
			ON CONFLICT (tournament) DO UPDATE SET info = excluded.info`, t.Tournament, string(info)); err != nil {
			return err
		}
	}
	steps := []struct {
		query string
		n     int
		args  func(i int) []any
	}{
		{upsertDay, len(f.Days), func(i int) []any {
			d := f.Days[i]
			return []any{d.Day, d.Table, d.Currency, d.Game, d.Rounds, d.Voids, d.Wagers, d.Staked, d.Withdrawn, d.Settled, d.Returned, d.Refunded}
		}},
		{upsertBet, len(f.Bets), func(i int) []any {
			b := f.Bets[i]
			return []any{b.Day, b.Table, b.Currency, b.Bet, b.Game, b.Variant, b.Wagers, b.Staked, b.Settled, b.Returned}
		}},
		{upsertBetMonth, len(f.Bets), func(i int) []any {
			b := f.Bets[i]
			return []any{b.Day[:7], b.Table, b.Currency, b.Bet, b.Game, b.Variant, b.Wagers, b.Staked, b.Settled, b.Returned}
		}},
		{upsertRound, len(f.Rounds), func(i int) []any {
			r := f.Rounds[i]
			return []any{r.Table, int64(r.Round), int64(r.First), int64(r.Last), int64(r.Shoe), r.At.UnixNano(), r.Status, r.Result}
		}},
		{insertWager, len(f.Wagers), func(i int) []any {
			w := f.Wagers[i]
			return []any{w.Table, int64(w.Wager), int64(w.Round), w.Player, w.Bet, w.Stake, w.At.UnixNano()}
		}},
		{upsertShoe, len(f.Shoes), func(i int) []any {
			s := f.Shoes[i]
			return []any{s.Table, int64(s.Shoe), int64(s.Started), int64(s.Ended)}
		}},
		{upsertTournamentDay, len(f.TournamentDays), func(i int) []any {
			d := f.TournamentDays[i]
			return []any{d.Tournament, d.Day, d.Fees, d.BotFees, d.Rebuys, d.Refunds, d.Prizes, d.BotPrizes, d.TopUp, d.Entries}
		}},
		{insertJournalAudit, len(f.Audit), func(i int) []any {
			return append(auditArgs(f.Audit[i]), f.Audit[i].Ref)
		}},
	}
	for _, s := range steps {
		if err := rowsOf(ctx, tx, s.query, s.n, s.args); err != nil {
			return err
		}
	}
	return nil
}

// reportKeys are the columns a report groups by, in order (currency always), and the
// filters as conditions with their values. Only fixed column names go into the text; values
// are parameters.
func reportKeys(q backoffice.Query) ([]string, []string, []any) {
	var keys []string
	if q.ByDay {
		keys = append(keys, "day")
	}
	if q.ByTable {
		keys = append(keys, "table_id")
	}
	if q.ByGame {
		keys = append(keys, "game")
	}
	keys = append(keys, "currency")
	var where []string
	var args []any
	for _, f := range []struct{ col, v string }{{"table_id", q.Table}, {"game", q.Game}, {"currency", q.Currency}} {
		if f.v != "" {
			where, args = append(where, f.col+" = ?"), append(args, f.v)
		}
	}
	return keys, where, args
}

// daysSQL is the day rows' query.
func daysSQL(q backoffice.Query) (string, []any) {
	keys, where, args := reportKeys(q)
	k := strings.Join(keys, ", ")
	where = append([]string{"day >= ?", "day <= ?"}, where...)
	args = append([]any{q.From, q.To}, args...)
	return "SELECT " + k + ", " + daySums + " FROM bo_days WHERE " + strings.Join(where, " AND ") + " GROUP BY " + k + " ORDER BY " + k, args
}

// betsSQL is the bet rows' query: the whole months of the period from the monthly rows, the
// days around them from the daily ones (backoffice.Query.Split).
func betsSQL(q backoffice.Query) (string, []any) {
	keys, where, fargs := reportKeys(q)
	keys = append(keys, "variant", "bet")
	k := strings.Join(keys, ", ")
	span := q.Split()
	cols := strings.Join(append(keys, "wagers", "staked", "settled", "returned"), ", ")
	var parts []string
	var args []any
	for _, d := range span.Days {
		parts = append(parts, "SELECT "+cols+" FROM bo_bets WHERE "+strings.Join(append([]string{"day >= ?", "day <= ?"}, where...), " AND "))
		args = append(append(args, d[0], d[1]), fargs...)
	}
	if span.FromMonth != "" {
		parts = append(parts, "SELECT "+cols+" FROM bo_bet_months WHERE "+strings.Join(append([]string{"month >= ?", "month <= ?"}, where...), " AND "))
		args = append(append(args, span.FromMonth, span.ToMonth), fargs...)
	}
	return "SELECT " + k + ", " + betSums + " FROM (" + strings.Join(parts, " UNION ALL ") + ") GROUP BY " + k + " ORDER BY " + k, args
}

const (
	daySums = `SUM(rounds), SUM(voids), SUM(wagers), SUM(staked), SUM(withdrawn), SUM(settled), SUM(returned), SUM(refunded)`
	betSums = `SUM(wagers), SUM(staked), SUM(settled), SUM(returned)`
)

// Report adds up the day rows q selects; see backoffice.Store.
func (db *DB) Report(ctx context.Context, q backoffice.Query) (backoffice.Summary, error) {
	out := backoffice.Summary{Rows: []backoffice.DayRow{}, Bets: []backoffice.BetRow{}}
	if err := q.Check(); err != nil {
		return out, err
	}
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return out, wrap("report", err)
	}
	defer tx.Rollback()
	query, args := daysSQL(q)
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return out, wrap("report", err)
	}
	for rows.Next() {
		var r backoffice.DayRow
		dest := append(keyDest(q, &r.Day, &r.Table, &r.Game, &r.Currency), &r.Rounds, &r.Voids, &r.Wagers, &r.Staked,
			&r.Withdrawn, &r.Settled, &r.Returned, &r.Refunded)
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return out, wrap("report", err)
		}
		out.Rows = append(out.Rows, r)
	}
	if err := rows.Close(); err != nil {
		return out, wrap("report", err)
	}
	query, args = betsSQL(q)
	rows, err = tx.QueryContext(ctx, query, args...)
	if err != nil {
		return out, wrap("report", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b backoffice.BetRow
		dest := append(keyDest(q, &b.Day, &b.Table, &b.Game, &b.Currency), &b.Variant, &b.Bet, &b.Wagers, &b.Staked, &b.Settled, &b.Returned)
		if err := rows.Scan(dest...); err != nil {
			return out, wrap("report", err)
		}
		out.Bets = append(out.Bets, b)
	}
	return out, wrap("report", rows.Err())
}

// keyDest is where a report row's keys are read into, in reportSQL's order.
func keyDest(q backoffice.Query, day, table, game, currency *string) []any {
	var out []any
	if q.ByDay {
		out = append(out, day)
	}
	if q.ByTable {
		out = append(out, table)
	}
	if q.ByGame {
		out = append(out, game)
	}
	return append(out, currency)
}

// Tournaments lists tournaments with their money over days; see backoffice.Store.
func (db *DB) Tournaments(ctx context.Context, from, to string) ([]backoffice.TournamentRow, error) {
	if err := (backoffice.Query{From: from, To: to}).Check(); err != nil {
		return nil, err
	}
	rows, err := db.r.QueryContext(ctx, `SELECT t.info, SUM(d.fees), SUM(d.bot_fees), SUM(d.rebuys), SUM(d.refunds), SUM(d.prizes),
			SUM(d.bot_prizes), SUM(d.top_up), SUM(d.entries)
		FROM bo_tournament_days d JOIN bo_tournaments t ON t.tournament = d.tournament
		WHERE d.day >= ? AND d.day <= ? GROUP BY t.tournament, t.info ORDER BY t.tournament`, from, to)
	if err != nil {
		return nil, wrap("tournaments", err)
	}
	defer rows.Close()
	out := []backoffice.TournamentRow{}
	for rows.Next() {
		var r backoffice.TournamentRow
		var info string
		m := &r.TournamentMoney
		if err := rows.Scan(&info, &m.Fees, &m.BotFees, &m.Rebuys, &m.Refunds, &m.Prizes, &m.BotPrizes, &m.TopUp, &m.Entries); err != nil {
			return nil, wrap("tournaments", err)
		}
		if err := json.Unmarshal([]byte(info), &r.TournamentInfo); err != nil {
			return nil, wrap("tournaments", err)
		}
		out = append(out, r)
	}
	return out, wrap("tournaments", rows.Err())
}

// TableInfos lists the tables folded so far; see backoffice.Store.
func (db *DB) TableInfos(ctx context.Context) ([]backoffice.TableInfo, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT table_id, name, game, mode, currency, tournament, config, created FROM bo_tables ORDER BY table_id`)
	if err != nil {
		return nil, wrap("tables", err)
	}
	defer rows.Close()
	out := []backoffice.TableInfo{}
	for rows.Next() {
		var t backoffice.TableInfo
		var cfg string
		var at int64
		if err := rows.Scan(&t.Table, &t.Name, &t.Game, &t.Mode, &t.Currency, &t.Tournament, &cfg, &at); err != nil {
			return nil, wrap("tables", err)
		}
		t.Config, t.Created = json.RawMessage(cfg), time.Unix(0, at).UTC()
		out = append(out, t)
	}
	return out, wrap("tables", rows.Err())
}

// Round finds a round; see backoffice.Store.
func (db *DB) Round(ctx context.Context, table string, round uint64) (backoffice.RoundRef, error) {
	r := backoffice.RoundRef{Table: table, Round: round}
	var first, last, shoe, at int64
	err := db.r.QueryRowContext(ctx, `SELECT first_seq, last_seq, shoe, at, status, result FROM bo_rounds WHERE table_id = ? AND round = ?`,
		table, int64(round)).Scan(&first, &last, &shoe, &at, &r.Status, &r.Result)
	if errors.Is(err, sql.ErrNoRows) {
		return r, baccarat.Errorf(baccarat.CodeNotFound, "no round %d of table %s in the index", round, table)
	}
	r.First, r.Last, r.Shoe, r.At = uint64(first), uint64(last), uint64(shoe), time.Unix(0, at).UTC()
	return r, wrap("round", err)
}

// Wager finds a wager; see backoffice.Store.
func (db *DB) Wager(ctx context.Context, table string, wager uint64) (backoffice.WagerRef, error) {
	w := backoffice.WagerRef{Table: table, Wager: wager}
	var round, at int64
	err := db.r.QueryRowContext(ctx, `SELECT round, player, bet, stake, at FROM bo_wagers WHERE table_id = ? AND wager = ?`,
		table, int64(wager)).Scan(&round, &w.Player, &w.Bet, &w.Stake, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return w, baccarat.Errorf(baccarat.CodeNotFound, "no wager %d of table %s in the index", wager, table)
	}
	w.Round, w.At = uint64(round), time.Unix(0, at).UTC()
	return w, wrap("wager", err)
}

// Shoe finds a shoe; see backoffice.Store.
func (db *DB) Shoe(ctx context.Context, table string, shoe uint64) (backoffice.ShoeRef, error) {
	s := backoffice.ShoeRef{Table: table, Shoe: shoe}
	var started, ended int64
	err := db.r.QueryRowContext(ctx, `SELECT started_seq, ended_seq FROM bo_shoes WHERE table_id = ? AND shoe = ?`,
		table, int64(shoe)).Scan(&started, &ended)
	if errors.Is(err, sql.ErrNoRows) {
		return s, baccarat.Errorf(baccarat.CodeNotFound, "no shoe %d of table %s in the index", shoe, table)
	}
	s.Started, s.Ended = uint64(started), uint64(ended)
	return s, wrap("shoe", err)
}

// Sessions lists a player's sessions; see backoffice.Store.
func (db *DB) Sessions(ctx context.Context, player string, limit int) ([]backoffice.Session, error) {
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	rows, err := db.r.QueryContext(ctx, `SELECT w.table_id, date(w.at / 1000000000, 'unixepoch') AS d, MIN(w.at), MAX(w.at), COUNT(*),
			SUM(w.stake), COALESCE(t.currency, '')
		FROM bo_wagers w LEFT JOIN bo_tables t ON t.table_id = w.table_id
		WHERE w.player = ? GROUP BY w.table_id, d ORDER BY MAX(w.at) DESC LIMIT ?`, player, limit)
	if err != nil {
		return nil, wrap("sessions", err)
	}
	defer rows.Close()
	out := []backoffice.Session{}
	for rows.Next() {
		var s backoffice.Session
		var first, last int64
		if err := rows.Scan(&s.Table, &s.Day, &first, &last, &s.Wagers, &s.Staked, &s.Currency); err != nil {
			return nil, wrap("sessions", err)
		}
		s.First, s.Last = time.Unix(0, first).UTC(), time.Unix(0, last).UTC()
		out = append(out, s)
	}
	return out, wrap("sessions", rows.Err())
}
