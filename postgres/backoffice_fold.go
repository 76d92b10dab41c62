package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/backoffice"
)

// The aggregator's marks and the summaries it folds (backoffice.Store).

// Lagging lists journals whose head is past their mark; see backoffice.Store.
func (db *DB) Lagging(ctx context.Context, limit int) ([]backoffice.Lag, error) {
	var out []backoffice.Lag
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT h.table_id, h.seq, COALESCE(m.seq, 0), COALESCE(m.state, '')
			FROM journal_heads h LEFT JOIN bo_marks m ON m.table_id = h.table_id
			WHERE h.seq > COALESCE(m.seq, 0) ORDER BY h.table_id LIMIT $1`, limit)
		if err != nil {
			return err
		}
		var l backoffice.Lag
		var state string
		_, err = pgx.ForEachRow(rows, []any{&l.Table, &l.Head, &l.Seq, &state}, func() error {
			x := l
			x.State = backoffice.State{}
			if state != "" {
				if err := json.Unmarshal([]byte(state), &x.State); err != nil {
					return err
				}
			}
			out = append(out, x)
			return nil
		})
		return err
	})
	return out, wrap("lagging", err)
}

// The upserts of a fold, as SQLite's (sqlite/backoffice_fold.go): days, bets and tournament
// days add up; a round widens and takes a settled or void status over an open one; wagers
// are written once; a shoe keeps each end once it is known.
const (
	upsertDay = `INSERT INTO bo_days AS o (day, table_id, currency, game, rounds, voids, wagers, staked, withdrawn, settled, returned, refunded)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
		ON CONFLICT (day, table_id, currency) DO UPDATE SET rounds = o.rounds + excluded.rounds, voids = o.voids + excluded.voids,
			wagers = o.wagers + excluded.wagers, staked = o.staked + excluded.staked, withdrawn = o.withdrawn + excluded.withdrawn,
			settled = o.settled + excluded.settled, returned = o.returned + excluded.returned, refunded = o.refunded + excluded.refunded`
	upsertBet = `INSERT INTO bo_bets AS o (day, table_id, currency, bet, game, variant, wagers, staked, settled, returned)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (day, table_id, currency, bet) DO UPDATE SET wagers = o.wagers + excluded.wagers, staked = o.staked + excluded.staked,
			settled = o.settled + excluded.settled, returned = o.returned + excluded.returned`
	upsertBetMonth = `INSERT INTO bo_bet_months AS o (month, table_id, currency, bet, game, variant, wagers, staked, settled, returned)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (month, table_id, currency, bet) DO UPDATE SET wagers = o.wagers + excluded.wagers, staked = o.staked + excluded.staked,
			settled = o.settled + excluded.settled, returned = o.returned + excluded.returned`
	upsertRound = `INSERT INTO bo_rounds AS o (table_id, round, first_seq, last_seq, shoe, at_ns, status, result)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (table_id, round) DO UPDATE SET first_seq = LEAST(o.first_seq, excluded.first_seq),
			last_seq = GREATEST(o.last_seq, excluded.last_seq),
			status = CASE WHEN excluded.status <> 'open' THEN excluded.status ELSE o.status END,
			result = CASE WHEN excluded.status <> 'open' THEN excluded.result ELSE o.result END`
	insertWager = `INSERT INTO bo_wagers (table_id, wager, round, player, bet, stake, at_ns) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (table_id, wager) DO NOTHING`
	upsertShoe = `INSERT INTO bo_shoes AS o (table_id, shoe, started_seq, ended_seq) VALUES ($1, $2, $3, $4)
		ON CONFLICT (table_id, shoe) DO UPDATE SET
			started_seq = CASE WHEN excluded.started_seq > 0 THEN excluded.started_seq ELSE o.started_seq END,
			ended_seq = CASE WHEN excluded.ended_seq > 0 THEN excluded.ended_seq ELSE o.ended_seq END`
	upsertTournamentDay = `INSERT INTO bo_tournament_days AS o (tournament, day, fees, bot_fees, rebuys, refunds, prizes, bot_prizes, top_up, entries)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (tournament, day) DO UPDATE SET fees = o.fees + excluded.fees, bot_fees = o.bot_fees + excluded.bot_fees,
			rebuys = o.rebuys + excluded.rebuys, refunds = o.refunds + excluded.refunds, prizes = o.prizes + excluded.prizes,
			bot_prizes = o.bot_prizes + excluded.bot_prizes, top_up = o.top_up + excluded.top_up, entries = o.entries + excluded.entries`
	insertJournalAudit = `INSERT INTO audit_log (at_ns, actor, role, action, target, reason, detail, ref, source)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE NOT EXISTS (SELECT 1 FROM audit_log WHERE ref = $8)`
)

// ApplyFold applies a fold and moves its journal's mark, in one transaction; see
// backoffice.Store. The mark's row is locked first (made if need be), so two servers folding
// the same records take turns and the second finds the mark moved.
func (db *DB) ApplyFold(ctx context.Context, f backoffice.Fold) error {
	return wrap("fold", db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO bo_marks (table_id, seq, state) VALUES ($1, 0, '') ON CONFLICT DO NOTHING`, f.Table); err != nil {
			return err
		}
		var seq int64
		if err := tx.QueryRow(ctx, `SELECT seq FROM bo_marks WHERE table_id = $1 FOR UPDATE`, f.Table).Scan(&seq); err != nil {
			return err
		}
		if uint64(seq) != f.From-1 {
			return baccarat.Errorf(baccarat.CodeConflict, "fold %s: its mark is %d, not %d: folded meanwhile", f.Table, seq, f.From-1)
		}
		if err := writeFold(ctx, tx, &f); err != nil {
			return err
		}
		state, _ := json.Marshal(f.State)
		_, err := tx.Exec(ctx, `UPDATE bo_marks SET seq = $2, state = $3 WHERE table_id = $1`, f.Table, int64(f.To), string(state))
		return err
	}))
}

func writeFold(ctx context.Context, tx pgx.Tx, f *backoffice.Fold) error {
	b := &pgx.Batch{}
	if i := f.Info; i != nil {
		b.Queue(`INSERT INTO bo_tables (table_id, name, game, mode, currency, tournament, config, created)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (table_id) DO NOTHING`,
			i.Table, i.Name, i.Game, i.Mode, i.Currency, i.Tournament, string(i.Config), i.Created.UnixNano())
	}
	if t := f.Tournament; t != nil {
		info, _ := json.Marshal(t)
		b.Queue(`INSERT INTO bo_tournaments (tournament, info) VALUES ($1, $2)
			ON CONFLICT (tournament) DO UPDATE SET info = excluded.info`, t.Tournament, string(info))
	}
	for _, d := range f.Days {
		b.Queue(upsertDay, d.Day, d.Table, d.Currency, d.Game, d.Rounds, d.Voids, d.Wagers, d.Staked, d.Withdrawn, d.Settled, d.Returned, d.Refunded)
	}
	for _, x := range f.Bets {
		b.Queue(upsertBet, x.Day, x.Table, x.Currency, x.Bet, x.Game, x.Variant, x.Wagers, x.Staked, x.Settled, x.Returned)
		b.Queue(upsertBetMonth, x.Day[:7], x.Table, x.Currency, x.Bet, x.Game, x.Variant, x.Wagers, x.Staked, x.Settled, x.Returned)
	}
	for _, r := range f.Rounds {
		b.Queue(upsertRound, r.Table, int64(r.Round), int64(r.First), int64(r.Last), int64(r.Shoe), r.At.UnixNano(), r.Status, r.Result)
	}
	for _, w := range f.Wagers {
		b.Queue(insertWager, w.Table, int64(w.Wager), int64(w.Round), w.Player, w.Bet, w.Stake, w.At.UnixNano())
	}
	for _, s := range f.Shoes {
		b.Queue(upsertShoe, s.Table, int64(s.Shoe), int64(s.Started), int64(s.Ended))
	}
	for _, d := range f.TournamentDays {
		b.Queue(upsertTournamentDay, d.Tournament, d.Day, d.Fees, d.BotFees, d.Rebuys, d.Refunds, d.Prizes, d.BotPrizes, d.TopUp, d.Entries)
	}
	for _, e := range f.Audit {
		b.Queue(insertJournalAudit, auditArgs(e)...)
	}
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

// reportKeys are the columns a report groups by, in order (currency always), and the
// filters as conditions on parameters numbered from next. Only fixed column names go into
// the text; values are parameters.
func reportKeys(q backoffice.Query, next int) ([]string, []string, []any) {
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
			args = append(args, f.v)
			where = append(where, f.col+" = $"+strconv.Itoa(next+len(args)-1))
		}
	}
	return keys, where, args
}

// daysSQL is the day rows' query.
func daysSQL(q backoffice.Query) (string, []any) {
	keys, where, args := reportKeys(q, 3)
	k := strings.Join(keys, ", ")
	where = append([]string{"day >= $1", "day <= $2"}, where...)
	return "SELECT " + k + ", " + daySums + " FROM bo_days WHERE " + strings.Join(where, " AND ") + " GROUP BY " + k + " ORDER BY " + k,
		append([]any{q.From, q.To}, args...)
}

// betsSQL is the bet rows' query: the whole months of the period from the monthly rows, the
// days around them from the daily ones (backoffice.Query.Split).
func betsSQL(q backoffice.Query) (string, []any) {
	span := q.Split()
	var parts []string
	var args []any
	var keys []string
	part := func(table, col, lo, hi string) {
		n := len(args) + 1
		var where []string
		var fargs []any
		keys, where, fargs = reportKeys(q, n+2)
		keys = append(keys, "variant", "bet")
		cols := strings.Join(append(keys, "wagers", "staked", "settled", "returned"), ", ")
		cond := append([]string{col + " >= $" + strconv.Itoa(n), col + " <= $" + strconv.Itoa(n+1)}, where...)
		parts = append(parts, "SELECT "+cols+" FROM "+table+" WHERE "+strings.Join(cond, " AND "))
		args = append(append(args, lo, hi), fargs...)
	}
	for _, d := range span.Days {
		part("bo_bets", "day", d[0], d[1])
	}
	if span.FromMonth != "" {
		part("bo_bet_months", "month", span.FromMonth, span.ToMonth)
	}
	k := strings.Join(keys, ", ")
	return "SELECT " + k + ", " + betSums + " FROM (" + strings.Join(parts, " UNION ALL ") + ") AS b GROUP BY " + k + " ORDER BY " + k, args
}

const (
	daySums = `SUM(rounds)::bigint, SUM(voids)::bigint, SUM(wagers)::bigint, SUM(staked)::bigint, SUM(withdrawn)::bigint,
		SUM(settled)::bigint, SUM(returned)::bigint, SUM(refunded)::bigint`
	betSums = `SUM(wagers)::bigint, SUM(staked)::bigint, SUM(settled)::bigint, SUM(returned)::bigint`
)

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

// Report adds up the day rows q selects; see backoffice.Store. Both queries read one
// snapshot (REPEATABLE READ), so the bets agree with the days.
func (db *DB) Report(ctx context.Context, q backoffice.Query) (backoffice.Summary, error) {
	out := backoffice.Summary{Rows: []backoffice.DayRow{}, Bets: []backoffice.BetRow{}}
	if err := q.Check(); err != nil {
		return out, err
	}
	err := db.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		out.Rows, out.Bets = out.Rows[:0], out.Bets[:0]
		query, args := daysSQL(q)
		rows, err := tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		var r backoffice.DayRow
		dest := append(keyDest(q, &r.Day, &r.Table, &r.Game, &r.Currency), &r.Rounds, &r.Voids, &r.Wagers, &r.Staked,
			&r.Withdrawn, &r.Settled, &r.Returned, &r.Refunded)
		if _, err := pgx.ForEachRow(rows, dest, func() error { out.Rows = append(out.Rows, r); return nil }); err != nil {
			return err
		}
		query, args = betsSQL(q)
		rows, err = tx.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		var b backoffice.BetRow
		dest = append(keyDest(q, &b.Day, &b.Table, &b.Game, &b.Currency), &b.Variant, &b.Bet, &b.Wagers, &b.Staked, &b.Settled, &b.Returned)
		_, err = pgx.ForEachRow(rows, dest, func() error { out.Bets = append(out.Bets, b); return nil })
		return err
	})
	return out, wrap("report", err)
}

// Tournaments lists tournaments with their money over days; see backoffice.Store.
func (db *DB) Tournaments(ctx context.Context, from, to string) ([]backoffice.TournamentRow, error) {
	if err := (backoffice.Query{From: from, To: to}).Check(); err != nil {
		return nil, err
	}
	out := []backoffice.TournamentRow{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT t.info, SUM(d.fees)::bigint, SUM(d.bot_fees)::bigint, SUM(d.rebuys)::bigint, SUM(d.refunds)::bigint,
				SUM(d.prizes)::bigint, SUM(d.bot_prizes)::bigint, SUM(d.top_up)::bigint, SUM(d.entries)::bigint
			FROM bo_tournament_days d JOIN bo_tournaments t ON t.tournament = d.tournament
			WHERE d.day >= $1 AND d.day <= $2 GROUP BY t.tournament, t.info ORDER BY t.tournament`, from, to)
		if err != nil {
			return err
		}
		var r backoffice.TournamentRow
		var info string
		m := &r.TournamentMoney
		_, err = pgx.ForEachRow(rows, []any{&info, &m.Fees, &m.BotFees, &m.Rebuys, &m.Refunds, &m.Prizes, &m.BotPrizes, &m.TopUp, &m.Entries}, func() error {
			x := r
			x.TournamentInfo = backoffice.TournamentInfo{}
			if err := json.Unmarshal([]byte(info), &x.TournamentInfo); err != nil {
				return err
			}
			out = append(out, x)
			return nil
		})
		return err
	})
	return out, wrap("tournaments", err)
}

// TableInfos lists the tables folded so far; see backoffice.Store.
func (db *DB) TableInfos(ctx context.Context) ([]backoffice.TableInfo, error) {
	out := []backoffice.TableInfo{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT table_id, name, game, mode, currency, tournament, config, created FROM bo_tables ORDER BY table_id`)
		if err != nil {
			return err
		}
		var t backoffice.TableInfo
		var cfg string
		var at int64
		_, err = pgx.ForEachRow(rows, []any{&t.Table, &t.Name, &t.Game, &t.Mode, &t.Currency, &t.Tournament, &cfg, &at}, func() error {
			x := t
			x.Config, x.Created = json.RawMessage(cfg), time.Unix(0, at).UTC()
			out = append(out, x)
			return nil
		})
		return err
	})
	return out, wrap("tables", err)
}

// Round finds a round; see backoffice.Store.
func (db *DB) Round(ctx context.Context, table string, round uint64) (backoffice.RoundRef, error) {
	r := backoffice.RoundRef{Table: table, Round: round}
	var first, last, shoe, at int64
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT first_seq, last_seq, shoe, at_ns, status, result FROM bo_rounds WHERE table_id = $1 AND round = $2`,
			table, int64(round)).Scan(&first, &last, &shoe, &at, &r.Status, &r.Result)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return r, baccarat.Errorf(baccarat.CodeNotFound, "no round %d of table %s in the index", round, table)
	}
	r.First, r.Last, r.Shoe, r.At = uint64(first), uint64(last), uint64(shoe), time.Unix(0, at).UTC()
	return r, wrap("round", err)
}

// Wager finds a wager; see backoffice.Store.
func (db *DB) Wager(ctx context.Context, table string, wager uint64) (backoffice.WagerRef, error) {
	w := backoffice.WagerRef{Table: table, Wager: wager}
	var round, at int64
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT round, player, bet, stake, at_ns FROM bo_wagers WHERE table_id = $1 AND wager = $2`,
			table, int64(wager)).Scan(&round, &w.Player, &w.Bet, &w.Stake, &at)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return w, baccarat.Errorf(baccarat.CodeNotFound, "no wager %d of table %s in the index", wager, table)
	}
	w.Round, w.At = uint64(round), time.Unix(0, at).UTC()
	return w, wrap("wager", err)
}

// Shoe finds a shoe; see backoffice.Store.
func (db *DB) Shoe(ctx context.Context, table string, shoe uint64) (backoffice.ShoeRef, error) {
	s := backoffice.ShoeRef{Table: table, Shoe: shoe}
	var started, ended int64
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		return c.QueryRow(ctx, `SELECT started_seq, ended_seq FROM bo_shoes WHERE table_id = $1 AND shoe = $2`,
			table, int64(shoe)).Scan(&started, &ended)
	})
	if errors.Is(err, pgx.ErrNoRows) {
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
	out := []backoffice.Session{}
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `SELECT w.table_id, to_char(to_timestamp(w.at_ns / 1000000000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d,
				MIN(w.at_ns), MAX(w.at_ns), COUNT(*), SUM(w.stake)::bigint, COALESCE(MIN(t.currency), '')
			FROM bo_wagers w LEFT JOIN bo_tables t ON t.table_id = w.table_id
			WHERE w.player = $1 GROUP BY w.table_id, d ORDER BY MAX(w.at_ns) DESC LIMIT $2`, player, limit)
		if err != nil {
			return err
		}
		var s backoffice.Session
		var first, last int64
		_, err = pgx.ForEachRow(rows, []any{&s.Table, &s.Day, &first, &last, &s.Wagers, &s.Staked, &s.Currency}, func() error {
			x := s
			x.First, x.Last = time.Unix(0, first).UTC(), time.Unix(0, last).UTC()
			out = append(out, x)
			return nil
		})
		return err
	})
	return out, wrap("sessions", err)
}
