package live

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/journal"
	"github.com/tablehouse/baccarat/table"
)

// requestDigest fingerprints a wager request as it was sent: the same request id with the
// same digest is a retry, with another digest a different wager (idempotency_conflict).
func requestDigest(tableID string, c *table.Place) string {
	seat := c.Seat
	if seat == "" {
		seat = placer(c)
	}
	b := make([]byte, 0, 128)
	b = append(b, "wager/v1|"...)
	b = append(append(b, tableID...), '|')
	b = append(append(b, c.Bet...), '|')
	b = append(strconv.AppendInt(b, int64(c.Stake), 10), '|')
	b = append(append(b, seat...), '|')
	b = strconv.AppendInt(b, int64(c.Odds), 10)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// placer is the player a place command is for.
func placer(c *table.Place) string {
	if c.Player != "" {
		return c.Player
	}
	return c.Actor
}

// placedBefore looks a wager's request id up in the store: a request id is unique per
// player for at least journal.RequestTTL, across rounds, tables, restarts and servers. It
// returns the wager placed the first time (a retry), or idempotency_conflict when the id
// was used for a different request; nil, nil when the id is new.
func (h *Host) placedBefore(ctx context.Context, tableID string, cmd table.Command) (*Result, error) {
	c, ok := cmd.(*table.Place)
	if !ok || c.RequestID == "" {
		return nil, nil
	}
	req, ok, err := h.request(ctx, placer(c), c.RequestID)
	if err != nil || !ok {
		return nil, err
	}
	if req.Table != tableID || req.Digest != requestDigest(tableID, c) {
		return nil, baccarat.Errorf(baccarat.CodeIdempotencyConflict,
			"request id %q was already used for another wager (at table %s): a new wager needs a new request id", c.RequestID, req.Table)
	}
	var e table.Event
	if err := json.Unmarshal(req.Wager, &e); err != nil {
		return nil, err
	}
	return &Result{Wager: e.Wager}, nil
}

// requestBatch is the most request ids one read asks the store for.
const requestBatch = 1000

// requestReader reads wagers' request ids together where the store reads many at once: on a
// crowded table every wager asks, and one round trip each would take the database's
// connections from the commits the wagers wait on.
func requestReader(store Store) *coalescer[journal.RequestKey, journal.Request] {
	many, ok := store.(journal.ManyRequests)
	if !ok {
		return nil
	}
	return &coalescer[journal.RequestKey, journal.Request]{read: many.RequestsOf, max: requestBatch, limit: 10 * time.Second}
}

// request finds a player's request id in the store, with the others asked for meanwhile
// where it can.
func (h *Host) request(ctx context.Context, player, id string) (journal.Request, bool, error) {
	if h.requests == nil {
		return h.opt.Store.Request(ctx, player, id)
	}
	r, err := h.requests.get(ctx, journal.RequestKey{Player: player, ID: id})
	return r, err == nil && r.Table != "", err
}

// requestOf is the request record of a wager placed with a request id: written in the
// same commit as the wager, so the id is taken exactly when the wager is.
func (r *runner) requestOf(c *table.Place, e *table.Event, data []byte) journal.Request {
	return journal.Request{Player: e.Wager.Player, ID: e.Wager.RequestID, Table: r.spec.ID,
		Digest: requestDigest(r.spec.ID, c), Wager: data, At: e.At}
}
