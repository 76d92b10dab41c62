package web

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tablehouse/baccarat"
	"github.com/tablehouse/baccarat/games"
)

// The pages' languages are static/i18n.js's LANGS, one static/i18n/<id>.json each, read here
// from the embedded files the server sends. en.json is the reference and the fallback.

// pluralForms are the plural categories Intl.PluralRules selects in each of the pages'
// languages (CLDR cardinal rules: of ours only English tells "one" from "other"). i18n.js's
// tn() looks up key.<category>, falling back to English, so a language needs every form it
// selects of every plural key. A new language adds its line here (in a browser console:
// new Intl.PluralRules(id).resolvedOptions().pluralCategories).
var pluralForms = map[string][]string{
	"en": {"one", "other"}, "zh-CN": {"other"}, "zh-TW": {"other"}, "ko": {"other"}, "th": {"other"}, "vi": {"other"},
}

var (
	// i18n.js t() fills /\{(\w+)\}/: JavaScript's \w is ASCII, so "{牌桌编号}" is text.
	placeholderRe = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)
	langsRe       = regexp.MustCompile(`\{ id: '([^']+)', name: '([^']+)' \}`)
	pluralKeyRe   = regexp.MustCompile(`^(.+)\.(zero|one|two|few|many|other)$`)
)

// TestEveryLanguageHasEveryKeyWithItsPlaceholders: every language LANGS lists has a file and
// every file is listed; each file is a JSON object of non-empty strings; it has every key of
// en.json (plural keys in the forms its language selects), no key en.json lacks, and each
// string has exactly the {placeholders} of the English one.
func TestEveryLanguageHasEveryKeyWithItsPlaceholders(t *testing.T) {
	files := map[string]map[string]string{}
	names, err := fs.Glob(assets, "static/i18n/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no static/i18n/*.json embedded (%v)", err)
	}
	for _, name := range names {
		id := strings.TrimSuffix(path.Base(name), ".json")
		dict := readLanguage(t, name)
		if dict == nil {
			return // the file's fault is reported; its keys cannot be checked
		}
		files[id] = dict
	}
	js, err := fs.ReadFile(assets, "static/i18n.js")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, m := range langsRe.FindAllStringSubmatch(string(js), -1) {
		listed[m[1]] = true
		if files[m[1]] == nil {
			t.Errorf("i18n.js LANGS lists %s (%s), but there is no i18n/%s.json", m[1], m[2], m[1])
		}
	}
	for id := range files {
		if !listed[id] {
			t.Errorf("i18n/%s.json is not in i18n.js LANGS: the switch never offers it", id)
		}
	}
	en := files["en"]
	if en == nil {
		t.Fatal("no i18n/en.json, the reference and fallback")
	}
	for _, id := range slices.Sorted(maps.Keys(files)) {
		forms, ok := pluralForms[id]
		if !ok {
			t.Errorf("%s: add its plural categories to pluralForms", id)
			continue
		}
		for _, p := range checkLanguage(en, files[id], forms) {
			t.Errorf("%s.json: %s", id, p)
		}
	}
	t.Logf("%d languages, %d English keys", len(files), len(en))
}

// readLanguage decodes one file, failing the test (nil) unless it is an object of non-empty strings.
func readLanguage(t *testing.T, name string) map[string]string {
	t.Helper()
	b, err := fs.ReadFile(assets, name)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Errorf("%s is not a JSON object: %v", name, err)
		return nil
	}
	for _, k := range duplicateKeys(b) { // the later value would silently win
		t.Errorf("%s: %q appears twice", name, k)
	}
	dict := map[string]string{}
	for k, v := range raw {
		s, ok := v.(string)
		if !ok || s == "" {
			t.Errorf("%s: %q is %#v, not a non-empty string", name, k, v)
			continue
		}
		dict[k] = s
	}
	return dict
}

// duplicateKeys lists the keys a flat JSON object of strings names more than once.
func duplicateKeys(b []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	var dups []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return dups
		}
		k, _ := tok.(string)
		if seen[k] {
			dups = append(dups, k)
		}
		seen[k] = true
		if _, err := dec.Token(); err != nil { // the value: a string
			return dups
		}
	}
	return dups
}

// checkLanguage lists what keeps dict from standing in for en, in a language whose plural
// rules select forms. It knows nothing of the files, so a test can plant faults in it.
func checkLanguage(en, dict map[string]string, forms []string) []string {
	var problems []string
	want := map[string]string{} // key → the English text its placeholders follow
	for k, v := range en {
		if m := pluralKeyRe.FindStringSubmatch(k); m != nil && en[m[1]+".other"] != "" {
			for _, f := range forms {
				want[m[1]+"."+f] = cmp.Or(en[m[1]+"."+f], en[m[1]+".other"])
			}
			continue
		}
		want[k] = v
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if _, ok := dict[k]; !ok {
			problems = append(problems, fmt.Sprintf("lacks %q (%q)", k, want[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(dict)) {
		src, ok := want[k]
		switch {
		case !ok && en[k] != "":
			src = en[k] // a plural form this language does not select: unused, harmless
		case !ok:
			problems = append(problems, fmt.Sprintf("has %q, which en.json does not", k))
			continue
		}
		if got, need := placeholders(dict[k]), placeholders(src); !slices.Equal(got, need) {
			problems = append(problems, fmt.Sprintf("%q has placeholders %v, English %v: %q", k, got, need, dict[k]))
		}
	}
	return problems
}

// placeholders are the distinct {names} of s, sorted.
func placeholders(s string) []string {
	var out []string
	for _, m := range placeholderRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestLanguageCheckCatchesPlantedFaults: checkLanguage passes a good translation and names
// each planted fault.
func TestLanguageCheckCatchesPlantedFaults(t *testing.T) {
	en := map[string]string{"hi": "Hi {name}", "n.one": "{n} table", "n.other": "{n} tables", "plain": "Lobby"}
	good := func() map[string]string {
		return map[string]string{"hi": "{name}님 안녕하세요", "n.other": "테이블 {n}개", "plain": "로비"}
	}
	if p := checkLanguage(en, good(), []string{"other"}); len(p) != 0 {
		t.Fatalf("a good translation has problems: %v", p)
	}
	for _, c := range []struct {
		name  string
		plant func(map[string]string)
		forms []string
		want  string
	}{
		{"a key of en.json missing", func(d map[string]string) { delete(d, "plain") }, nil, `lacks "plain"`},
		{"a key en.json lacks", func(d map[string]string) { d["lobby.titel"] = "x" }, nil, `has "lobby.titel"`},
		{"a placeholder dropped", func(d map[string]string) { d["hi"] = "안녕하세요" }, nil, `"hi" has placeholders [], English [name]`},
		{"a placeholder added", func(d map[string]string) { d["plain"] = "로비 {n}" }, nil, `"plain" has placeholders [n], English []`},
		{"a placeholder renamed", func(d map[string]string) { d["n.other"] = "테이블 {count}개" }, nil, `English [n]`},
		{"the only plural form missing", func(d map[string]string) { delete(d, "n.other") }, nil, `lacks "n.other"`},
		{"a form the language selects missing", func(map[string]string) {}, []string{"one", "other"}, `lacks "n.one"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, forms := good(), c.forms
			if forms == nil {
				forms = []string{"other"}
			}
			c.plant(d)
			p := checkLanguage(en, d, forms)
			if !strings.Contains(strings.Join(p, "\n"), c.want) {
				t.Errorf("problems %q, want one with %q", p, c.want)
			}
		})
	}
}

// TestDuplicateKeysAreFound: a key named twice in a language file is found (JSON decoders keep
// the later value and say nothing).
func TestDuplicateKeysAreFound(t *testing.T) {
	if got := duplicateKeys([]byte(`{"a":"x","b":"y","a":"z"}`)); len(got) != 1 || got[0] != "a" {
		t.Fatalf("duplicates %q, want [a]", got)
	}
	if got := duplicateKeys([]byte(`{"a":"x","b":"y"}`)); len(got) != 0 {
		t.Fatalf("duplicates %q, want none", got)
	}
}

// TestServerWordsAreKeyedByTheirIDs: the words the server sends are translated by their
// stable ids, so rewording a game's English loses no translation: every game, bet, pay tier
// and rule line id has its key ("game.<id>", "bet.<id>", "tier.<id>", a Dragon tier's
// "tier.<id>.short" on its spot, "rule.<id>") in every language; en.json's text of each is
// the server's English, which an English page shows; and no language keeps an entry keyed by
// English ("srv:<text>"), which no page looks up any more.
func TestServerWordsAreKeyedByTheirIDs(t *testing.T) {
	names, err := fs.Glob(assets, "static/i18n/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no static/i18n/*.json embedded (%v)", err)
	}
	files := map[string]map[string]string{}
	for _, name := range names {
		if dict := readLanguage(t, name); dict != nil {
			files[strings.TrimSuffix(path.Base(name), ".json")] = dict
		}
	}
	for _, p := range serverWordProblems(files, games.All()) {
		t.Error(p)
	}
}

// serverWords are the words of gs that have ids: each key with the English the server sends
// for it ("" for a Dragon tier's short label, which is the page's).
func serverWords(gs []*games.Game) map[string]string {
	keys := map[string]string{}
	for _, g := range gs {
		keys["game."+g.ID] = g.Name
		for _, l := range games.Describe(g).RuleLines {
			keys["rule."+l.ID] = l.Text
		}
		for _, b := range g.Bets {
			keys["bet."+b.ID] = b.Name
			for _, tr := range b.Tiers {
				keys["tier."+tr.ID] = tr.Event
				if b.Kind == games.Dragon {
					keys["tier."+tr.ID+".short"] = ""
				}
			}
		}
	}
	return keys
}

// serverWordProblems lists what keeps the language files (by language id) from translating
// the server's words of gs by their ids. It knows nothing of the embedded files, so a test
// can plant faults in it.
func serverWordProblems(files map[string]map[string]string, gs []*games.Game) []string {
	var problems []string
	keys := serverWords(gs)
	for _, id := range slices.Sorted(maps.Keys(files)) {
		dict := files[id]
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			got, ok := dict[k]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("%s.json lacks %q (%q)", id, k, keys[k]))
			case id == "en" && keys[k] != "" && got != keys[k]:
				problems = append(problems, fmt.Sprintf("en.json says %q for %q, the server %q", got, k, keys[k]))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(dict)) {
			if strings.HasPrefix(k, "srv:") {
				problems = append(problems, fmt.Sprintf("%s.json keeps %q, keyed by English, which no page looks up", id, k))
			}
		}
	}
	return problems
}

// TestServerWordCheckCatchesPlantedFaults: serverWordProblems passes good files and names
// each planted fault.
func TestServerWordCheckCatchesPlantedFaults(t *testing.T) {
	g := &games.Game{ID: "mbs-tiger", Name: "Tiger", Rules: games.Rules{MaxWagersPerArea: 3}, Bets: []*games.Bet{
		{ID: "banker", Name: "Banker", Tiers: []games.Tier{{ID: "banker_on_six", Event: "Banker wins on six"}}},
		{ID: "any_dragon", Name: "Any Dragon", Kind: games.Dragon, Tiers: []games.Tier{{ID: "ruby_dragon", Event: "Ruby Dragon: longest streak 5"}}},
	}}
	good := func() map[string]map[string]string {
		return map[string]map[string]string{
			"en": {"game.mbs-tiger": "Tiger", "bet.banker": "Banker", "bet.any_dragon": "Any Dragon", "tier.banker_on_six": "Banker wins on six",
				"tier.ruby_dragon": "Ruby Dragon: longest streak 5", "tier.ruby_dragon.short": "Ruby {n}",
				"rule.max_wagers_per_area": "at most 3 wagers per playing area (the pit may set fewer)"},
			"ko": {"game.mbs-tiger": "타이거", "bet.banker": "뱅커", "bet.any_dragon": "애니 드래곤", "tier.banker_on_six": "뱅커가 6으로 승",
				"tier.ruby_dragon": "루비 드래곤: 최장 연승 5", "tier.ruby_dragon.short": "루비 {n}",
				"rule.max_wagers_per_area": "베팅 구역당 최대 3건(피트가 더 적게 정할 수 있음)"},
		}
	}
	if p := serverWordProblems(good(), []*games.Game{g}); len(p) != 0 {
		t.Fatalf("good files have problems: %v", p)
	}
	for _, c := range []struct {
		name  string
		plant func(map[string]map[string]string)
		want  string
	}{
		{"a tier's key missing", func(f map[string]map[string]string) { delete(f["ko"], "tier.banker_on_six") }, `ko.json lacks "tier.banker_on_six"`},
		{"a Dragon tier's short label missing", func(f map[string]map[string]string) { delete(f["ko"], "tier.ruby_dragon.short") }, `lacks "tier.ruby_dragon.short"`},
		{"a game's key missing", func(f map[string]map[string]string) { delete(f["en"], "game.mbs-tiger") }, `en.json lacks "game.mbs-tiger"`},
		{"a bet's key missing", func(f map[string]map[string]string) { delete(f["ko"], "bet.banker") }, `ko.json lacks "bet.banker"`},
		{"English not the server's", func(f map[string]map[string]string) { f["en"]["tier.banker_on_six"] = "Banker wins with six" },
			`en.json says "Banker wins with six" for "tier.banker_on_six"`},
		{"a rule line's key missing", func(f map[string]map[string]string) { delete(f["ko"], "rule.max_wagers_per_area") },
			`ko.json lacks "rule.max_wagers_per_area"`},
		{"a rule line's English not the server's", func(f map[string]map[string]string) {
			f["en"]["rule.max_wagers_per_area"] = "at most 4 wagers per playing area (the pit may set fewer)"
		}, `en.json says "at most 4 wagers per playing area (the pit may set fewer)" for "rule.max_wagers_per_area"`},
		{"an old English-keyed tier left", func(f map[string]map[string]string) { f["ko"]["srv:Banker wins on six"] = "뱅커가 6으로 승" },
			`ko.json keeps "srv:Banker wins on six"`},
		{"an old English-keyed rule line left", func(f map[string]map[string]string) {
			f["ko"]["srv:at most 3 wagers per playing area (the pit may set fewer)"] = "베팅 구역당 최대 3건"
		}, `ko.json keeps "srv:at most 3 wagers`},
		{"an old English-keyed round name left, in English too", func(f map[string]map[string]string) { f["en"]["srv:Heats"] = "Heats" }, `en.json keeps "srv:Heats"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := good()
			c.plant(f)
			p := serverWordProblems(f, []*games.Game{g})
			if !strings.Contains(strings.Join(p, "\n"), c.want) {
				t.Errorf("problems %q, want one with %q", p, c.want)
			}
		})
	}
}

// TestEveryErrorCodeHasASentence: every code the platform answers with (baccarat.Codes and the
// tournaments' own) has its sentence "err.<code>" in English, so that a page says a refusal
// in its language and never shows the code as the message (the language test holds every
// other language to English's keys and placeholders). A sentence that names params has an
// "err.<code>.bare" form too, said when a refusal comes without them; a variant
// ("err.above_maximum.have") belongs to a code that has a sentence.
func TestEveryErrorCodeHasASentence(t *testing.T) {
	en := readLanguage(t, "static/i18n/en.json")
	if en == nil {
		return
	}
	codes := baccarat.Codes()
	for _, c := range codes {
		code := string(c)
		s, ok := en["err."+code]
		if !ok {
			t.Errorf("en.json has no sentence for the code %s: add \"err.%s\" to every language", code, code)
			continue
		}
		if len(placeholders(s)) > 0 && en["err."+code+".bare"] == "" {
			t.Errorf("err.%s names %v but has no err.%s.bare for a refusal without params", code, placeholders(s), code)
		}
	}
	if en["err.unknown"] == "" {
		t.Error("en.json has no err.unknown, the sentence for a code the page does not know")
	}
	known := map[string]bool{"unknown": true, "network": true, "signin": true}
	for _, c := range codes {
		known[string(c)] = true
	}
	for k := range en {
		if rest, ok := strings.CutPrefix(k, "err."); ok {
			if code, _, _ := strings.Cut(rest, "."); !known[code] {
				t.Errorf("%s is the sentence of %s, which is no code the platform answers with", k, code)
			}
		}
	}
}
