package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// runRoadsCmd runs `baccarat roads args...` in-process.
func runRoadsCmd(t *testing.T, tty bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdout: &out, stderr: &errb, tty: tty}, append([]string{"roads"}, args...))
	return code, out.String(), errb.String()
}

const roadsWorkedExample = "T B P P T B B B P B P P B T T B P B B B B B B B B P P P P P P B"

func TestRoadsJSON(t *testing.T) {
	t.Run("the worked example as JSON with the required keys", func(t *testing.T) {
		code, out, stderr := runRoadsCmd(t, false, "--results", roadsWorkedExample, "--json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var v struct {
			BigRoad struct {
				LeadingTies int `json:"leading_ties"`
				Columns     []struct {
					Side  string `json:"side"`
					Cells []struct {
						Ties       int  `json:"ties"`
						PlayerPair bool `json:"player_pair"`
						BankerPair bool `json:"banker_pair"`
					} `json:"cells"`
				} `json:"columns"`
			} `json:"big_road"`
			BeadPlate    []json.RawMessage `json:"bead_plate"`
			BigRoadGrid  []json.RawMessage `json:"big_road_grid"`
			BigEyeBoy    []string          `json:"big_eye_boy"`
			SmallRoad    []string          `json:"small_road"`
			CockroachPig []string          `json:"cockroach_pig"`
			AskBanker    []*string         `json:"ask_banker"`
			AskPlayer    []*string         `json:"ask_player"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var cols []string
		for _, c := range v.BigRoad.Columns {
			cols = append(cols, c.Side+strings.Repeat("x", len(c.Cells)))
		}
		if got := strings.Join(cols, " "); v.BigRoad.LeadingTies != 1 || got != "Bx Pxx Bxxx Px Bx Pxx Bxx Px Bxxxxxxxx Pxxxxxx Bx" {
			t.Errorf("big_road: %d leading ties, columns %s", v.BigRoad.LeadingTies, got)
		}
		if v.BigRoad.Columns[6].Cells[0].Ties != 2 || v.BigRoad.Columns[1].Cells[1].Ties != 1 {
			t.Error("big_road tie counts are wrong")
		}
		if len(v.BeadPlate) != 32 || len(v.BigRoadGrid) != 28 {
			t.Errorf("bead_plate %d items, big_road_grid %d items", len(v.BeadPlate), len(v.BigRoadGrid))
		}
		for name, tc := range map[string]struct {
			got  []string
			want string
		}{
			"big_eye_boy":   {v.BigEyeBoy, "bbRbbbRbbRRbbRRRRRRbRRRRRb"},
			"small_road":    {v.SmallRoad, "bRbbbbbbbbRbRRRRRbbRRRRb"},
			"cockroach_pig": {v.CockroachPig, "RbRbbbRRbRRRRRbRbRRRb"},
		} {
			if got := shorthand(tc.got); got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", name, got, tc.want)
			}
		}
		if got := nullable(v.AskBanker); got != "red red blue" {
			t.Errorf("ask_banker = %s", got)
		}
		if got := nullable(v.AskPlayer); got != "blue blue red" {
			t.Errorf("ask_player = %s", got)
		}
	})
	t.Run("roads not started are [], an Ask entry null only where the next result would not start its road", func(t *testing.T) {
		_, out, _ := runRoadsCmd(t, false, "--results", "TBB", "--json")
		for _, want := range []string{`"small_road":[]`, `"cockroach_pig":[]`, `"big_eye_boy":[]`,
			`"ask_banker":[null,null,null]`, `"ask_player":[null,null,null]`} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %s:\n%s", want, out)
			}
		}
	})
	t.Run("ROADS.md: an Ask entry is the mark that would start its road", func(t *testing.T) {
		_, out, _ := runRoadsCmd(t, false, "--results", "TBP", "--json")
		for _, want := range []string{`"big_eye_boy":[]`, `"ask_banker":["red",null,null]`, `"ask_player":["blue",null,null]`} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %s:\n%s", want, out)
			}
		}
	})
	t.Run("pair flags and cards left reach the JSON", func(t *testing.T) {
		_, out, _ := runRoadsCmd(t, false, "--results", "Bpn Pb", "--cards-left", "410", "--json")
		for _, want := range []string{`"result":"B","player_pair":true,"banker_pair":false,"natural":true`,
			`"cards_left":410`, `"notation":"BpnPb"`} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %s:\n%s", want, out)
			}
		}
	})
}

func TestRoadsBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
		code int
	}{
		{"a bad letter names its position: exit 1", []string{"--results", "BPPXB"}, "position 4: 'X'", 1},
		{"a lower-case result is refused: exit 1", []string{"--results", "BPt"}, "position 3: 't'", 1},
		{"a threshold below 1 is a usage error: exit 2", []string{"--results", "BP", "--long", "0"}, "at least 1", 2},
		{"negative cards left is a usage error: exit 2", []string{"--results", "BP", "--cards-left", "-5"}, "cannot be negative", 2},
	} {
		t.Run(tc.name+", nothing on stdout", func(t *testing.T) {
			code, out, stderr := runRoadsCmd(t, false, append(tc.args, "--json")...)
			if code != tc.code || out != "" || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "[bad_request]") {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing, %q", code, out, stderr, tc.code, tc.want)
			}
		})
	}
}

func TestRoadsText(t *testing.T) {
	t.Run("plain text: letters, no escape codes", func(t *testing.T) {
		code, out, _ := runRoadsCmd(t, false, "--results", roadsWorkedExample)
		if code != 0 || strings.Contains(out, "\x1b[") {
			t.Fatalf("exit %d or colour codes in plain output:\n%s", code, out)
		}
		for _, want := range []string{"Bead Plate", "Big Road", "Big Eye Boy", "Small Road", "Cockroach Pig",
			"Ask Banker: Big Eye Boy red, Small Road red, Cockroach Pig blue", "32 hands"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("ROADS.md: text Ask shows the mark that would start a road, - where none would", func(t *testing.T) {
		_, out, _ := runRoadsCmd(t, false, "--results", "BP")
		for _, want := range []string{"Ask Banker: Big Eye Boy red, Small Road -, Cockroach Pig -",
			"Ask Player: Big Eye Boy blue, Small Road -, Cockroach Pig -"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("a terminal gets colour", func(t *testing.T) {
		_, out, _ := runRoadsCmd(t, true, "--results", roadsWorkedExample)
		if !strings.Contains(out, ansiRed) || !strings.Contains(out, ansiBlue) || !strings.Contains(out, ansiGreen) {
			t.Errorf("no colours on a terminal:\n%s", out)
		}
	})
	t.Run("--width scrolls every grid to its last columns", func(t *testing.T) {
		_, out, _ := runRoadsCmd(t, false, "--results", strings.Repeat("BP", 40), "--width", "5")
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "B ") || strings.HasPrefix(line, "P ") || strings.HasPrefix(line, ". ") {
				if n := len(strings.Fields(line)); n > 5 {
					t.Fatalf("a grid row has %d cells: %q", n, line)
				}
			}
		}
	})
	t.Run("--help documents the pair-flag notation", func(t *testing.T) {
		code, out, stderr := runRoadsCmd(t, false, "--help")
		if code != 0 || out != "" || !strings.Contains(stderr, "p Player pair   b Banker pair   n natural") {
			t.Errorf("--help: exit %d, stdout %q, stderr %q", code, out, stderr)
		}
	})
}

// shorthand writes colour names as ROADS.md does: R red, b blue.
func shorthand(cs []string) string {
	var sb strings.Builder
	for _, c := range cs {
		sb.WriteString(map[string]string{"red": "R", "blue": "b"}[c])
	}
	return sb.String()
}

func nullable(ss []*string) string {
	var out []string
	for _, s := range ss {
		if s == nil {
			out = append(out, "null")
		} else {
			out = append(out, *s)
		}
	}
	return strings.Join(out, " ")
}
