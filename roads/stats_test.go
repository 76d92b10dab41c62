package roads

import (
	"testing"
)

func TestStatsCounts(t *testing.T) {
	b := mustBoard(t, "TBpPPnTBbBB")
	s := b.Stats(Settings{}, 300)
	for _, tc := range []struct {
		name string
		got  Share
		want int
	}{
		{"banker", s.Banker, 4}, {"player", s.Player, 2}, {"tie", s.Tie, 2},
		{"player pairs", s.PlayerPairs, 1}, {"banker pairs", s.BankerPairs, 1}, {"naturals", s.Naturals, 1},
	} {
		if tc.got.Count != tc.want || tc.got.Of != 8 {
			t.Errorf("%s = %d/%d, want %d/8", tc.name, tc.got.Count, tc.got.Of, tc.want)
		}
	}
	if s.Hands != 8 || s.CardsLeft == nil || *s.CardsLeft != 300 || s.LongestBanker != 3 || s.LongestPlayer != 2 {
		t.Errorf("stats = %+v", s)
	}
	if s := b.Stats(Settings{}, -1); s.CardsLeft != nil {
		t.Error("unknown cards left should be nil")
	}
}

func TestShare(t *testing.T) {
	for _, tc := range []struct {
		s        Share
		perMille int
	}{
		{Share{0, 0}, 0}, {Share{1, 3}, 333}, {Share{2, 3}, 667}, {Share{1, 2000}, 1}, {Share{1, 2001}, 0}, {Share{5, 5}, 1000},
	} {
		if got := tc.s.PerMille(); got != tc.perMille {
			t.Errorf("%d/%d per mille = %d, want %d", tc.s.Count, tc.s.Of, got, tc.perMille)
		}
	}
}

func TestDetectors(t *testing.T) {
	for _, tc := range []struct {
		name, rounds, detector string
		length                 int
	}{
		{"long Banker counts the current column's cells", "PBBBBB", "long_banker", 5},
		{"ties do not break a long streak", "PBBTBB", "long_banker", 4},
		{"long Banker is 0 while the Player has the column", "BBBBP", "long_banker", 0},
		{"long Player", "BPPPP", "long_player", 4},
		{"ping-pong counts columns of one", "BBPBPB", "ping_pong", 4},
		{"ping-pong ends when the current column grows", "PBPBB", "ping_pong", 0},
		{"double jump counts columns of two", "PBBPPBB", "double_jump", 3},
		{"double jump: a current column of one is pending", "PBBPPB", "double_jump", 2},
		{"double jump ends at a column of three", "BBBPPBB", "double_jump", 2},
		{"one Banker two Player: B PP B PP", "BPPBPP", "one_banker_two_player", 4},
		{"one Banker two Player: a current P of one is pending", "PPBPPBP", "one_banker_two_player", 4},
		{"one Player two Banker: P BB P BB", "BBPBBPBB", "one_player_two_banker", 5},
		{"Banker consecutive skips Player columns", "BPBBPPPBBBPBB", "banker_consecutive", 3},
		{"Banker consecutive: a current Banker of one is pending", "BBPBBPB", "banker_consecutive", 2},
		{"Banker consecutive ends at a Banker of one", "BBPBPBB", "banker_consecutive", 1},
		{"Player consecutive", "PPBPPPBP", "player_consecutive", 2},
	} {
		t.Run("detector "+tc.name, func(t *testing.T) {
			d := detector(t, mustBoard(t, tc.rounds).Stats(Settings{}, -1), tc.detector)
			if d.Length != tc.length {
				t.Errorf("%s on %s: length %d, want %d", tc.detector, tc.rounds, d.Length, tc.length)
			}
		})
	}
	t.Run("detector thresholds are settings", func(t *testing.T) {
		b := mustBoard(t, "PBBBBB")
		if d := detector(t, b.Stats(Settings{}, -1), "long_banker"); !d.Hit || d.Threshold != 4 {
			t.Errorf("default: %+v", d)
		}
		if d := detector(t, b.Stats(Settings{LongStreak: 6}, -1), "long_banker"); d.Hit || d.Threshold != 6 {
			t.Errorf("threshold 6: %+v", d)
		}
	})
}

func detector(t *testing.T, s Stats, name string) Detector {
	t.Helper()
	for _, d := range s.Detectors {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no detector %s", name)
	return Detector{}
}
