package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/responsible"
)

var _ responsible.Store = (*DB)(nil)

// bookPlays runs responsible.Book over a commit's plays inside its transaction. The rows of
// the players who wager with a limit on money are locked (in sorted order, so two commits
// never wait on each other in a cycle): another server's commit for the same player waits
// until this one is done and then reads what it wrote, so no two commits spend the same room
// under a limit. The other players (most) are read without a lock: a commit for them can
// break no limit whatever another does meanwhile, and a limit set meanwhile counts from the
// commit that sees it. What a player's limits need beyond their row is read player by
// player. It returns what to write.
func bookPlays(ctx context.Context, c *pgx.Conn, plays []responsible.Play) (responsible.Changes, error) {
	if len(plays) == 0 {
		return responsible.Changes{}, nil
	}
	standings := map[string]*responsible.Standing{}
	rounds := map[string][]responsible.RoundKey{}
	var players, tables []string
	var wagers []int64
	for _, p := range plays {
		if p.Settles {
			tables, wagers = append(tables, p.Table), append(wagers, int64(p.Wager))
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
	slices.Sort(players)
	// One round trip: read the players' limits and sessions, and the wagers the settlements
	// close. Only a player with a limit on money (a loss or a round's stakes) needs the
	// commits for them to take turns: their rows are then locked and read again (below). The
	// others' tallies are sums every commit adds to, whatever the order.
	batch := &pgx.Batch{}
	open := map[responsible.WagerKey]responsible.Open{}
	fill := func(rows pgx.Rows) error {
		for rows.Next() {
			var player string
			var b standingRow
			if err := rows.Scan(append([]any{&player}, b.dest()...)...); err != nil {
				return err
			}
			if err := b.fill(standings[player]); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	if len(players) > 0 {
		batch.Queue(`SELECT x.player, `+standingColumns+` FROM unnest($1::text[]) AS x(player)
			LEFT JOIN rg_players r ON r.player = x.player
			LEFT JOIN LATERAL (SELECT id, started, checked, ended, reason FROM rg_sessions WHERE player = x.player ORDER BY id DESC LIMIT 1) s ON true`,
			players).Query(fill)
	}
	if len(tables) > 0 {
		batch.Queue(`SELECT w.table_id, w.wager, w.player, w.currency, w.round, w.session, w.day, w.stake
			FROM rg_wagers w JOIN unnest($1::text[], $2::bigint[]) AS k(t, n) ON w.table_id = k.t AND w.wager = k.n`, tables, wagers).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var k responsible.WagerKey
				var o responsible.Open
				var wager, round int64
				if err := rows.Scan(&k.Table, &wager, &o.Player, &o.Currency, &round, &o.Session, &o.Day, &o.Stake); err != nil {
					return err
				}
				k.Wager, o.Round = uint64(wager), uint64(round)
				open[k] = o
			}
			return rows.Err()
		})
	}
	if err := c.SendBatch(ctx, batch).Close(); err != nil {
		return responsible.Changes{}, err
	}
	var limited []string // sorted, as players: two commits lock them in one order
	for _, p := range players {
		if standings[p].Limits.Money() {
			limited = append(limited, p)
		}
	}
	if len(limited) > 0 {
		// Their rows exist (their limits are in them): locked, then read as they are now.
		rows, err := c.Query(ctx, `SELECT r.player, `+standingColumns+` FROM rg_players r
			LEFT JOIN LATERAL (SELECT id, started, checked, ended, reason FROM rg_sessions WHERE player = r.player ORDER BY id DESC LIMIT 1) s ON true
			WHERE r.player = ANY($1::text[]) ORDER BY r.player FOR UPDATE OF r`, limited)
		if err != nil {
			return responsible.Changes{}, err
		}
		err = fill(rows)
		rows.Close()
		if err != nil {
			return responsible.Changes{}, err
		}
	}
	for _, p := range limited {
		if err := readLimited(ctx, c, standings[p], rounds[p]); err != nil {
			return responsible.Changes{}, err
		}
	}
	return responsible.Book(standings, open, plays)
}

// queuePlays adds what bookPlays decided to a commit's writes: a statement each for the
// tallies, the wagers come into play and those gone, however many.
func queuePlays(batch *pgx.Batch, ch responsible.Changes) {
	if n := len(ch.Tallies); n > 0 {
		players, curs, periods := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		staked, settled, returned := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
		keys := slices.SortedFunc(maps.Keys(ch.Tallies), func(a, b responsible.Period) int { // one lock order for every commit
			return cmp.Or(strings.Compare(a.Player, b.Player), strings.Compare(a.Currency, b.Currency), strings.Compare(a.Name, b.Name))
		})
		for _, k := range keys {
			t := ch.Tallies[k]
			players, curs, periods = append(players, k.Player), append(curs, k.Currency), append(periods, k.Name)
			staked, settled, returned = append(staked, int64(t.Staked)), append(settled, int64(t.Settled)), append(returned, int64(t.Returned))
		}
		batch.Queue(`INSERT INTO rg_tallies (player, currency, period, staked, settled, returned)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[])
			ON CONFLICT (player, currency, period) DO UPDATE SET staked = rg_tallies.staked + excluded.staked,
			settled = rg_tallies.settled + excluded.settled, returned = rg_tallies.returned + excluded.returned`,
			players, curs, periods, staked, settled, returned)
	}
	if n := len(ch.Opened); n > 0 {
		tables, players, curs, days := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		wagers, rounds, sessions, stakes := make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([]int64, 0, n)
		for k, o := range ch.Opened {
			tables, wagers, players, curs = append(tables, k.Table), append(wagers, int64(k.Wager)), append(players, o.Player), append(curs, o.Currency)
			rounds, sessions, days, stakes = append(rounds, int64(o.Round)), append(sessions, o.Session), append(days, o.Day), append(stakes, int64(o.Stake))
		}
		batch.Queue(`INSERT INTO rg_wagers (table_id, wager, player, currency, round, session, day, stake)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::text[], $8::bigint[])`,
			tables, wagers, players, curs, rounds, sessions, days, stakes)
	}
	if n := len(ch.Closed); n > 0 {
		tables, wagers := make([]string, 0, n), make([]int64, 0, n)
		for _, k := range ch.Closed {
			tables, wagers = append(tables, k.Table), append(wagers, int64(k.Wager))
		}
		batch.Queue(`DELETE FROM rg_wagers w USING unnest($1::text[], $2::bigint[]) AS k(t, n) WHERE w.table_id = k.t AND w.wager = k.n`, tables, wagers)
	}
}

// rgWrite runs fn in one transaction, the player's row locked first so it takes turns with
// the commits of their wagers.
func (db *DB) rgWrite(ctx context.Context, op, player string, now time.Time, fn func(tx pgx.Tx) error) error {
	return wrap(op, db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO rg_players (player, updated) VALUES ($1, $2) ON CONFLICT (player) DO NOTHING`, player, now.UnixNano()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT 1 FROM rg_players WHERE player = $1 FOR UPDATE`, player); err != nil {
			return err
		}
		return fn(tx)
	}))
}

// SetLimits replaces the limits the operator or an admin set; see responsible.Store.
func (db *DB) SetLimits(ctx context.Context, player, currency string, l responsible.Limits, by string, now time.Time) error {
	data, _ := json.Marshal(l)
	return db.rgWrite(ctx, "set limits", player, now, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE rg_players SET currency = $2, limits = $3, updated = $4 WHERE player = $1`,
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
	return db.rgWrite(ctx, "exclude", player, now, func(tx pgx.Tx) error {
		var kind string
		var until int64
		if err := tx.QueryRow(ctx, `SELECT self_kind, self_until FROM rg_players WHERE player = $1`, player).Scan(&kind, &until); err != nil {
			return err
		}
		if kind != "" && time.Unix(0, until).After(x.Until) {
			x.Until = time.Unix(0, until).UTC() // a longer exclusion chosen before stands
			if kind == string(responsible.SelfExclusion) {
				x.Kind = responsible.SelfExclusion
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE rg_players SET self_kind = $2, self_until = $3, updated = $4 WHERE player = $1`,
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
	err := db.rgWrite(ctx, "start session", player, now, func(tx pgx.Tx) error {
		if err := endRunning(ctx, tx, player, responsible.EndReplaced, player, now); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO rg_sessions (player, started, checked) VALUES ($1, $2, $3) RETURNING id`,
			player, now.UnixNano(), now.UnixNano()).Scan(&s.ID); err != nil {
			return err
		}
		return insertEvent(ctx, tx, responsible.Event{Player: player, At: now, Kind: responsible.EvSessionStarted, By: player, Session: s.ID})
	})
	return s, err
}

// EndSession ends a running session; see responsible.Store.
func (db *DB) EndSession(ctx context.Context, player string, id int64, reason responsible.EndReason, now time.Time) error {
	return db.rgWrite(ctx, "end session", player, now, func(tx pgx.Tx) error {
		by := player
		if reason == responsible.EndTimeLimit {
			by = "table"
		}
		return endSession(ctx, tx, player, id, reason, by, now)
	})
}

// Answer records a reality check's answer; see responsible.Store.
func (db *DB) Answer(ctx context.Context, player string, id int64, leave bool, now time.Time) error {
	return db.rgWrite(ctx, "reality check", player, now, func(tx pgx.Tx) error {
		var ended *int64
		err := tx.QueryRow(ctx, `SELECT ended FROM rg_sessions WHERE id = $1 AND player = $2`, id, player).Scan(&ended)
		if errors.Is(err, pgx.ErrNoRows) {
			return baccarat.Errorf(baccarat.CodeNotFound, "no session %d of %s", id, player)
		}
		if err != nil {
			return err
		}
		if ended != nil {
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
			return endSession(ctx, tx, player, id, responsible.EndLeft, player, now)
		}
		_, err = tx.Exec(ctx, `UPDATE rg_sessions SET checked = $1 WHERE id = $2`, now.UnixNano(), id)
		return err
	})
}

// endRunning ends the player's running session, if any, for reason.
func endRunning(ctx context.Context, tx pgx.Tx, player string, reason responsible.EndReason, by string, now time.Time) error {
	var id int64
	err := tx.QueryRow(ctx, `SELECT id FROM rg_sessions WHERE player = $1 AND ended IS NULL ORDER BY id DESC LIMIT 1`, player).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	return endSession(ctx, tx, player, id, reason, by, now)
}

// endSession ends session id if it runs, with its event (the minutes played and its tally).
func endSession(ctx context.Context, tx pgx.Tx, player string, id int64, reason responsible.EndReason, by string, now time.Time) error {
	var started int64
	err := tx.QueryRow(ctx, `UPDATE rg_sessions SET ended = $1, reason = $2 WHERE id = $3 AND player = $4 AND ended IS NULL RETURNING started`,
		now.UnixNano(), string(reason), id, player).Scan(&started)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	// A session is played in one currency but for a player who moved between tables of
	// several: the event tells the tally of the one most staked in.
	var t responsible.Tally
	err = tx.QueryRow(ctx, `SELECT staked, settled, returned FROM rg_tallies WHERE player = $1 AND period = $2
		ORDER BY staked DESC LIMIT 1`, player, responsible.SessionPeriod(id)).Scan(&t.Staked, &t.Settled, &t.Returned)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	played := int(now.Sub(time.Unix(0, started)) / time.Minute)
	return insertEvent(ctx, tx, responsible.Event{Player: player, At: now, Kind: responsible.EvSessionEnded, By: by, Session: id,
		Reason: string(reason), Played: played, Tally: &t})
}

// insertEvent writes an event; one whose Once was recorded before is dropped.
func insertEvent(ctx context.Context, tx pgx.Tx, e responsible.Event) error {
	e.At = e.At.UTC()
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	delivery := responsible.DeliveryNone
	if e.Kind.Notify() {
		delivery = responsible.DeliveryPending
	}
	var once *string
	if e.Once != "" {
		once = &e.Once
	}
	_, err = tx.Exec(ctx, `INSERT INTO rg_events (player, at, kind, data, once, delivery, next_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (once) DO NOTHING`, e.Player, e.At.UnixNano(), string(e.Kind), string(data), once, string(delivery), e.At.UnixNano())
	return err
}

// Record writes an event; see responsible.Store.
func (db *DB) Record(ctx context.Context, e responsible.Event) error {
	return wrap("record", db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error { return insertEvent(ctx, tx, e) }))
}

const eventColumns = `seq, data, delivery, attempts`

func scanEvents(rows pgx.Rows) ([]responsible.Event, error) {
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
	var out []responsible.Event
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var rows pgx.Rows
		var err error
		if player == "" {
			rows, err = c.Query(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE seq > $1 ORDER BY seq LIMIT $2`, after, limit)
		} else {
			rows, err = c.Query(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE player = $1 AND seq > $2 ORDER BY seq LIMIT $3`, player, after, limit)
		}
		if err != nil {
			return err
		}
		out, err = scanEvents(rows)
		return err
	})
	return out, wrap("events", err)
}

// Recent lists events newest first; see responsible.Store.
func (db *DB) Recent(ctx context.Context, player string, before int64, limit int) ([]responsible.Event, error) {
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	if before <= 0 {
		before = math.MaxInt64
	}
	var out []responsible.Event
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		var rows pgx.Rows
		var err error
		if player == "" {
			rows, err = c.Query(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE seq < $1 ORDER BY seq DESC LIMIT $2`, before, limit)
		} else {
			rows, err = c.Query(ctx, `SELECT `+eventColumns+` FROM rg_events WHERE player = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, player, before, limit)
		}
		if err != nil {
			return err
		}
		out, err = scanEvents(rows)
		return err
	})
	return out, wrap("events", err)
}

// Undelivered claims the webhooks due; see responsible.Store. Rows another server is
// claiming at the same moment are skipped, not waited for.
func (db *DB) Undelivered(ctx context.Context, now time.Time, limit int) ([]responsible.Event, error) {
	var out []responsible.Event
	err := db.withConn(ctx, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, `UPDATE rg_events SET next_at = $1
			WHERE seq IN (SELECT seq FROM rg_events WHERE delivery = 'pending' AND next_at <= $2 ORDER BY seq LIMIT $3 FOR UPDATE SKIP LOCKED)
			RETURNING `+eventColumns, now.Add(responsible.ClaimFor).UnixNano(), now.UnixNano(), limit)
		if err != nil {
			return err
		}
		out, err = scanEvents(rows)
		return err
	})
	slices.SortFunc(out, func(a, b responsible.Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, wrap("undelivered", err)
}

// Delivered marks a webhook sent or to be tried again; see responsible.Store.
func (db *DB) Delivered(ctx context.Context, seq int64, ok bool, errText string, next time.Time) error {
	return wrap("delivered", db.withConn(ctx, func(c *pgx.Conn) error {
		var err error
		if ok {
			_, err = c.Exec(ctx, `UPDATE rg_events SET delivery = 'done', attempts = attempts + 1, error = '' WHERE seq = $1`, seq)
		} else {
			_, err = c.Exec(ctx, `UPDATE rg_events SET attempts = attempts + 1, error = $2, next_at = $3 WHERE seq = $1 AND delivery = 'pending'`,
				seq, errText, next.UnixNano())
		}
		return err
	}))
}
