package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/responsible"
)

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
		var t [6]baccarat.Money
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
		var round int64
		var v baccarat.Money
		if err := rows.Scan(&k.Table, &round, &v); err != nil {
			return err
		}
		k.Round = uint64(round)
		st.Rounds[k] = v
	}
	return rows.Err()
}
