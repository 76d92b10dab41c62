package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const springConfig = `{"id":"spring","name":"Spring Cup","game":"%s","currency":"EUR",
 "entry_fee":1001,"starting_chips":10000,"max_entrants":8,"table_size":4,"break":"1m",
 "stakes":{"min":100,"max":2000,"required":true},"dragon":%t,
 "rounds":[{"hands":10,"advance":2},{"hands":10,"advance":2},{"hands":10}],
 "prizes":[6000,4000]}`

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.json")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

type runOut struct {
	Tournament string `json:"tournament"`
	Game       string `json:"game"`
	Entrants   int    `json:"entrants"`
	Pool       int64  `json:"pool"`
	Sessions   []struct {
		Round      int    `json:"round"`
		Table      string `json:"table"`
		Session    int    `json:"session"`
		Hands      int    `json:"hands"`
		ChipsStart int64  `json:"chips_start"`
		Rebuys     int64  `json:"rebuys"`
		ChipsEnd   int64  `json:"chips_end"`
		HouseNet   int64  `json:"house_net"`
		Standings  []struct {
			Player   string `json:"player"`
			Chips    int64  `json:"chips"`
			Rank     int    `json:"rank"`
			Advances *bool  `json:"advances"`
		} `json:"standings"`
	} `json:"sessions"`
	Prizes []struct {
		Player string `json:"player"`
		Rank   int    `json:"rank"`
		Amount int64  `json:"amount"`
	} `json:"prizes"`
}

func TestTournamentRunJSONKeepsItsInvariants(t *testing.T) {
	for _, game := range []string{"mbs-tournament", "rws-no-commission", "mbs-dragon"} {
		t.Run("SPEC 5 "+game+": every session balances, the prizes are the pool", func(t *testing.T) {
			path := writeConfig(t, strings.Replace(strings.Replace(springConfig, "%s", game, 1), "%t", boolText(game == "mbs-dragon"), 1))
			out, errs, code := execCmd(t, "tournament", "run", "--config", path, "--bots", "8", "--seed", "7", "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			var r runOut
			dec := json.NewDecoder(strings.NewReader(out))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				t.Fatalf("the JSON has another shape: %v\n%s", err, out)
			}
			if r.Tournament != "spring" || r.Game != game || r.Entrants != 8 || r.Pool != 8*1001 {
				t.Fatalf("head: %+v", r)
			}
			if len(r.Sessions) != 4 {
				t.Fatalf("two tables, a semi-final and a final are 4 sessions, not %d", len(r.Sessions))
			}
			for _, s := range r.Sessions {
				if s.ChipsStart+s.Rebuys != s.ChipsEnd+s.HouseNet {
					t.Errorf("round %d %s: %d + %d != %d + %d", s.Round, s.Table, s.ChipsStart, s.Rebuys, s.ChipsEnd, s.HouseNet)
				}
				if s.Hands != 10 || !strings.HasPrefix(s.Table, "t") || len(s.Standings) == 0 || s.Standings[0].Rank != 1 || s.Standings[0].Advances == nil {
					t.Errorf("session: %+v", s)
				}
				var sum int64
				for _, st := range s.Standings {
					sum += st.Chips
				}
				if sum != s.ChipsEnd {
					t.Errorf("the standings hold %d chips, the session ended with %d", sum, s.ChipsEnd)
				}
			}
			var paid int64
			for _, p := range r.Prizes {
				paid += p.Amount
			}
			if paid != r.Pool {
				t.Fatalf("prizes %d, pool %d", paid, r.Pool)
			}
		})
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestTournamentRunIsTheSameForTheSameSeed(t *testing.T) {
	path := writeConfig(t, strings.Replace(strings.Replace(springConfig, "%s", "mbs-dragon", 1), "%t", "true", 1))
	run := func(args ...string) string {
		out, errs, code := execCmd(t, append([]string{"tournament", "run", "--config", path}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return out
	}
	for _, format := range [][]string{{"--json"}, nil} {
		a, b := run(append(format, "--seed", "11")...), run(append(format, "--seed", "11")...)
		if a != b {
			t.Fatalf("seed 11 twice printed two tournaments:\n%s\n%s", a, b)
		}
		if c := run(append(format, "--seed", "12")...); c == a {
			t.Fatal("seeds 11 and 12 printed the same tournament")
		}
	}
	text := run("--seed", "11")
	for _, want := range []string{"Round 1, table t1, session 1: 10 hands", "at the start", "the house's net", "Finished: 8 entrants, pool 80.08 EUR"} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

func TestTournamentRunRefusesABadConfigClearly(t *testing.T) {
	good := strings.Replace(strings.Replace(springConfig, "%s", "mbs-dragon", 1), "%t", "true", 1)
	for _, tc := range []struct {
		name, config string
		args         []string
		want         string
	}{
		{"SPEC 5 a cash game is not a tournament game", strings.Replace(good, `"mbs-dragon"`, `"mbs-tiger"`, 1), nil, "is not a tournament game"},
		{"prize shares must sum to 100%", strings.Replace(good, "[6000,4000]", "[6000,3000]", 1), nil, "must sum to exactly 10000"},
		{"the final must be one table", strings.Replace(good, `[{"hands":10,"advance":2},{"hands":10,"advance":2},`, `[{"hands":10,"advance":3},`, 1), nil, "must be one table"},
		{"an unknown field is refused, not ignored", strings.Replace(good, `"dragon":true`, `"dragons":true`, 1), nil, `unknown field "dragons"`},
		{"not JSON", "{", nil, "unexpected EOF"},
		{"more bots than entries", good, []string{"--bots", "9"}, "--bots 9: give 1 to max_entrants (8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeConfig(t, tc.config)
			out, errs, code := execCmd(t, append([]string{"tournament", "run", "--config", path}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errs, tc.want)
			}
		})
	}
	t.Run("no config", func(t *testing.T) {
		if _, errs, code := execCmd(t, "tournament", "run"); code != 2 || !strings.Contains(errs, "--config is required") {
			t.Errorf("exit %d: %s", code, errs)
		}
	})
	t.Run("the help teaches with an example", func(t *testing.T) {
		out, _, code := execCmd(t, "tournament", "--help")
		if code != 0 || !strings.Contains(out, `"rounds":[{"hands":10,"advance":2}`) || !strings.Contains(out, "--seed") {
			t.Errorf("exit %d: %s", code, out)
		}
	})
}
