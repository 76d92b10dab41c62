package web

import (
	"context"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/cash"
	"github.com/tablehouse/baccarat/games"
	"github.com/tablehouse/baccarat/odds"
	"github.com/tablehouse/baccarat/table"
)

// A table's figures (its rules' returns, a cash table's player edges) come from the odds
// engine and never change, so each is counted once per key and kept. No request waits for
// a count it cannot afford: a count runs in a goroutine of its own, a few at once
// (coupSlots, sessionSlots), under countTimeout, holding no lock another key's reader needs. Single-coup figures
// take a millisecond and are waited for; a Dragon session's take time growing with the
// square of its length (odds.MaxSessionHands bounds it), so the lobby never waits for one
// and the rules page waits rulesPatience at most.

// counts keeps one count per key: run at most once, in its own goroutine.
type counts[K comparable, V any] struct {
	mu    sync.Mutex // guards m only: never held while counting
	m     map[K]*count[V]
	slots chan struct{} // counts running at once
}

// count is one key's count: done is closed once val and err are set.
type count[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// The counts running at once: the odds engine's single-coup counts are quick and every
// table needs them; Dragon sessions take one core at most from the tables.
const (
	coupSlots    = 2
	sessionSlots = 1
)

// countTimeout bounds one count once it runs: a session of odds.MaxSessionHands takes
// seconds, so only a machine in deep trouble reaches it. A count that fails is kept as
// failed: it would fail the same way again.
const countTimeout = 5 * time.Minute

func newCounts[K comparable, V any](slots int) *counts[K, V] {
	return &counts[K, V]{m: map[K]*count[V]{}, slots: make(chan struct{}, slots)}
}

// start returns k's count, starting fn in a goroutine if nobody has.
func (c *counts[K, V]) start(k K, fn func(context.Context) (V, error)) *count[V] {
	c.mu.Lock()
	e, ok := c.m[k]
	if !ok {
		e = &count[V]{done: make(chan struct{})}
		c.m[k] = e
	}
	c.mu.Unlock()
	if !ok {
		go c.run(e, fn)
	}
	return e
}

// run waits for a slot, then counts under countTimeout.
func (c *counts[K, V]) run(e *count[V], fn func(context.Context) (V, error)) {
	defer close(e.done)
	c.slots <- struct{}{}
	defer func() { <-c.slots }()
	ctx, cancel := context.WithTimeout(context.Background(), countTimeout)
	defer cancel()
	e.val, e.err = fn(ctx)
}

// finished reports whether the count has ended.
func (e *count[V]) finished() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// wait waits for the count, or for ctx (which stops the waiting, not the count, which
// others may be waiting for).
func (e *count[V]) wait(ctx context.Context) (V, error) {
	select {
	case <-e.done:
		return e.val, e.err
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	}
}

// sessionKey is what a Dragon session's figures depend on.
type sessionKey struct {
	game         string
	decks, hands int
}

// sessionKeyOf is the session a table's Dragon bets are priced over (hands 0 for a game
// without them).
func sessionKeyOf(g *games.Game, cfg table.Config) sessionKey {
	k := sessionKey{game: g.ID, decks: cmp0(cfg.Decks, g.Decks.Default)}
	if len(g.DragonBets()) > 0 {
		k.hands = cmp0(cfg.SessionHands, table.DefaultSessionHands)
	}
	return k
}

// sessionBet is one Dragon bet's figures over a session, from one run of the chain: its
// player edge (the lobby) and its rules (the rules page).
type sessionBet struct {
	edge  cash.BetEdge
	rules BetRules
}

// sessionStore keeps the Dragon sessions' counts, one per key.
type sessionStore struct {
	counts *counts[sessionKey, []sessionBet]
	mu     sync.Mutex // guards count
	// count is what counts a session: a field, so that a test can hold a count in flight.
	count func(context.Context, sessionKey) ([]sessionBet, error)
}

var sessionCounts = &sessionStore{counts: newCounts[sessionKey, []sessionBet](sessionSlots), count: countSession}

// uncounted stands for a session that is not counted: longer than the odds engine prices.
var uncounted = func() *count[[]sessionBet] {
	e := &count[[]sessionBet]{done: make(chan struct{}), err: baccarat.Errorf(baccarat.CodeBadRequest, "a session is counted up to %d hands", odds.MaxSessionHands)}
	close(e.done)
	return e
}()

// of is a session's count, started if it was not; never one of a session longer than
// odds.MaxSessionHands, which a tournament's timed session or a table journalled before
// that range may have.
func (s *sessionStore) of(k sessionKey) *sessionCount {
	if k.hands < 1 || k.hands > odds.MaxSessionHands {
		return &sessionCount{uncounted}
	}
	s.mu.Lock()
	fn := s.count
	s.mu.Unlock()
	return &sessionCount{s.counts.start(k, func(ctx context.Context) ([]sessionBet, error) { return fn(ctx, k) })}
}

// sessionCount is one session's count as its readers see it.
type sessionCount struct{ *count[[]sessionBet] }

// look is the count's figures if it has ended well, else nil and the status to show.
func (c *sessionCount) look() ([]sessionBet, string) {
	switch {
	case !c.finished():
		return nil, cash.StatusComputing
	case c.err != nil:
		return nil, cash.StatusUnavailable
	}
	return c.val, ""
}

// countSession prices every Dragon bet of the game over a session of the key's hands.
func countSession(ctx context.Context, k sessionKey) ([]sessionBet, error) {
	g, err := games.ByID(k.game)
	if err != nil {
		return nil, err
	}
	a, err := odds.Analyze(ctx, baccarat.NewCounts(k.decks), nil)
	if err != nil {
		return nil, err
	}
	var out []sessionBet
	for _, b := range g.DragonBets() {
		ds, err := a.Dragon(ctx, b, k.hands)
		if err != nil {
			return nil, err
		}
		out = append(out, sessionBet{edge: cash.DragonEdge(ds), rules: dragonRules(b, ds)})
	}
	return out, nil
}

func cmp0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
