package responsible

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/tablehouse/baccarat"
)

// Session is a player's play session: from sign-in to its end. The zero Session is none.
type Session struct {
	ID      int64     `json:"id"`
	Started time.Time `json:"started"`
	// Checked is when the last reality check was answered (the start, before the first): the
	// next is due an interval after it.
	Checked time.Time `json:"checked"`
	// Ended is when the session ended, zero while it runs; EndReason says why.
	Ended     time.Time `json:"ended,omitzero"`
	EndReason EndReason `json:"end_reason,omitempty"`
}

// EndReason says why a session ended.
type EndReason string

const (
	EndTimeLimit EndReason = "time_limit" // its session time limit was reached
	EndLeft      EndReason = "left"       // the player left (a reality check, or the page)
	EndExcluded  EndReason = "excluded"   // the player was excluded
	EndReplaced  EndReason = "replaced"   // the player signed in again: a new session began
)

// Open reports whether the session runs at now: it began, has not ended, and its time limit
// (minutes; 0 none) has not passed.
func (s Session) Open(limit int, now time.Time) bool {
	return s.ID != 0 && s.Ended.IsZero() && !s.timeUp(limit, now)
}

func (s Session) timeUp(limit int, now time.Time) bool {
	return limit > 0 && !now.Before(s.Started.Add(minutes(limit)))
}

// Ends is when the session's time limit ends it (zero: no limit).
func (s Session) Ends(limit int) time.Time {
	if limit <= 0 || s.ID == 0 {
		return time.Time{}
	}
	return s.Started.Add(minutes(limit))
}

// CheckDue is when the next reality check falls due (zero: none).
func (s Session) CheckDue(interval int) time.Time {
	if interval <= 0 || s.ID == 0 {
		return time.Time{}
	}
	return s.Checked.Add(minutes(interval))
}

func minutes(n int) time.Duration { return time.Duration(n) * time.Minute }

// Tally is what a player staked and got back in a period (a session, a day).
type Tally struct {
	Staked   baccarat.Money `json:"staked"`   // every stake placed
	Settled  baccarat.Money `json:"settled"`  // the stakes of those settled (returned, lost or withdrawn)
	Returned baccarat.Money `json:"returned"` // what went back: stakes and winnings
}

// Exposure is the most the player can have lost: staked minus returned, an open wager's
// stake counted as lost. A loss limit bounds it.
func (t Tally) Exposure() baccarat.Money { return t.Staked - t.Returned }

// Net is the result of the settled wagers: returned minus their stakes (negative: lost).
func (t Tally) Net() baccarat.Money { return t.Returned - t.Settled }

// Open is the stake of the wagers still in play.
func (t Tally) Open() baccarat.Money { return t.Staked - t.Settled }

func (t *Tally) add(d Tally) {
	t.Staked += d.Staked
	t.Settled += d.Settled
	t.Returned += d.Returned
}

// RoundKey names one round of one table.
type RoundKey struct {
	Table string
	Round uint64
}

// Standing is everything a wager's check needs of its player, as a store read it.
type Standing struct {
	Player string `json:"player"`
	// Currency is the player's currency: the money limits' and the tallies'.
	Currency string `json:"currency"`
	// Limits are the operator's or an admin's; Self is an exclusion the player chose here.
	Limits  Limits     `json:"limits"`
	Self    *Exclusion `json:"self_exclusion,omitempty"`
	Session Session    `json:"session"`
	// SessionTally is the session's, DayTally the day Day's (both in Currency).
	SessionTally Tally  `json:"session_tally"`
	Day          string `json:"day"`
	DayTally     Tally  `json:"day_tally"`
	// Rounds are the stakes still in play by table round (only those a check may need).
	Rounds map[RoundKey]baccarat.Money `json:"-"`
}

// Exclusion is the exclusion in force at now, the later-ending of the operator's and the
// player's own; nil when the player may play.
func (s *Standing) Exclusion(now time.Time) *Exclusion {
	var x *Exclusion
	for _, c := range []*Exclusion{s.Limits.Excluded, s.Self} {
		if c != nil && now.Before(c.Until) && (x == nil || c.Until.After(x.Until)) {
			x = c
		}
	}
	return x
}

// DayAt is the tally of the day of now: DayTally if it is that day's, nothing otherwise.
func (s *Standing) DayAt(now time.Time) Tally {
	if s.Day == Day(now) {
		return s.DayTally
	}
	return Tally{}
}

// Breach names the limit a refused wager would break, for the record and the operator.
type Breach string

const (
	BreachExcluded      Breach = "excluded"
	BreachSessionTime   Breach = "session_time"
	BreachSessionEnded  Breach = "session_ended"
	BreachRealityCheck  Breach = "reality_check"
	BreachCurrency      Breach = "currency"
	BreachStakePerRound Breach = "stake_per_round"
	BreachLossSession   Breach = "loss_per_session"
	BreachLossDay       Breach = "loss_per_day"
)

// Wager is a wager as a check sees it.
type Wager struct {
	Currency string
	Table    string
	Round    uint64
	Stake    baccarat.Money
}

// Refusal is a wager refused for the player's sake: the coded error and the limit it names.
type Refusal struct {
	Breach Breach
	Err    *baccarat.Error
}

func (r *Refusal) Error() string { return r.Err.Message }

// Unwrap lets baccarat.ErrorCode read the refusal's code.
func (r *Refusal) Unwrap() error { return r.Err }

// refuse builds a refusal with the params a page says it with in its reader's language
// (web/API.md, "Errors"): "kind", the breach, beside what the limit names.
func refuse(b Breach, code baccarat.Code, params baccarat.Params, format string, args ...any) *Refusal {
	if params == nil {
		params = baccarat.Params{}
	}
	if b != "" {
		params["kind"] = string(b)
	}
	return &Refusal{Breach: b, Err: baccarat.Refuse(code, params, format, args...)}
}

// Check decides whether the player may place w at now, in this order: an exclusion, the
// session (none, ended, past its time limit), a reality check due, the currency of money
// limits, the stake per round, the loss per session and per day. A refusal says the limit
// in words and what is left of it. held is stake taken but not yet in the tallies (wagers
// on their way to the database), counted against every limit as if placed.
func (s *Standing) Check(w Wager, held Held, now time.Time) *Refusal {
	if x := s.Exclusion(now); x != nil {
		what := "a cool-off"
		if x.Kind == SelfExclusion {
			what = "a self-exclusion"
		}
		return refuse(BreachExcluded, baccarat.CodeExcluded, baccarat.Params{"exclusion": string(x.Kind), "until": x.Until.UTC().Format(time.RFC3339)},
			"you are in %s until %s: no wager is taken until then", what, x.Until.UTC().Format("2 January 2006 15:04 MST"))
	}
	if s.Session.ID != 0 {
		if !s.Session.Ended.IsZero() && s.Session.EndReason == EndTimeLimit {
			return refuse(BreachSessionTime, baccarat.CodeLimitReached, baccarat.Params{"minutes": s.Limits.SessionTime},
				"your session time limit of %d minutes was reached: the session has ended, and your open wagers still settle", s.Limits.SessionTime)
		}
		if !s.Session.Ended.IsZero() {
			return refuse(BreachSessionEnded, baccarat.CodeSessionEnded, baccarat.Params{"reason": string(s.Session.EndReason)},
				"this session ended (%s): open the game again to play", s.Session.EndReason)
		}
		if s.Session.timeUp(s.Limits.SessionTime, now) {
			return refuse(BreachSessionTime, baccarat.CodeLimitReached, baccarat.Params{"minutes": s.Limits.SessionTime},
				"your session time limit of %d minutes is reached: the session has ended, and your open wagers still settle", s.Limits.SessionTime)
		}
		if due := s.Session.CheckDue(s.Limits.RealityCheck); !due.IsZero() && !now.Before(due) {
			d := now.Sub(s.Session.Started)
			return refuse(BreachRealityCheck, baccarat.CodeRealityCheck, baccarat.Params{"minutes": int(d / time.Minute)},
				"a reality check is due: you have played %s; answer it to go on", played(d))
		}
	}
	l := s.Limits
	if !l.Money() || !RealMoney(w.Currency) {
		return nil
	}
	if w.Currency != s.Currency {
		return refuse(BreachCurrency, baccarat.CodeLimitReached, baccarat.Params{"limits_currency": s.Currency, "table_currency": w.Currency},
			"your limits are kept in %s, and this table plays in %s: no wager is taken here while they are set", s.Currency, w.Currency)
	}
	money := func(m baccarat.Money) string { return baccarat.FormatMoney(m, s.Currency) }
	if l.StakePerRound > 0 {
		in := s.Rounds[RoundKey{w.Table, w.Round}] + held.Round
		if w.Stake > l.StakePerRound-in {
			left := max(0, l.StakePerRound-in)
			return refuse(BreachStakePerRound, baccarat.CodeLimitReached,
				baccarat.Params{"limit": l.StakePerRound, "staked": in, "stake": w.Stake, "left": left}.Money(s.Currency),
				"your stake limit is %s per round, and you have staked %s this round: %s more at most", money(l.StakePerRound), money(in), money(left))
		}
	}
	if l.LossPerSession > 0 {
		if r := lossCheck(BreachLossSession, l.LossPerSession, s.SessionTally.Exposure()+held.Total, w.Stake, s.Currency); r != nil {
			return r
		}
	}
	if l.LossPerDay > 0 {
		if r := lossCheck(BreachLossDay, l.LossPerDay, s.DayAt(now).Exposure()+held.Total, w.Stake, s.Currency); r != nil {
			return r
		}
	}
	return nil
}

// RealMoney reports whether a currency is money a loss limit counts: not a demo table's play
// money, nor a tournament's chips (an exclusion, a session and its reality checks hold at
// those tables too).
func RealMoney(currency string) bool {
	return currency != baccarat.PlayMoney && !strings.HasPrefix(currency, baccarat.ChipsPrefix)
}

// Held is stake taken from a player but not yet in the tallies: in all, and in the round
// of the wager being checked.
type Held struct {
	Total, Round baccarat.Money
}

func lossCheck(b Breach, limit, exposure, stake baccarat.Money, currency string) *Refusal {
	if stake <= limit-exposure {
		return nil
	}
	period := "session"
	if b == BreachLossDay {
		period = "day"
	}
	money := func(m baccarat.Money) string { return baccarat.FormatMoney(m, currency) }
	left := max(0, limit-exposure)
	return refuse(b, baccarat.CodeLimitReached, baccarat.Params{"limit": limit, "exposure": exposure, "stake": stake, "left": left}.Money(currency),
		"your loss limit is %s per %s; with your open wagers counted as lost you are at %s, so a wager of %s could pass it: %s at most",
		money(limit), period, money(exposure), money(stake), money(left))
}

// played writes a duration as people say it: "1 h 05 min", "12 min".
func played(d time.Duration) string {
	m := int(d / time.Minute)
	if m < 60 {
		return strconv.Itoa(m) + " min"
	}
	return fmt.Sprintf("%d h %02d min", m/60, m%60)
}
