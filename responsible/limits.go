// Package responsible holds what a regulated market asks of a game for its players' sake:
// limits the operator (or an admin, or the player) sets on a player's play, the play
// session a reality check interrupts and a time limit ends, and the tallies of what was
// staked and returned that a loss limit is measured against. It decides, without I/O,
// whether a wager may be taken (Standing.Check) and how a commit's wagers and settlements
// move the tallies (Book); the stores keep the state and run Book inside the commit that
// writes the wagers, so a limit holds across every table and server at once.
//
// Decisions (the operator's guides and the UK, Malta and Ontario rules leave them open):
//   - A loss is measured as staked minus returned, with an open wager's stake counted as
//     lost: a wager is refused if losing it (and every other open wager) would pass the
//     limit, so no outcome of the wagers taken can break it.
//   - A day is the UTC calendar day the wager is placed in; a return counts in the session
//     and day its wager was placed in.
//   - Limits and tallies are in the player's currency (the launch's); while a money limit
//     is set, a wager in another currency is refused.
//   - A session begins when a player is signed in (an operator's launch, or a token an admin
//     issues) and ends at its time limit, when the player leaves, is excluded, or signs in
//     again. Wagers taken before it ended still settle.
//   - Nobody here shortens an exclusion the player chose on our pages; the operator's and an
//     admin's limits replace each other (the latest wins).
package responsible

import (
	"time"

	"github.com/tablehouse/baccarat"
)

// Limits are a player's limits as the operator's launch or an admin sets them. A zero field
// is no limit.
type Limits struct {
	// RealityCheck is how often (minutes) play stops for a reality check the player answers.
	RealityCheck int `json:"reality_check_minutes,omitempty"`
	// SessionTime is how long (minutes) a session lasts; then it ends.
	SessionTime int `json:"session_minutes,omitempty"`
	// LossPerSession and LossPerDay bound staked minus returned (open wagers counted as
	// lost) in a session and in a UTC day, in minor units of the player's currency.
	LossPerSession baccarat.Money `json:"loss_per_session,omitempty"`
	LossPerDay     baccarat.Money `json:"loss_per_day,omitempty"`
	// StakePerRound bounds what the player stakes in one round of one table.
	StakePerRound baccarat.Money `json:"stake_per_round,omitempty"`
	// Excluded, when set, keeps the player from launching and wagering until its end.
	Excluded *Exclusion `json:"excluded,omitempty"`
}

// Exclusion is a period a player may not play: a cool-off (a short break, days) or a
// self-exclusion (months or years).
type Exclusion struct {
	Kind  ExclusionKind `json:"kind"`
	Until time.Time     `json:"until"`
}

// ExclusionKind names an exclusion.
type ExclusionKind string

const (
	CoolOff       ExclusionKind = "cool_off"
	SelfExclusion ExclusionKind = "self_exclusion"
)

// Bounds of what a limit may be: a reality check at least every minute and at most daily,
// a session at most a day, amounts at most what one posting of the books may move, and an
// exclusion at most a hundred years out (self-exclusion may be "for good").
const (
	MaxMinutes   = 24 * 60
	MaxExclusion = 100 * 365 * 24 * time.Hour
	maxAmount    = baccarat.MaxAmount
)

// Validate checks limits as they are given, at now (an exclusion that ended is refused: it
// would change nothing and reads like a mistake).
func (l Limits) Validate(now time.Time) error {
	for _, m := range []struct {
		name string
		v    int
	}{{"reality_check_minutes", l.RealityCheck}, {"session_minutes", l.SessionTime}} {
		if m.v < 0 || m.v > MaxMinutes {
			return baccarat.Errorf(baccarat.CodeBadRequest, "%s: 0 (no limit) to %d", m.name, MaxMinutes)
		}
	}
	for _, a := range []struct {
		name string
		v    baccarat.Money
	}{{"loss_per_session", l.LossPerSession}, {"loss_per_day", l.LossPerDay}, {"stake_per_round", l.StakePerRound}} {
		if a.v < 0 || a.v > maxAmount {
			return baccarat.Errorf(baccarat.CodeBadRequest, "%s: 0 (no limit) to %d minor units", a.name, maxAmount)
		}
	}
	if l.Excluded != nil {
		return l.Excluded.Validate(now)
	}
	return nil
}

// Validate checks an exclusion as it is given at now.
func (x Exclusion) Validate(now time.Time) error {
	switch x.Kind {
	case CoolOff, SelfExclusion:
	default:
		return baccarat.Errorf(baccarat.CodeBadRequest, "exclusion kind: %q or %q", CoolOff, SelfExclusion)
	}
	if !x.Until.After(now) {
		return baccarat.Errorf(baccarat.CodeBadRequest, "exclusion until %s: that is not in the future", x.Until.UTC().Format(time.RFC3339))
	}
	if x.Until.Sub(now) > MaxExclusion {
		return baccarat.Errorf(baccarat.CodeBadRequest, "exclusion until %s: at most a hundred years", x.Until.UTC().Format(time.RFC3339))
	}
	return nil
}

// Money reports whether any limit is in money (and so in the player's currency).
func (l Limits) Money() bool {
	return l.LossPerSession > 0 || l.LossPerDay > 0 || l.StakePerRound > 0
}

// Day is the UTC calendar day of t, the period a daily limit counts in: "2026-11-28".
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }
