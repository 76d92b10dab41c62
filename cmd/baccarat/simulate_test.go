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
