package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func simulateJSON(t *testing.T, args ...string) simJSON {
	t.Helper()
	out, errs, code := execCmd(t, append([]string{"simulate", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s simJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return s
}

func TestSimulateDeterministic(t *testing.T) {
	a := simulateJSON(t, "--game", "mbs-tiger", "--shoes", "300", "--seed", "9", "--workers", "1")
	b := simulateJSON(t, "--game", "mbs-tiger", "--shoes", "300", "--seed", "9", "--workers", "3")
	if a.Hands == 0 || a.Hands != b.Hands || len(a.Bets) != 8 {
		t.Fatalf("%d and %d hands", a.Hands, b.Hands)
	}
	for i := range a.Bets {
		if a.Bets[i].Return != b.Bets[i].Return || a.Bets[i].CI99 != b.Bets[i].CI99 || a.Bets[i].Wins != b.Bets[i].Wins {
			t.Errorf("%s: 1 worker %+v, 3 workers %+v", a.Bets[i].Bet, a.Bets[i], b.Bets[i])
		}
	}
}

func TestSimulateDragonAndBoB(t *testing.T) {
	d := simulateJSON(t, "--game", "mbs-dragon", "--shoes", "200", "--sessions", "30,70")
	if len(d.Sessions) != 2 || d.Sessions[1].Hands != 70 || len(d.Sessions[0].Bets) != 3 || d.Sessions[0].Sessions == 0 {
		t.Fatalf("%+v", d.Sessions)
	}
	b := simulateJSON(t, "--game", "bet-on-baccarat", "--shoes", "200")
	if b.CutCard != 39 || b.Decks != 6 || len(b.Bets) != 9 {
		t.Errorf("BoB 3.4: cut card %d, %d decks, %d bets", b.CutCard, b.Decks, len(b.Bets))
	}
}

func TestSimulateText(t *testing.T) {
	out, errs, code := execCmd(t, "simulate", "--game", "punto-banco", "--shoes", "100")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q (no progress bar when not a terminal)", code, errs)
	}
	for _, want := range []string{"punto-banco: 100 shoes of 8 decks", "REALISED RETURN", "99% CI", "banker"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

func TestSimulateBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--game", "nope"},
		{"--game", "mbs-tiger", "--shoes", "0"},
		{"--game", "mbs-tiger", "--decks", "1", "--cut-card", "60"},
		{"--game", "mbs-dragon", "--sessions", "10,x"},
	} {
		if out, errs, code := execCmd(t, append([]string{"simulate"}, args...)...); code == 0 || out != "" || errs == "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
}

// TestSimulateFlagsOutOfRangeAreUsageErrors: a value the user typed is never silently replaced
// by the default; the message says the allowed range; exit 2 as for flags that do not parse.
func TestSimulateFlagsOutOfRangeAreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"SPEC §2 --decks 0 is refused, not read as the default", []string{"--game", "mbs-tiger", "--decks", "0"}, "--decks 0: mbs-tiger is played with 4 to 10 decks"},
		{"SPEC §2 --decks 1 is below Tiger's range", []string{"--game", "mbs-tiger", "--decks", "1", "--cut-card", "60"}, "4 to 10 decks"},
		{"SPEC §2 Bet on Baccarat is played with 6 decks only", []string{"--game", "bet-on-baccarat", "--decks", "8"}, "6 decks only"},
		{"--cut-card -3 is refused, not read as the game's rule", []string{"--game", "mbs-tiger", "--cut-card", "-3"}, "--cut-card -3: cards behind the cut card are 0 to 410"},
		{"--cut-card leaving no round", []string{"--game", "mbs-tiger", "--decks", "4", "--cut-card", "203"}, "0 to 202 in a shoe of 4 decks"},
		{"--workers -1 is refused, not read as every core", []string{"--game", "mbs-tiger", "--workers", "-1"}, "--workers -1: 1 or more"},
		{"--workers 0 given is refused too", []string{"--game", "mbs-tiger", "--workers", "0"}, "1 or more"},
		{"--shoes 0", []string{"--game", "mbs-tiger", "--shoes", "0"}, "1 shoe or more"},
		{"Dragon 3.12 --sessions in a game without Dragon bets is refused, not ignored", []string{"--game", "mbs-tiger", "--sessions", "10,20"}, "mbs-tiger has no Dragon bets"},
		{"a session length that is not a number", []string{"--game", "mbs-dragon", "--sessions", "10,x"}, "whole numbers of hands"},
		{"--game is required", []string{"--shoes", "10"}, "--game is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, append([]string{"simulate", "--shoes", "10"}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errs, tc.want)
			}
		})
	}
	t.Run("the ends of the ranges are accepted: 4 decks, cut card 0, 1 worker", func(t *testing.T) {
		s := simulateJSON(t, "--game", "mbs-tiger", "--shoes", "5", "--decks", "4", "--cut-card", "0", "--workers", "1")
		if s.Decks != 4 || s.CutCard != 0 || s.Hands == 0 {
			t.Errorf("%d decks, cut card %d, %d hands", s.Decks, s.CutCard, s.Hands)
		}
	})
}
