package journal

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tablehouse/baccarat"
)

// RequestTTL is how long a wager's request id is kept: the same id from the same player
// means the same wager for at least this long, on every table and every server.
const RequestTTL = 24 * time.Hour

// Request is a wager's client request id, written in the same transaction as the wager
// (Batch.Requests). A retry of the request finds it and gets the wager placed the first
// time; the same id with a different request is refused (idempotency_conflict). The
// database keeps (Player, ID) unique, so not even two servers can place two wagers for
// one id.
type Request struct {
	Player string `json:"player"`
	ID     string `json:"id"`
	Table  string `json:"table"`
	// Digest fingerprints the request as sent (table, bet, stake, seat, odds), so a retry
	// is told from a different request reusing the id.
	Digest string `json:"digest"`
	// Wager is the wager placed, as journalled.
	Wager json.RawMessage `json:"wager"`
	At    time.Time       `json:"at"`
}

// Validate checks a request on its own.
func (r Request) Validate() error {
	switch {
	case r.Player == "" || len(r.Player) > baccarat.MaxIDLen:
		return baccarat.Errorf(baccarat.CodeBadRequest, "request: a player id of 1 to %d characters", baccarat.MaxIDLen)
	case r.ID == "" || len(r.ID) > baccarat.MaxIDLen:
		return baccarat.Errorf(baccarat.CodeBadRequest, "request: an id of 1 to %d characters", baccarat.MaxIDLen)
	case r.Table == "" || len(r.Table) > baccarat.MaxIDLen:
		return baccarat.Errorf(baccarat.CodeBadRequest, "request: a table id of 1 to %d characters", baccarat.MaxIDLen)
	case len(r.Digest) != 64:
		return baccarat.Errorf(baccarat.CodeBadRequest, "request: a digest of 64 hex digits")
	case len(r.Wager) == 0 || len(r.Wager) > MaxDataLen:
		return baccarat.Errorf(baccarat.CodeBadRequest, "request: the wager placed")
	}
	return nil
}

// Requests finds and forgets request ids. Every journal store implements it; Commit writes
// them.
type Requests interface {
	// Request finds a player's request id; false when it is unknown (or pruned).
	Request(ctx context.Context, player, id string) (Request, bool, error)
	// PruneRequests forgets the request ids written before before, and says how many.
	PruneRequests(ctx context.Context, before time.Time) (int64, error)
}

// RequestKey names a request id: the player's own.
type RequestKey struct{ Player, ID string }

// ManyRequests is a store that finds many request ids in one read, where each read is a
// round trip (PostgreSQL): the host asks it for the ids of the wagers that arrive together.
type ManyRequests interface {
	// RequestsOf finds the keys' request ids, in the keys' order; a zero Request (no Table)
	// where an id is unknown (or pruned).
	RequestsOf(ctx context.Context, keys []RequestKey) ([]Request, error)
}

// DuplicateRequest is the error of a Commit whose request id was already written.
func DuplicateRequest(player, id string) error {
	return baccarat.Errorf(baccarat.CodeIdempotencyConflict, "request id %q of %s was already used for another wager: a new wager needs a new request id", id, player)
}
