package tournament

import (
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

// bigConfig is baseConfig with room to move: up to 1000 entrants at tables of 10, the top
// 10 overall to a final table.
func bigConfig() Config {
	c := baseConfig()
	c.MaxEntrants, c.TableSize = 1000, 10
	c.Rounds = []Round{{Hands: 30, Advance: 10, AdvanceOverall: true}, {Hands: 30}}
	return c
}

// TestEveryTournamentSettingOutOfItsRangeIsRefusedAtCreation: New refuses each setting
// outside its range with bad_request naming the setting and its range, and nothing is made.
func TestEveryTournamentSettingOutOfItsRangeIsRefusedAtCreation(t *testing.T) {
	day := 24 * time.Hour
	for _, c := range []struct {
		name   string
		change func(c *Config)
		says   []string
	}{
		{"a negative entry fee is refused", func(c *Config) { c.EntryFee = -1 }, []string{"entry_fee", "0 to 1000000000000000"}},
		{"an entry fee the books cannot post is refused", func(c *Config) { c.EntryFee = baccarat.MaxAmount + 1 }, []string{"entry_fee", "0 to 1000000000000000"}},
		{"a negative guarantee is refused", func(c *Config) { c.Guarantee = -1 }, []string{"guarantee", "0 to"}},
		{"no starting chips is refused", func(c *Config) { c.StartingChips = 0 }, []string{"starting_chips", "1 to"}},
		{"more starting chips than the books post is refused", func(c *Config) { c.StartingChips = baccarat.MaxAmount + 1 }, []string{"starting_chips", "1 to"}},
		{"registration opening more than a year before the start is refused", func(c *Config) {
			c.RegistrationOpens = c.Start.Add(-367 * day)
		}, []string{"registration_opens", "366 days"}},
		{"a negative break is refused", func(c *Config) { c.Break = Duration(-time.Second) }, []string{"break", "0 to 24h"}},
		{"a break over a day is refused", func(c *Config) { c.Break = MaxBreak + 1 }, []string{"break", "0 to 24h"}},
		{"one entrant is refused", func(c *Config) { c.MinEntrants = 1 }, []string{"min_entrants", "at least 2"}},
		{"more entrants than the limit is refused", func(c *Config) { c.MaxEntrants = MaxEntrantsLimit + 1 }, []string{"max_entrants", "to 100000"}},
		{"a table of one is refused", func(c *Config) { c.TableSize = 1 }, []string{"table_size", "2 to 1000"}},
		{"a table of 1001 is refused", func(c *Config) { c.TableSize = MaxTableSize + 1 }, []string{"table_size", "2 to 1000"}},
		{"no round is refused", func(c *Config) { c.Rounds = nil }, []string{"rounds", "1 to 20"}},
		{"21 rounds are refused", func(c *Config) { c.Rounds = make([]Round, maxRounds+1) }, []string{"rounds", "1 to 20"}},
		{"101 sessions in a round are refused", func(c *Config) {
			c.Rounds[0] = Round{Sessions: make([]Session, maxSessions+1), Advance: 10, AdvanceOverall: true}
		}, []string{"round 1", "1 to 100 sessions"}},
		{"a session of no hands and no time is refused", func(c *Config) { c.Rounds[1] = Round{Sessions: []Session{{}}} }, []string{"round 2 session 1", "either hands"}},
		{"a session of negative hands is refused", func(c *Config) { c.Rounds[1].Hands = -3 }, []string{"round 2 session 1", "1 to 1000"}},
		{"a session longer than the odds engine prices is refused", func(c *Config) { c.Rounds[1].Hands = MaxSessionHands + 1 }, []string{"round 2 session 1", "hands", "1 to 1000"}},
		{"a negative session time is refused", func(c *Config) {
			c.Rounds[1] = Round{Duration: Duration(-time.Minute)}
		}, []string{"round 2 session 1", "duration", "1s to 24h"}},
		{"a session under a second is refused", func(c *Config) {
			c.Rounds[1] = Round{Duration: Duration(time.Millisecond)}
		}, []string{"round 2 session 1", "duration", "1s to 24h"}},
		{"a session over a day is refused", func(c *Config) {
			c.Rounds[1] = Round{Duration: MaxSessionTime + 1}
		}, []string{"round 2 session 1", "duration", "1s to 24h"}},
		{"a round name of 101 characters is refused", func(c *Config) { c.Rounds[0].Name = strings.Repeat("x", 101) }, []string{"round 1 name", "100"}},
		{"a round name with a control character is refused", func(c *Config) { c.Rounds[0].Name = "heat\n1" }, []string{"round 1 name", "printable"}},
		{"advancing nobody is refused", func(c *Config) { c.Rounds[0].Advance = 0 }, []string{"round 1", "advance", "1 to 1000"}},
		{"advancing more than the entrants is refused", func(c *Config) { c.Rounds[0].Advance = 1001 }, []string{"round 1", "advance", "1 to 1000", "max_entrants"}},
		{"advancing more than a table seats is refused", func(c *Config) {
			c.Rounds[0].AdvanceOverall, c.Rounds[0].Advance = false, 11
		}, []string{"round 1", "advance", "1 to 10", "table_size"}},
		{"a minimum stake of nothing is refused", func(c *Config) { c.Stakes.Min = 0 }, []string{"stakes", "min of at least 1"}},
		{"a maximum stake the books cannot post is refused", func(c *Config) { c.Stakes.Max = baccarat.MaxAmount + 1 }, []string{"stakes", "max of min to 1000000000000000"}},
		{"no rebuys is refused", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 0, Price: 100, Chips: 1000, Until: Point{Round: 1, Session: 1, Hand: 1}}
		}, []string{"rebuy max", "1 to 100"}},
		{"101 rebuys are refused", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 101, Price: 100, Chips: 1000, Until: Point{Round: 1, Session: 1, Hand: 1}}
		}, []string{"rebuy max", "1 to 100"}},
		{"a negative rebuy price is refused", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 1, Price: -1, Chips: 1000, Until: Point{Round: 1, Session: 1, Hand: 1}}
		}, []string{"rebuy price", "0 to"}},
		{"a rebuy of no chips is refused", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 1, Price: 100, Chips: 0, Until: Point{Round: 1, Session: 1, Hand: 1}}
		}, []string{"rebuy chips", "1 to"}},
		{"more prize places than entrants are refused", func(c *Config) { c.Prizes = make([]int, 1001) }, []string{"prizes", "1 to max_entrants (1000)"}},
		{"a prize share over 100% is refused", func(c *Config) { c.Prizes = []int{10001} }, []string{"prizes", "1 to 10000 basis points"}},
		{"a schedule of more chip changes than the journal holds is refused", func(c *Config) {
			c.MaxEntrants, c.TableSize = MaxEntrantsLimit, 1000
			c.Rounds = []Round{{Hands: 21, Advance: 10, AdvanceOverall: true}, {Hands: 30}}
		}, []string{"schedule", "2100300 chip changes", "at most 2000000"}},
		{"a schedule of more table hands than the journal holds is refused", func(c *Config) {
			c.MaxEntrants, c.TableSize = 10_000, 2
			c.Rounds = []Round{{Hands: 81, Advance: 2, AdvanceOverall: true}, {Hands: 1}}
		}, []string{"schedule", "405001 table hands", "at most 2000000 and 400000"}},
		{"a timed session counts a hand every 10 seconds", func(c *Config) {
			c.MaxEntrants = 10_000
			c.Rounds[0] = Round{Sessions: []Session{{Duration: MaxSessionTime}, {Duration: MaxSessionTime}}, Advance: 10, AdvanceOverall: true}
		}, []string{"schedule", "a hand per 10s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := bigConfig()
			c.change(&cfg)
			tr, err := New(cfg)
			if baccarat.ErrorCode(err) != baccarat.CodeBadRequest || tr != nil {
				t.Fatalf("New: %v, want bad_request and no tournament", err)
			}
			for _, s := range c.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%q does not say %q", err, s)
				}
			}
		})
	}
}

// TestEveryTournamentSettingAtTheEdgeOfItsRangeIsTaken: the ends of the ranges pass.
func TestEveryTournamentSettingAtTheEdgeOfItsRangeIsTaken(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(c *Config)
	}{
		{"no break", func(c *Config) { c.Break = 0 }},
		{"a day's break", func(c *Config) { c.Break = MaxBreak }},
		{"registration open 366 days before the start", func(c *Config) { c.RegistrationOpens = c.Start.Add(-MaxLead) }},
		{"a one-hand session", func(c *Config) { c.Rounds[1].Hands = 1 }},
		{"the longest session of hands", func(c *Config) { c.Rounds[1].Hands = MaxSessionHands }},
		{"a one-second session", func(c *Config) { c.Rounds[1] = Round{Duration: MinSessionTime} }},
		{"a day's session", func(c *Config) { c.Rounds[1] = Round{Duration: MaxSessionTime} }},
		{"a table of 1000", func(c *Config) { c.MaxEntrants, c.TableSize = 1000, MaxTableSize }},
		{"advancing every entrant overall", func(c *Config) {
			c.MaxEntrants, c.TableSize = 10, 10
			c.Rounds[0].Advance = 10
		}},
		{"advancing a whole table", func(c *Config) {
			c.MaxEntrants, c.TableSize = 10, 10
			c.Rounds[0].AdvanceOverall, c.Rounds[0].Advance = false, 10
		}},
		{"100 rebuys", func(c *Config) {
			c.Rebuy = &Rebuy{Max: maxRebuys, Price: 0, Chips: 1000, Until: Point{Round: 1, Session: 1, Hand: 1}}
		}},
		{"100,000 entrants playing 19 hands and a final of 100: under two million chip changes", func(c *Config) {
			c.MaxEntrants, c.TableSize = MaxEntrantsLimit, 1000
			c.Rounds = []Round{{Hands: 19, Advance: 10, AdvanceOverall: true}, {Hands: 100}}
		}},
		{"20 rounds of 100 sessions", func(c *Config) {
			c.MaxEntrants, c.TableSize = 10, 10
			c.Rounds = make([]Round, maxRounds)
			for i := range c.Rounds {
				c.Rounds[i] = Round{Sessions: make([]Session, maxSessions), Advance: 10, AdvanceOverall: true}
				for j := range c.Rounds[i].Sessions {
					c.Rounds[i].Sessions[j].Hands = 10
				}
			}
			c.Rounds[maxRounds-1].Advance, c.Rounds[maxRounds-1].AdvanceOverall = 0, false
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := bigConfig()
			c.change(&cfg)
			if _, err := New(cfg); err != nil {
				t.Fatalf("New: %v", err)
			}
		})
	}
}

// TestAHistoryIsNotHeldToRangesSetSince: a tournament journalled before a range was set or
// narrowed (here a session of 5,000 hands, within the old bound of 10,000) still recovers
// from its journal, though a new one like it is refused.
func TestAHistoryIsNotHeldToRangesSetSince(t *testing.T) {
	c := baseConfig()
	c.Rounds = []Round{{Hands: 5000}}
	if _, err := New(c); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Fatalf("a new tournament out of range: %v", err)
	}
	if _, err := Replay(c, nil); err != nil {
		t.Fatalf("its history: %v", err)
	}
	c.Rounds = []Round{{Hands: 0}}
	if _, err := Replay(c, nil); err == nil {
		t.Fatal("a history is still held to what it cannot be played without")
	}
}
