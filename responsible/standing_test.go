package responsible

import (
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

var t0 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

func standing(l Limits) *Standing {
	return &Standing{Player: "ann", Currency: "EUR", Limits: l, Day: Day(t0),
		Session: Session{ID: 7, Started: t0, Checked: t0}, Rounds: map[RoundKey]baccarat.Money{}}
}

func eur(stake baccarat.Money) Wager {
	return Wager{Currency: "EUR", Table: "t1", Round: 3, Stake: stake}
}

// Every limit at its edge: one minor unit under (or at) the limit is taken, one over is
// refused with the limit's code.
func TestCheckEachLimitAtItsEdge(t *testing.T) {
	lost := func(st *Standing, staked, returned baccarat.Money) *Standing {
		st.SessionTally = Tally{Staked: staked, Settled: staked, Returned: returned}
		st.DayTally = st.SessionTally
		return st
	}
	day := func(st *Standing, staked baccarat.Money) *Standing {
		st.DayTally = Tally{Staked: staked, Settled: staked}
		return st
	}
	round := func(st *Standing, in baccarat.Money) *Standing { st.Rounds[RoundKey{"t1", 3}] = in; return st }
	cases := []struct {
		name   string
		st     *Standing
		w      Wager
		at     time.Time
		code   baccarat.Code
		breach Breach
	}{
		{"stake per round: up to the limit is taken", round(standing(Limits{StakePerRound: 10_000}), 4_000), eur(6_000), t0, "", ""},
		{"stake per round: one minor unit over is refused", round(standing(Limits{StakePerRound: 10_000}), 4_000), eur(6_001), t0, baccarat.CodeLimitReached, BreachStakePerRound},
		{"stake per round: another round is another round", func() *Standing {
			s := standing(Limits{StakePerRound: 10_000})
			s.Rounds[RoundKey{"t1", 2}] = 10_000
			return s
		}(), eur(10_000), t0, "", ""},
		{"stake per round: another table's round is its own", func() *Standing {
			s := standing(Limits{StakePerRound: 10_000})
			s.Rounds[RoundKey{"t2", 3}] = 10_000
			return s
		}(), eur(10_000), t0, "", ""},
		{"loss per session: a stake that could reach the limit is taken", lost(standing(Limits{LossPerSession: 50_000}), 30_000, 0), eur(20_000), t0, "", ""},
		{"loss per session: one minor unit more is refused", lost(standing(Limits{LossPerSession: 50_000}), 30_000, 0), eur(20_001), t0, baccarat.CodeLimitReached, BreachLossSession},
		{"loss per session: winnings give room back", lost(standing(Limits{LossPerSession: 50_000}), 30_000, 10_000), eur(30_000), t0, "", ""},
		{"loss per session: open wagers count as lost", func() *Standing {
			s := standing(Limits{LossPerSession: 50_000})
			s.SessionTally = Tally{Staked: 50_000}
			return s
		}(), eur(1), t0, baccarat.CodeLimitReached, BreachLossSession},
		{"loss per day: up to the limit is taken", day(standing(Limits{LossPerDay: 100_000}), 99_999), eur(1), t0, "", ""},
		{"loss per day: one minor unit over is refused", day(standing(Limits{LossPerDay: 100_000}), 99_999), eur(2), t0, baccarat.CodeLimitReached, BreachLossDay},
		{"loss per day: a new UTC day starts from nothing", day(standing(Limits{LossPerDay: 100_000}), 100_000), eur(100_000), t0.Add(14 * time.Hour), "", ""},
		{"session time: a minute before its end a wager is taken", standing(Limits{SessionTime: 60}), eur(1), t0.Add(59 * time.Minute), "", ""},
		{"session time: at its end the session is over", standing(Limits{SessionTime: 60}), eur(1), t0.Add(60 * time.Minute), baccarat.CodeLimitReached, BreachSessionTime},
		{"reality check: before it is due a wager is taken", standing(Limits{RealityCheck: 30}), eur(1), t0.Add(30*time.Minute - time.Nanosecond), "", ""},
		{"reality check: once due, betting waits for the answer", standing(Limits{RealityCheck: 30}), eur(1), t0.Add(30 * time.Minute), baccarat.CodeRealityCheck, BreachRealityCheck},
		{"reality check: due an interval after the last answer", func() *Standing {
			s := standing(Limits{RealityCheck: 30})
			s.Session.Checked = t0.Add(25 * time.Minute)
			return s
		}(), eur(1), t0.Add(40 * time.Minute), "", ""},
		{"exclusion: until its end no wager is taken", standing(Limits{Excluded: &Exclusion{CoolOff, t0.Add(time.Hour)}}), eur(1), t0.Add(time.Hour - time.Nanosecond), baccarat.CodeExcluded, BreachExcluded},
		{"exclusion: from its end play may resume", standing(Limits{Excluded: &Exclusion{CoolOff, t0.Add(time.Hour)}}), eur(1), t0.Add(time.Hour), "", ""},
		{"exclusion: the player's own counts as the operator's", func() *Standing {
			s := standing(Limits{})
			s.Self = &Exclusion{SelfExclusion, t0.AddDate(1, 0, 0)}
			return s
		}(), eur(1), t0, baccarat.CodeExcluded, BreachExcluded},
		{"session: an ended session takes no wager", func() *Standing {
			s := standing(Limits{})
			s.Session.Ended, s.Session.EndReason = t0, EndLeft
			return s
		}(), eur(1), t0, baccarat.CodeSessionEnded, BreachSessionEnded},
		{"currency: money limits are in the player's currency", standing(Limits{LossPerDay: 100}), Wager{Currency: "USD", Table: "t1", Stake: 1}, t0, baccarat.CodeLimitReached, BreachCurrency},
		{"currency: play money is not money", standing(Limits{LossPerDay: 100}), Wager{Currency: baccarat.PlayMoney, Table: "t1", Stake: 1_000}, t0, "", ""},
		{"currency: tournament chips are not money", standing(Limits{LossPerDay: 100}), Wager{Currency: baccarat.ChipsPrefix + "cup", Table: "t1", Stake: 1_000}, t0, "", ""},
		{"no limits: anything is taken", standing(Limits{}), eur(baccarat.MaxAmount), t0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.st.Check(c.w, Held{}, c.at)
			if c.code == "" {
				if r != nil {
					t.Fatalf("refused: %v", r)
				}
				return
			}
			if r == nil {
				t.Fatalf("taken; want %s", c.code)
			}
			if baccarat.ErrorCode(r) != c.code || r.Breach != c.breach {
				t.Fatalf("got %s/%s (%v), want %s/%s", baccarat.ErrorCode(r), r.Breach, r, c.code, c.breach)
			}
		})
	}
}

// A refusal says the limit in words, and how much is left of it.
func TestRefusalSaysTheLimitInWords(t *testing.T) {
	st := standing(Limits{LossPerSession: 50_000})
	st.SessionTally = Tally{Staked: 30_000, Settled: 30_000}
	r := st.Check(eur(25_000), Held{}, t0)
	for _, want := range []string{"500.00 EUR per session", "300.00 EUR", "250.00 EUR", "200.00 EUR at most"} {
		if r == nil || !strings.Contains(r.Error(), want) {
			t.Fatalf("%v: want %q in it", r, want)
		}
	}
}

// Stakes held (on their way to the database) count against every limit.
func TestHeldStakesCount(t *testing.T) {
	st := standing(Limits{LossPerDay: 1_000, StakePerRound: 600})
	if r := st.Check(eur(500), Held{Total: 500, Round: 0}, t0); r != nil {
		t.Fatal(r)
	}
	if r := st.Check(eur(101), Held{Total: 500, Round: 500}, t0); r == nil || r.Breach != BreachStakePerRound {
		t.Fatalf("round held: %v", r)
	}
	if r := st.Check(eur(501), Held{Total: 500}, t0); r == nil || r.Breach != BreachLossDay {
		t.Fatalf("day held: %v", r)
	}
}

func TestLimitsValidate(t *testing.T) {
	cases := []struct {
		name string
		l    Limits
		ok   bool
	}{
		{"none", Limits{}, true},
		{"a day of minutes", Limits{RealityCheck: MaxMinutes, SessionTime: MaxMinutes}, true},
		{"more than a day of minutes", Limits{SessionTime: MaxMinutes + 1}, false},
		{"negative minutes", Limits{RealityCheck: -1}, false},
		{"negative amount", Limits{LossPerDay: -1}, false},
		{"amount beyond the books", Limits{StakePerRound: baccarat.MaxAmount + 1}, false},
		{"exclusion in the future", Limits{Excluded: &Exclusion{SelfExclusion, t0.AddDate(5, 0, 0)}}, true},
		{"exclusion in the past", Limits{Excluded: &Exclusion{CoolOff, t0}}, false},
		{"exclusion of no kind", Limits{Excluded: &Exclusion{"break", t0.Add(time.Hour)}}, false},
		{"exclusion past a hundred years", Limits{Excluded: &Exclusion{SelfExclusion, t0.AddDate(101, 0, 0)}}, false},
	}
	for _, c := range cases {
		if err := c.l.Validate(t0); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// Book checks a commit's wagers together, counts returns where their stakes were counted,
// and stops at the first refusal.
func TestBookCountsWhereTheStakeWasCounted(t *testing.T) {
	st := standing(Limits{LossPerSession: 1_000})
	open := map[WagerKey]Open{{"t1", 1}: {Player: "ann", Currency: "EUR", Round: 2, Session: 6, Day: "2026-11-27", Stake: 300}}
	plays := []Play{
		{Player: "ann", Currency: "EUR", Table: "t1", Round: 3, Wager: 2, Stake: 600, At: t0},
		{Player: "ann", Currency: "EUR", Table: "t1", Wager: 1, Settles: true, Stake: 300, Returned: 600, At: t0},
		{Player: "ann", Currency: "EUR", Table: "t2", Round: 9, Wager: 5, Stake: 400, At: t0},
	}
	ch, err := Book(map[string]*Standing{"ann": st}, open, plays)
	if err != nil {
		t.Fatal(err)
	}
	if got := ch.Tallies[Period{"ann", "EUR", "s:6"}]; got != (Tally{Settled: 300, Returned: 600}) {
		t.Errorf("old session: %+v", got)
	}
	if got := ch.Tallies[Period{"ann", "EUR", "d:2026-11-27"}]; got != (Tally{Settled: 300, Returned: 600}) {
		t.Errorf("old day: %+v", got)
	}
	if got := ch.Tallies[Period{"ann", "EUR", "s:7"}]; got != (Tally{Staked: 1_000}) {
		t.Errorf("this session: %+v", got)
	}
	if len(ch.Opened) != 2 || len(ch.Closed) != 1 {
		t.Errorf("opened %v closed %v", ch.Opened, ch.Closed)
	}
	_, err = Book(map[string]*Standing{"ann": standing(Limits{LossPerSession: 1_000})}, nil, append(plays[:1:1],
		Play{Player: "ann", Currency: "EUR", Table: "t2", Round: 9, Wager: 5, Stake: 401, At: t0}))
	if r, ok := err.(*Refusal); !ok || r.Breach != BreachLossSession {
		t.Fatalf("two wagers together past the limit: %v", err)
	}
}
