package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/responsible"
)

// Standing reads a player's standing in one read transaction; see responsible.Store.
func (db *DB) Standing(ctx context.Context, player, currency string, now time.Time) (responsible.Standing, error) {
	tx, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return responsible.Standing{}, wrap("standing", err)
	}
	defer tx.Rollback()
	st, err := readStanding(ctx, standingQueries{tx: tx}, player, currency, now, nil)
	return st, wrap("standing", err)
}

// standingQueries runs a standing's queries: in a read transaction (by their text), or in
// a commit (the writer's prepared statements).
type standingQueries struct {
	tx *sql.Tx
	rg *rgStmts
}

func (q standingQueries) row(ctx context.Context, st *sql.Stmt, text string, args ...any) *sql.Row {
	if q.rg != nil {
		return q.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return q.tx.QueryRowContext(ctx, text, args...)
}

func (q standingQueries) rows(ctx context.Context, st *sql.Stmt, text string, args ...any) (*sql.Rows, error) {
	if q.rg != nil {
		return q.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return q.tx.QueryContext(ctx, text, args...)
}

// readStanding reads what responsible.Standing holds: the player's limits (currency when
// none were set) and latest session, then what their limits need. rounds nil reads
// everything (a page, the host's cache): both tallies, and every stake in play where a
// stake limit is set (else none: nothing checks them). In a commit
// rounds are the table rounds its wagers are in, and the tallies are read only for a loss
// limit, the stakes of those rounds only for a stake limit.
func readStanding(ctx context.Context, q standingQueries, player, currency string, now time.Time, rounds []responsible.RoundKey) (responsible.Standing, error) {
	st := responsible.Standing{Player: player, Currency: currency, Day: responsible.Day(now), Rounds: map[responsible.RoundKey]baccarat.Money{}}
	var rg rgStmts
	if q.rg != nil {
		rg = *q.rg
	}
	var b standingRow
	if err := q.row(ctx, rg.standing, qStanding, player).Scan(b.dest()...); err != nil {
		return st, err
	}
	if err := b.fill(&st); err != nil {
		return st, err
	}
	return st, readLimited(ctx, q, &st, rounds)
}

// standingRow is a standing's first query's row: the limits and the latest session, NULL
// where the player has none.
type standingRow struct {
	cur, limits, selfKind, reason          sql.NullString
	selfUntil, id, started, checked, ended sql.NullInt64
}

func (b *standingRow) dest() []any {
	return []any{&b.cur, &b.limits, &b.selfKind, &b.selfUntil, &b.id, &b.started, &b.checked, &b.ended, &b.reason}
}

func (b *standingRow) fill(st *responsible.Standing) error {
	cur, limits, selfKind, reason := b.cur, b.limits, b.selfKind, b.reason
	selfUntil, id, started, checked, ended := b.selfUntil, b.id, b.started, b.checked, b.ended
	if cur.String != "" {
		st.Currency = cur.String
	}
	if limits.Valid {
		if err := json.Unmarshal([]byte(limits.String), &st.Limits); err != nil {
			return err
		}
	}
	if selfKind.String != "" {
		st.Self = &responsible.Exclusion{Kind: responsible.ExclusionKind(selfKind.String), Until: time.Unix(0, selfUntil.Int64).UTC()}
	}
	if id.Valid {
		st.Session = responsible.Session{ID: id.Int64, Started: time.Unix(0, started.Int64).UTC(), Checked: time.Unix(0, checked.Int64).UTC(),
			EndReason: responsible.EndReason(reason.String)}
		if ended.Valid {
			st.Session.Ended = time.Unix(0, ended.Int64).UTC()
		}
	}
	return nil
}

// readLimited reads what the player's limits need beyond the standing's first row (see
// readStanding).
func readLimited(ctx context.Context, q standingQueries, st *responsible.Standing, rounds []responsible.RoundKey) error {
	var rg rgStmts
	if q.rg != nil {
		rg = *q.rg
	}
	player := st.Player
	full := rounds == nil
	if full || st.Limits.LossPerSession > 0 || st.Limits.LossPerDay > 0 {
		sp, dp := responsible.SessionPeriod(st.Session.ID), responsible.DayPeriod(st.Day)
		rows, err := q.rows(ctx, rg.tallies, qTallies, player, st.Currency, sp, dp)
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
		if err := rows.Close(); err != nil {
			return err
		}
	}
	if full && st.Limits.StakePerRound > 0 {
		rows, err := q.tx.QueryContext(ctx, qRounds, player)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k responsible.RoundKey
			var v baccarat.Money
			var round int64
			if err := rows.Scan(&k.Table, &round, &v); err != nil {
				return err
			}
			k.Round = uint64(round)
			st.Rounds[k] = v
		}
		return rows.Err()
	}
	if !full && st.Limits.StakePerRound > 0 {
		for _, k := range rounds {
			var v baccarat.Money
			if err := q.row(ctx, rg.round, qRound, player, k.Table, int64(k.Round)).Scan(&v); err != nil {
				return err
			}
			st.Rounds[k] = v
		}
	}
	return nil
}
