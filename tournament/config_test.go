package tournament

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tablehouse/baccarat"
)

func TestConfigRefusals(t *testing.T) {
	cases := []struct {
		name   string
		change func(c *Config)
		code   baccarat.Code
		says   string
	}{
		{"an id with a space is refused", func(c *Config) { c.ID = "spring cup" }, baccarat.CodeBadRequest, "id"},
		{"an id over 64 characters is refused", func(c *Config) { c.ID = strings.Repeat("a", 65) }, baccarat.CodeBadRequest, "64"},
		{"a name is required", func(c *Config) { c.Name = "" }, baccarat.CodeBadRequest, "name"},
		{"an unknown game is refused", func(c *Config) { c.Game = "poker" }, baccarat.CodeUnknownGame, "poker"},
		{"a cash game is not a tournament game", func(c *Config) { c.Game = "punto-banco" }, baccarat.CodeBadRequest, "mbs-tournament, rws-no-commission, mbs-dragon"},
		{"Tiger is not a tournament game", func(c *Config) { c.Game = "mbs-tiger" }, baccarat.CodeBadRequest, "not a tournament game"},
		{"dragon bets only in mbs-dragon", func(c *Config) { c.Dragon = true }, baccarat.CodeBadRequest, "no Dragon bets"},
		{"the fee is not paid in chips", func(c *Config) { c.Currency = "CHIPS:x" }, baccarat.CodeBadRequest, "not in chips"},
		{"a currency is three capitals", func(c *Config) { c.Currency = "eur" }, baccarat.CodeBadRequest, "currency"},
		{"a currency is an ISO 4217 code, not any three capitals", func(c *Config) { c.Currency = "ABC" }, baccarat.CodeBadRequest, "ISO 4217"},
		{"a negative fee is refused", func(c *Config) { c.EntryFee = -1 }, baccarat.CodeBadRequest, "entry_fee"},
		{"starting chips are required", func(c *Config) { c.StartingChips = 0 }, baccarat.CodeBadRequest, "starting_chips"},
		{"times are required", func(c *Config) { c.Start = time.Time{} }, baccarat.CodeBadRequest, "required"},
		{"registration closes after it opens", func(c *Config) { c.RegistrationCloses = c.RegistrationOpens }, baccarat.CodeBadRequest, "registration_closes"},
		{"no start before registration closes", func(c *Config) { c.Start = c.RegistrationCloses.Add(-time.Second) }, baccarat.CodeBadRequest, "start"},
		{"a tournament needs two entrants", func(c *Config) { c.MinEntrants = 1 }, baccarat.CodeBadRequest, "min_entrants"},
		{"max entrants at least min entrants", func(c *Config) { c.MinEntrants, c.MaxEntrants = 4, 3 }, baccarat.CodeBadRequest, "max_entrants"},
		{"a table seats at least two", func(c *Config) { c.TableSize = 1 }, baccarat.CodeBadRequest, "table_size"},
		{"at least one round", func(c *Config) { c.Rounds = nil }, baccarat.CodeBadRequest, "rounds"},
		{"a session is hands or a duration, not both", func(c *Config) {
			c.Rounds[0] = Round{Sessions: []Session{{Hands: 3, Duration: Duration(time.Minute)}}}
		}, baccarat.CodeBadRequest, "either hands"},
		{"sessions and shorthand together are refused", func(c *Config) {
			c.Rounds[0] = Round{Hands: 3, Sessions: []Session{{Hands: 3}}}
		}, baccarat.CodeBadRequest, "not both"},
		{"a minimum stake of at least one chip", func(c *Config) { c.Stakes.Min = 0 }, baccarat.CodeBadRequest, "stakes"},
		{"the maximum stake is at least the minimum", func(c *Config) { c.Stakes.Max = 50 }, baccarat.CodeBadRequest, "stakes"},
		{"the minimum stake within the starting chips", func(c *Config) { c.Stakes = Stakes{Min: 20_000, Max: 30_000} }, baccarat.CodeBadRequest, "starting chips"},
		{"nobody advances from the final", func(c *Config) { c.Rounds[0].Advance = 1 }, baccarat.CodeBadRequest, "final"},
		{"a round before the final advances someone", func(c *Config) {
			c.Rounds = []Round{{Hands: 3}, {Hands: 3}}
		}, baccarat.CodeBadRequest, "advance"},
		{"the first round does not carry chips", func(c *Config) { c.Rounds[0].CarryChips = true }, baccarat.CodeBadRequest, "carry_chips"},
		{"the final is one table", func(c *Config) { c.MaxEntrants = 7 }, baccarat.CodeBadRequest, "one table"},
		{"the final is one table after per-table advancement", func(c *Config) {
			c.MaxEntrants, c.TableSize = 12, 3
			c.Rounds = []Round{{Hands: 3, Advance: 1}, {Hands: 3}}
		}, baccarat.CodeBadRequest, "4 players"},
		{"prize shares sum to exactly 10000", func(c *Config) { c.Prizes = []int{5000, 3000, 1000} }, baccarat.CodeBadRequest, "9000"},
		{"prize shares never increase", func(c *Config) { c.Prizes = []int{3000, 5000, 2000} }, baccarat.CodeBadRequest, "never increase"},
		{"at least one prize", func(c *Config) { c.Prizes = nil }, baccarat.CodeBadRequest, "prizes"},
		{"a rebuy window names a hand", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 1, Price: 1000, Chips: 10_000, Until: Point{Round: 1, Session: 1}}
		}, baccarat.CodeBadRequest, "rebuy until"},
		{"a rebuy window within the session's hands", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 1, Price: 1000, Chips: 10_000, Until: Point{Round: 1, Session: 1, Hand: 4}}
		}, baccarat.CodeBadRequest, "only 3 hands"},
		{"rebuy chips cover the minimum stake", func(c *Config) {
			c.Rebuy = &Rebuy{Max: 1, Price: 1000, Chips: 50, Until: Point{Round: 1, Session: 1, Hand: 1}}
		}, baccarat.CodeBadRequest, "minimum stake"},
		{"the pool fits the books", func(c *Config) { c.EntryFee = baccarat.MaxAmount }, baccarat.CodeBadRequest, "pool"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := baseConfig()
			tc.change(&c)
			_, err := New(c)
			wantCode(t, err, tc.code)
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("message %q does not say %q", err, tc.says)
			}
		})
	}
}

func TestConfigNormalize(t *testing.T) {
	t.Run("every tournament game is accepted", func(t *testing.T) {
		for _, g := range []string{"mbs-tournament", "rws-no-commission", "mbs-dragon"} {
			c := baseConfig()
			c.Game = g
			if _, err := New(c); err != nil {
				t.Errorf("%s: %v", g, err)
			}
		}
	})
	t.Run("shorthand hands become one session and the stakes fill in", func(t *testing.T) {
		c, _, err := baseConfig().Normalize()
		if err != nil {
			t.Fatal(err)
		}
		r := c.Rounds[0]
		if !reflect.DeepEqual(r.Sessions, []Session{{Hands: 3}}) || r.Hands != 0 || *r.Stakes != c.Stakes || c.MinEntrants != 2 {
			t.Errorf("normalized round %+v, min entrants %d", r, c.MinEntrants)
		}
		again, _, err := c.Normalize()
		if err != nil || !reflect.DeepEqual(again, c) {
			t.Errorf("normalize is not idempotent: %v", err)
		}
	})
	t.Run("normalize leaves the caller's config alone", func(t *testing.T) {
		c := baseConfig()
		if _, _, err := c.Normalize(); err != nil || c.Rounds[0].Hands != 3 || c.Rounds[0].Stakes != nil {
			t.Errorf("config changed: %+v %v", c.Rounds[0], err)
		}
	})
	t.Run("a round's own stakes override the tournament's", func(t *testing.T) {
		c := twoRounds(false, 1)
		c.Rounds[1].Stakes = &Stakes{Min: 500, Max: 9000, Required: true}
		tr := mustNew(t, c)
		if got := *tr.Config().Rounds[1].Stakes; got.Min != 500 || !got.Required {
			t.Errorf("final stakes %+v", got)
		}
	})
}

func TestConfigJSON(t *testing.T) {
	const text = `{"id":"spring","name":"Spring Cup","game":"mbs-dragon","currency":"EUR","entry_fee":5000,
		"guarantee":100000,"starting_chips":10000,"registration_opens":"2026-03-01T18:00:00Z",
		"registration_closes":"2026-03-01T19:00:00Z","start":"2026-03-01T19:00:00Z","max_entrants":36,
		"table_size":6,"break":"2m","stakes":{"min":100,"max":2000,"required":true},
		"rounds":[{"name":"heats","sessions":[{"hands":30},{"duration":"20m"}],"advance":1},{"name":"final","hands":30,"carry_chips":true}],
		"rebuy":{"max":2,"price":5000,"chips":10000,"until":{"round":1,"session":1,"hand":10}},
		"prizes":[5000,3000,2000],"dragon":true}`
	var c Config
	if err := json.Unmarshal([]byte(text), &c); err != nil {
		t.Fatal(err)
	}
	tr := mustNew(t, c)
	got := tr.Config()
	if got.Break != Duration(2*time.Minute) || got.Rounds[0].Sessions[1].Duration != Duration(20*time.Minute) {
		t.Errorf("durations: break %v, session %v", got.Break, got.Rounds[0].Sessions[1].Duration)
	}
	b, _ := json.Marshal(got)
	if !strings.Contains(string(b), `"break":"2m0s"`) || !strings.Contains(string(b), `"duration":"20m0s"`) {
		t.Errorf("durations are not written as text: %s", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, got) {
		t.Errorf("config does not round-trip through JSON: %v\n%+v\n%+v", err, back, got)
	}
	if err := json.Unmarshal([]byte(`{"break":"soon"}`), &back); baccarat.ErrorCode(err) != baccarat.CodeBadRequest {
		t.Errorf("a bad duration: %v", err)
	}
}

func TestCommandJSON(t *testing.T) {
	t.Run("a command round-trips through JSON, the seed as a string", func(t *testing.T) {
		c := Command{Type: CmdReportHand, At: t0, Table: 2, Hand: 7, Changes: []ChipChange{{"ann", -50}, {"bob", 0}}, Seed: 1<<63 + 5}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"seed":"9223372036854775813"`) || !strings.Contains(string(b), `"cmd":"report_hand"`) {
			t.Errorf("%s", b)
		}
		var back Command
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, c) {
			t.Errorf("%+v %v", back, err)
		}
	})
}
