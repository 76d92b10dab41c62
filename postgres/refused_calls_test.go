package postgres_test

import (
	"testing"
)

// TestSchemaKeepsResolutionsWhole: past the store, the constraints of 0006 alone refuse a
// resolved call without its audit, a settled debit, and a second closer of a debit beside
// a call that was resent.
func TestSchemaKeepsResolutionsWhole(t *testing.T) {
	needPostgres(t)
	_, cfg := openSchema(t)
	c := rawConn(t, cfg)
	for _, q := range []string{
		`INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager, state, request_id, attempt, digest,
			table_wager, created, updated) VALUES ('d-1', 'debit', 'ann', 'EUR', 250, 't1', 3, 7, 'placed', 'r1', 1, 'x', 5, 10, 11)`,
		`INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager, debit_tx, state, table_wager,
			created, updated) VALUES ('c-1', 'credit', 'ann', 'EUR', 375, 't1', 3, 7, 'd-1', 'failed', 5, 12, 13)`,
	} {
		if _, err := c.Exec(t.Context(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for name, q := range map[string]string{
		"a settled call has its resolution": `UPDATE wallet_calls SET state = 'settled' WHERE tx = 'c-1'`,
		"a resolution names who and when":   `UPDATE wallet_calls SET state = 'settled', resolution = 'settle', reason = 'x' WHERE tx = 'c-1'`,
		"a settlement has a reason": `UPDATE wallet_calls SET state = 'settled', resolution = 'settle', resolved_by = 'a',
			resolved_at = 1 WHERE tx = 'c-1'`,
		"a resent call names its successor": `UPDATE wallet_calls SET state = 'resent', resolution = 'resend', resolved_by = 'a',
			resolved_at = 1 WHERE tx = 'c-1'`,
		"a debit is never settled": `UPDATE wallet_calls SET state = 'settled', resolution = 'settle', resolved_by = 'a',
			resolved_at = 1, reason = 'x' WHERE tx = 'd-1'`,
		"a debit has one live closer": `INSERT INTO wallet_calls (tx, kind, player, currency, amount, table_id, round, wager,
			debit_tx, state, table_wager, created, updated) VALUES ('c-2', 'credit', 'ann', 'EUR', 375, 't1', 3, 7, 'd-1', 'pending', 5, 12, 13)`,
	} {
		if _, err := c.Exec(t.Context(), q); err == nil {
			t.Errorf("%s: the schema took %s", name, q)
		}
	}
}
