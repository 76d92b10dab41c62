package table

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/odds"
)

// TestEveryTableSettingOutOfItsRangeIsRefusedAtCreation: Check refuses each setting below
// and above its range with bad_request, naming the setting and the range, and leaves the
// configuration as it was given.
func TestEveryTableSettingOutOfItsRangeIsRefusedAtCreation(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		says []string // the setting and its range
	}{
		{"SPEC 2 Tiger is played with 4 to 10 decks, not 3", Config{Game: "mbs-tiger", Decks: 3}, []string{"4 to 10 decks"}},
		{"SPEC 2 Tiger is played with 4 to 10 decks, not 11", Config{Game: "mbs-tiger", Decks: 11}, []string{"4 to 10 decks"}},
		{"SPEC 2 RWS is played with 4 to 8 decks, not 9", Config{Game: "rws-no-commission", Decks: 9}, []string{"4 to 8 decks"}},
		{"a Dragon session of no hands is refused", Config{Game: "mbs-dragon", SessionHands: -1}, []string{"session_hands", "1 to 1000"}},
		{"a Dragon session longer than the odds engine prices is refused", Config{Game: "mbs-dragon", SessionHands: odds.MaxSessionHands + 1}, []string{"session_hands", "1 to 1000"}},
		{"a session of a billion hands is refused", Config{Game: "mbs-dragon", SessionHands: 1_000_000_000, Cash: true}, []string{"session_hands", "1 to 1000"}},
		{"a cut card before the shoe is refused", Config{Game: "punto-banco", CutCard: -1}, []string{"cut_card", "1 to 410"}},
		{"a cut card leaving no round before it is refused", Config{Game: "punto-banco", CutCard: 411}, []string{"cut_card", "1 to 410"}},
		{"the cut card's range follows the decks", Config{Game: "punto-banco", Decks: 4, CutCard: 203}, []string{"cut_card", "1 to 202"}},
		{"a negative squeeze window is refused", Config{Game: "mbs-tiger", Squeeze: true, SqueezeSeconds: -1}, []string{"squeeze_seconds", "1 to 60"}},
		{"a squeeze window over a minute is refused", Config{Game: "mbs-tiger", Squeeze: true, SqueezeSeconds: 61}, []string{"squeeze_seconds", "1 to 60"}},
		{"Tiger 5.18 a negative differential is refused", Config{Game: "mbs-tiger", Differential: -1}, []string{"differential", "0 (no limit) to 1000000000000000"}},
		{"Tiger 5.18 a differential the books cannot post is refused", Config{Game: "mbs-tiger", Differential: baccarat.MaxAmount + 1}, []string{"differential", "0 (no limit) to 1000000000000000"}},
		{"Tiger 3.6 a negative number of wagers per area is refused", Config{Game: "mbs-tiger", MaxWagersPerArea: -1}, []string{"max_wagers_per_area", "1 to 3"}},
		{"Tiger 3.6 the pit may set fewer wagers per area, never more", Config{Game: "mbs-tiger", MaxWagersPerArea: 4}, []string{"max_wagers_per_area", "1 to 3"}},
		{"wagers per area in a game without the rule are refused", Config{Game: "punto-banco", MaxWagersPerArea: 2}, []string{"max_wagers_per_area", "no limit of wagers per area"}},
		{"a negative minimum is refused", Config{Game: "mbs-tiger", Limits: map[string]Limit{"tie": {Min: -1, Max: 100}}}, []string{"limits.tie", "0 or more"}},
		{"a maximum below the minimum is refused", Config{Game: "mbs-tiger", DefaultLimit: Limit{Min: 500, Max: 100}}, []string{"default_limit", "at least the minimum"}},
		{"a maximum the books could not pay is refused", Config{Game: "mbs-tiger", Limits: map[string]Limit{"big_tiger": {Min: 1, Max: baccarat.MaxAmount}}}, []string{"limits.big_tiger", "the most a wager may be"}},
		{"BoB 3.5 a margin of 100% is refused", Config{Game: "bet-on-baccarat", Margins: map[string]odds.Margin{"tie": 10000}}, []string{"margin", "0 to 9999 basis points"}},
		{"BoB 3.5 a negative margin is refused", Config{Game: "bet-on-baccarat", Margins: map[string]odds.Margin{"tie": -1}}, []string{"margin", "0 to 9999 basis points"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := c.cfg
			err := c.cfg.Check()
			if baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
				t.Fatalf("Check: %v, want bad_request", err)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
			if !reflect.DeepEqual(c.cfg, before) {
				t.Errorf("Check changed the configuration: %+v", c.cfg)
			}
		})
	}
}

// TestEveryTableSettingAtTheEdgeOfItsRangeIsTaken: the ends of every range, and 0 for the
// defaults, pass Check, and a table is made from them.
func TestEveryTableSettingAtTheEdgeOfItsRangeIsTaken(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"every default", Config{Game: "mbs-dragon"}},
		{"a one-hand Dragon session", Config{Game: "mbs-dragon", SessionHands: 1}},
		{"the longest Dragon session analyze prices", Config{Game: "mbs-dragon", SessionHands: odds.MaxSessionHands, Cash: true}},
		{"a cut card one card from the end", Config{Game: "punto-banco", CutCard: 1}},
		{"a cut card leaving six cards for a round", Config{Game: "punto-banco", Decks: 4, CutCard: 4*52 - 6}},
		{"a one-second squeeze", Config{Game: "mbs-tiger", Squeeze: true, SqueezeSeconds: 1}},
		{"a minute's squeeze", Config{Game: "mbs-tiger", Squeeze: true, SqueezeSeconds: MaxSqueezeSeconds}},
		{"the largest differential", Config{Game: "mbs-tiger", Differential: baccarat.MaxAmount}},
		{"Tiger 3.6 one wager per area", Config{Game: "mbs-tiger", MaxWagersPerArea: 1}},
		{"Tiger 3.6 three wagers per area", Config{Game: "mbs-tiger", MaxWagersPerArea: 3}},
		{"a margin of 99.99%", Config{Game: "bet-on-baccarat", Margins: map[string]odds.Margin{"tie": 9999}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.cfg.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if _, err := New(c.cfg); err != nil {
				t.Fatalf("New: %v", err)
			}
		})
	}
}

// TestATableJournalledOutOfARangeStillRecovers: the ranges are for new tables; Normalize,
// which Replay runs on a journalled configuration, still takes one made before them, so
// that the table and the stakes on it recover.
func TestATableJournalledOutOfARangeStillRecovers(t *testing.T) {
	cfg := Config{Game: "mbs-dragon", SessionHands: 1_000_000_000, Cash: true, MaxWagersPerArea: 7}
	if cfg.Check() == nil {
		t.Fatal("Check takes a billion-hand session")
	}
	tb, err := Replay(cfg, nil)
	if err != nil {
		t.Fatalf("Replay of a table journalled before the ranges: %v", err)
	}
	if got := tb.Config().SessionHands; got != 1_000_000_000 {
		t.Errorf("session hands %d", got)
	}
}
