package roads

import (
	"encoding/json"
	"strings"
	"testing"
)

func jsonOf(v any) ([]byte, error) { return json.Marshal(v) }

func TestViewJSON(t *testing.T) {
	t.Run("a derived road not started is [] and its Ask entry null while the next result would not start it", func(t *testing.T) {
		b := mustBoard(t, "TB")
		got, err := jsonOf(b.View(Settings{}, -1))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			`"big_road":{"leading_ties":1,"columns":[{"side":"B","cells":[{"ties":0,"player_pair":false,"banker_pair":false,"natural":false}]}]}`,
			`"big_eye_boy":[]`, `"small_road":[]`, `"cockroach_pig":[]`,
			`"ask_banker":[null,null,null]`, `"ask_player":[null,null,null]`,
			`"big_eye_boy_grid":[]`, `"cards_left":null`,
		} {
			if !strings.Contains(string(got), want) {
				t.Errorf("JSON lacks %s\n%s", want, got)
			}
		}
	})
	t.Run("an Ask entry is the mark that would start its road, null for the roads that would not start", func(t *testing.T) {
		got, err := jsonOf(mustBoard(t, "TBP").View(Settings{}, -1))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"big_eye_boy":[]`, `"ask_banker":["red",null,null]`, `"ask_player":["blue",null,null]`} {
			if !strings.Contains(string(got), want) {
				t.Errorf("JSON lacks %s\n%s", want, got)
			}
		}
	})
	t.Run("the worked example's derived roads and Asks as colour names", func(t *testing.T) {
		var v struct {
			BigEyeBoy []string  `json:"big_eye_boy"`
			AskBanker []*string `json:"ask_banker"`
			AskPlayer []*string `json:"ask_player"`
		}
		raw, _ := jsonOf(mustBoard(t, workedExample).View(Settings{}, 100))
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if len(v.BigEyeBoy) != 26 || v.BigEyeBoy[0] != "blue" || v.BigEyeBoy[2] != "red" {
			t.Errorf("big_eye_boy = %v", v.BigEyeBoy)
		}
		if s := deref(v.AskBanker); s != "red red blue" {
			t.Errorf("ask_banker = %s", s)
		}
		if s := deref(v.AskPlayer); s != "blue blue red" {
			t.Errorf("ask_player = %s", s)
		}
	})
	t.Run("colours round-trip through JSON", func(t *testing.T) {
		in := [3]Colour{Red, None, Blue}
		raw, _ := jsonOf(in)
		var out [3]Colour
		if err := json.Unmarshal(raw, &out); err != nil || out != in {
			t.Errorf("%s read back as %v, %v", raw, out, err)
		}
		if err := json.Unmarshal([]byte(`["green"]`), &out); err == nil {
			t.Error("green was accepted as a road colour")
		}
	})
}

func deref(ss []*string) string {
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
