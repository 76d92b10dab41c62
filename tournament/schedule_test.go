package tournament

import (
	"testing"
	"time"
)

func scheduleConfig() Config {
	c := baseConfig()
	c.RegistrationCloses, c.Start = t0.Add(50*time.Minute), t0.Add(time.Hour)
	c.MaxEntrants, c.TableSize, c.Break = 4, 2, Duration(2*time.Minute)
	c.Rounds = []Round{
		{Sessions: []Session{{Duration: Duration(20 * time.Minute)}, {Hands: 1}}, Advance: 1},
		{Hands: 1},
	}
	return c
}

func TestSchedule(t *testing.T) {
	tr := mustNew(t, scheduleConfig())
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	// step checks what Next says at minute now: the command due (and applies it), or when
	// to look again.
	step := func(name string, now int, wantCmd CommandType, wantTable int, wantAt time.Time) {
		t.Run(name, func(t *testing.T) {
			cmd, next := Next(tr, at(now))
			switch {
			case wantCmd == "" && (cmd != nil || !next.Equal(wantAt)):
				t.Fatalf("at +%dm: %+v, look again at %v; want nothing until %v", now, cmd, next, wantAt)
			case wantCmd != "" && (cmd == nil || cmd.Type != wantCmd || cmd.Table != wantTable || !cmd.At.Equal(at(now))):
				t.Fatalf("at +%dm: %+v; want %s table %d", now, cmd, wantCmd, wantTable)
			case cmd != nil:
				if cmd.Type == CmdStart {
					cmd.Seed = 9
				}
				mustApply(t, tr, *cmd)
			}
		})
	}
	step("nothing before registration opens", -60, "", 0, at(0))
	step("registration opens at its time", 0, CmdOpenRegistration, 0, time.Time{})
	for _, p := range players(4) {
		mustApply(t, tr, Command{Type: CmdRegister, Player: p, At: at(5)})
	}
	step("registration stays open until its close", 10, "", 0, at(50))
	step("registration closes at its time", 50, CmdCloseRegistration, 0, time.Time{})
	step("the start waits for its time", 55, "", 0, at(60))
	step("the tournament starts at its time", 60, CmdStart, 0, time.Time{})
	step("the first sessions wait for the break", 60, "", 0, at(62))
	step("table 1's first session starts after the break", 62, CmdStartSession, 1, time.Time{})
	step("then table 2's, due at the same time, though the host is late", 65, CmdStartSession, 2, time.Time{})
	step("a timed session runs its time", 70, "", 0, at(82))
	step("table 1's time is up 20 minutes after it started", 82, CmdEndSession, 1, time.Time{})
	step("table 1's next session comes before table 2's time is up", 82, "", 0, at(84))
	step("table 1's second session starts after the break", 84, CmdStartSession, 1, time.Time{})
	step("table 2's time is up 20 minutes after it started", 85, CmdEndSession, 2, time.Time{})
	step("table 2's second session after its break", 86, "", 0, at(87))
	step("table 2's second session starts", 87, CmdStartSession, 2, time.Time{})
	step("sessions of hands wait for their hands, not the clock", 200, "", 0, time.Time{})
	t.Run("the hands end round 1 and seat the final", func(t *testing.T) {
		mustApply(t, tr, Command{Type: CmdReportHand, Table: 1, At: at(90)})
		mustApply(t, tr, Command{Type: CmdReportHand, Table: 2, At: at(91)})
		if tr.Round() != 2 {
			t.Fatalf("round %d", tr.Round())
		}
	})
	step("the final's session waits for the break after its seating", 91, "", 0, at(93))
	step("the final's session starts", 93, CmdStartSession, 1, time.Time{})
	t.Run("a finished tournament has nothing scheduled", func(t *testing.T) {
		mustApply(t, tr, Command{Type: CmdReportHand, Table: 1, At: at(95)})
		if cmd, next := Next(tr, at(1000)); tr.Phase() != PhaseFinished || cmd != nil || !next.IsZero() {
			t.Errorf("phase %s: %+v %v", tr.Phase(), cmd, next)
		}
	})
}

func TestScheduleStartWithoutSeparateClose(t *testing.T) {
	t.Run("when registration closes at the start, the start closes it", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann", "bob")
		cmd, _ := Next(tr, tr.cfg.Start)
		if cmd == nil || cmd.Type != CmdStart {
			t.Fatalf("%+v", cmd)
		}
	})
	t.Run("a cancelled tournament has nothing scheduled", func(t *testing.T) {
		tr := registered(t, baseConfig(), "ann")
		mustApply(t, tr, Command{Type: CmdCancel})
		if cmd, next := Next(tr, tr.cfg.Start); cmd != nil || !next.IsZero() {
			t.Errorf("%+v %v", cmd, next)
		}
	})
}
