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

// rgQuerier is what a standing is read through: a connection or a transaction.
type rgQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Standing reads a player's standing as of one snapshot: one statement, or, for a player
// with a limit on a round's stakes, one REPEATABLE READ transaction; see responsible.Store.
func (db *DB) Standing(ctx context.Context, player, currency string, now time.Time) (responsible.Standing, error) {
	// Most players have no limit on a round's stakes: their whole standing is one statement
	// (one snapshot, one round trip), read on the wager path of a host meeting a player for
	// the first time in a while, thousands at once when a crowded table opens.
	sts, err := db.standingsAtOnce(ctx, []string{player}, currency, now)
	if err != nil {
		return responsible.Standing{}, err
	}
	if sts[0].Limits.StakePerRound == 0 {
		return sts[0], nil
	}
	return db.standingInTx(ctx, player, currency, now)
}

// standingInTx reads a standing with the sums of a round's stakes, in one REPEATABLE READ
// transaction.
func (db *DB) standingInTx(ctx context.Context, player, currency string, now time.Time) (responsible.Standing, error) {
	var st responsible.Standing
	err := db.inTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		var err error
		st, err = readStanding(ctx, tx, player, currency, now)
		return err
	})
	return st, wrap("standing", err)
}

// Standings reads the standings of many players at once, as Standing reads each (in
// currency where a player set no limits), in the order of players: one statement for them
// all, and a transaction more for each player with a limit on a round's stakes. A host
// meeting thousands of players at once (a crowded table opening) reads them in a few
// statements rather than one each.
func (db *DB) Standings(ctx context.Context, players []string, currency string, now time.Time) ([]responsible.Standing, error) {
	out, err := db.standingsAtOnce(ctx, players, currency, now)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].Limits.StakePerRound > 0 {
			if out[i], err = db.standingInTx(ctx, out[i].Player, currency, now); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// standingsAtOnce reads standings in one statement: the limits, the latest session and the
// session's and the day's tallies, in each player's currency (the one their limits were set
// in, else currency). The sums of a round's stakes it leaves out (standingInTx reads them).
func (db *DB) standingsAtOnce(ctx context.Context, players []string, currency string, now time.Time) ([]responsible.Standing, error) {
	day := responsible.Day(now)
	out := make([]responsible.Standing, len(players))
	at := make(map[string]int, len(players))
	for i, p := range players {
		out[i] = responsible.Standing{Player: p, Currency: currency, Day: day, Rounds: map[responsible.RoundKey]baccarat.Money{}}
		at[p] = i
	}
	rows, err := db.pool.Query(ctx, `SELECT x.player, `+standingColumns+`,
			COALESCE(st.staked, 0), COALESCE(st.settled, 0), COALESCE(st.returned, 0),
			COALESCE(dt.staked, 0), COALESCE(dt.settled, 0), COALESCE(dt.returned, 0)
		FROM unnest($1::text[]) AS x(player)
		LEFT JOIN rg_players r ON r.player = x.player
		LEFT JOIN LATERAL (SELECT id, started, checked, ended, reason FROM rg_sessions WHERE player = x.player ORDER BY id DESC LIMIT 1) s ON true
		LEFT JOIN rg_tallies st ON st.player = x.player AND st.currency = COALESCE(NULLIF(r.currency, ''), $2) AND st.period = 's:' || s.id
		LEFT JOIN rg_tallies dt ON dt.player = x.player AND dt.currency = COALESCE(NULLIF(r.currency, ''), $2) AND dt.period = $3`,
		players, currency, responsible.DayPeriod(day))
	if err != nil {
		return nil, wrap("standing", err)
	}
	defer rows.Close()
	for rows.Next() {
		var player string
		var b standingRow
		var t [6]int64
		if err := rows.Scan(append(append([]any{&player}, b.dest()...), &t[0], &t[1], &t[2], &t[3], &t[4], &t[5])...); err != nil {
			return nil, wrap("standing", err)
		}
		i, ok := at[player]
		if !ok {
			continue
		}
		st := &out[i]
		if err := b.fill(st); err != nil {
			return nil, wrap("standing", err)
		}
		if st.Session.ID != 0 {
			st.SessionTally = responsible.Tally{Staked: t[0], Settled: t[1], Returned: t[2]}
		}
		st.DayTally = responsible.Tally{Staked: t[3], Settled: t[4], Returned: t[5]}
	}
	return out, wrap("standing", rows.Err())
}

const standingColumns = `r.currency, r.limits, r.self_kind, r.self_until, s.id, s.started, s.checked, s.ended, s.reason`

// readStanding reads what responsible.Standing holds: the player's limits (currency when
// none were set) and latest session, then what their limits need (readLimited, all of it).
func readStanding(ctx context.Context, q rgQuerier, player, currency string, now time.Time) (responsible.Standing, error) {
	st := responsible.Standing{Player: player, Currency: currency, Day: responsible.Day(now), Rounds: map[responsible.RoundKey]baccarat.Money{}}
	var b standingRow
	err := q.QueryRow(ctx, `SELECT `+standingColumns+` FROM (SELECT $1::text AS player) x
		LEFT JOIN rg_players r ON r.player = x.player
		LEFT JOIN LATERAL (SELECT id, started, checked, ended, reason FROM rg_sessions WHERE player = x.player ORDER BY id DESC LIMIT 1) s ON true`,
		player).Scan(b.dest()...)
	if err != nil {
		return st, err
	}
	if err := b.fill(&st); err != nil {
		return st, err
	}
	return st, readLimited(ctx, q, &st, nil)
}

// standingRow is a standing's first row: the limits and the latest session, NULL where the
// player has none.
type standingRow struct {
	cur, limits, selfKind, reason          *string
	selfUntil, id, started, checked, ended *int64
}

func (b *standingRow) dest() []any {
	return []any{&b.cur, &b.limits, &b.selfKind, &b.selfUntil, &b.id, &b.started, &b.checked, &b.ended, &b.reason}
}

func (b *standingRow) fill(st *responsible.Standing) error {
	if b.cur != nil && *b.cur != "" {
		st.Currency = *b.cur
	}
	if b.limits != nil {
		if err := json.Unmarshal([]byte(*b.limits), &st.Limits); err != nil {
			return err
		}
	}
	if b.selfKind != nil && *b.selfKind != "" {
		st.Self = &responsible.Exclusion{Kind: responsible.ExclusionKind(*b.selfKind), Until: time.Unix(0, *b.selfUntil).UTC()}
	}
	if b.id != nil {
		st.Session = responsible.Session{ID: *b.id, Started: time.Unix(0, *b.started).UTC(), Checked: time.Unix(0, *b.checked).UTC()}
		if b.reason != nil {
			st.Session.EndReason = responsible.EndReason(*b.reason)
		}
		if b.ended != nil {
			st.Session.Ended = time.Unix(0, *b.ended).UTC()
		}
	}
	return nil
}

// readLimited reads what the player's limits need beyond the first row. rounds nil reads
// everything (a page, the host's cache): both tallies, and every stake in play where a stake
// limit is set. In a commit rounds are the table rounds of its wagers, and the tallies are
// read only for a loss limit, those rounds' stakes only for a stake limit.
func readLimited(ctx context.Context, q rgQuerier, st *responsible.Standing, rounds []responsible.RoundKey) error {
	full := rounds == nil
	if full || st.Limits.LossPerSession > 0 || st.Limits.LossPerDay > 0 {
		sp, dp := responsible.SessionPeriod(st.Session.ID), responsible.DayPeriod(st.Day)
		rows, err := q.Query(ctx, `SELECT period, staked, settled, returned FROM rg_tallies WHERE player = $1 AND currency = $2 AND period IN ($3, $4)`,
			st.Player, st.Currency, sp, dp)
		if err != nil {
			return err
		}
		for rows.Next() {
			var p string
			var t responsible.Tally
			if err := rows.Scan(&p, &t.Staked, &t.Settled, &t.Returned); err != nil {
				rows.Close()
				return err
			}
			if p == sp && st.Session.ID != 0 {
				st.SessionTally = t
			}
			if p == dp {
				st.DayTally = t
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if st.Limits.StakePerRound == 0 {
		return nil
	}
	var tables []string
	var nums []int64
	for _, k := range rounds {
		tables, nums = append(tables, k.Table), append(nums, int64(k.Round))
	}
	rows, err := q.Query(ctx, `SELECT table_id, round, SUM(stake) FROM rg_wagers WHERE player = $1
		AND ($2 OR (table_id, round) IN (SELECT * FROM unnest($3::text[], $4::bigint[]))) GROUP BY table_id, round`, st.Player, full, tables, nums)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var k responsible.RoundKey
		var round, v int64
		if err := rows.Scan(&k.Table, &round, &v); err != nil {
			return err
		}
		k.Round = uint64(round)
		st.Rounds[k] = v
	}
	return rows.Err()
}

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
			staked, settled, returned = append(staked, t.Staked), append(settled, t.Settled), append(returned, t.Returned)
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
			rounds, sessions, days, stakes = append(rounds, int64(o.Round)), append(sessions, o.Session), append(days, o.Day), append(stakes, o.Stake)
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
