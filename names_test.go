package baccarat

import (
	"strings"
	"testing"
)

// TestDisplayNamesAreChecked: a display name in another language is under one of the pages'
// language tags and is 1 to 40 printable characters.
func TestDisplayNamesAreChecked(t *testing.T) {
	for _, c := range []struct {
		name  string
		names Names
		want  string // "" for taken
	}{
		{"the pages' languages are taken", Names{"zh-CN": "龙虎百家乐", "ko": "타이거 바카라", "th": "บาคาร่าเสือ", "vi": "Baccarat Hổ"}, ""},
		{"none at all is taken", nil, ""},
		{"40 characters are taken", Names{"zh-TW": strings.Repeat("龍", 40)}, ""},
		{"a language the pages do not speak is refused", Names{"ja": "バカラ"}, "not a language"},
		{"a tag spelt otherwise is refused", Names{"zh-cn": "百家乐"}, "not a language"},
		{"an empty name is refused", Names{"ko": ""}, "1 to 40"},
		{"41 characters are refused", Names{"th": strings.Repeat("ก", 41)}, "1 to 40"},
		{"a space at an end is refused", Names{"vi": "Bàn 1 "}, "1 to 40"},
		{"a control character is refused", Names{"ko": "바카라\n1"}, "printable"},
		{"a direction-changing character is refused", Names{"en": "Table \u202e1"}, "printable"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := CheckNames("names", c.names)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || ErrorCode(err) != CodeBadRequest || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want a bad_request saying %q", err, c.want)
			}
		})
	}
}
