package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// loaded is one file a page loaded, as the browser's Resource Timing saw it.
type loaded struct {
	Path     string `json:"path"`
	Transfer int    `json:"transfer"` // bytes over the network, headers included; 0 from the cache
	Encoded  int    `json:"encoded"`  // the body as sent
	Decoded  int    `json:"decoded"`  // the body once decompressed
}

// resources are the /static/ files the page loaded, and the page's own transfer.
const resources = `({page: performance.getEntriesByType('navigation')[0].transferSize,
  files: performance.getEntriesByType('resource').filter((e) => e.name.includes('/static/'))
    .map((e) => ({path: new URL(e.name).pathname, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}))})`

// TestPagesLoadOneBundleOfEachKind: in Chromium the table page loads one script bundle and
// one stylesheet bundle (and the translations), gzipped; on a second view the bundles come
// from the browser's cache without a request.
func TestPagesLoadOneBundleOfEachKind(t *testing.T) {
	s := startServer(t)
	p := &pagesCase{t: t, ctx: browser(t), s: s, tok: s.links["player_token"]}
	p.do("record script errors", recordErrors())
	bundle := regexp.MustCompile(`^/static/bundle\.[0-9a-f]{12}\.(js|css)$`)
	view := func(what string) (page int, files []loaded) {
		p.open("/table/tiger", "en")
		p.do(what, waitJS(`!!document.querySelector('[data-bet="banker"]') && document.querySelector('#phase').textContent !== '…'`, 20*time.Second))
		var got struct {
			Page  int      `json:"page"`
			Files []loaded `json:"files"`
		}
		p.eval(resources, &got)
		p.noErrors()
		return got.Page, got.Files
	}
	page, first := view("first view")
	total, kinds := page, map[string]int{}
	for _, f := range first {
		total += f.Transfer
		switch {
		case bundle.MatchString(f.Path):
			kinds[bundle.FindStringSubmatch(f.Path)[1]]++
			if f.Encoded*3 > f.Decoded {
				t.Errorf("%s: %d bytes sent for %d: not compressed", f.Path, f.Encoded, f.Decoded)
			}
		case f.Path == "/static/i18n/en.json":
			kinds["i18n"]++
		default:
			t.Errorf("the table page loaded %s besides its bundles", f.Path)
		}
	}
	if kinds["js"] != 1 || kinds["css"] != 1 || kinds["i18n"] != 1 {
		t.Fatalf("the table page loaded %+v", first)
	}
	t.Logf("first view: %d requests, %d bytes transferred (headers included)", len(first)+1, total)

	page, again := view("second view")
	total = page
	for _, f := range again {
		total += f.Transfer
		if strings.HasPrefix(f.Path, "/static/bundle.") && f.Transfer != 0 {
			t.Errorf("second view: %s transferred %d bytes: not from the cache", f.Path, f.Transfer)
		}
	}
	t.Logf("second view: %d bytes transferred (the page and the translations revalidated)", total)
}
