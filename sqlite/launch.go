package sqlite

import (
	"context"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
)

var _ access.LaunchCodes = (*DB)(nil)

// UseLaunchCode records a launch code as used; see access.LaunchCodes.
func (db *DB) UseLaunchCode(ctx context.Context, id, player string, now, expires time.Time) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap("launch code", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM launch_codes WHERE expires < ?`, now.UnixNano()); err != nil {
		return wrap("launch code", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO launch_codes (id, player, used, expires) VALUES (?, ?, ?, ?)`,
		id, player, now.UnixNano(), expires.UnixNano())
	if isConstraint(err) {
		return baccarat.Errorf(baccarat.CodeConflict, "this launch link was used already: launch the game again from the casino")
	}
	if err != nil {
		return wrap("launch code", err)
	}
	return wrap("launch code", tx.Commit())
}
