package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat/games"
)

// runCmd runs the whole program in-process, as a user would from a shell.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdout: &out, stderr: &errb, stdin: strings.NewReader("")}, args)
	return out.String(), errb.String(), code
}

func TestHelpListsCommands(t *testing.T) {
	out, _, code := runCmd(t, "help")
	if code != 0 || !strings.Contains(out, "coup") || !strings.Contains(out, "games") {
		t.Fatalf("help: %d %s", code, out)
	}
	if _, _, code := runCmd(t, "nope"); code != 2 {
		t.Fatalf("unknown command exit %d, want 2", code)
	}
}

func TestCoupJSONShape(t *testing.T) {
	out, errs, code := runCmd(t, "coup", "--game", "mbs-tiger", "--cards", "7h,Kd,2c,9s", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Game        string   `json:"game"`
		Player      []string `json:"player"`
		Banker      []string `json:"banker"`
		PlayerTotal int      `json:"player_total"`
		BankerTotal int      `json:"banker_total"`
		Winner      string   `json:"winner"`
		Natural     bool     `json:"natural"`
		CardsUsed   int      `json:"cards_used"`
		Bets        []struct {
			Bet, Result, Pays string
		} `json:"bets"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Game != "mbs-tiger" || strings.Join(got.Player, ",") != "7h,2c" || strings.Join(got.Banker, ",") != "Kd,9s" ||
		got.PlayerTotal != 9 || got.BankerTotal != 9 || got.Winner != "tie" || !got.Natural || got.CardsUsed != 4 {
		t.Fatalf("coup JSON: %s", out)
	}
	results := map[string]string{}
	for _, b := range got.Bets {
		results[b.Bet] = b.Result + " " + b.Pays
	}
	if results["tiger"] != "lose " || results["tie"] != "win 8:1" || results["player"] != "push " {
		t.Fatalf("bets: %v", results)
	}
}

func TestCoupErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"coup", "--game", "mbs-tiger", "--cards", "7h,Kd,2c"}, "needs at least 1 more card"},
		{[]string{"coup", "--game", "mbs-tiger", "--cards", "7h,Kd,2x,9s"}, `card 3 "2x"`},
		{[]string{"coup", "--game", "nope", "--cards", "7h,Kd,2c,9s"}, "unknown game"},
	}
	for _, tt := range tests {
		out, errs, code := runCmd(t, tt.args...)
		if code == 0 || out != "" || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want non-zero, nothing on stdout, %q", tt.args, code, out, errs, tt.want)
		}
	}
}

func TestCoupEveryGame(t *testing.T) {
	for _, g := range []string{"mbs-tournament", "rws-no-commission", "mbs-tiger", "mbs-dragon", "bet-on-baccarat", "punto-banco"} {
		out, errs, code := runCmd(t, "coup", "--game", g, "--cards", "2h 3c 3d 3s 9d 4c")
		if code != 0 || !strings.Contains(out, "banker") {
			t.Errorf("%s: %d %s %s", g, code, out, errs)
		}
	}
}

func TestDragonCommand(t *testing.T) {
	out, _, code := runCmd(t, "dragon", "--results", "BBTBBBPPB", "--stake", "100", "--json")
	if code != 0 || !strings.Contains(out, `"bet":"banker_dragon","longest":5,"result":"win","tier":"Ruby Dragon","pays":"2:1","net":200`) {
		t.Fatalf("dragon: %d %s", code, out)
	}
	_, errs, code := runCmd(t, "dragon", "--results", "BBX")
	if code == 0 || !strings.Contains(errs, `result 3 "X"`) {
		t.Fatalf("bad letter: %d %s", code, errs)
	}
}

func TestGamesCommand(t *testing.T) {
	out, _, code := runCmd(t, "games")
	for _, want := range []string{"mbs-tiger", "Banker wins on six", "1:2", "100:1", "decimal odds"} {
		if code != 0 || !strings.Contains(out, want) && !strings.Contains(out, "decimal") {
			t.Errorf("games output lacks %q", want)
		}
	}
	out, _, _ = runCmd(t, "games", "--json")
	var gs []games.Description
	if err := json.Unmarshal([]byte(out), &gs); err != nil || len(gs) != 6 {
		t.Fatalf("games --json: %v %d", err, len(gs))
	}
}
