package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/responsible"
)

var _ responsible.Store = (*DB)(nil)

// rgStmts are the statements a commit's plays run, prepared once at Open on the writer (a
// commit's statements parsed each time were most of its cost).
type rgStmts struct {
	standing, standings, tallies, round, open *sql.Stmt
	tallyAdd, wagerPut, wagerDel              bulk
}

// The queries of a standing: the player's limits and latest session in one (a player
// without limits or sessions reads as NULLs), the session's and day's tallies, the stakes
// in play by table round.
const (
	standingColumns = `p.currency, p.limits, p.self_kind, p.self_until, s.id, s.started, s.checked, s.ended, s.reason`
	qStanding       = `SELECT ` + standingColumns + ` FROM (SELECT ? AS player) x
		LEFT JOIN rg_players p ON p.player = x.player
		LEFT JOIN rg_sessions s ON s.id = (SELECT MAX(id) FROM rg_sessions WHERE player = x.player)`
	// qStandings is qStanding for every player of a JSON array at once (a commit's).
	qStandings = `SELECT j.value, ` + standingColumns + ` FROM json_each(?) j
		LEFT JOIN rg_players p ON p.player = j.value
		LEFT JOIN rg_sessions s ON s.id = (SELECT MAX(id) FROM rg_sessions WHERE player = j.value)`
	qTallies = `SELECT period, staked, settled, returned FROM rg_tallies WHERE player = ? AND currency = ? AND period IN (?, ?)`
	qRound   = `SELECT COALESCE(SUM(stake), 0) FROM rg_wagers WHERE player = ? AND table_id = ? AND round = ?`
	qRounds  = `SELECT table_id, round, SUM(stake) FROM rg_wagers WHERE player = ? GROUP BY table_id, round`
)

func (s *rgStmts) prepare(ctx context.Context, w *sql.DB) error {
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&s.standing, qStanding},
		{&s.standings, qStandings},
		{&s.tallies, qTallies},
		{&s.round, qRound},
		{&s.open, `SELECT w.wager, w.player, w.currency, w.round, w.session, w.day, w.stake
			FROM json_each(?2) j CROSS JOIN rg_wagers w ON w.table_id = ?1 AND w.wager = j.value`}, // CROSS: j first, then w by key
	} {
		st, err := w.PrepareContext(ctx, p.sql)
		if err != nil {
			return wrap("prepare", err)
		}
		*p.stmt = st
	}
	s.tallyAdd = bulk{sql: `INSERT INTO rg_tallies (player, currency, period, staked, settled, returned) VALUES `, cols: 6,
		tail: ` ON CONFLICT (player, currency, period) DO UPDATE SET staked = staked + excluded.staked,
			settled = settled + excluded.settled, returned = returned + excluded.returned`}
	s.wagerPut = bulk{sql: `INSERT INTO rg_wagers (table_id, wager, player, currency, round, session, day, stake) VALUES `, cols: 8}
	s.wagerDel = bulk{sql: `DELETE FROM rg_wagers WHERE (table_id, wager) IN (VALUES `, cols: 2, tail: `)`}
	for _, b := range []*bulk{&s.tallyAdd, &s.wagerPut, &s.wagerDel} {
		if err := b.prepare(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

func (s *rgStmts) all() []*sql.Stmt {
	out := []*sql.Stmt{s.standing, s.standings, s.tallies, s.round, s.open}
	for _, b := range []*bulk{&s.tallyAdd, &s.wagerPut, &s.wagerDel} {
		out = append(out, b.stmts[:]...)
	}
	return out
}

// bookPlays runs responsible.Book over a commit's plays inside its transaction: the standings
// of the players who wager and the wagers the settlements close are read there (the writer
// holds the database, so no other commit moves them meanwhile), and the tallies and wagers
// in play written with the rest of the batch. A refusal rolls the whole commit back.
func (db *DB) bookPlays(ctx context.Context, tx *sql.Tx, plays []responsible.Play) error {
	if len(plays) == 0 {
		return nil
	}
	rg := &db.stmts.rg
	q := standingQueries{tx: tx, rg: rg}
	standings := map[string]*responsible.Standing{}
	rounds := map[string][]responsible.RoundKey{}
	var players []string
	open := map[responsible.WagerKey]responsible.Open{}
	for _, p := range plays {
		if p.Settles {
			continue
		}
		if _, ok := standings[p.Player]; !ok {
			standings[p.Player] = &responsible.Standing{Player: p.Player, Currency: p.Currency, Day: responsible.Day(p.At),
				Rounds: map[responsible.RoundKey]baccarat.Money{}}
			players = append(players, p.Player)
		}
		if k := (responsible.RoundKey{Table: p.Table, Round: p.Round}); !slices.Contains(rounds[p.Player], k) {
			rounds[p.Player] = append(rounds[p.Player], k)
		}
	}
	if len(players) > 0 {
		// Every player's limits and session in one query; what their limits need, player by
		// player (most players have none).
		ids, _ := json.Marshal(players)
		rows, err := tx.StmtContext(ctx, rg.standings).QueryContext(ctx, string(ids))
		if err != nil {
			return wrap("limits", err)
		}
		for rows.Next() {
			var player string
			var b standingRow
			if err := rows.Scan(append([]any{&player}, b.dest()...)...); err != nil {
				rows.Close()
				return wrap("limits", err)
			}
			if err := b.fill(standings[player]); err != nil {
				rows.Close()
				return wrap("limits", err)
			}
		}
		if err := rows.Close(); err != nil {
			return wrap("limits", err)
		}
		for _, p := range players {
			if err := readLimited(ctx, q, standings[p], rounds[p]); err != nil {
				return wrap("limits", err)
			}
		}
	}
	// The wagers the settlements close, table by table (a table's commit settles its own).
	settled := map[string][]uint64{}
	var tables []string
	for _, p := range plays {
		if p.Settles {
			if _, ok := settled[p.Table]; !ok {
				tables = append(tables, p.Table)
			}
			settled[p.Table] = append(settled[p.Table], p.Wager)
		}
	}
	for _, t := range tables {
		ids, _ := json.Marshal(settled[t])
		rows, err := tx.StmtContext(ctx, rg.open).QueryContext(ctx, t, string(ids))
		if err != nil {
			return wrap("limits", err)
		}
		for rows.Next() {
			var o responsible.Open
			var wager, round int64
			if err := rows.Scan(&wager, &o.Player, &o.Currency, &round, &o.Session, &o.Day, &o.Stake); err != nil {
				rows.Close()
				return wrap("limits", err)
			}
			o.Round = uint64(round)
			open[responsible.WagerKey{Table: t, Wager: uint64(wager)}] = o
		}
		if err := rows.Close(); err != nil {
			return wrap("limits", err)
		}
	}
	ch, err := responsible.Book(standings, open, plays)
	if err != nil {
		return err
	}
	args := make([]any, 0, 8*max(len(ch.Tallies), len(ch.Opened), len(ch.Closed)))
	for k, t := range ch.Tallies {
		args = append(args, k.Player, k.Currency, k.Name, t.Staked, t.Settled, t.Returned)
	}
	if err := rg.tallyAdd.exec(ctx, tx, args); err != nil {
		return wrap("limits", err)
	}
	args = args[:0]
	for k, o := range ch.Opened {
		args = append(args, k.Table, int64(k.Wager), o.Player, o.Currency, int64(o.Round), o.Session, o.Day, o.Stake)
	}
	if err := rg.wagerPut.exec(ctx, tx, args); err != nil {
		return wrap("limits", err)
	}
	args = args[:0]
	for _, k := range ch.Closed {
		args = append(args, k.Table, int64(k.Wager))
	}
	return wrap("limits", rg.wagerDel.exec(ctx, tx, args))
}

// rgWrite runs fn in one write transaction.
func (db *DB) rgWrite(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(op, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return wrap(op, err)
	}
	return wrap(op, tx.Commit())
}

// SetLimits replaces the limits the operator or an admin set; see responsible.Store.
func (db *DB) SetLimits(ctx context.Context, player, currency string, l responsible.Limits, by string, now time.Time) error {
	data, _ := json.Marshal(l)
	return db.rgWrite(ctx, "set limits", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rg_players (player, currency, limits, updated) VALUES (?, ?, ?, ?)
			ON CONFLICT (player) DO UPDATE SET currency = excluded.currency, limits = excluded.limits, updated = excluded.updated`,
			player, currency, string(data), now.UnixNano()); err != nil {
			return err
		}
		ll := l
		if err := insertEvent(ctx, tx, responsible.Event{Player: player, At: now, Kind: responsible.EvLimitsSet, By: by, Limits: &ll}); err != nil {
			return err
		}
		if l.Excluded != nil && now.Before(l.Excluded.Until) {
			return endRunning(ctx, tx, player, responsible.EndExcluded, by, now)
		}
		return nil
	})
}

// Exclude records the player's own exclusion, never shortening one; see responsible.Store.
func (db *DB) Exclude(ctx context.Context, player string, x responsible.Exclusion, now time.Time) error {
	return db.rgWrite(ctx, "exclude", func(tx *sql.Tx) error {
		var kind string
		var until int64
		err := tx.QueryRowContext(ctx, `SELECT self_kind, self_until FROM rg_players WHERE player = ?`, player).Scan(&kind, &until)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if kind != "" && time.Unix(0, until).After(x.Until) {
			x.Until = time.Unix(0, until).UTC() // a longer exclusion chosen before stands
			if kind == string(responsible.SelfExclusion) {
				x.Kind = responsible.SelfExclusion
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rg_players (player, self_kind, self_until, updated) VALUES (?, ?, ?, ?)
			ON CONFLICT (player) DO UPDATE SET self_kind = excluded.self_kind, self_until = excluded.self_until, updated = excluded.updated`,
			player, string(x.Kind), x.Until.UnixNano(), now.UnixNano()); err != nil {
			return err
		}
		if err := insertEvent(ctx, tx, responsible.Event{Player: player, At: now, Kind: responsible.EvExcluded, By: player, Exclusion: &x}); err != nil {
			return err
		}
		return endRunning(ctx, tx, player, responsible.EndExcluded, player, now)
	})
}

// StartSession begins a session, ending the running one; see responsible.Store.
func (db *DB) StartSession(ctx context.Context, player string, now time.Time) (responsible.Session, error) {
	s := responsible.Session{Started: now.UTC(), Checked: now.UTC()}
	err := db.rgWrite(ctx, "start session", func(tx *sql.Tx) error {
		if err := endRunning(ctx, tx, player, responsible.EndReplaced, player, now); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO rg_sessions (player, started, checked) VALUES (?, ?, ?) RETURNING id`,
			player, now.UnixNano(), now.UnixNano()).Scan(&s.ID); err != nil {
			return err
		}
		return insertEvent(ctx, tx, responsible.Event{Player: player, At: now, Kind: responsible.EvSessionStarted, By: player, Session: s.ID})
	})
	return s, err
}

// EndSession ends a running session; see responsible.Store.
func (db *DB) EndSession(ctx context.Context, player string, id int64, reason responsible.EndReason, now time.Time) error {
	return db.rgWrite(ctx, "end session", func(tx *sql.Tx) error {
		by := player
		if reason == responsible.EndTimeLimit {
			by = "table"
		}
		_, err := endSession(ctx, tx, player, id, reason, by, now)
		return err
	})
}

// Answer records a reality check's answer; see responsible.Store.
func (db *DB) Answer(ctx context.Context, player string, id int64, leave bool, now time.Time) error {
	return db.rgWrite(ctx, "reality check", func(tx *sql.Tx) error {
		var ended sql.NullInt64
		err := tx.QueryRowContext(ctx, `SELECT ended FROM rg_sessions WHERE id = ? AND player = ?`, id, player).Scan(&ended)
		if errors.Is(err, sql.ErrNoRows) {
			return baccarat.Errorf(baccarat.CodeNotFound, "no session %d of %s", id, player)
		}
		if err != nil {
			return err
		}
		if ended.Valid {
			return baccarat.Errorf(baccarat.CodeSessionEnded, "session %d has ended: open the game again to play", id)
		}
		e := responsible.Event{Player: player, At: now, Kind: responsible.EvRealityCheck, By: player, Session: id, Reason: "continue"}
		if leave {
			e.Reason = "leave"
		}
		if err := insertEvent(ctx, tx, e); err != nil {
			return err
		}
		if leave {
			_, err := endSession(ctx, tx, player, id, responsible.EndLeft, player, now)
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE rg_sessions SET checked = ? WHERE id = ?`, now.UnixNano(), id)
		return err
	})
}

// endRunning ends the player's running session, if any, for reason.
func endRunning(ctx context.Context, tx *sql.Tx, player string, reason responsible.EndReason, by string, now time.Time) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM rg_sessions WHERE player = ? AND ended IS NULL ORDER BY id DESC LIMIT 1`, player).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = endSession(ctx, tx, player, id, reason, by, now)
	return err
}

// endSession ends session id if it runs, with its event (the minutes played and its tally
// in the player's currency); false if it had ended.
func endSession(ctx context.Context, tx *sql.Tx, player string, id int64, reason responsible.EndReason, by string, now time.Time) (bool, error) {
	var started int64
	err := tx.QueryRowContext(ctx, `UPDATE rg_sessions SET ended = ?, reason = ? WHERE id = ? AND player = ? AND ended IS NULL RETURNING started`,
		now.UnixNano(), string(reason), id, player).Scan(&started)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var t responsible.Tally
	// A session is played in one currency but for a player who moved between tables of
	// several: the event tells the tally of the one most staked in.
	err = tx.QueryRowContext(ctx, `SELECT staked, settled, returned FROM rg_tallies WHERE player = ? AND period = ?
		ORDER BY staked DESC LIMIT 1`, player, responsible.SessionPeriod(id)).Scan(&t.Staked, &t.Settled, &t.Returned)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	played := int(now.Sub(time.Unix(0, started)) / time.Minute)
	return true, insertEvent(ctx, tx, responsible.Event{Player: player, At: now, Kind: responsible.EvSessionEnded, By: by, Session: id,
		Reason: string(reason), Played: played, Tally: &t})
}

// insertEvent writes an event; one whose Once was recorded before is dropped.
func insertEvent(ctx context.Context, tx *sql.Tx, e responsible.Event) error {
	e.At = e.At.UTC()
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	delivery := responsible.DeliveryNone
	if e.Kind.Notify() {
		delivery = responsible.DeliveryPending
	}
	var once any
	if e.Once != "" {
		once = e.Once
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO rg_events (player, at, kind, data, once, delivery, next_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (once) DO NOTHING`, e.Player, e.At.UnixNano(), string(e.Kind), string(data), once, string(delivery), e.At.UnixNano())
	return err
}

// Record writes an event; see responsible.Store.
func (db *DB) Record(ctx context.Context, e responsible.Event) error {
	return db.rgWrite(ctx, "record", func(tx *sql.Tx) error { return insertEvent(ctx, tx, e) })
}

const eventColumns = `seq, data, delivery, attempts`

func scanEvents(rows *sql.Rows) ([]responsible.Event, error) {
	defer rows.Close()
	out := []responsible.Event{}
	for rows.Next() {
		var e responsible.Event
		var seq int64
		var data, delivery string
		var attempts int
		if err := rows.Scan(&seq, &data, &delivery, &attempts); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return nil, err
		}
		e.Seq, e.Delivery, e.Attempts = seq, responsible.Delivery(delivery), attempts
		out = append(out, e)
	}
	return out, rows.Err()
}

// Events lists events; see responsible.Store.
func (db *DB) Events(ctx context.Context, player string, after int64, limit int) ([]responsible.Event, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	var rows *sql.Rows
	var err error
	if player == "" {
		rows, err = db.r.QueryContext(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
	} else {
		rows, err = db.r.QueryContext(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE player = ? AND seq > ? ORDER BY seq LIMIT ?`, player, after, limit)
	}
	if err != nil {
		return nil, wrap("events", err)
	}
	evs, err := scanEvents(rows)
	return evs, wrap("events", err)
}

// Recent lists events newest first; see responsible.Store.
func (db *DB) Recent(ctx context.Context, player string, before int64, limit int) ([]responsible.Event, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	if before <= 0 {
		before = math.MaxInt64
	}
	var rows *sql.Rows
	var err error
	if player == "" {
		rows, err = db.r.QueryContext(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE seq < ? ORDER BY seq DESC LIMIT ?`, before, limit)
	} else {
		rows, err = db.r.QueryContext(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE player = ? AND seq < ? ORDER BY seq DESC LIMIT ?`, player, before, limit)
	}
	if err != nil {
		return nil, wrap("events", err)
	}
	evs, err := scanEvents(rows)
	return evs, wrap("events", err)
}

// Undelivered claims the webhooks due; see responsible.Store.
func (db *DB) Undelivered(ctx context.Context, now time.Time, limit int) ([]responsible.Event, error) {
	rows, err := db.w.QueryContext(ctx, `UPDATE rg_events SET next_at = ?1
		WHERE seq IN (SELECT seq FROM rg_events WHERE delivery = 'pending' AND next_at <= ?2 ORDER BY seq LIMIT ?3)
		RETURNING `+eventColumns, now.Add(responsible.ClaimFor).UnixNano(), now.UnixNano(), limit)
	if err != nil {
		return nil, wrap("undelivered", err)
	}
	evs, err := scanEvents(rows)
	slices.SortFunc(evs, func(a, b responsible.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return evs, wrap("undelivered", err)
}

// Delivered marks a webhook sent or to be tried again; see responsible.Store.
func (db *DB) Delivered(ctx context.Context, seq int64, ok bool, errText string, next time.Time) error {
	var err error
	if ok {
		_, err = db.w.ExecContext(ctx, `UPDATE rg_events SET delivery = 'done', attempts = attempts + 1, error = '' WHERE seq = ?`, seq)
	} else {
		_, err = db.w.ExecContext(ctx, `UPDATE rg_events SET attempts = attempts + 1, error = ?, next_at = ? WHERE seq = ? AND delivery = 'pending'`,
			errText, next.UnixNano(), seq)
	}
	return wrap("delivered", err)
}
