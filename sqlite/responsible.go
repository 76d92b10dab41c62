package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/responsible"
)

var _ responsible.Store = (*DB)(nil)

// rgQuerier is what a standing is read through: the readers, or a write transaction.
type rgQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Standing reads a player's standing in one read transaction; see responsible.Store.
func (db *DB) Standing(ctx context.Context, player, currency string, now time.Time) (responsible.Standing, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return responsible.Standing{}, wrap("standing", err)
	}
	defer tx.Rollback()
	st, err := readStanding(ctx, tx, player, currency, now)
	return st, wrap("standing", err)
}

// readStanding reads what responsible.Standing holds: the player's limits (currency when
// none were set), the latest session, the tallies of that session and of now's day, and the
// stakes in play by table round.
func readStanding(ctx context.Context, q rgQuerier, player, currency string, now time.Time) (responsible.Standing, error) {
	st := responsible.Standing{Player: player, Currency: currency, Day: responsible.Day(now), Rounds: map[responsible.RoundKey]baccarat.Money{}}
	var cur, limits, selfKind string
	var selfUntil int64
	err := q.QueryRowContext(ctx, `SELECT currency, limits, self_kind, self_until FROM rg_players WHERE player = ?`, player).
		Scan(&cur, &limits, &selfKind, &selfUntil)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return st, err
	default:
		if cur != "" {
			st.Currency = cur
		}
		if err := json.Unmarshal([]byte(limits), &st.Limits); err != nil {
			return st, err
		}
		if selfKind != "" {
			st.Self = &responsible.Exclusion{Kind: responsible.ExclusionKind(selfKind), Until: time.Unix(0, selfUntil).UTC()}
		}
	}
	var ended sql.NullInt64
	var started, checked int64
	err = q.QueryRowContext(ctx, `SELECT id, started, checked, ended, reason FROM rg_sessions WHERE player = ? ORDER BY id DESC LIMIT 1`, player).
		Scan(&st.Session.ID, &started, &checked, &ended, &st.Session.EndReason)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return st, err
	default:
		st.Session.Started, st.Session.Checked = time.Unix(0, started).UTC(), time.Unix(0, checked).UTC()
		if ended.Valid {
			st.Session.Ended = time.Unix(0, ended.Int64).UTC()
		}
	}
	sp, dp := responsible.SessionPeriod(st.Session.ID), responsible.DayPeriod(st.Day)
	rows, err := q.QueryContext(ctx, `SELECT period, staked, settled, returned FROM rg_tallies WHERE player = ? AND currency = ? AND period IN (?, ?)`,
		player, st.Currency, sp, dp)
	if err != nil {
		return st, err
	}
	for rows.Next() {
		var p string
		var t responsible.Tally
		if err := rows.Scan(&p, &t.Staked, &t.Settled, &t.Returned); err != nil {
			rows.Close()
			return st, err
		}
		if p == sp && st.Session.ID != 0 {
			st.SessionTally = t
		}
		if p == dp {
			st.DayTally = t
		}
	}
	if err := rows.Close(); err != nil {
		return st, err
	}
	rows, err = q.QueryContext(ctx, `SELECT table_id, round, SUM(stake) FROM rg_wagers WHERE player = ? GROUP BY table_id, round`, player)
	if err != nil {
		return st, err
	}
	defer rows.Close()
	for rows.Next() {
		var k responsible.RoundKey
		var v int64
		var round int64
		if err := rows.Scan(&k.Table, &round, &v); err != nil {
			return st, err
		}
		k.Round = uint64(round)
		st.Rounds[k] = v
	}
	return st, rows.Err()
}

// bookPlays runs responsible.Book over a commit's plays inside its transaction: the standings
// of the players who wager and the wagers the settlements close are read there (the writer
// holds the database, so no other commit moves them meanwhile), and the tallies and wagers
// in play written with the rest of the batch. A refusal rolls the whole commit back.
func (db *DB) bookPlays(ctx context.Context, tx *sql.Tx, plays []responsible.Play) error {
	if len(plays) == 0 {
		return nil
	}
	standings := map[string]*responsible.Standing{}
	open := map[responsible.WagerKey]responsible.Open{}
	for _, p := range plays {
		if !p.Settles {
			if _, ok := standings[p.Player]; !ok {
				st, err := readStanding(ctx, tx, p.Player, p.Currency, p.At)
				if err != nil {
					return wrap("limits", err)
				}
				standings[p.Player] = &st
			}
			continue
		}
		var o responsible.Open
		var round int64
		err := tx.QueryRowContext(ctx, `SELECT player, currency, round, session, day, stake FROM rg_wagers WHERE table_id = ? AND wager = ?`, p.Table, int64(p.Wager)).
			Scan(&o.Player, &o.Currency, &round, &o.Session, &o.Day, &o.Stake)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return wrap("limits", err)
		}
		o.Round = uint64(round)
		open[responsible.WagerKey{Table: p.Table, Wager: p.Wager}] = o
	}
	ch, err := responsible.Book(standings, open, plays)
	if err != nil {
		return err
	}
	for k, t := range ch.Tallies {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rg_tallies (player, currency, period, staked, settled, returned) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (player, currency, period) DO UPDATE SET staked = staked + excluded.staked, settled = settled + excluded.settled, returned = returned + excluded.returned`,
			k.Player, k.Currency, k.Name, t.Staked, t.Settled, t.Returned); err != nil {
			return wrap("limits", err)
		}
	}
	for k, o := range ch.Opened {
		if _, err := tx.ExecContext(ctx, `INSERT INTO rg_wagers (table_id, wager, player, currency, round, session, day, stake) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			k.Table, int64(k.Wager), o.Player, o.Currency, int64(o.Round), o.Session, o.Day, o.Stake); err != nil {
			return wrap("limits", err)
		}
	}
	for _, k := range ch.Closed {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rg_wagers WHERE table_id = ? AND wager = ?`, k.Table, int64(k.Wager)); err != nil {
			return wrap("limits", err)
		}
	}
	return nil
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

const eventColumns = `seq, data, delivery`

func scanEvents(rows *sql.Rows) ([]responsible.Event, error) {
	defer rows.Close()
	out := []responsible.Event{}
	for rows.Next() {
		var e responsible.Event
		var seq int64
		var data, delivery string
		if err := rows.Scan(&seq, &data, &delivery); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return nil, err
		}
		e.Seq, e.Delivery = seq, responsible.Delivery(delivery)
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

// Undelivered lists the webhooks due; see responsible.Store.
func (db *DB) Undelivered(ctx context.Context, now time.Time, limit int) ([]responsible.Event, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE delivery = 'pending' AND next_at <= ? ORDER BY seq LIMIT ?`,
		now.UnixNano(), limit)
	if err != nil {
		return nil, wrap("undelivered", err)
	}
	evs, err := scanEvents(rows)
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
