package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// embedded is a file of static/ as it is in the source.
func embedded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := assets.ReadFile("static/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hashedRef is a content-hashed /static/ URL; unhash turns it back into the file's own.
var hashedRef = regexp.MustCompile(`/static/([A-Za-z0-9._/-]+?)\.[0-9a-f]{12}(\.[a-z0-9]+)`)

func unhash(b []byte) []byte { return hashedRef.ReplaceAll(b, []byte("/static/$1$2")) }

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAssetsGzipDecompressesToTheFile: each gzipped asset is its body, and each file's body
// is the embedded file (its /static/ URLs hashed, nothing else changed).
func TestAssetsGzipDecompressesToTheFile(t *testing.T) {
	set := staticFiles()
	for name, a := range set.files {
		if a.gz != nil && !bytes.Equal(gunzip(t, a.gz), a.body) {
			t.Errorf("%s: the gzipped bytes are not the file", name)
		}
	}
	err := fs.WalkDir(assets, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := strings.TrimPrefix(p, "static/")
		a, ok := set.files[name]
		if !ok {
			t.Errorf("%s is embedded but not served", name)
			return nil
		}
		raw := embedded(t, name)
		if stage(name) == 0 && !bytes.Equal(a.body, raw) {
			t.Errorf("%s is served changed", name)
		}
		if stage(name) < 3 && !bytes.Equal(unhash(a.body), raw) {
			t.Errorf("%s is changed beyond its hashed URLs", name)
		}
		if stage(name) < 3 && set.files[strings.TrimPrefix(set.hashed[name], "/static/")] == nil {
			t.Errorf("%s has no content-hashed URL", name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if a := set.files["app.js"]; a.gz == nil || len(a.gz) > len(a.body)/2 {
		t.Errorf("app.js is not compressed to half: %d → %d bytes", len(a.body), len(a.gz))
	}
}

// pageRefs are the /static/ URLs a page names.
var pageRefs = regexp.MustCompile(`(?:src|href)="(/static/[^"]+)"`)

// TestAssetsEachPageLoadsOneScriptAndOneStylesheet, each at a content-hashed URL that
// resolves, cached for a year.
func TestAssetsEachPageLoadsOneScriptAndOneStylesheet(t *testing.T) {
	set := staticFiles()
	pages, _ := fs.Glob(assets, "static/*.html")
	if len(pages) < 6 {
		t.Fatalf("found %d pages", len(pages))
	}
	for _, p := range pages {
		name := strings.TrimPrefix(p, "static/")
		page := set.files[name].body
		if n := strings.Count(string(page), "<script"); n != 1 {
			t.Errorf("%s loads %d scripts, want 1 bundle", name, n)
		}
		if n := strings.Count(string(page), `rel="stylesheet"`); n != 1 {
			t.Errorf("%s loads %d stylesheets, want 1 bundle", name, n)
		}
		for _, m := range pageRefs.FindAllSubmatch(page, -1) {
			a, ok := set.files[strings.TrimPrefix(string(m[1]), "/static/")]
			if !ok || !a.immutable {
				t.Errorf("%s names %s: not a content-hashed file", name, m[1])
			}
		}
	}
}

// TestAssetsBundleHoldsThePageScriptsInOrder: a page's bundle is its scripts as the page
// listed them, one after another, a ";" line between two.
func TestAssetsBundleHoldsThePageScriptsInOrder(t *testing.T) {
	set := staticFiles()
	src := regexp.MustCompile(`<script src="/static/([^"]+)"></script>`)
	for _, page := range []string{"table.html", "lobby.html", "dealer.html", "tournament.html"} {
		t.Run(page, func(t *testing.T) {
			m := src.FindSubmatch(set.files[page].body)
			bundle := set.files[strings.TrimPrefix(string(m[1]), "/static/")].body
			var want [][]byte
			for _, s := range src.FindAllSubmatch(embedded(t, page), -1) {
				want = append(want, append([]byte("/* "+string(s[1])+" */\n"), set.files[string(s[1])].body...))
			}
			if len(want) < 4 {
				t.Fatalf("%s lists %d scripts", page, len(want))
			}
			if got := bytes.Join(want, []byte("\n;\n")); !bytes.Equal(bundle, got) {
				t.Fatalf("the bundle (%d bytes) is not the page's %d scripts in order (%d bytes)", len(bundle), len(want), len(got))
			}
		})
	}
}

// TestAssetsStylesheetsInTheirOrder: the theme comes first on every page; the table page's
// sheet, on the pages that show its pieces, right after it; the roads' sheet, on the pages
// that draw roads, after those; responsible gaming's sheet last. A sheet moved to a later
// place would change which of two equal rules wins.
func TestAssetsStylesheetsInTheirOrder(t *testing.T) {
	link := regexp.MustCompile(`<link rel="stylesheet" href="/static/([^"]+)">`)
	wants := map[string][]string{"table.css": {"table.html", "dealer.html", "account.html", "admin.html"}, "roads.css": {"table.html", "lobby.html"}}
	pages, _ := fs.Glob(assets, "static/*.html")
	for _, p := range pages {
		name := strings.TrimPrefix(p, "static/")
		var sheets []string
		for _, m := range link.FindAllSubmatch(embedded(t, name), -1) {
			sheets = append(sheets, string(m[1]))
		}
		if len(sheets) == 0 || sheets[0] != "style.css" {
			t.Errorf("%s: stylesheets %v, want style.css first", name, sheets)
			continue
		}
		at := func(sheet string) int { return slices.Index(sheets, sheet) }
		for sheet, want := range wants {
			if slices.Contains(want, name) != (at(sheet) >= 0) {
				t.Errorf("%s: stylesheets %v: loads %s %v, want %v", name, sheets, sheet, at(sheet) >= 0, slices.Contains(want, name))
			}
		}
		if i := at("table.css"); i >= 0 && i != 1 {
			t.Errorf("%s: stylesheets %v, want table.css right after style.css", name, sheets)
		}
		roadsAt := 1
		if at("table.css") >= 0 {
			roadsAt = 2
		}
		if i := at("roads.css"); i >= 0 && i != roadsAt {
			t.Errorf("%s: stylesheets %v, want roads.css right after style.css (and table.css)", name, sheets)
		}
		if i := at("limits.css"); i >= 0 && i != len(sheets)-1 {
			t.Errorf("%s: stylesheets %v, want limits.css last", name, sheets)
		}
	}
}

// topLevel is a line that declares a name in a script's global scope.
var topLevel = regexp.MustCompile(`(?m)^(?:const|let|var|function|async function|class)\b`)

// TestAssetsScriptsJoinWithoutChangingMeaning checks what bundling relies on, apart from
// it: every script is strict from its first statement (so one strict bundle changes none)
// and declares no global name (which two files in one script could not both declare).
func TestAssetsScriptsJoinWithoutChangingMeaning(t *testing.T) {
	files, _ := fs.Glob(assets, "static/*.js")
	comments := regexp.MustCompile(`^(?:\s+|/\*(?s:.*?)\*/|//[^\n]*)*`)
	for _, p := range files {
		b, _ := assets.ReadFile(p)
		rest := b[len(comments.Find(b)):]
		if !bytes.HasPrefix(rest, []byte(`'use strict';`)) && !bytes.HasPrefix(rest, []byte(`"use strict";`)) {
			t.Errorf("%s does not open with 'use strict': in a bundle after a strict file it would become strict", p)
		}
		if m := topLevel.Find(b); m != nil {
			t.Errorf("%s declares a global (%q): keep each file one IIFE", p, m)
		}
	}
	if planted := []byte("'use strict';\nconst Bac = 1;\n"); topLevel.Find(planted) == nil {
		t.Error("the check misses a planted top-level const")
	}
}

// TestAssetsHashFollowsTheBytesServed: a script naming a stylesheet names its hashed URL,
// so a new stylesheet gives the script, its bundle and its page new URLs too.
func TestAssetsHashFollowsTheBytesServed(t *testing.T) {
	build := func(css string) *assetSet {
		set, err := buildAssets(fstest.MapFS{
			"a.css":  {Data: []byte(css)},
			"b.js":   {Data: []byte("'use strict';\nx('/static/a.css', \"/static/c.json\", '/static/i18n/' + id);")},
			"c.json": {Data: []byte(`{}`)},
			"p.html": {Data: []byte(`<link rel="stylesheet" href="/static/a.css">` + "\n" + `<script src="/static/b.js"></script>`)},
		})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	one, two := build("p { color: red }"), build("p { color: blue }")
	if !strings.Contains(string(one.files["b.js"].body), "'"+one.hashed["a.css"]+"'") ||
		!strings.Contains(string(one.files["b.js"].body), `"`+one.hashed["c.json"]+`"`) ||
		!strings.Contains(string(one.files["b.js"].body), `'/static/i18n/' + id`) {
		t.Fatalf("b.js as served: %s", one.files["b.js"].body)
	}
	if one.hashed["b.js"] == two.hashed["b.js"] || one.hashed["c.json"] != two.hashed["c.json"] {
		t.Errorf("b.js %s → %s, c.json %s → %s", one.hashed["b.js"], two.hashed["b.js"], one.hashed["c.json"], two.hashed["c.json"])
	}
	if bytes.Equal(one.files["p.html"].body, two.files["p.html"].body) {
		t.Error("the page names the same bundles after its stylesheet changed")
	}
}

// TestAssetsRefuseAPageTheyCannotBundle: scripts split by other markup would run at
// another moment once joined; a script the build does not have is a broken page.
func TestAssetsRefuseAPageTheyCannotBundle(t *testing.T) {
	for _, c := range []struct{ name, page string }{
		{"an inline script between two", `<script src="/static/a.js"></script><script>go()</script><script src="/static/b.js"></script>`},
		{"an element between two", `<script src="/static/a.js"></script><div id="x"></div><script src="/static/b.js"></script>`},
		{"a script that is not there", `<script src="/static/a.js"></script><script src="/static/nope.js"></script>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := buildAssets(fstest.MapFS{"a.js": {Data: []byte("a()")}, "b.js": {Data: []byte("b()")}, "p.html": {Data: []byte(c.page)}})
			if err == nil {
				t.Fatal("built")
			}
		})
	}
}
