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
