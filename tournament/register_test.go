package tournament

import (
	"reflect"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

func TestRegistration(t *testing.T) {
	c := baseConfig()
	open := c.RegistrationOpens.Add(time.Minute)
	cases := []struct {
		name  string
		setup []Command // applied first, must succeed
		cmd   Command
		code  baccarat.Code
	}{
		{"registration before it opens is refused", nil,
			Command{Type: CmdRegister, Player: "ann", At: open}, CodeRegistrationClosed},
		{"registration once open is taken", []Command{{Type: CmdOpenRegistration, At: open}},
			Command{Type: CmdRegister, Player: "ann", At: open}, ""},
		{"a duplicate registration is refused", []Command{{Type: CmdOpenRegistration, At: open}, {Type: CmdRegister, Player: "ann", At: open}},
			Command{Type: CmdRegister, Player: "ann", At: open}, CodeAlreadyRegistered},
		{"a bad player id is refused", []Command{{Type: CmdOpenRegistration, At: open}},
			Command{Type: CmdRegister, Player: "ann smith", At: open}, baccarat.CodeBadRequest},
		{"registration at the closing time is refused even before the close event", []Command{{Type: CmdOpenRegistration, At: open}},
			Command{Type: CmdRegister, Player: "ann", At: c.RegistrationCloses}, CodeRegistrationClosed},
		{"registration after the close is refused", []Command{{Type: CmdOpenRegistration, At: open}, {Type: CmdCloseRegistration, At: c.RegistrationCloses}},
			Command{Type: CmdRegister, Player: "ann", At: open}, CodeRegistrationClosed},
		{"unregistering someone not registered is refused", []Command{{Type: CmdOpenRegistration, At: open}},
			Command{Type: CmdUnregister, Player: "ann", At: open}, CodeNotRegistered},
		{"unregistering after the close and before the start is taken",
			[]Command{{Type: CmdOpenRegistration, At: open}, {Type: CmdRegister, Player: "ann", At: open}, {Type: CmdCloseRegistration, At: c.RegistrationCloses}},
			Command{Type: CmdUnregister, Player: "ann", At: c.RegistrationCloses}, ""},
		{"registration cannot open early", nil,
			Command{Type: CmdOpenRegistration, At: c.RegistrationOpens.Add(-time.Second)}, baccarat.CodeBadState},
		{"registration cannot close early", []Command{{Type: CmdOpenRegistration, At: open}},
			Command{Type: CmdCloseRegistration, At: open}, baccarat.CodeBadState},
		{"the tournament cannot start early", []Command{{Type: CmdOpenRegistration, At: open}},
			Command{Type: CmdStart, At: open}, baccarat.CodeBadState},
		{"an unknown command is refused", nil, Command{Type: "deal"}, baccarat.CodeBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := mustNew(t, c)
			for _, s := range tc.setup {
				mustApply(t, tr, s)
			}
			before := stateJSON(t, tr)
			_, err := tr.Apply(&tc.cmd)
			wantCode(t, err, tc.code)
			if err != nil && stateJSON(t, tr) != before {
				t.Error("a refused command changed the tournament")
			}
		})
	}
}

func TestRegistrationFull(t *testing.T) {
	t.Run("the entrant after max_entrants is refused as full", func(t *testing.T) {
		tr := registered(t, baseConfig(), players(6)...)
		_, err := tr.Apply(&Command{Type: CmdRegister, Player: "late", At: t0.Add(time.Minute)})
		wantCode(t, err, CodeTournamentFull)
	})
	t.Run("an unregistration frees a place", func(t *testing.T) {
		tr := registered(t, baseConfig(), players(6)...)
		mustApply(t, tr, Command{Type: CmdUnregister, Player: "p2"})
		mustApply(t, tr, Command{Type: CmdRegister, Player: "late"})
		if got := tr.Entrants(); !reflect.DeepEqual(got, []string{"p1", "p3", "p4", "p5", "p6", "late"}) {
			t.Errorf("entrants %v", got)
		}
	})
}

func TestFeesAndRefunds(t *testing.T) {
	t.Run("a registration pays the fee into the pool and an unregistration refunds it", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann", "bob")
		evs := mustApply(t, tr, Command{Type: CmdUnregister, Player: "ann"})
		if evs[0].Type != EvUnregistered || evs[0].Amount != 1000 {
			t.Errorf("refund %+v", evs[0])
		}
		if got := tr.Pool(); got != (Pool{Collected: 1000, Total: 1000}) {
			t.Errorf("pool %+v", got)
		}
	})
	t.Run("entry numbers are never reused after an unregistration", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann", "bob")
		mustApply(t, tr, Command{Type: CmdUnregister, Player: "bob"})
		evs := mustApply(t, tr, Command{Type: CmdRegister, Player: "bob"})
		if evs[0].Entry != 3 {
			t.Errorf("re-registration entry %d, want 3", evs[0].Entry)
		}
	})
	t.Run("the house tops the pool up to the guarantee", func(t *testing.T) {
		c := baseConfig()
		c.Guarantee = 5000
		tr := registered(t, c, "ann", "bob", "cat")
		if got := tr.Pool(); got != (Pool{Collected: 3000, TopUp: 2000, Total: 5000}) {
			t.Errorf("pool %+v", got)
		}
	})
	t.Run("fees beyond the guarantee all go to the pool", func(t *testing.T) {
		c := baseConfig()
		c.Guarantee = 2500
		tr := registered(t, c, "ann", "bob", "cat")
		if got := tr.Pool(); got != (Pool{Collected: 3000, Total: 3000}) {
			t.Errorf("pool %+v", got)
		}
	})
	t.Run("cancelling before the start refunds every fee and owes no guarantee", func(t *testing.T) {
		c := baseConfig()
		c.Guarantee = 50_000
		tr := registered(t, c, "ann", "bob")
		evs := mustApply(t, tr, Command{Type: CmdCancel, Reason: "storm"})
		want := []Payment{{"ann", 1000}, {"bob", 1000}}
		if evs[0].Type != EvCancelled || !reflect.DeepEqual(evs[0].Payments, want) || tr.Phase() != PhaseCancelled || tr.Pool() != (Pool{}) {
			t.Errorf("cancel %+v, phase %s, pool %+v", evs[0], tr.Phase(), tr.Pool())
		}
	})
	t.Run("fewer than min_entrants at the start cancels and refunds", func(t *testing.T) {
		c := baseConfig()
		c.MinEntrants = 3
		tr := registered(t, c, "ann", "bob")
		evs := mustApply(t, tr, Command{Type: CmdStart, At: c.Start})
		if got := types(evs); !reflect.DeepEqual(got, []EventType{EvRegistrationClosed, EvCancelled}) {
			t.Fatalf("events %v", got)
		}
		if len(evs[1].Payments) != 2 || tr.Phase() != PhaseCancelled {
			t.Errorf("cancel %+v", evs[1])
		}
	})
	t.Run("a started tournament cannot be unregistered from", func(t *testing.T) {
		tr := started(t, baseConfig(), "ann", "bob")
		_, err := tr.Apply(&Command{Type: CmdUnregister, Player: "ann"})
		wantCode(t, err, baccarat.CodeBadState)
	})
	t.Run("a running tournament that cannot go on is cancelled: every entrant gets back all they paid", func(t *testing.T) {
		c := baseConfig()
		c.Rebuy = &Rebuy{Price: 700, Chips: 10_000, Max: 2, Until: Point{Round: 1, Session: 1, Hand: 3}}
		tr := started(t, c, "ann", "bob")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -5000), ch("bob", 5000)))
		mustApply(t, tr, hand(1, ch("ann", -5000), ch("bob", 5000)))
		mustApply(t, tr, Command{Type: CmdRebuy, Player: "ann"})
		evs := mustApply(t, tr, Command{Type: CmdCancel, Reason: "a table cannot go on"})
		want := []Payment{{Player: "ann", Amount: 1700}, {Player: "bob", Amount: 1000}}
		if len(evs) != 1 || evs[0].Type != EvCancelled || !reflect.DeepEqual(evs[0].Payments, want) {
			t.Fatalf("cancelled %+v, want refunds %+v", evs, want)
		}
		if tr.Phase() != PhaseCancelled || tr.State().Tables[0].Live {
			t.Fatalf("cancelled: phase %s, table live %v", tr.Phase(), tr.State().Tables[0].Live)
		}
		_, err := tr.Apply(&Command{Type: CmdCancel})
		wantCode(t, err, baccarat.CodeBadState)
	})
}

func TestStart(t *testing.T) {
	t.Run("the start closes registration, journals the seed and seats round 1", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann", "bob", "cat")
		evs := mustApply(t, tr, Command{Type: CmdStart, At: tr.cfg.Start, Seed: 42})
		if got := types(evs); !reflect.DeepEqual(got, []EventType{EvRegistrationClosed, EvStarted, EvRoundSeated}) {
			t.Fatalf("events %v", got)
		}
		if evs[1].Seed != 42 || evs[1].Count != 3 || evs[2].Chips != 10_000 || len(evs[2].Tables) != 1 {
			t.Errorf("started %+v seated %+v", evs[1], evs[2])
		}
		for _, p := range []string{"ann", "bob", "cat"} {
			if chips(tr, p) != 10_000 || tableOfPlayer(tr, p) != 1 {
				t.Errorf("%s: %d chips at table %d", p, chips(tr, p), tableOfPlayer(tr, p))
			}
		}
	})
}

func TestEntrant(t *testing.T) {
	tr := registered(t, baseConfig(), "ann", "bob")
	if e, ok := tr.Entrant("bob"); !ok || e.Entry != 2 || e.Fee != 1000 {
		t.Errorf("bob %+v %v", e, ok)
	}
	if _, ok := tr.Entrant("zed"); ok {
		t.Error("zed is not registered")
	}
}
