package backoffice

import (
	"slices"
	"testing"
)

// TestSplitReadsWholeMonthsAndTheDaysAround: a report's period is read as its whole months
// and the days before and after them, which together are every day of it, once.
func TestSplitReadsWholeMonthsAndTheDaysAround(t *testing.T) {
	for _, c := range []struct {
		from, to   string
		days       [][2]string
		fromM, toM string
	}{
		{"2026-01-01", "2026-12-31", nil, "2026-01", "2026-12"},
		{"2026-03-02", "2026-12-31", [][2]string{{"2026-03-02", "2026-03-31"}}, "2026-04", "2026-12"},
		{"2026-03-01", "2026-04-15", [][2]string{{"2026-04-01", "2026-04-15"}}, "2026-03", "2026-03"},
		{"2026-02-15", "2026-04-10", [][2]string{{"2026-02-15", "2026-02-28"}, {"2026-04-01", "2026-04-10"}}, "2026-03", "2026-03"},
		{"2026-03-02", "2026-03-20", [][2]string{{"2026-03-02", "2026-03-20"}}, "", ""},
		{"2026-02-01", "2026-02-28", nil, "2026-02", "2026-02"},
		{"2024-02-01", "2024-02-28", [][2]string{{"2024-02-01", "2024-02-28"}}, "", ""}, // 2024 is a leap year: not the whole month
	} {
		got := Query{From: c.from, To: c.to}.Split()
		if !slices.Equal(got.Days, c.days) || got.FromMonth != c.fromM || got.ToMonth != c.toM {
			t.Errorf("%s–%s: %+v, want days %v months %s–%s", c.from, c.to, got, c.days, c.fromM, c.toM)
		}
	}
	if got := (Query{From: "2026-01-01", To: "2026-12-31", ByDay: true}).Split(); got.FromMonth != "" || len(got.Days) != 1 {
		t.Errorf("a report by day reads days only: %+v", got)
	}
}
