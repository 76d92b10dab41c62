package baccarat

import "testing"

func TestRatioNetRoundsDown(t *testing.T) {
	tests := []struct {
		rule  string
		r     Ratio
		stake Money
		want  Money
	}{
		{"RWS 4.1.1 banker on six pays 1:2 (odd stake rounds down)", Ratio{1, 2}, 15, 7},
		{"RWS 4.1.1 banker on six pays 1:2", Ratio{1, 2}, 1000, 500},
		{"MBS 4.1 tie pays 8:1", Ratio{8, 1}, 125, 1000},
		{"SPEC §3.6 commission 19:20 rounds down", Ratio{19, 20}, 105, 99},
		{"Tiger 4.2 twin pair 100:1", Ratio{100, 1}, 1, 100},
		{"no overflow on huge stakes", Ratio{100, 1}, 1 << 60, 1<<63 - 1},
		{"zero stake wins nothing", Ratio{8, 1}, 0, 0},
	}
	for _, tt := range tests {
		if got := tt.r.Net(tt.stake); got != tt.want {
			t.Errorf("%s: %s on %d = %d, want %d", tt.rule, tt.r, tt.stake, got, tt.want)
		}
	}
}

func TestOdds(t *testing.T) {
	o, err := ParseOdds("2.5")
	if err != nil || o != 250 || o.String() != "2.50" {
		t.Fatalf("ParseOdds(2.5) = %v %v", o, err)
	}
	// BoB 1.2: the stake is multiplied by the odds; 10.05 at 2.50 returns 25.125 → 25.12.
	if got := o.Net(1005); got != 1507 {
		t.Errorf("net at 2.50 on 10.05 = %d, want 1507", got)
	}
	if Odds(101).String() != "1.01" || Odds(1234).String() != "12.34" {
		t.Errorf("odds text: %s %s", Odds(101), Odds(1234))
	}
	for _, bad := range []string{"", "2.505", "x", "-1", ".5"} {
		if _, err := ParseOdds(bad); err == nil {
			t.Errorf("ParseOdds(%q) accepted", bad)
		}
	}
	r, err := ParseRatio("11 to 1")
	if err != nil || r != (Ratio{11, 1}) {
		t.Errorf("ParseRatio: %v %v", r, err)
	}
}

func FuzzParseOddsAndRatio(f *testing.F) {
	for _, s := range []string{"2.50", "1", "0.01", "11 to 1", "19:20", "-1", "1e9", "9223372036854775807:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if o, err := ParseOdds(s); err == nil {
			again, err := ParseOdds(o.String())
			if err != nil || again != o {
				t.Fatalf("odds round trip of %q: %v %v", s, again, err)
			}
			if n := o.Net(1_000_000); n < 0 {
				t.Fatalf("negative winnings at %s", o)
			}
		} else if ErrorCode(err) == CodeInternal {
			t.Fatalf("uncoded error for %q", s)
		}
		if r, err := ParseRatio(s); err == nil {
			if n := r.Net(1 << 40); n < 0 {
				t.Fatalf("negative winnings at %s", r)
			}
		}
	})
}
