package tournament

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

func TestReplay(t *testing.T) {
	tr := started(t, baseConfig(), "ann", "bob")
	var history []Event
	for _, c := range []Command{startSession(1), hand(1, ch("ann", 200))} {
		history = append(history, mustApply(t, tr, c)...)
	}
	t.Run("a history with a gap is refused", func(t *testing.T) {
		_, err := Replay(baseConfig(), history)
		wantCode(t, err, baccarat.CodeConflict)
	})
	t.Run("a history replays one event at a time", func(t *testing.T) {
		full := registered(t, baseConfig())
		mustApply(t, full, Command{Type: CmdRegister, Player: "ann"})
		evs := mustApply(t, full, Command{Type: CmdRegister, Player: "bob"})
		again := registered(t, baseConfig())
		if err := again.Restore(&evs[0]); err == nil {
			t.Fatal("restored event 3 after event 1")
		}
	})
	t.Run("a replay needs a valid config", func(t *testing.T) {
		c := baseConfig()
		c.ID = ""
		_, err := Replay(c, nil)
		wantCode(t, err, baccarat.CodeBadRequest)
	})
}

func TestCarriedChips(t *testing.T) {
	c := twoRounds(true, 2)
	c.Stakes.Max = 10_000
	c.Rounds[1].CarryChips = true
	c.Rounds[1].Stakes = &Stakes{Min: 5000, Max: 10_000}
	t.Run("chips carried into a round of a higher minimum eliminate who cannot make it", func(t *testing.T) {
		tr := started(t, c, "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", 100), ch("bob", -5100), ch("cat", -5200)))
		evs := mustApply(t, tr, hand(1))
		if !hasEvent(evs, EvEliminated) || !eliminated(tr, "bob") || eliminated(tr, "ann") || tr.Round() != 2 {
			t.Fatalf("events %v", types(evs))
		}
		if s := tr.TableStandings(1); len(s) != 2 || s[0].Player != "ann" || !s[1].Eliminated {
			t.Errorf("final standings %+v", s)
		}
	})
	t.Run("a final nobody can play is finished at once", func(t *testing.T) {
		tr := started(t, c, "ann", "bob", "cat")
		mustApply(t, tr, startSession(1))
		mustApply(t, tr, hand(1, ch("ann", -5100), ch("bob", -5100), ch("cat", -5200)))
		mustApply(t, tr, hand(1))
		r := tr.Results()
		if tr.Phase() != PhaseFinished || r[0].Player != "ann" || r[0].Round != 2 || r[1].Rank != 1 || r[0].Prize != 1200 || r[1].Prize != 1200 {
			t.Errorf("phase %s results %+v", tr.Phase(), tr.Results())
		}
	})
}

func TestAccessors(t *testing.T) {
	tr := started(t, baseConfig(), "ann", "bob")
	if tr.Chips() != "CHIPS:spring" || tr.Game().ID != "mbs-tournament" || tr.Seq() != 6 || tr.Stakes().Min != 100 {
		t.Errorf("chips %s game %s seq %d", tr.Chips(), tr.Game().ID, tr.Seq())
	}
	var d Duration
	if err := json.Unmarshal([]byte("90000000000"), &d); err != nil || d != Duration(90*time.Second) {
		t.Errorf("a duration in nanoseconds: %v %v", d, err)
	}
	if err := json.Unmarshal([]byte("true"), &d); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Errorf("a duration that is not one: %v", err)
	}
}
