package ledger

import "context"

// NewestFirst is a store that also reads a statement backwards. A player's account page
// shows the newest lines first; reading forwards only, it would have to find the newest
// entry's number first (a gallop of reads) on every visit. Both stores implement it and
// the conformance suite (ledgertest) checks it.
type NewestFirst interface {
	// StatementBefore lists an account's entries numbered below before (every entry when
	// before is 0), newest first, at most limit of them (DefaultLimit when 0, capped at
	// MaxLimit). The next page is the entries before the last one's Seq.
	StatementBefore(ctx context.Context, id string, before int64, limit int) ([]Entry, error)
}
