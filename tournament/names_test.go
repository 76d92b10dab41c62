package tournament

import (
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
)

// TestTournamentNamesInOtherLanguages: a tournament's config may name it in the pages' other
// languages, kept as given; a tag the pages do not speak, or a name over 40 characters, is
// refused like any bad setting.
func TestTournamentNamesInOtherLanguages(t *testing.T) {
	c := baseConfig()
	c.Names = baccarat.Names{"zh-CN": "春季锦标赛", "ko": "봄 토너먼트", "th": "ทัวร์นาเมนต์ฤดูใบไม้ผลิ", "vi": "Giải mùa xuân"}
	tn, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := tn.Config().Names["zh-CN"]; got != "春季锦标赛" {
		t.Errorf("the config keeps %q, want 春季锦标赛", got)
	}
	for _, names := range []baccarat.Names{{"fr": "Coupe"}, {"ko": strings.Repeat("봄", 41)}} {
		c := baseConfig()
		c.Names = names
		_, err := New(c)
		wantCode(t, err, baccarat.CodeBadRequest)
	}
}

// TestRoundNamesInOtherLanguages: a round's name is the operator's words, so the operator may
// give it in the pages' other languages as the tournament's, kept as given; a tag the pages do
// not speak, a name over 40 characters, or names beside no name are refused.
func TestRoundNamesInOtherLanguages(t *testing.T) {
	c := baseConfig()
	c.Rounds[0].Name, c.Rounds[0].Names = "Heats", baccarat.Names{"zh-CN": "预赛", "ko": "예선"}
	tn, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := tn.Config().Rounds[0].Names["ko"]; got != "예선" {
		t.Errorf("the config keeps %q, want 예선", got)
	}
	for _, r := range []struct {
		rule  string
		name  string
		names baccarat.Names
		want  string
	}{
		{"a tag the pages do not speak is refused", "Heats", baccarat.Names{"fr": "Qualifications"}, "round 1 names"},
		{"a name over 40 characters is refused", "Heats", baccarat.Names{"ko": strings.Repeat("예", 41)}, "round 1 names.ko"},
		{"names beside no name are refused", "", baccarat.Names{"ko": "예선"}, "give the round a name first"},
	} {
		t.Run(r.rule, func(t *testing.T) {
			c := baseConfig()
			c.Rounds[0].Name, c.Rounds[0].Names = r.name, r.names
			_, err := New(c)
			wantCode(t, err, baccarat.CodeBadRequest)
			if err == nil || !strings.Contains(err.Error(), r.want) {
				t.Errorf("%v, want an error with %q", err, r.want)
			}
		})
	}
}
