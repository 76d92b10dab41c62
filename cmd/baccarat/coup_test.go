package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func coupJSONOf(t *testing.T, args ...string) coupJSON {
	t.Helper()
	out, errs, code := execCmd(t, append([]string{"coup", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var c coupJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return c
}

func TestCoupTakesTheCoupNotation(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		coup string
		used int
	}{
		{"the comma list in deal order keeps working", []string{"--cards", "2h,3d,3c,3s,9d"}, "P 2h 3c 9d | B 3d 3s", 5},
		{"--cards in coup notation, each hand's cards in its order", []string{"--cards", "P 2h 3c 9d | B 3d 3s"}, "P 2h 3c 9d | B 3d 3s", 5},
		{"the notation in any case, as the root package reads it", []string{"--cards", "p 2H 3c 9D | b 3d 3S"}, "P 2h 3c 9d | B 3d 3s", 5},
		{"--coup alone", []string{"--coup", "P Kh Qd 2c | B 2s Kd 4c"}, "P Kh Qd 2c | B 2s Kd 4c", 6},
		{"--cards and --coup naming the same coup", []string{"--cards", "7h,Kd,2c,9s,4h", "--coup", "P 7h 2c | B Kd 9s"}, "P 7h 2c | B Kd 9s", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := coupJSONOf(t, append([]string{"--game", "mbs-tiger"}, tc.args...)...)
			if c.Coup != tc.coup || c.CardsUsed != tc.used {
				t.Errorf("coup %q with %d cards, want %q with %d", c.Coup, c.CardsUsed, tc.coup, tc.used)
			}
		})
	}
	t.Run("Tiger 4.3 resolved from the notation as from the list", func(t *testing.T) {
		list := coupJSONOf(t, "--game", "mbs-tiger", "--cards", "Kh,2s,Qd,Kd,2c,4c")
		notation := coupJSONOf(t, "--game", "mbs-tiger", "--cards", list.Coup)
		if lb, nb := betsOf(list), betsOf(notation); lb != nb || !strings.Contains(nb, "big_tiger win") {
			t.Errorf("list %s\nnotation %s", lb, nb)
		}
	})
}

func TestCoupRefusesNotationThatDisagrees(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
		code int
	}{
		{"--cards and --coup must name the same coup", []string{"--cards", "7h,Kd,2c,9s", "--coup", "P 7h 2c | B Kd 8s"},
			"--cards deals P 7h 2c | B Kd 9s but --coup says P 7h 2c | B Kd 8s", 1},
		{"MBS 3.9.1 a third card after a natural is not dealt, and the error says what is",
			[]string{"--cards", "P 7h Kd | B 9c Qs 4d"}, "breaks the Table of Play: it deals P 7h Kd | B 9c Qs", 1},
		{"MBS 3.9.2 a missing third card", []string{"--coup", "P 2h 3d | B Kd Qs"}, "breaks the Table of Play", 1},
		{"no cards at all is a usage error", nil, "give the coup's cards", 2},
		{"no game is a usage error", []string{"--cards", "7h,Kd,2c,9s", "--game", ""}, "--game is required", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"coup", "--game", "mbs-tiger"}, tc.args...)
			out, errs, code := execCmd(t, args...)
			if code != tc.code || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing, %q", code, out, errs, tc.code, tc.want)
			}
		})
	}
}

func betsOf(c coupJSON) string {
	var s []string
	for _, b := range c.Bets {
		s = append(s, b.Bet+" "+b.Result+" "+b.Pays)
	}
	return strings.Join(s, ", ")
}
