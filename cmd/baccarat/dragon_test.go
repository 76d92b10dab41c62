package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestDragonRefusesWhatItCannotSettle(t *testing.T) {
	most := maxDragonStake()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a negative stake is refused", []string{"--results", "BBBBB", "--stake", "-1000"}, "--stake -1000: a stake is 1 to"},
		{"a stake of 0 given is refused, not read as no stake", []string{"--results", "BBBBB", "--stake", "0"}, "a stake is 1 to"},
		{"a stake whose Royal return would not fit the books is refused",
			[]string{"--results", "BBBBB", "--stake", fmt.Sprint(most + 1)}, fmt.Sprintf("a stake is 1 to %d minor units", most)},
		{"Dragon 3.12 a session with no results has nothing to settle", nil, "--results is required"},
		{"results of only spaces and commas are no results", []string{"--results", " , "}, "--results is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := execCmd(t, append([]string{"dragon"}, tc.args...)...)
			if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, out, errs, tc.want)
			}
		})
	}
	t.Run("the largest stake settles: Royal Dragon 10:1 on it fits", func(t *testing.T) {
		out, errs, code := execCmd(t, "dragon", "--results", "BBBBBBB", "--stake", fmt.Sprint(most), "--json")
		if code != 0 || !strings.Contains(out, fmt.Sprintf(`"net":%d`, 10*most)) {
			t.Errorf("exit %d, stderr %q, stdout %s", code, errs, out)
		}
	})
	t.Run("a bad letter is still a failure of the results, exit 1", func(t *testing.T) {
		if _, errs, code := execCmd(t, "dragon", "--results", "BBX"); code != 1 || !strings.Contains(errs, `result 3 "X"`) {
			t.Errorf("exit %d, stderr %q", code, errs)
		}
	})
}
