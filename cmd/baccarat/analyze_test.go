package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func execCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{stdout: &out, stderr: &errb}, args)
	return out.String(), errb.String(), code
}

func analyzeJSON(t *testing.T, args ...string) analysisJSON {
	t.Helper()
	out, errs, code := execCmd(t, append([]string{"analyze", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var a analysisJSON
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return a
}

func TestAnalyzeJSON(t *testing.T) {
	a := analyzeJSON(t, "--game", "mbs-tiger")
	for _, tc := range []struct{ name, got, want string }{
		{"SPEC §7 Banker ways", a.Ways["banker_win"], "2292252566437888"},
		{"SPEC §7 Player ways", a.Ways["player_win"], "2230518282592256"},
		{"SPEC §7 Tie ways", a.Ways["tie"], "475627426473216"},
		{"416·415·414·413·412·411 sequences", a.Sequences, "4998398275503360"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
		}
	}
	if a.Game != "mbs-tiger" || a.Cards != 416 || len(a.Bets) != 8 {
		t.Fatalf("%+v", a)
	}
	var tiger *betSheetJSON
	for i := range a.Bets {
		if a.Bets[i].Bet == "tiger" {
			tiger = &a.Bets[i]
		}
	}
	if tiger == nil || tiger.Odds != nil || len(tiger.Tiers) != 2 || tiger.Tiers[0].Pays != "12:1" {
		t.Fatalf("tiger row %+v", tiger)
	}
	if d := tiger.HouseEdge - 0.166836; d > 5e-7 || d < -5e-7 {
		t.Errorf("Tiger house edge %.7f, want 0.166836", tiger.HouseEdge)
	}
	if len(tiger.EoR) != 13 {
		t.Errorf("effect of removal for %d ranks", len(tiger.EoR))
	}
}

func TestAnalyzeBetOnBaccaratOdds(t *testing.T) {
	a := analyzeJSON(t, "--game", "bet-on-baccarat", "--revealed", "P:7h,B:Kd", "--margin", "player=3%,tie=0.08")
	if a.Cards != 310 || strings.Join(a.Revealed, " ") != "7h Kd" {
		t.Fatalf("%d cards, revealed %v", a.Cards, a.Revealed)
	}
	for _, b := range a.Bets {
		if b.Odds == nil || b.Offered == nil || b.Margin == nil {
			t.Fatalf("%s: no odds", b.Bet)
		}
		want := map[string]float64{"player": 0.03, "tie": 0.08}[b.Bet]
		if want == 0 {
			want = map[string]float64{"banker": 0.025, "big": 0.025, "small": 0.025}[b.Bet]
		}
		if want == 0 {
			want = 0.05
		}
		if *b.Margin != want {
			t.Errorf("%s margin %v, want %v", b.Bet, *b.Margin, want)
		}
		// SPEC §3.5: odds ≤ (1 − m − r)/p < odds + 0.01
		fair := (1 - *b.Margin - b.Push) / b.Win
		if *b.Odds > fair+1e-9 || *b.Odds+0.01 <= fair-1e-9 {
			t.Errorf("%s: odds %.2f for (1−m−r)/p = %.6f", b.Bet, *b.Odds, fair)
		}
	}
}

func TestAnalyzeDragonSession(t *testing.T) {
	a := analyzeJSON(t, "--game", "mbs-dragon", "--hands", "70")
	n := 0
	for _, b := range a.Bets {
		if b.Session == 70 {
			n++
			if len(b.Tiers) != 3 || b.BreakEven == nil || *b.BreakEven < 2 {
				t.Errorf("%s: %+v", b.Bet, b)
			}
		}
	}
	if n != 3 {
		t.Errorf("%d Dragon rows", n)
	}
}

func TestAnalyzeText(t *testing.T) {
	out, _, code := execCmd(t, "analyze", "--game", "punto-banco", "--decks", "6", "--remove", "5h,5d,5c,5s", "--exact")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"punto-banco", "308 cards", "HOUSE EDGE", "EFFECT OF REMOVAL", "banker: house edge "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code string
	}{
		{"unknown game", []string{"--game", "nope"}, "unknown_game"},
		{"impossible composition", []string{"--game", "mbs-tiger", "--shoe", "1,2,3"}, "bad_shoe"},
		{"negative count", []string{"--game", "mbs-tiger", "--shoe", "A:-2"}, "bad_shoe"},
		{"a revealed card not in the shoe", []string{"--game", "bet-on-baccarat", "--shoe", "Ah:3,Kd:30", "--revealed", "P:7h"}, "card_not_in_shoe"},
		{"fewer than 6 cards", []string{"--game", "mbs-tiger", "--shoe", "A:2,K:3"}, "bad_shoe"},
		{"a removed card twice too many", []string{"--game", "mbs-tiger", "--decks", "1", "--remove", "7h,7h"}, "card_not_in_shoe"},
		{"BoB 3.3 the Banker's card before the Player's", []string{"--game", "bet-on-baccarat", "--revealed", "B:7h"}, "bad_request"},
		{"sessions in a game without Dragon bets", []string{"--game", "mbs-tiger", "--hands", "10"}, "bad_request"},
		{"a margin of 120%", []string{"--game", "bet-on-baccarat", "--margin", "120%"}, "bad_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, append([]string{"analyze"}, tc.args...)...)
			if code == 0 || out != "" || !strings.Contains(errs, "["+tc.code+"]") {
				t.Errorf("exit %d, stdout %q, stderr %q; want code %s", code, out, errs, tc.code)
			}
		})
	}
}
