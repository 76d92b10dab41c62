package live

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/ledger"
	"github.com/tablehouse/baccarat/responsible"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
)

// care keeps the players' limits for every table of this host: a cache of their standings
// (responsible.Standing) to refuse a wager that would break a limit before it is taken, and
// the stakes taken but not yet committed, so that two tables cannot both spend the same
// room under a limit while their batches are on their way to disk. Like the bank, the
// database has the last word: every commit books its wagers against the standing it reads
// inside its transaction (responsible.Book), which holds across servers; a standing here
// that went stale only makes a commit fail and its wagers be retried one by one.
type care struct {
	store   responsible.Store
	now     func() time.Time
	mu      sync.Mutex
	players map[string]*careEntry
	swept   time.Time // the last sweep of idle standings

	// many reads the standings not at hand together, where the store reads many at once.
	many *coalescer[careKey, responsible.Standing]
}

// manyStandings is a store that reads many players' standings in one go.
type manyStandings interface {
	Standings(ctx context.Context, players []string, currency string, now time.Time) ([]responsible.Standing, error)
}

type careKey struct{ player, currency string }

// careBatch is the most standings one read asks the store for.
const careBatch = 500

// read reads a player's standing from the store. Where the store reads many at once, a read
// that is not fresh joins the others waiting (coalescer). A fresh read (to confirm a
// refusal) is one of its own, begun now.
func (c *care) read(ctx context.Context, player, cur string, now time.Time, fresh bool) (responsible.Standing, error) {
	if fresh || c.many == nil {
		return c.store.Standing(ctx, player, cur, now)
	}
	return c.many.get(ctx, careKey{player, cur})
}

// careTTL is how long a standing read from the store is trusted for a first check: what
// another server changed (a limit set there, a wager at its tables) is seen this soon by the
// first check, and at once by the commit, which reads the store itself. A refusal from the
// cache is always checked again on a fresh read, so a stale standing never refuses what the
// store allows; a stale one that allows what the store refuses costs a commit retried one
// command at a time. Changes made on this server forget the standing at once.
const careTTL = 30 * time.Second

// careIdle is how long a player's standing is kept after its last use: a host that has seen
// a million players does not keep a million standings.
const careIdle = 10 * time.Minute

type careEntry struct {
	st   responsible.Standing
	read time.Time
	used time.Time // the last check or hold (for careIdle)
	// held: stake taken at a table, not yet committed, in all and by table round.
	held      baccarat.Money
	heldRound map[responsible.RoundKey]baccarat.Money
	// open: the wagers committed since the standing was read, so their settlements can be
	// counted here; a settlement of one not here makes the entry stale.
	open  map[responsible.WagerKey]responsible.Open
	stale bool
}

func newCare(store responsible.Store, now func() time.Time) *care {
	if store == nil {
		return nil
	}
	c := &care{store: store, now: now, players: map[string]*careEntry{}}
	if many, ok := store.(manyStandings); ok {
		c.many = &coalescer[careKey, responsible.Standing]{max: careBatch, limit: 10 * time.Second,
			group: func(k careKey) string { return k.currency },
			read: func(ctx context.Context, keys []careKey) ([]responsible.Standing, error) {
				players := make([]string, len(keys))
				for i, k := range keys {
					players[i] = k.player
				}
				return many.Standings(ctx, players, keys[0].currency, c.now())
			}}
	}
	return c
}

// standing returns the player's standing, read from the store if this host has none or it
// is older than careTTL (fresh: always). A player who never had a session (signed in before
// sessions were kept, or by a demo link) gets one now if their limits are about sessions,
// and otherwise plays without one (no write on the wager's path); a session past its time
// limit is ended in the store, at the moment it ended.
func (c *care) standing(ctx context.Context, player, cur string, fresh bool) (*careEntry, error) {
	now := c.now()
	c.mu.Lock()
	e := c.players[player]
	if e != nil {
		e.used = now
	}
	c.mu.Unlock()
	if e != nil && !fresh && !e.stale && now.Sub(e.read) < careTTL {
		return e, nil
	}
	st, err := c.read(ctx, player, cur, now, fresh)
	if err != nil {
		return nil, err
	}
	if st.Session.ID == 0 && (st.Limits.RealityCheck > 0 || st.Limits.SessionTime > 0) {
		if _, err := c.store.StartSession(ctx, player, now); err != nil {
			return nil, err
		}
		if st, err = c.store.Standing(ctx, player, cur, now); err != nil {
			return nil, err
		}
	}
	if s := st.Session; s.Ended.IsZero() && s.ID != 0 && !s.Open(st.Limits.SessionTime, now) {
		ends := s.Ends(st.Limits.SessionTime)
		if err := c.store.EndSession(ctx, player, s.ID, responsible.EndTimeLimit, ends); err != nil {
			return nil, err
		}
		c.record(ctx, &st, &responsible.Refusal{Breach: responsible.BreachSessionTime,
			Err: baccarat.Refuse(baccarat.CodeLimitReached, baccarat.Params{"kind": string(responsible.BreachSessionTime), "minutes": st.Limits.SessionTime},
				"the session time limit of %d minutes was reached", st.Limits.SessionTime)}, ends)
		st.Session.Ended, st.Session.EndReason = ends, responsible.EndTimeLimit
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweep(now)
	fe := &careEntry{st: st, read: now, used: now, heldRound: map[responsible.RoundKey]baccarat.Money{}, open: map[responsible.WagerKey]responsible.Open{}}
	if old := c.players[player]; old != nil {
		// Stakes taken meanwhile are still on their way to the database: they stay held.
		fe.held, fe.heldRound = old.held, old.heldRound
	}
	c.players[player] = fe
	return fe, nil
}

// sweep drops the standings idle for careIdle with nothing held, once every careIdle at
// most (c.mu held).
func (c *care) sweep(now time.Time) {
	if now.Sub(c.swept) < careIdle {
		return
	}
	c.swept = now
	for p, e := range c.players {
		if e.held == 0 && now.Sub(e.used) > careIdle {
			delete(c.players, p)
		}
	}
}

// check refuses, on the caller's goroutine before the table sees it, a wager the player's
// limits do not allow now. A refusal on a standing from the cache is checked again on one
// read from the store, so a limit lifted or a reality check answered on another server is
// never refused here; a refusal is recorded (once per limit and period) and the operator
// told of it.
func (c *care) check(ctx context.Context, player, cur string, w responsible.Wager) error {
	if c == nil {
		return nil
	}
	var r *responsible.Refusal
	for _, fresh := range []bool{false, true} {
		e, err := c.standing(ctx, player, cur, fresh)
		if err != nil {
			return err
		}
		c.mu.Lock()
		r = e.st.Check(w, responsible.Held{Total: e.held, Round: e.heldRound[responsible.RoundKey{Table: w.Table, Round: w.Round}]}, c.now())
		st := e.st
		c.mu.Unlock()
		if r == nil {
			return nil
		}
		if fresh {
			c.record(ctx, &st, r, c.now())
		}
	}
	return r
}

// hold takes a wager's stake against the player's limits on the table's goroutine, from the
// standing check read (no I/O here): the table's round is known only there. A player with
// no standing cached is let through: the commit decides.
func (c *care) hold(player string, w responsible.Wager, now time.Time) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.players[player]
	if e == nil {
		return nil
	}
	k := responsible.RoundKey{Table: w.Table, Round: w.Round}
	if r := e.st.Check(w, responsible.Held{Total: e.held, Round: e.heldRound[k]}, now); r != nil {
		return r
	}
	e.held += w.Stake
	e.heldRound[k] += w.Stake
	return nil
}

// release gives back what hold took, for a wager that will not be committed.
func (c *care) release(player string, w responsible.Wager) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.players[player]; e != nil {
		e.held -= w.Stake
		e.heldRound[responsible.RoundKey{Table: w.Table, Round: w.Round}] -= w.Stake
	}
}

// committed counts a commit's plays in the cached standings and lets go of their holds.
func (c *care) committed(plays []responsible.Play, holds []careHold) {
	if c == nil || len(plays)+len(holds) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, h := range holds {
		if e := c.players[h.player]; e != nil {
			e.held -= h.w.Stake
			e.heldRound[responsible.RoundKey{Table: h.w.Table, Round: h.w.Round}] -= h.w.Stake
		}
	}
	for i := range plays {
		p := &plays[i]
		e := c.players[p.Player]
		if e == nil {
			continue
		}
		key := responsible.WagerKey{Table: p.Table, Wager: p.Wager}
		if !p.Settles {
			o := responsible.Open{Player: p.Player, Currency: p.Currency, Round: p.Round, Session: e.st.Session.ID, Day: responsible.Day(p.At), Stake: p.Stake}
			e.open[key] = o
			e.count(o, responsible.Tally{Staked: p.Stake})
			e.st.Rounds[responsible.RoundKey{Table: p.Table, Round: p.Round}] += p.Stake
			continue
		}
		o, ok := e.open[key]
		if !ok {
			e.stale = true // placed before this standing was read: the store knows where it counted
			continue
		}
		delete(e.open, key)
		e.count(o, responsible.Tally{Settled: p.Stake, Returned: p.Returned})
		e.st.Rounds[responsible.RoundKey{Table: p.Table, Round: o.Round}] -= o.Stake
	}
}

func (e *careEntry) count(o responsible.Open, d responsible.Tally) {
	if o.Currency != e.st.Currency {
		return
	}
	if o.Session == e.st.Session.ID {
		e.st.SessionTally.Staked += d.Staked
		e.st.SessionTally.Settled += d.Settled
		e.st.SessionTally.Returned += d.Returned
	}
	switch {
	case o.Day == e.st.Day:
		e.st.DayTally.Staked += d.Staked
		e.st.DayTally.Settled += d.Settled
		e.st.DayTally.Returned += d.Returned
	case o.Day > e.st.Day:
		e.stale = true // a new day began: read it
	}
}

// forget drops players' standings (a commit failed, or their limits changed here), so the
// next check reads the store.
func (c *care) forget(players ...string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range players {
		if e := c.players[p]; e != nil {
			e.stale = true
		}
	}
}

type careHold struct {
	player string
	w      responsible.Wager
}

// record writes a refusal's event, once per limit and period, for the player's record, the
// audit trail and the operator's webhook. Writing it is best effort: the refusal stands
// whether or not it could be recorded.
func (c *care) record(ctx context.Context, st *responsible.Standing, r *responsible.Refusal, at time.Time) {
	period := responsible.SessionPeriod(st.Session.ID)
	switch r.Breach {
	case responsible.BreachLossDay, responsible.BreachCurrency:
		period = responsible.DayPeriod(responsible.Day(at))
	case responsible.BreachExcluded:
		if x := st.Exclusion(at); x != nil {
			period = "x:" + strconv.FormatInt(x.Until.UnixNano(), 10)
		}
	case responsible.BreachRealityCheck:
		return // not a limit: the player answers it
	}
	e := responsible.Event{Player: st.Player, At: at, Kind: responsible.EvLimitReached, By: "table", Session: st.Session.ID,
		Breach: r.Breach, Message: r.Err.Message, Once: st.Player + "/" + string(r.Breach) + "/" + period}
	_ = c.store.Record(context.WithoutCancel(ctx), e)
}

// asRefusal reports whether err is a refusal for the player's sake.
func asRefusal(err error) (*responsible.Refusal, bool) {
	var r *responsible.Refusal
	ok := errors.As(err, &r)
	return r, ok
}

// checkLimits is the first check of a wager against its player's limits, on the caller's
// goroutine (it may read the store); the table's own (care.hold) and the commit's follow.
func (h *Host) checkLimits(ctx context.Context, r *runner, p *table.Place) error {
	player := placer(p)
	if h.care == nil || tournament.IsBot(player) {
		return nil
	}
	return h.care.check(ctx, player, string(r.spec.Currency), responsible.Wager{Currency: string(r.spec.Currency), Table: r.spec.ID, Stake: p.Stake})
}

// refused records a wager refused for its player's sake after the first check let it through
// (the table's hold, or the commit, found the limit reached).
func (h *Host) refused(ctx context.Context, player string, err error) {
	r, ok := asRefusal(err)
	if !ok || h.care == nil {
		return
	}
	h.care.mu.Lock()
	e := h.care.players[player]
	var st responsible.Standing
	if e != nil {
		st = e.st
	}
	h.care.mu.Unlock()
	if e == nil {
		st.Player = player
	}
	h.care.record(ctx, &st, r, h.care.now())
	h.care.forget(player)
}

// ForgetLimits makes the next wager of each player read their limits from the store: they
// were changed on this server (a limit set, a reality check answered, an exclusion).
func (h *Host) ForgetLimits(players ...string) { h.care.forget(players...) }

// Limits is the store of the players' limits, nil where the store keeps none.
func (h *Host) Limits() responsible.Store {
	if h.care == nil {
		return nil
	}
	return h.care.store
}

// releaseHold gives back one hold (nil: none).
func (c *care) releaseHold(h *careHold) {
	if h != nil {
		c.release(h.player, h.w)
	}
}

// failed lets go of a failed commit's holds and forgets its players' standings: the
// commit's wagers are tried again, one by one, against what the store holds.
func (c *care) failed(plays []responsible.Play, holds []careHold) {
	if c == nil {
		return
	}
	for i := range holds {
		c.release(holds[i].player, holds[i].w)
	}
	players := make([]string, 0, len(plays))
	for i := range plays {
		players = append(players, plays[i].Player)
	}
	c.forget(players...)
}

// Standing reads a player's standing from the store as a page shows it: a session begun if
// the player never had one, a session past its time limit ended (and recorded) first.
func (h *Host) Standing(ctx context.Context, player string, cur ledger.Currency) (responsible.Standing, error) {
	if h.care == nil {
		return responsible.Standing{}, baccarat.Errorf(baccarat.CodeNotFound, "this server keeps no limits (its store does not)")
	}
	e, err := h.care.standing(ctx, player, string(cur), true)
	if err != nil {
		return responsible.Standing{}, err
	}
	h.care.mu.Lock()
	defer h.care.mu.Unlock()
	st := e.st
	st.Rounds = nil // the table's to change
	return st, nil
}
