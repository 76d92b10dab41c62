package tabletop_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/table"
	"github.com/tablehouse/baccarat/tournament"
	"github.com/tablehouse/baccarat/tournament/tabletop"
)

// playing is a tournament of four bots at one table, its first session (of hands hands; 0:
// timed) running, and that session as its table plays it.
func playing(t *testing.T, hands int) (*tournament.Tournament, tabletop.Session) {
	t.Helper()
	cfg := threeRounds("mbs-dragon", hands)
	cfg.MaxEntrants, cfg.Rounds, cfg.Prizes = 4, []tournament.Round{{Hands: hands}}, []int{10_000}
	if hands == 0 {
		cfg.Rounds = []tournament.Round{{Sessions: []tournament.Session{{Duration: tournament.Duration(3 * time.Minute)}}}}
	}
	tr, err := tournament.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	now := cfg.RegistrationOpens
	apply := func(c tournament.Command) {
		t.Helper()
		c.At = now
		if _, err := tr.Apply(&c); err != nil {
			t.Fatalf("%s: %v", c.Type, err)
		}
	}
	apply(tournament.Command{Type: tournament.CmdOpenRegistration})
	for _, b := range tabletop.Bots("bot", 4) {
		apply(tournament.Command{Type: tournament.CmdRegister, Player: b.ID, Bot: true})
	}
	for len(tr.Sessions()) == 0 {
		cmd, at := tournament.Next(tr, now)
		if cmd == nil {
			now = at
			continue
		}
		if cmd.Type == tournament.CmdStart {
			cmd.Seed = 7
		}
		apply(*cmd)
	}
	rec := tr.Sessions()[0]
	s := tabletop.Session{Tournament: cfg.ID, Round: rec.Round, Table: rec.Table, Session: rec.Session, Stakes: cfg.Stakes,
		Dragon: cfg.Dragon, Hands: hands}
	for _, seat := range rec.Seats {
		s.Players = append(s.Players, seat.Player)
	}
	return tr, s
}

// settled is a round's settlement at the table: net per wager, in order.
func settled(round uint64, nets ...any) table.Event {
	e := table.Event{Type: table.EvRoundSettled, Round: round}
	for i := 0; i < len(nets); i += 2 {
		e.Settlements = append(e.Settlements, table.Settlement{Player: nets[i].(string), Net: baccarat.Money(nets[i+1].(int))})
	}
	return e
}

func sessionSettled(nets ...any) table.Event {
	e := settled(0, nets...)
	e.Type = table.EvSessionSettled
	return e
}

func TestCoordinatorReportsEachHandOnce(t *testing.T) {
	cases := []struct {
		name     string
		hands    int             // the session's (0: timed)
		commits  [][]table.Event // the table's, as they commit
		reported int             // hands the tournament heard of before
		beyond   uint64
		want     []tournament.Command
	}{
		{"SPEC 5 a hand's chip changes are each seat's net, in first-seen order, zeros left out", 5,
			[][]table.Event{{settled(1, "b", 100, "a", -50, "b", -40, "c", 30, "c", -30)}}, 0, 0,
			[]tournament.Command{{Hand: 1, Changes: []tournament.ChipChange{{Player: "b", Net: 60}, {Player: "a", Net: -50}}}}},
		{"SPEC 4 a voided hand is reported void with its number, and the next one after it", 5,
			[][]table.Event{{{Type: table.EvRoundVoided, Round: 1}}, {settled(2, "a", 10)}}, 0, 0,
			[]tournament.Command{{Hand: 1, Void: true}, {Hand: 2, Changes: []tournament.ChipChange{{Player: "a", Net: 10}}}}},
		{"Dragon 3.12 a session of hands' last hand carries the Dragon settlement of its commit", 2,
			[][]table.Event{{settled(1, "a", 10)}, {settled(2, "a", 10, "b", -20), sessionSettled("b", 50, "c", -10)}}, 0, 0,
			[]tournament.Command{{Hand: 1, Changes: []tournament.ChipChange{{Player: "a", Net: 10}}},
				{Hand: 2, Changes: []tournament.ChipChange{{Player: "a", Net: 10}, {Player: "b", Net: 30}, {Player: "c", Net: -10}}}}},
		{"Dragon a timed session's settlement is kept for its end_session, in no hand", 0,
			[][]table.Event{{settled(1, "a", 10)}, {sessionSettled("b", 50)}}, 0, 0,
			[]tournament.Command{{Hand: 1, Changes: []tournament.ChipChange{{Player: "a", Net: 10}}}}},
		{"SPEC 5 a hand the tournament has heard of (a restart reads the journal again) is not reported twice", 5,
			[][]table.Event{{settled(1, "a", 10)}, {settled(2, "a", 20)}}, 1, 0,
			[]tournament.Command{{Hand: 2, Changes: []tournament.ChipChange{{Player: "a", Net: 20}}}}},
		{"SPEC 5 a round dealt after a timed session's time is up counts for nothing", 0,
			[][]table.Event{{settled(1, "a", 10)}, {settled(2)}}, 0, 1,
			[]tournament.Command{{Hand: 1, Changes: []tournament.ChipChange{{Player: "a", Net: 10}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, s := playing(t, c.hands)
			for i := range c.reported {
				if _, err := tr.Apply(&tournament.Command{Type: tournament.CmdReportHand, Table: s.Table, Hand: i + 1}); err != nil {
					t.Fatal(err)
				}
			}
			co := tabletop.NewCoordinator(s)
			for _, evs := range c.commits {
				co.On(evs)
			}
			var got []tournament.Command
			last := map[string]baccarat.Money{}
			for {
				rp, ok := co.NextReport(tr, c.beyond)
				if !ok {
					break
				}
				if rp.Command.Type != tournament.CmdReportHand || rp.Command.Table != s.Table {
					t.Fatalf("report %+v", rp.Command)
				}
				rp.Command.Type, rp.Command.Table = "", 0
				got = append(got, rp.Command)
				co.Reported(rp, last)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("reports\n got %+v\nwant %+v", got, c.want)
			}
			if co.Pending() != 0 {
				t.Errorf("%d hands left to report", co.Pending())
			}
		})
	}
}

func TestCoordinatorKnowsTheSessionsEnd(t *testing.T) {
	t.Run("RWS 3.9 the riders go back before the last hand of a session of hands is reported, not before the others", func(t *testing.T) {
		tr, s := playing(t, 2)
		co := tabletop.NewCoordinator(s)
		a := s.Players[0]
		co.On([]table.Event{settled(1, a, 10), {Type: table.EvRoundVoided, Round: 2}, settled(3, a, 10)})
		var firsts []bool
		for rp, ok := co.NextReport(tr, 0); ok; rp, ok = co.NextReport(tr, 0) {
			firsts = append(firsts, rp.RidersFirst)
			if _, err := tr.Apply(&rp.Command); err != nil {
				t.Fatal(err)
			}
			co.Reported(rp, map[string]baccarat.Money{})
		}
		if want := []bool{false, false, true}; !slices.Equal(firsts, want) {
			t.Fatalf("riders first %v, want %v (hand, void, last hand)", firsts, want)
		}
	})
	t.Run("SPEC 5 a session the tournament no longer plays drops its hands", func(t *testing.T) {
		tr, s := playing(t, 2)
		s.Session = 2
		co := tabletop.NewCoordinator(s)
		co.On([]table.Event{settled(1, "a", 10)})
		if rp, ok := co.NextReport(tr, 0); ok || co.Pending() != 0 {
			t.Fatalf("reported %+v, %d left", rp, co.Pending())
		}
	})
	t.Run("SPEC 5 a session of hands opens as many rounds as its hands and voided ones", func(t *testing.T) {
		_, s := playing(t, 3)
		co := tabletop.NewCoordinator(s)
		co.On([]table.Event{{Type: table.EvRoundVoided, Round: 1}})
		if co.Gate() != 4 || co.Voids() != 1 {
			t.Fatalf("gate %d, voids %d", co.Gate(), co.Voids())
		}
	})
	t.Run("Dragon a timed session is settled once, by its end", func(t *testing.T) {
		_, s := playing(t, 0)
		co := tabletop.NewCoordinator(s)
		if _, ok := co.Dragon(); ok {
			t.Fatal("settled before the table settled it")
		}
		co.On([]table.Event{sessionSettled("a", 30, "b", -30)})
		co.On([]table.Event{sessionSettled("a", 99)})
		if got, ok := co.Dragon(); !ok || fmt.Sprint(got) != "[{a 30} {b -30}]" {
			t.Fatalf("dragon %v %v", got, ok)
		}
	})
}

func TestCoordinatorLastNets(t *testing.T) {
	tr, s := playing(t, 5)
	co := tabletop.NewCoordinator(s)
	a, b := s.Players[0], s.Players[1]
	co.On([]table.Event{settled(1, a, -100, b, 100)})
	co.On([]table.Event{settled(2, a, 100, a, -100)})
	last := map[string]baccarat.Money{}
	for _, want := range []map[string]baccarat.Money{{a: -100, b: 100}, {a: 0, b: 0}} {
		rp, ok := co.NextReport(tr, 0)
		if !ok {
			t.Fatal("no report")
		}
		if _, err := tr.Apply(&rp.Command); err != nil {
			t.Fatal(err)
		}
		co.Reported(rp, last)
		for p, n := range want {
			if last[p] != n {
				t.Errorf("SPEC 5 a bot's last net is its net on the last hand reported, 0 when even: %s %d, want %d", p, last[p], n)
			}
		}
	}
}

// TestCoordinatorBotsBet: the house's bots bet once on each round whose betting opened, by
// the house, within the tournament's rules.
func TestCoordinatorBotsBet(t *testing.T) {
	tr, s := playing(t, 5)
	cfg := tr.Config()
	tab, err := table.New(tabletop.TableConfig(cfg, s, 8))
	if err != nil {
		t.Fatal(err)
	}
	co := tabletop.NewCoordinator(s)
	apply := func(c table.Command) {
		t.Helper()
		evs, err := tab.Apply(c)
		if err != nil {
			t.Fatal(err)
		}
		co.On(evs)
	}
	shoe := baccarat.NewShoe(8)
	apply(&table.NewShoe{Header: table.Header{Actor: "auto", Role: table.RoleSystem}, Order: shoe.Order(), Salt: "00"})
	if co.Betting() != 0 {
		t.Fatal("SPEC 5 the bots bet on nothing before betting opens")
	}
	apply(&table.Open{Header: table.Header{Actor: "auto", Role: table.RoleSystem}})
	round := co.Betting()
	players := map[string]*tabletop.Player{}
	for _, b := range tabletop.Bots("bot", 4) {
		players[b.ID], _ = tabletop.NewPlayer(b, 7)
	}
	bots := co.Bots(tr, players)
	if round != 1 || !slices.Equal(bots, s.Players) || co.Betting() != 0 {
		t.Fatalf("SPEC 5 the seated bots bet once on round 1: round %d, bots %v, then %d", round, bots, co.Betting())
	}
	var seats []tabletop.BotSeat
	for _, id := range bots {
		seats = append(seats, tabletop.BotSeat{ID: id, Player: players[id], Chips: cfg.StartingChips})
	}
	st := tab.State()
	ps := co.BotWagers(tr.Game(), &st, round, seats)
	if len(ps) < len(bots) {
		t.Fatalf("%d wagers from %d bots", len(ps), len(bots))
	}
	for _, p := range ps {
		if p.Actor != tabletop.BotActor || p.Role != table.RoleSystem {
			t.Errorf("SPEC 5 only the house places a bot's wager: %+v", p.Header)
		}
		p.Available = cfg.StartingChips
		if err := s.Check(tab, p); err != nil {
			t.Errorf("SPEC 5 a bot's wager keeps the tournament's rules: %v", err)
		}
	}
	if ps := co.BotWagers(tr.Game(), &st, round+1, seats); ps != nil {
		t.Errorf("SPEC 5 no wagers for a round whose betting is not open: %v", ps)
	}
}

func TestRidersGoBackOncePerOwner(t *testing.T) {
	at := time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		st     table.State
		riding bool
		open   bool
		owners []string
	}{
		{"RWS 3.9 nothing rides: nothing to give back", table.State{Wagers: []table.Wager{{Player: "a"}}}, false, true, nil},
		{"RWS 3.9 a wager riding into the next round is given back, after betting opens", table.State{Riding: []table.Wager{{Player: "a", Riding: true}}}, true, true, nil},
		{"RWS 3.9 one withdrawal per owner of riding wagers, in order", table.State{BetOpen: true,
			Wagers: []table.Wager{{Player: "b", Riding: true}, {Player: "a"}, {Player: "b", Riding: true}, {Player: "c", Riding: true}}},
			true, false, []string{"b", "c"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := tabletop.Riding(&c.st); got != c.riding {
				t.Errorf("riding %v", got)
			}
			if open := tabletop.RidersOpen(&c.st, at, at.Add(time.Minute)); (open != nil) != c.open || open != nil && (open.Role != table.RoleSystem || !open.Until.Equal(at.Add(time.Minute))) {
				t.Errorf("open %+v", open)
			}
			var owners []string
			for _, w := range tabletop.Riders(&c.st, at) {
				if w.Role != table.RoleSystem || w.Actor != tabletop.RequiredActor || !w.At.Equal(at) {
					t.Errorf("withdrawal by %+v", w.Header)
				}
				owners = append(owners, w.Player)
			}
			if !slices.Equal(owners, c.owners) {
				t.Errorf("owners %v, want %v", owners, c.owners)
			}
		})
	}
}
