package tournament

import (
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

// TestHouseBotsAreTheirOwnKindOfEntrant (SPEC §5, house bots): a bot registers only as a bot,
// with an id no outside account can have, and a player's registration can never enter one.
func TestHouseBotsAreTheirOwnKindOfEntrant(t *testing.T) {
	cases := []struct {
		name   string
		player string
		bot    bool
		code   baccarat.Code
	}{
		{"a house bot registers as a bot", "bot.house-1", true, ""},
		{"a player registers as a player", "house-bot-1", false, ""},
		{"a player's registration cannot name a bot", "bot.house-1", false, baccarat.CodeBadRequest},
		{"a bot's registration needs a bot's id", "house-1", true, baccarat.CodeBadRequest},
		{"a bot's id has a name after its prefix", "bot.", true, baccarat.CodeBadRequest},
		{"a bot's name is an outside id's characters", "bot.a.b", true, baccarat.CodeBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := mustNew(t, baseConfig())
			log := mustApply(t, tr, Command{Type: CmdOpenRegistration})
			before := tr.State()
			evs, err := tr.Apply(&Command{Type: CmdRegister, Player: c.player, Bot: c.bot, At: t0.Add(time.Minute)})
			if c.code != "" {
				wantCode(t, err, c.code)
				if after := tr.State(); len(after.Entrants) != len(before.Entrants) || after.Seq != before.Seq {
					t.Fatalf("a refused registration changed the tournament")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			e, ok := tr.Entrant(c.player)
			if !ok || e.Bot != c.bot {
				t.Fatalf("entrant %+v: bot %v, want %v", e, e.Bot, c.bot)
			}
			re, err := Replay(baseConfig(), append(log, evs...))
			if err != nil {
				t.Fatal(err)
			}
			if e2, _ := re.Entrant(c.player); e2.Bot != c.bot {
				t.Fatalf("replayed entrant %+v", e2)
			}
		})
	}
}

// TestHouseSecretIsCommittedAtTheStartAndRevealedAtTheEnd (SPEC §2's commitment, for a
// tournament's draws): while the tournament runs its state shows the commitment only; once
// it is over, the seed and the secret, which hash to the commitment.
func TestHouseSecretIsCommittedAtTheStartAndRevealedAtTheEnd(t *testing.T) {
	tr := registered(t, baseConfig(), "ann", "bob")
	mustApply(t, tr, Command{Type: CmdStart, At: tr.cfg.Start, Seed: 42, Secret: "5ec2e7"})
	st := tr.State()
	if st.Commitment != Commitment(42, "5ec2e7") || st.Seed != 0 || st.Secret != "" {
		t.Fatalf("running: commitment %q seed %d secret %q: only the commitment is shown", st.Commitment, st.Seed, st.Secret)
	}
	if tr.Secret() != "5ec2e7" {
		t.Fatalf("the host reads the secret: %q", tr.Secret())
	}
	mustApply(t, tr, startSession(1))
	for range 3 {
		mustApply(t, tr, hand(1, ch("ann", 100), ch("bob", -100)))
	}
	st = tr.State()
	if st.Phase != PhaseFinished || st.Seed != 42 || st.Secret != "5ec2e7" || Commitment(st.Seed, st.Secret) != st.Commitment {
		t.Fatalf("finished: %s seed %d secret %q commitment %q", st.Phase, st.Seed, st.Secret, st.Commitment)
	}
	if Commitment(42, "5ec2e7") == Commitment(43, "5ec2e7") || Commitment(42, "5ec2e7") == Commitment(42, "5ec2e8") {
		t.Fatal("the commitment binds both the seed and the secret")
	}
}
