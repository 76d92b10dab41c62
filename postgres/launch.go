package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/access"
)

var _ access.LaunchCodes = (*DB)(nil)

// UseLaunchCode records a launch code as used; see access.LaunchCodes.
func (db *DB) UseLaunchCode(ctx context.Context, id, player string, now, expires time.Time) error {
	used := false
	err := db.inTx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM launch_codes WHERE expires < $1`, now.UnixNano()); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO launch_codes (id, player, used, expires) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING`, id, player, now.UnixNano(), expires.UnixNano())
		used = err == nil && tag.RowsAffected() == 0
		return err
	})
	if used {
		return baccarat.Errorf(baccarat.CodeConflict, "this launch link was used already: launch the game again from the casino")
	}
	return wrap("launch code", err)
}
