package baccarat

import (
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names are a table's or a tournament's display name in the pages' languages, by language
// tag ({"zh-CN": "龙虎百家乐", "ko": "타이거 바카라"}), beside its name, which stays the
// name the staff, the logs and a language without an entry read. A page shows the one for
// its language, else the name (web/API.md, "Names in other languages").
type Names map[string]string

// NameLanguages are the tags Names takes: the pages' languages (web/static/i18n.js LANGS).
var NameLanguages = []string{"en", "zh-CN", "zh-TW", "ko", "th", "vi"}

// MaxDisplayName is the longest display name in characters: a lobby tile and a tab title
// show it whole.
const MaxDisplayName = 40

// CheckNames checks display names as given: each under a language tag of NameLanguages,
// spelt as there, and each 1 to MaxDisplayName printable characters with no space at
// either end. what names the field in the error ("names").
func CheckNames(what string, n Names) error {
	for _, tag := range slices.Sorted(maps.Keys(n)) {
		if !slices.Contains(NameLanguages, tag) {
			return Errorf(CodeBadRequest, "%s: %q is not a language the pages speak: use %s", what, Truncate(tag, 20), strings.Join(NameLanguages, ", "))
		}
		s := n[tag]
		if c := utf8.RuneCountInString(s); c == 0 || c > MaxDisplayName || !utf8.ValidString(s) || strings.TrimSpace(s) != s {
			return Errorf(CodeBadRequest, "%s.%s: give 1 to %d characters, no space at either end", what, tag, MaxDisplayName)
		}
		for _, r := range s {
			if !unicode.IsPrint(r) { // control, format (direction-changing) and odd spaces

				return Errorf(CodeBadRequest, "%s.%s: printable characters only (no control or direction-changing ones)", what, tag)
			}
		}
	}
	return nil
}
